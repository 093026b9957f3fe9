"""Alakazoo on the panel: displays in three presses, the turn on the seat buttons.

The board (the current player's portal, Dark Power, points):

- OK opens the space picker on the portal's first empty space (PREV/NEXT
  move through the empty ones), OK there opens the creature list on the
  portal's own creature, and OK records the display: the common display is
  OK OK OK, four presses with one move.
- NEXT rolls the Spell Dice (a row of 1 2 3, on 3; hold OK there to enter
  what the table's own dice show) while the turn's one action is free;
  once it is spent NEXT ends the turn.
- PREV opens the rest: End turn, Roll dice, Dark Power with its reason,
  the Helper's swaps (with another player's portal: the space, then the
  player; with a card in hand: the space, then the creature), Take a
  column (or discard) and the Helper's two tricks with a hand card, each
  only when the rules' ``legal`` shapes allow it. A creature list offers only the
  cards that can be in a hand: none shown on that space of another portal,
  none out of the deck.
- The seat button of the player whose turn it is ends the turn; another
  seat's button is refused with whose turn it is and records nothing.

Once the match is over, PREV on the board opens the Magic Jury, a page per
player (PREV/NEXT flip). Every action screen is a draft: a change from a
phone closes it (its premise is the table version).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.alakazoo import DEFAULT_CREATURES
from companion.games.alakazoo.options import CREATURES, MAX_DICE, deck_size
from companion.i18n import _
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

#: How each reason for Dark Power reads in its list (rows show 20 characters).
REASONS = {"no_rune": _("No rune (dice)"), "magic_power": _("Magic Power > 6"),
           "hand": _("Hand > 4 cards"), "helper": _("Helper's trick")}
#: The Helper's tricks with a hand card, as the More list reads them.
TRICKS = {"hand": _("Helper: hand swap"), "column": _("Helper: column card")}
#: Characters of a name in a setup row: "Player1: Phoenix".
NAME_CHARS = 8
BOARD = Outcome(Ui())
MORE = Outcome(Ui(screen="zoo-more"))
END = {"type": "end_turn"}


def board(ui: Ui, match: Mapping[str, Any]) -> dict[Input, Binding]:
    """OK: display. NEXT: roll (then end the turn). PREV: more. Seats: end one's own turn."""
    view = match["view"]
    current = view["current"]
    keys = {Input("prev"): Binding(_("More"), MORE)}
    if _shape(match, "display", "space") is not None:
        keys[Input("ok")] = Binding(_("Show"), spaces(("type", "display"),))
    elif view["no_display"]:
        # No label: nothing to offer; a press says why and what to do, as the API does.
        keys[Input("ok")] = Binding("", Outcome(Ui(message=view["no_display"])))
    if _shape(match, "roll") is not None:
        keys[Input("next")] = Binding(_("Roll"), ROLL)
    else:
        keys[Input("next")] = Binding(_("End"), _act(END))
    for seat, player in enumerate(view["players"]):
        if seat == current:
            # "by" makes the engine refuse it too, should the turn have moved on.
            keys[seat_key(seat)] = Binding("", _act({**END, "by": seat}))
        else:
            turn = _("{name}: it is {current}'s turn", name=player["name"],
                     current=_name(view, current))
            keys[seat_key(seat)] = Binding("", Outcome(Ui(message=turn)))
    return keys


def finished(match: Mapping[str, Any]) -> dict[Input, Binding]:
    """The board of a finished match: PREV opens the jury, on the (first) winner's page."""
    won = match["view"]["winner"] or [0]
    return {Input("prev"): Binding(_("Jury"), Outcome(Ui(screen="zoo-jury", cursor=won[0])))}


# --- helpers ------------------------------------------------------------------------


def _act(action: Mapping[str, Any]) -> Outcome:
    return Outcome(Ui(), ("act", dict(action)))


def _shape(match: Mapping[str, Any] | None, kind: str, key: str | None = None
           ) -> dict[str, Any] | None:
    """The legal shape of ``kind`` (that has field ``key``: a swap with a player or a card)."""
    return next(iter(_shapes(match, kind, key)), None)


def _shapes(match: Mapping[str, Any] | None, kind: str, key: str | None = None
            ) -> list[dict[str, Any]]:
    """Every legal shape of ``kind`` with field ``key`` (a display, or a swap for a hand card,
    has one per set of spaces that take the same creatures)."""
    return [shape for shape in (match or {}).get("legal", [])
            if shape["type"] == kind and (key is None or key in shape)]


def cards_for(match: Mapping[str, Any], kind: str, space: int) -> list[int]:
    """The creatures whose card ``kind`` (display, swap) may bring onto ``space``."""
    for shape in _shapes(match, kind, "creature"):
        if space in shape["space"]:
            return list(shape["creature"])
    return []


def _name(view: Mapping[str, Any], player: int) -> str:
    return view["players"][player]["name"]


def _creature(view: Mapping[str, Any], number: int | None) -> str:
    return _("empty") if number is None else view["creatures"][number - 1]


ROLL = Outcome(Ui(screen="zoo-roll", cursor=MAX_DICE - 1))


def spaces(*pending: tuple[str, Any]) -> Outcome:
    """The space picker for the action in ``pending``: a display, or a swap ("with")."""
    return Outcome(Ui(screen="zoo-space", pending=pending))


def offered(ui: Ui, match: Mapping[str, Any]) -> list[int]:
    """The spaces the picker offers, in order: empty ones for a display; for a swap the
    filled ones the rules allow with a player or a card."""
    p = dict(ui.pending)
    shapes = _shapes(match, p["type"], "creature" if p["type"] == "display" else p["with"])
    return sorted({s for shape in shapes for s in shape["space"]})


def picked_space(ui: Ui, match: Mapping[str, Any]) -> int | None:
    """The space under the picker's cursor (None when none is offered)."""
    choices = offered(ui, match)
    return choices[ui.cursor % len(choices)] if choices else None


# --- the space picker and what follows it ---------------------------------------------


def _space(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """A 3x3 picker over the portal (drawn by screens.alakazoo): PREV/NEXT, OK picks."""
    assert match is not None
    view, p = match["view"], dict(ui.pending)
    choices = offered(ui, match)
    if not choices:
        return Screen(keys={Input("back"): Binding(_("Back"), BOARD)},
                      title=_("No space to pick"))
    n = len(choices)
    cursor = ui.cursor % n
    space = choices[cursor]
    pending = (*ui.pending, ("space", space))
    if p["type"] == "display":
        own = view["players"][view["current"]]["creature"]
        cards = cards_for(match, "display", space)
        nxt = Outcome(Ui(screen="zoo-creature", pending=pending,
                         cursor=cards.index(own) if own in cards else 0))
        title = _("Show on")
    elif p["with"] == "player":
        nxt = Outcome(Ui(screen="zoo-player", pending=pending))
        title = _("Swap: a portal")
    else:
        nxt = Outcome(Ui(screen="zoo-creature", pending=pending))
        title = _("Swap: hand card")
    return Screen(keys={
        Input("prev"): Binding("<", Outcome(replace(ui, cursor=(cursor - 1) % n))),
        Input("next"): Binding(">", Outcome(replace(ui, cursor=(cursor + 1) % n))),
        Input("ok"): Binding(_("Pick"), nxt),
        Input("back"): Binding(_("Back"), BOARD),
    }, title=title, items=tuple(str(s) for s in choices))


def _creatures(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """Which creature: for a display (on the own creature, with the points it scores), or
    the hand card a swap takes; only the cards that can be in a hand (the legal shapes:
    none on that space of a portal, none out of the deck)."""
    assert match is not None
    view, p = match["view"], dict(ui.pending)
    me = view["players"][view["current"]]
    space = p["space"]
    there = me["portal"][space - 1]
    entries = []
    for c in cards_for(match, p["type"], space):
        name = view["creatures"][c - 1]
        if p["type"] == "display":
            own = c == me["creature"]
            entries.append((_("{creature} own +1", creature=name.ljust(8)) if own else name,
                            _act({"type": "display", "space": space, "creature": c})))
        else:
            entries.append((name, _act({"type": "swap", "space": space, "creature": c})))
    if p["type"] == "display":
        first = str(space) not in view["firsts"]
        title = (_("Space {space}: first +1", space=space) if first else
                 _("Space {space}", space=space))
    else:
        title = _("Swap {space}: {creature} for", space=space, creature=_creature(view, there))
    ok = _("Show") if p["type"] == "display" else _("Swap")
    return listing(ui, title, entries, back=_back_to_space(ui, match), ok_label=ok)


def _back_to_space(ui: Ui, match: Mapping[str, Any]) -> Outcome:
    """The space picker again, its cursor on the space that was picked."""
    picker = Ui(screen="zoo-space", pending=tuple(kv for kv in ui.pending if kv[0] != "space"))
    choices = offered(picker, match)
    space = dict(ui.pending)["space"]
    return Outcome(replace(picker, cursor=choices.index(space) if space in choices else 0))


def _player(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """Whose element on the space the Helper takes (+1 Dark Power)."""
    assert match is not None
    view, p = match["view"], dict(ui.pending)
    space = p["space"]
    mine = view["players"][view["current"]]["portal"][space - 1]
    short = short_names([x["name"] for x in view["players"]], NAME_CHARS)
    entries: list[tuple[str, Outcome]] = []
    players = sorted({o for shape in _shapes(match, "swap", "player") if space in shape["space"]
                      for o in shape["player"]})
    for o in players:
        theirs = view["players"][o]["portal"][space - 1]
        if theirs is not None and theirs != mine:
            entries.append((_("{name}: {creature}", name=short[o],
                              creature=_creature(view, theirs)),
                            _act({"type": "swap", "space": space, "player": o})))
    if not entries:
        return Screen(keys={Input("back"): Binding(_("Back"), BOARD)},
                      title=_("Space {space}", space=space), hint=_("nobody to swap with"))
    screen = listing(ui, _("Swap {space} with", space=space), entries,
                     back=_back_to_space(ui, match), ok_label=_("Swap"))
    return replace(screen, hint=_("+1 Dark Power"))


# --- the other actions ------------------------------------------------------------------


def _more(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """End turn, then what the rules allow now: roll, Dark Power, the Helper's swaps, a
    column taken, the Helper's tricks with a hand card."""
    assert match is not None
    view = match["view"]
    entries: list[tuple[str, Outcome]] = [(_("End turn"), _act(END))]
    if _shape(match, "roll") is not None:
        entries.append((_("Roll Spell Dice"), ROLL))
    if _dark_reasons(match):
        entries.append((_("Dark Power +1"), Outcome(Ui(screen="zoo-dp"))))
    if _shape(match, "swap", "player") is not None:
        entries.append((_("Swap with a portal"), spaces(("type", "swap"), ("with", "player"))))
    if _shape(match, "swap", "creature") is not None:
        entries.append((_("Swap for a card"), spaces(("type", "swap"), ("with", "creature"))))
    if _shape(match, "column") is not None:
        entries.append((_("Take column/discard"), _act({"type": "column"})))
    for trick in (_shape(match, "helper") or {}).get("trick", []):
        entries.append((TRICKS[trick], _act({"type": "helper", "trick": trick})))
    return listing(ui, _("{name}'s turn", name=_name(view, view["current"])), entries,
                   back=BOARD)


def _dark_power(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """Why the current player takes Dark Power: a penalty (no rune only after a roll that
    showed one). The Helper's hand trick is in the More list as the turn's action."""
    assert match is not None
    view = match["view"]
    held = view["players"][view["current"]]["dark_power"]
    entries: list[tuple[str, Outcome]] = [
        (REASONS[r], _act({"type": "dark_power", "reason": r})) for r in _dark_reasons(match)]
    return listing(ui, _("Dark Power {held}/{most}: why?", held=held, most=view["dark_max"]),
                   entries, back=MORE)


def _dark_reasons(match: Mapping[str, Any]) -> list[str]:
    """The penalties offered: the legal reasons but the Helper's (its trick is an action)."""
    return [r for r in (_shape(match, "dark_power") or {}).get("reason", []) if r != "helper"]


def _roll(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """How many Spell Dice the device rolls (the counts legal offers, 1 to 3, on 3);
    holding OK enters what the table's own dice show instead."""
    assert match is not None
    # A 'magic_power' penalty before the roll leaves only the counts that pass 6.
    counts = (_shape(match, "roll") or {}).get("dice") or list(range(1, MAX_DICE + 1))
    n = len(counts)
    dice = counts[ui.cursor % n]  # as the row draws it
    roll = Binding(_("Roll"), _act({"type": "roll", "dice": dice}))
    screen = choice_row(ui, n, roll, Binding(_("Back"), BOARD), title=_("Roll Spell Dice"),
                        items=tuple(str(d) for d in counts), hint=_("hold OK: own dice"))
    own = Outcome(Ui(screen="zoo-faces", pending=(("dice", dice),)))
    return replace(screen, keys={**screen.keys, Input("ok", hold=True): Binding("", own)})


def _faces(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """What each of the table's own Spell Dice shows, one die after the other; the last
    one records the roll. BACK takes the last face off (or goes back to the dice row)."""
    assert match is not None
    dice = dict(ui.pending)["dice"]
    entries = []
    for face in match["view"]["dice_faces"]:
        faces = (*ui.picked, face)
        nxt = _act({"type": "roll", "faces": list(faces)}) if len(faces) == dice else \
            Outcome(replace(ui, picked=faces, cursor=0))
        entries.append((face, nxt))
    back = Outcome(replace(ui, picked=ui.picked[:-1], cursor=0)) if ui.picked else ROLL
    screen = listing(ui, _("Die {die} of {dice}", die=len(ui.picked) + 1, dice=dice), entries,
                     back=back)
    return replace(screen, hint=_("so far: {faces}", faces=" ".join(ui.picked))
                   if ui.picked else "")


def _jury(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """The Magic Jury's page for one player (drawn by screens.alakazoo): PREV/NEXT flip."""
    assert match is not None
    n = len(match["view"]["players"])
    cursor = ui.cursor % n
    return Screen(keys={
        Input("prev"): Binding("<", Outcome(replace(ui, cursor=(cursor - 1) % n))),
        Input("next"): Binding(">", Outcome(replace(ui, cursor=(cursor + 1) % n))),
        Input("back"): Binding(_("Back"), BOARD),
    }, title=_("Magic Jury"))


# --- setting up a match -------------------------------------------------------------------


def fit_draft(draft: Draft) -> Draft:
    """The draft with a portal (creature) per player, all different, and a first player
    who is at the table.

    Portals already chosen are kept; a new seat gets the first creature not
    taken. A first player beyond the player count goes back to player 1
    (the setup's First row then skips the seats that are not there).
    """
    n = len(draft.players)
    options = dict(draft.options)
    chosen: list[int] = []
    for c in options.get("portals") or ():
        if type(c) is int and 1 <= c <= CREATURES and c not in chosen and len(chosen) < n:
            chosen.append(c)
    chosen += [c for c in range(1, CREATURES + 1) if c not in chosen][: n - len(chosen)]
    first = options.get("first_player", 0)
    if not (first == "roll" or (type(first) is int and 0 <= first < n)):
        first = 0
    options.update(portals=tuple(chosen), first_player=first)
    # Creatures put back in the box (set from a phone) that no longer fit the seats.
    boxed = options.get("boxed")
    if boxed is not None and (len(boxed) != CREATURES - deck_size(n)
                              or any(c in chosen for c in boxed)):
        del options["boxed"]
    return replace(draft, options=tuple(options.items()))


def setup_rows(ui: Ui, draft: Draft, first_row: int) -> list[tuple[str, Outcome]]:
    """A portal row per seat, ``"Ann: Dragon"`` (OK: the next creature nobody else has;
    ``"P1: Dragon"`` while the seat has no name). The creature names are the draft's
    (a phone may have renamed them; a rematch keeps them)."""
    options = dict(draft.options)
    portals = list(options["portals"])
    names = options.get("creatures") or DEFAULT_CREATURES
    short = short_names(draft.players, NAME_CHARS)
    rows: list[tuple[str, Outcome]] = []
    for seat, c in enumerate(portals):
        free = [x for x in range(1, CREATURES + 1) if x == c or x not in portals]
        new = [*portals]
        new[seat] = free[(free.index(c) + 1) % len(free)]
        changed = replace(draft, options=tuple({**options, "portals": tuple(new)}.items()))
        who = short[seat] or f"P{seat + 1}"
        rows.append((_("{name}: {creature}", name=who, creature=names[c - 1]),
                     Outcome(replace(ui, draft=changed, cursor=first_row + seat))))
    return rows


#: The game's screens. Every action screen is a draft, built for one table
#: version: an action recorded from a phone meanwhile closes it.
SCREENS: dict[str, Builder | ScreenSpec] = {
    name: ScreenSpec(builder, premise=by_version) for name, builder in {
        "zoo-more": _more,
        "zoo-space": _space,
        "zoo-creature": _creatures,
        "zoo-player": _player,
        "zoo-dp": _dark_power,
        "zoo-roll": _roll,
        "zoo-faces": _faces,
        "zoo-jury": _jury,
    }.items()
}
