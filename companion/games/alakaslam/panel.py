"""AlakaSLAM on the panel: points on the seat buttons, serves and shots with a card picker.

A point is one press: a seat button gives the point to that seat's player's
side (seat 1 is player 1, as in Center Court). OK on the board records the
serve or shot that is due, one step at a time, each step only when the
table needs it (:func:`_next`):

1. the player at the ball (server), when the side has two players;
2. the corner, for a serve; Laurie's ability, for her shot while it is
   unused this point;
3. the cards, on the card picker (:func:`_cards`), with the landing and its
   judgment previewed (court.py computes both; :func:`preview`);
4. the Support's cards on the same picker, when the side has two players;
5. whom an Enchantment binds, when two opponents could be meant.

The picker is a ring with "Go" in its middle: PREV walks through the red
cards (R1 R2 R3 R0), NEXT through the blue ones (B1 B2 B3 B0), and the
Enchantments (and Austin's straight S2) lie beyond both, where the two
meet. OK adds the card under the cursor and brings the cursor back to Go,
so R1 then B2 is PREV OK NEXT NEXT OK, and OK on Go sends the row.

PREV on the board opens the other actions (a point with its reason,
mulligans, Toots' and Josephias' ability, Simon's copy), each offered only
when the rules' ``legal`` shapes allow it. Every action screen is a draft:
a change from a phone closes it (its premise is the table version).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.games.alakaslam import CHARACTERS
from companion.games.alakaslam.court import (
    ENCHANTS,
    STRAIGHT,
    Cell,
    judge,
    judge_serve,
    land,
    serve_start,
)
from companion.games.alakaslam.options import DEFAULT_TEAMS, FORMATS
from companion.games.alakaslam.rules import CORNERS, MAX_CARDS, REASONS
from companion.games.said import either
from companion.i18n import C_, N_, _
from companion.inputs import Input
from companion.inputs import seat as seat_key
from companion.names import short_names
from companion.ui.base import (
    Binding,
    Builder,
    Context,
    Draft,
    Outcome,
    Screen,
    ScreenSpec,
    Ui,
    by_version,
    choice_row,
    listing,
)

#: The ring's middle: OK there sends the row (drawn in the table's language; compared as
#: its English words).
GO = _("Go")
#: The picker's ring from Go: PREV goes through REDS, NEXT through BLUES.
REDS = ("R1", "R2", "R3", "R0")
BLUES = ("B1", "B2", "B3", "B0")
#: How the reasons for a point read in the menu.
REASON_LABELS = {"no_return": _("No return"), "declined": _("Declined"), "out": _("Out"),
                 "net": _("Net"), "bad_serve": _("Bad serve")}
#: Characters of a name in a list row (rows show 20): "Player 1: Josephias".
NAME_CHARS = 8
BOARD = Outcome(Ui())
MORE = Outcome(Ui(screen="slam-more"))
#: The corner picker's hint: which corner each colour is.
CORNER_HINTS = {"red": _("the red edge's corner"), "blue": _("the blue edge's corner")}
#: Laurie's choice for a hit of hers without her ability, by what is due.
NORMAL = {"serve": _("Normal serve"), "shot": _("Normal shot")}


def board(ui: Ui, match: Mapping[str, Any]) -> dict[Input, Binding]:
    """Seat buttons: a point for that seat's side. OK: the serve or shot due. PREV: more."""
    view = match["view"]
    keys = {Input("prev"): Binding(_("More"), MORE)}
    for seat, player in enumerate(view["players"]):
        keys[seat_key(seat)] = Binding("", _act({"type": "point",
                                                           "winner": player["side"]}))
    kind = view["due"]
    if kind in ("serve", "shot"):
        label = C_("soft key: record the serve", "Serve") if kind == "serve" else _("Shot")
        keys[Input("ok")] = Binding(label, _next(match, {"type": kind}))
    return keys


# --- helpers ------------------------------------------------------------------------


def _act(action: Mapping[str, Any]) -> Outcome:
    return Outcome(Ui(), ("act", dict(action)))


def _shape(match: Mapping[str, Any] | None, kind: str) -> dict[str, Any] | None:
    for shape in (match or {}).get("legal", []):
        if shape["type"] == kind:
            return shape
    return None


def _name(view: Mapping[str, Any], player: int) -> str:
    return view["players"][player]["name"]


def _teammate(view: Mapping[str, Any], player: int) -> int | None:
    side = view["players"][player]["side"]
    mates = [q for q in view["sides"][side]["players"] if q != player]
    return mates[0] if mates else None


def _opponents(view: Mapping[str, Any], player: int) -> list[int]:
    return list(view["sides"][1 - view["players"][player]["side"]]["players"])


# --- what comes next ----------------------------------------------------------------


def _next(match: Mapping[str, Any], pending: Mapping[str, Any]) -> Outcome:
    """The step after ``pending`` (the serve or shot so far): the first thing it lacks.

    When it lacks nothing, the action is sent.
    """
    view = match["view"]
    p = dict(pending)
    items = tuple(p.items())
    kind = p["type"]
    side = view["serving_side"] if kind == "serve" else view["hitting_side"]
    if "player" not in p:
        players = view["sides"][side]["players"]
        if len(players) > 1:
            return Outcome(Ui(screen="slam-player", pending=items))
        return _next(match, {**p, "player": players[0]})
    if kind == "serve" and "corner" not in p:
        return Outcome(Ui(screen="slam-corner", pending=items))
    if "ability" not in p:
        if _laurie_free(view, p["player"]):
            return Outcome(Ui(screen="slam-laurie", pending=items))
        return _next(match, {**p, "ability": False})
    if "cards" not in p:
        return Outcome(Ui(screen="slam-cards", pending=items))
    mate = _teammate(view, p["player"])
    if mate is not None and "support" not in p:
        return _next(match, {**p, "support": mate})
    if mate is not None and "support_ability" not in p:
        # Laurie's ability on any hit of hers, her cards as the Support too.
        if _laurie_free(view, mate):
            return Outcome(Ui(screen="slam-laurie", pending=items))
        return _next(match, {**p, "support_ability": False})
    if mate is not None and "support_cards" not in p:
        return Outcome(Ui(screen="slam-cards", pending=items))
    for who, cards, key in _hitters(p):
        if key not in p and _needs_target(view, who, cards):
            left = _targets(view, p, who)
            if len(left) == 1:  # the teammate binds the other: this one is meant
                return _next(match, {**p, key: left[0]})
            return Outcome(Ui(screen="slam-enchant", pending=items))
    return _act(action(p))


def _targets(view: Mapping[str, Any], p: Mapping[str, Any], who: int) -> list[int]:
    """Whom ``who``'s Enchantment may bind: in doubles not the opponent the teammate's
    (the first player's, named already) binds."""
    taken = p.get("enchant") if view["format"] == "doubles" and who != p["player"] else None
    return [o for o in _opponents(view, who) if o != taken]


def _laurie_free(view: Mapping[str, Any], player: int) -> bool:
    """Whether ``player`` acts as Laurie with her ability unused this point."""
    me = view["players"][player]
    return me["acts_as"] == "laurie" and not me["ability_used"]


def _hitters(p: Mapping[str, Any]) -> list[tuple[int, tuple[str, ...], str]]:
    """(player, cards, the key naming whom their Enchantment binds) of each hitter so far."""
    out = [(p["player"], p["cards"], "enchant")]
    if "support_cards" in p:
        out.append((p["support"], p["support_cards"], "support_enchant"))
    return out


def _needs_target(view: Mapping[str, Any], player: int, cards: tuple[str, ...]) -> bool:
    return any(c in ENCHANTS for c in cards) and len(_opponents(view, player)) > 1


def action(p: Mapping[str, Any]) -> dict[str, Any]:
    """The serve or shot action put together in ``p`` (the pending fields)."""
    out: dict[str, Any] = {"type": p["type"], "player": p["player"]}
    if p["type"] == "serve":
        out["corner"] = p["corner"]
    out["cards"] = list(p["cards"])
    if "support" in p:
        support: dict[str, Any] = {"player": p["support"], "cards": list(p["support_cards"])}
        if p.get("support_enchant") is not None:
            support["enchant"] = p["support_enchant"]
        if p.get("support_ability"):
            support["ability"] = True
        out["support"] = support
    if p.get("enchant") is not None:
        out["enchant"] = p["enchant"]
    if p.get("ability"):
        out["ability"] = True
    return out


# --- the steps ----------------------------------------------------------------------


def _player(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """The server, or the player at the ball, of a two-player side."""
    assert match is not None
    view, p = match["view"], dict(ui.pending)
    side = view["serving_side"] if p["type"] == "serve" else view["hitting_side"]
    entries = [(_player_label(view, q), _next(match, {**p, "player": q}))
               for q in view["sides"][side]["players"]]
    title = _("Who serves?") if p["type"] == "serve" else _("Who is at the ball?")
    return listing(ui, title, entries, back=BOARD)


def _player_label(view: Mapping[str, Any], player: int) -> str:
    return f"{_name(view, player)} ({CHARACTERS[view['players'][player]['character']]})"


def _corner(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """Red or blue: the baseline corner the server serves from."""
    assert match is not None
    p = dict(ui.pending)
    corner = CORNERS[ui.cursor % len(CORNERS)]
    pick = _next(match, {**p, "corner": corner})
    return choice_row(ui, len(CORNERS), Binding(_("OK"), pick), Binding(_("Back"), BOARD),
                      title=_("{name} serves from", name=_name(match["view"], p["player"])),
                      items=(_("Red"), _("Blue")), hint=CORNER_HINTS[corner])


def _laurie(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """Laurie's draw-3-play-1 on this hit of hers (a serve, a shot, her cards as the
    Support), offered while it is unused this point."""
    assert match is not None
    p = dict(ui.pending)
    support = "ability" in p  # the first player's choice is made: this is the Support's
    key, who = ("support_ability", p["support"]) if support else ("ability", p["player"])
    normal = _("Normal Support") if support else NORMAL[p["type"]]
    entries: list[tuple[str, Outcome]] = [(normal, _next(match, {**p, key: False})),
                                          (_("Ability: 1 card"),
                                           _next(match, {**p, key: True}))]
    return listing(ui, _("{name}: {character}", name=_name(match["view"], who),
                         character=CHARACTERS["laurie"]), entries, back=BOARD)


def _enchant(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """Whom the first unnamed Enchantment binds; in doubles not the one a teammate binds."""
    assert match is not None
    view, p = match["view"], dict(ui.pending)
    who, cards, key = next(h for h in _hitters(p) if h[2] not in p
                            and _needs_target(view, h[0], h[1]))
    card = next(c for c in cards if c in ENCHANTS)
    entries = [(_player_label(view, o), _next(match, {**p, key: o}))
               for o in _targets(view, p, who)]
    return listing(ui, _("{name}'s {card} binds", name=_name(view, who), card=card), entries,
                   back=BOARD)


# --- the card picker -----------------------------------------------------------------


def ring(view: Mapping[str, Any], player: int, picked: tuple[str, ...], ability: bool
         ) -> tuple[str, ...]:
    """The picker's choices: Go, the blue cards, the far cards, the red cards backwards.

    Offered: what ``player`` may add now. Three cards (one with Laurie's
    ability) fill the row; a second Enchantment, an E1 in doubles and S2 for
    anyone but Austin are never offered.
    """
    if len(picked) >= (1 if ability else MAX_CARDS):
        return (GO,)
    far = [c for c in ENCHANTS if not any(x in ENCHANTS for x in picked)
           and not (c == "E1" and view["format"] == "doubles")]
    if view["players"][player]["acts_as"] == "austin":
        far.append(STRAIGHT)
    return (GO, *BLUES, *far, *reversed(REDS))


@dataclass(frozen=True)
class Preview:
    """What the picker shows: where the cards put the ball and how it is judged."""

    side: int
    cols: int
    start: Cell
    end: Cell
    #: ``in``, ``out``, ``net`` or ``bad_serve``.
    result: str
    #: The cards counted, in order (the row so far and the card under the cursor).
    cards: tuple[str, ...]


def picking(ui: Ui) -> tuple[int, bool]:
    """Whose row the picker is filling, and whether it is the Support's."""
    p = dict(ui.pending)
    support = "cards" in p
    return (p["support"] if support else p["player"]), support


def with_ability(ui: Ui) -> bool:
    """Whether the row the picker is filling uses Laurie's ability (one card)."""
    p = dict(ui.pending)
    return bool(p.get("support_ability" if "cards" in p else "ability"))


def preview(ui: Ui, match: Mapping[str, Any]) -> Preview:
    """The landing of the row so far plus the card under the cursor (court.py judges it).

    The Support's cards move the ball on from where the first player's left
    it; only the whole shot is judged.
    """
    view, p = match["view"], dict(ui.pending)
    who, support = picking(ui)
    items = ring(view, who, ui.picked, with_ability(ui))
    under = items[ui.cursor % len(items)]
    cards = (*(p["cards"] if support else ()), *ui.picked, *(() if under == GO else (under,)))
    side = view["players"][p["player"]]["side"]
    cols = view["court"]["cols"]
    if p["type"] == "serve":
        start = serve_start(side, p["corner"], cols)
        end = land(start, list(cards), side)
        result = judge_serve(start, end, side, cols)
    else:
        start = tuple(view["ball"])
        end = land(start, list(cards), side)
        result = judge(end, side, cols)
    return Preview(side, cols, start, end, result if cards else "", cards)


def obligation(view: Mapping[str, Any], player: int, verb: bool = True) -> str:
    """``"play 2"``, ``"play 2, no E"``, ``"play 2 (no E) or 3"``; empty when unbound;
    without the ``verb`` (a line too narrow for it): ``"2"``, ``"2, no E"``,
    ``"2 (no E) or 3"``. Marked words (the cards' "E" as printed), said where drawn.

    Either count satisfies (two Enchantments on the Canadian single player), and
    Rich's "no Enchantment" holds only with his count: a count another binding asks
    for too allows one (two Enchant-2s read "play 2")."""
    for o in view["obligations"]:
        if o["player"] == player:
            counts = counts_of(o)
            if len(counts) == 1:
                ((n, no_e),) = counts.items()
                if not verb:
                    return _("{n}, no E", n=n) if no_e else str(n)
                return _("play {n}, no E", n=n) if no_e else _("play {n}", n=n)
            # Made apart from the sentence: Babel extracts no message inside another's call.
            each = [_("{n} (no E)", n=n) if no_e else str(n) for n, no_e in counts.items()]
            return _("play {counts}", counts=either(each)) if verb else either(each)
    return ""


def counts_of(obligation: Mapping[str, Any]) -> dict[int, bool]:
    """Each count that satisfies ``obligation``, once, and whether it forbids an
    Enchantment (only when every binding with that count is Rich's Enchant-2)."""
    each = obligation.get("no_enchant_each") or [obligation["no_enchant"]] * len(
        obligation["cards"])
    counts: dict[int, bool] = {}
    for n, no_e in zip(obligation["cards"], each, strict=True):
        counts[n] = counts.get(n, True) and no_e
    return counts


def _cards(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """One player's card row: PREV/NEXT move round the ring, OK adds or (on Go) sends."""
    assert match is not None
    view, p = match["view"], dict(ui.pending)
    who, support = picking(ui)
    ability = with_ability(ui)
    items = ring(view, who, ui.picked, ability)
    n = len(items)
    cursor = ui.cursor % n
    keys: dict[Input, Binding] = {
        Input("prev"): Binding("<", Outcome(replace(ui, cursor=(cursor - 1) % n))),
        Input("next"): Binding(">", Outcome(replace(ui, cursor=(cursor + 1) % n))),
    }
    if items[cursor] != GO:
        added = replace(ui, picked=(*ui.picked, items[cursor]), cursor=0)
        keys[Input("ok")] = Binding(_("Add"), Outcome(added))
    elif ui.picked:
        key = "support_cards" if support else "cards"
        keys[Input("ok")] = Binding(GO, _next(match, {**p, key: ui.picked}))
    if ui.picked:
        keys[Input("back")] = Binding(C_("soft key: take the last card back", "Undo"),
                                      Outcome(replace(ui, picked=ui.picked[:-1], cursor=0)))
    elif support:
        # Back to the first player's row, with its cards to change.
        first = tuple((k, v) for k, v in ui.pending
                      if k not in ("cards", "support", "support_ability"))
        keys[Input("back")] = Binding(_("Back"), Outcome(Ui(screen="slam-cards", pending=first,
                                                            picked=p["cards"])))
    else:
        keys[Input("back")] = Binding(_("Back"), BOARD)
    # The Support's row goes on from the first player's: their cards stay in sight.
    title: str = _("{name} after {cards}", name=_name(view, who), cards=" ".join(p["cards"])) \
        if support else _name(view, who)
    return Screen(keys=keys, title=title, items=items,
                  # Laurie's ability ignores every Enchantment on her: one card, whatever binds.
                  hint=_("ability: 1 card") if ability else obligation(view, who))


# --- the other actions ------------------------------------------------------------------


def _more(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """Points with a reason, and what the rules allow now besides serves and shots."""
    assert match is not None
    view = match["view"]
    # Only the sides the record allows a point for (none to the side to hit).
    entries: list[tuple[str, Outcome]] = [
        (_("Point {side}", side=s["name"]),
         Outcome(Ui(screen="slam-reason", pending=(("winner", side),))))
        for side, s in enumerate(view["sides"]) if _reasons(match, side)]
    if _shape(match, "mulligan"):
        entries.append((_("Mulligan"), Outcome(Ui(screen="slam-who",
                                                  pending=(("type", "mulligan"),)))))
    if _shape(match, "ability"):
        entries.append((_("Ability"), Outcome(Ui(screen="slam-who",
                                                 pending=(("type", "ability"),)))))
    if (shape := _shape(match, "copy")) is not None:
        entries.append((_("{name} copies", name=_name(view, shape["player"][0])),
                        Outcome(Ui(screen="slam-copy"))))
    return listing(ui, "AlakaSLAM", entries, back=BOARD)  # i18n: not said (the game's name)


def _reasons(match: Mapping[str, Any], side: int) -> list[str]:
    """The reasons ``legal`` offers for a point to ``side`` (REASONS order)."""
    offered = {r for shape in match.get("legal", []) if shape["type"] == "point"
               and side in shape["winner"] for r in shape["reason"]}
    return [r for r in REASONS if r in offered]


def _reason(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """Why the side won the point: only the reasons the record allows (a bad serve
    only for the receivers, before the serve is recorded)."""
    assert match is not None
    winner = dict(ui.pending)["winner"]
    entries: list[tuple[str, Outcome]] = [
        (REASON_LABELS[r], _act({"type": "point", "winner": winner, "reason": r}))
        for r in _reasons(match, winner)]
    return listing(ui, _("Point {side}: why?", side=match["view"]["sides"][winner]["name"]),
                   entries, back=MORE)


def _who(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """Who takes a mulligan, or uses their once-per-point ability."""
    kind = dict(ui.pending)["type"]
    shape = _shape(match, kind)
    assert match is not None and shape is not None
    view = match["view"]
    entries: list[tuple[str, Outcome]] = []
    # "Player4: 8 > 7 cards" fills a row of 20.
    short = short_names([p["name"] for p in view["players"]], NAME_CHARS - 1)
    for q in shape["player"]:
        if kind == "mulligan":
            hand = view["players"][q]["hand"]
            label: str = N_("{name}: {hand} > {n} card", "{name}: {hand} > {n} cards", hand - 1,
                            name=short[q], hand=hand)
        else:
            label = f"{_name(view, q)} ({CHARACTERS[view['players'][q]['acts_as']]})"
        entries.append((label, _act({"type": kind, "player": q})))
    return listing(ui, _("Mulligan") if kind == "mulligan" else _("Ability used"), entries,
                   back=MORE)


def _copy(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """The character Simon copies this point."""
    shape = _shape(match, "copy")
    assert match is not None and shape is not None
    simon = shape["player"][0]
    entries = [(CHARACTERS[c], _act({"type": "copy", "player": simon, "character": c}))
               for c in shape["character"]]
    return listing(ui, _("{name} copies", name=_name(match["view"], simon)), entries, back=MORE)


# --- setting up a match -------------------------------------------------------------------


def fit_draft(draft: Draft) -> Draft:
    """The draft with a character per player (all different) and teams for its format.

    Characters already chosen are kept; a new seat gets the first one not
    taken. Teams that do not suit the player count go back to the default
    (Canadian: player 1 alone; doubles: players 1 and 2 together).
    """
    n = len(draft.players)
    options = dict(draft.options)
    chosen: list[str] = []
    for c in options.get("characters") or ():
        if c in CHARACTERS and c not in chosen and len(chosen) < n:
            chosen.append(c)
    chosen += [c for c in CHARACTERS if c not in chosen][: n - len(chosen)]
    teams = tuple(options.get("teams") or ())
    if len(teams) != n or sorted(teams.count(s) for s in (0, 1)) != \
            sorted(DEFAULT_TEAMS[n].count(s) for s in (0, 1)):
        teams = DEFAULT_TEAMS[n]
    options.update(characters=tuple(chosen), teams=teams)
    return replace(draft, options=tuple(options.items()))


def setup_rows(ui: Ui, draft: Draft, first_row: int) -> list[tuple[str, Outcome]]:
    """A character row per seat, ``"Ann: Austin"`` (OK: the next one nobody else has;
    ``"P1: Austin"`` while the seat has no name), and the teams row."""
    options = dict(draft.options)
    characters, teams = list(options["characters"]), options["teams"]
    rows: list[tuple[str, Draft]] = []
    names = short_names(draft.players, NAME_CHARS)
    for seat, c in enumerate(characters):
        free = [x for x in CHARACTERS if x == c or x not in characters]
        new = [*characters]
        new[seat] = free[(free.index(c) + 1) % len(free)]
        who = names[seat] or f"P{seat + 1}"
        rows.append((f"{who}: {CHARACTERS[c]}", _with(draft, characters=tuple(new))))
    n = len(draft.players)
    if FORMATS[n] == "canadian":
        alone = teams.index(0) if teams.count(0) == 1 else teams.index(1)
        following = (alone + 1) % n
        rows.append((_("Alone: {name}", name=draft.players[alone]),
                     _with(draft, teams=tuple(0 if q == following else 1 for q in range(n)))))
    elif FORMATS[n] == "doubles":
        partner = next(q for q in range(1, n) if teams[q] == teams[0])
        following = partner % (n - 1) + 1
        rows.append((_("P1 partner: {name}", name=draft.players[partner]),
                     _with(draft, teams=tuple(0 if q in (0, following) else 1
                                              for q in range(n)))))
    return [(label, Outcome(replace(ui, draft=new, cursor=first_row + i)))
            for i, (label, new) in enumerate(rows)]


def _with(draft: Draft, **changes: Any) -> Draft:
    return replace(draft, options=tuple({**dict(draft.options), **changes}.items()))


#: The game's screens. Every action screen is a draft, built for one table
#: version: a serve, shot or point recorded from a phone meanwhile closes it.
SCREENS: dict[str, Builder | ScreenSpec] = {
    name: ScreenSpec(builder, premise=by_version) for name, builder in {
        "slam-more": _more,
        "slam-reason": _reason,
        "slam-who": _who,
        "slam-copy": _copy,
        "slam-player": _player,
        "slam-corner": _corner,
        "slam-laurie": _laurie,
        "slam-cards": _cards,
        "slam-enchant": _enchant,
    }.items()
}
