"""What each button means on each screen, and the menus.

The panel's state besides the table is a small frozen :class:`Ui`. For a
given Ui and table snapshot, :func:`build` says what every input does: a
soft-key label and an :class:`Outcome` (the next Ui, and a table command or
none). Both the OLED's soft-key labels and what the panel does with a press
come from that one function, so the labels can never disagree with a button.

Everywhere, holding BACK is undo. Everything here is pure; the
:class:`~companion.panel.Panel` runs the commands on the table.

Every screen has its premise (see :class:`~companion.ui.base.ScreenSpec`):
the panel closes a screen whose premise a change from elsewhere broke. The
panel's own screens (:data:`SCREENS`) are the same for every game; a game's
screens and board come from its kit in the context's catalog
(:mod:`companion.catalog`), looked up by the game of the match on the table,
so a game's screen names are its own (a bare builder there is a draft that
closes on any change, so a new game's screens are safe without declaring
anything); a game whose kit brings no panel is played from its ``legal``
offers on the generic "play" list, so every game in the catalog plays on the
buttons.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from companion.catalog import Catalog
from companion.i18n import LANGUAGES, NAMES, _
from companion.inputs import BUTTONS, HOLDABLE, Input
from companion.kit import Panel
from companion.names import MIN_WIDTH, short_names
from companion.ui import canvas
from companion.ui.base import (
    CHANGED,
    PANEL_SCREENS,
    SOFT_KEY_CHARS,
    SOFT_KEYS,
    Binding,
    Command,
    Context,
    Draft,
    Outcome,
    Screen,
    ScreenSpec,
    Ui,
    by_match,
    independent,
    listing,
    screens,
)

__all__ = [
    "CHANGED",
    "GENERIC_SCREENS",
    "SCREENS",
    "SOFT_KEYS",
    "SOFT_KEY_CHARS",
    "Binding",
    "Command",
    "Context",
    "Ctx",
    "Draft",
    "Outcome",
    "Screen",
    "ScreenSpec",
    "Ui",
    "build",
    "default_draft",
    "generic_board",
    "notice",
    "offer_lines",
    "offers",
    "premise",
    "reload",
    "screen_game",
    "setup",
    "spec",
]

#: The context the controls are built in: the panel's, with the table's catalog.
Ctx = Context[Catalog]

#: Every input a button can make: what a notice swallows.
_INPUTS = (*(Input(b) for b in BUTTONS), *(Input(b, hold=True) for b in HOLDABLE))


def build(ui: Ui, snapshot: Mapping[str, Any], ctx: Ctx) -> Screen:
    """The screen for ``ui`` over the table snapshot JSON (``{"version", "match"}``).

    Under a notice every input, taps and holds alike, only clears it: a press
    made while the notice was not yet seen must not act on what replaced the
    screen it was meant for.

    Under a message too long for one box every input shows its next page, up to the
    last (:func:`more_to_read`): a press meant for the screen must not act, unread,
    while the rest of a refusal is still to come.
    """
    match = snapshot.get("match")
    screen = spec(ui, match, ctx.catalog).build(
        replace(ui, message=None, notice=False, page=0), match, ctx)
    if ui.notice or more_to_read(ui):
        seen = Outcome(replace(ui, message=None, notice=False, page=0) if ui.notice
                       else replace(ui, page=ui.page + 1))
        label = _("OK") if ui.notice else _("More")
        return replace(screen, keys={
            inp: Binding(label if inp.button in SOFT_KEYS and not inp.hold else "", seen)
            for inp in _INPUTS})
    undo = Binding("", Outcome(Ui(), ("undo",)))
    return replace(screen, keys={**screen.keys, Input("back", hold=True): undo})


def premise(ui: Ui, snapshot: Mapping[str, Any], catalog: Catalog) -> Hashable:
    """What ``ui``'s screen stands on in ``snapshot`` (compared across a change from
    elsewhere): a game's screen stands on the game too (a match of another game started
    from a phone closes it, whatever its name means there)."""
    match = snapshot.get("match")
    found = spec(ui, match, catalog)
    if ui.screen in SCREENS:
        return found.premise(snapshot)
    return (screen_game(ui, match), found.premise(snapshot))


def reload(ui: Ui, snapshot: Mapping[str, Any], catalog: Catalog) -> Command | None:
    """The command that refreshes ``ui``'s screen after a change from elsewhere, if any."""
    return spec(ui, snapshot.get("match"), catalog).reload


def notice(ui: Ui) -> Ui:
    """``ui`` under the notice that the table changed from elsewhere."""
    return replace(ui, message=CHANGED, notice=True, page=0)


def more_to_read(ui: Ui) -> bool:
    """Whether ``ui``'s message has pages after the one shown (canvas.pages)."""
    return ui.message is not None and ui.page < len(canvas.pages(ui.message)) - 1


def screen_game(ui: Ui, match: Mapping[str, Any] | None) -> str | None:
    """The game whose screens ``ui`` is among: the game of the match being set up when
    the Ui holds a draft (a screen opened from the setup screen, Wizard Dodgeball's
    jersey editor say), else the game of the match on the table (None: none)."""
    if ui.draft is not None:
        return ui.draft.game
    return None if match is None else match["game"]


def spec(ui: Ui, match: Mapping[str, Any] | None, catalog: Catalog) -> ScreenSpec:
    """The screen ``ui`` names, with ``match`` on the table: one of the panel's own
    (:data:`SCREENS`), else one of its game's (:func:`screen_game`: its kit's, or the
    generic panel's for a game whose kit brings none); the board for a name that game
    does not have."""
    if ui.screen in SCREENS:
        return SCREENS[ui.screen]
    kit = catalog.kit(screen_game(ui, match))
    own = (kit.screens if kit.panel else GENERIC_SCREENS) if kit is not None else {}
    return own.get(ui.screen, SCREENS["board"])


# --- the board ------------------------------------------------------------------


def _board(ui: Ui, match: Mapping[str, Any] | None, ctx: Ctx) -> Screen:
    menu = Binding(_("Menu"), Outcome(Ui(screen="menu")))
    if ctx.offer is not None and not in_play(match, ctx.offer[0]) \
            and ctx.offer[0] not in ctx.played:
        # No match in play: the hall's offer is the board, one OK starts it (the
        # command names the offer shown: a replaced one is refused, never started).
        return Screen(keys={
            Input("prev"): Binding(_("Hist"), Outcome(Ui(screen="history"), ("history",))),
            Input("next"): Binding(_("New"), Outcome(setup(match, ctx))),
            Input("ok"): Binding(_("Start"), Outcome(Ui(), ("offer", ctx.offer[0]))),
            Input("back"): menu,
        }, offer=ctx.offer)
    if match is None:
        return Screen(keys={
            Input("prev"): Binding(_("Hist"), Outcome(Ui(screen="history"), ("history",))),
            Input("next"): Binding(_("Info"), Outcome(Ui(screen="info"))),
            Input("ok"): Binding(_("New"), Outcome(setup(None, ctx))),
            Input("back"): menu,
        })
    if match["status"] == "finished":
        panel = _panel(match["game"], ctx.catalog)
        extra = panel.finished if panel else None
        return Screen(keys={
            **(extra(match) if extra else {}),
            Input("next"): Binding(_("New"), Outcome(setup(match, ctx))),
            Input("ok"): Binding(_("Again"),
                                 Outcome(Ui(), ("start", ctx.catalog.rematch(match)))),
            Input("back"): menu,
        })
    panel = _panel(match["game"], ctx.catalog)
    keys = panel.board(ui, match) if panel else generic_board(match)
    return Screen(keys={**keys, Input("back"): menu})


def in_play(match: Mapping[str, Any] | None, offer_id: str) -> bool:
    """Whether the hall's offer ``offer_id`` waits: a match is in play, or the match on
    the table is that offer's, started already (until the hall withdraws it)."""
    if match is None:
        return False
    return match["status"] == "active" or (match.get("event") or {}).get("offer") == offer_id


def offer_lines(players: Sequence[str], event: Mapping[str, Any],
                sides: Sequence[int] = ()) -> tuple[str, ...]:
    """The hall's offer in lines of the OLED's small font: who plays ("Next: Ann v Bob",
    a team game by its sides, "Next: Ann&Bob v Hal&Zoë", or over two lines when the
    names are long: "Next: Ann & Bob", "v Hal & Zoë"), then the event ("R2 · Tuesday
    Swiss"), each measured by its drawn width."""
    small, line = canvas.SMALL, canvas.WIDTH

    def fits(text: str) -> bool:
        return canvas.text_width(text, small) <= line

    order = sorted(set(sides)) if sides else []
    least = MIN_WIDTH * canvas.char_width(small)
    longest = max(least, *(canvas.text_width(p, small) for p in players))
    for width in range(longest, least - 1, -1):
        names = short_names(players, width, lambda t: canvas.text_width(t, small))
        if order:
            teams = [[n for n, s in zip(names, sides, strict=True) if s == side]
                     for side in order]
            one = _("Next: {players}", players=' v '.join('&'.join(t) for t in teams))
            two = (_("Next: {players}", players=' & '.join(teams[0])),
                   f"v {' v '.join(' & '.join(t) for t in teams[1:])}")
        else:
            half = (len(players) + 1) // 2
            one = _("Next: {players}", players=' v '.join(names))
            two = (_("Next: {players}", players=' v '.join(names[:half])),
                   f"v {' v '.join(names[half:])}")
        if fits(one):
            who: tuple[str, ...] = (one,)
            break
        who = two
        if all(fits(w) for w in who):
            break
    where = canvas.fit(_("R{round} · {event}", round=event["round"], event=event["name"]),
                       small, line)
    return (*who, where)


def _panel(game_id: str, catalog: Catalog) -> Panel | None:
    kit = catalog.kit(game_id)
    return kit.panel if kit else None


# --- the generic panel: a game that brings none is played from its legal offers -------


def generic_board(match: Mapping[str, Any]) -> dict[Input, Binding]:
    """A board for a game without a panel: OK lists every action its ``legal`` offers."""
    if not offers(match["legal"]):
        return {}
    return {Input("ok"): Binding(_("Play"), Outcome(Ui(screen="play")))}


#: The most actions the generic list offers (a shape's fields multiplied out).
MAX_OFFERS = 64


def offers(legal: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each action ``legal`` allows, spelt out: a shape's list fields multiplied out
    (as the host page's generic controls do), at most :data:`MAX_OFFERS`."""
    found: list[dict[str, Any]] = []
    for shape in legal:
        actions: list[dict[str, Any]] = [{}]
        for key, value in shape.items():
            values = value if isinstance(value, list) else [value]
            actions = [{**a, key: v} for a in actions for v in values]
        found.extend(actions)
    return found[:MAX_OFFERS]


def offer_label(action: Mapping[str, Any], players: Sequence[str] = ()) -> str:
    """How a list row says an action, in words: ``"Point Bob"`` for a point to a
    player's seat (as the host page's generic buttons say it), else its type and its
    fields (``"end turn"``, ``"serve card 3"``)."""
    said = {k: v for k, v in action.items() if k != "type"}
    (value,) = said.values() if len(said) == 1 else (None,)
    if action["type"] == "point" and type(value) is int and 0 <= value < len(players):
        return _("Point {name}", name=players[value])
    words = [action["type"], *(f"{k} {v}" for k, v in said.items())]
    return " ".join(words).replace("_", " ")


def _play(ui: Ui, match: Mapping[str, Any] | None, ctx: Ctx) -> Screen:
    entries = ([(offer_label(a, match["players"]), Outcome(Ui(), ("act", a)))
                for a in offers(match["legal"])] if match else [])
    if not entries:
        return Screen(keys={Input("back"): Binding(_("Back"), Outcome(Ui()))}, title=_("Play"),
                      hint=_("Nothing to play now"))
    return listing(ui, _("Play"), entries, back=Outcome(Ui()))


#: The generic panel's screens (a draft: any change from elsewhere closes it).
GENERIC_SCREENS: dict[str, ScreenSpec] = screens({"play": _play})


# --- menus ----------------------------------------------------------------------------


def _menu(ui: Ui, match: Mapping[str, Any] | None, ctx: Ctx) -> Screen:
    entries: list[tuple[str, Outcome]] = [(_("New match"), Outcome(setup(match, ctx)))]
    if match is not None:
        if match["status"] == "finished":
            entries.append((_("Rematch"), Outcome(Ui(), ("start", ctx.catalog.rematch(match)))))
        if match["can_undo"]:
            entries.append((_("Undo"), Outcome(Ui(), ("undo",))))
        if match["can_redo"]:
            entries.append((_("Redo"), Outcome(Ui(), ("redo",))))
        if match["status"] == "active":
            entries.append((_("End match"), Outcome(Ui(screen="confirm"))))
    entries.append((_("History"), Outcome(Ui(screen="history"), ("history",))))
    entries.append((_("Phone page"), Outcome(Ui(screen="info"))))
    if ctx.address is not None:
        entries.append((_("Host login"), Outcome(Ui(screen="code"), ("login-code",))))
    # Opens on the language spoken now (each is listed by its own name).
    spoken = LANGUAGES.index(ctx.language) if ctx.language in LANGUAGES else 0
    entries.append((_("Language"), Outcome(Ui(screen="language", cursor=spoken))))
    return listing(ui, _("Menu"), entries, back=Outcome(Ui()))


def _confirm(ui: Ui, match: Mapping[str, Any] | None, ctx: Ctx) -> Screen:
    """End the unfinished match? From the menu; or from a new match's Start (``ui.draft``
    set): then both answers go back to that setup as it was left."""
    back = Ui(screen="menu") if ui.draft is None else \
        Ui(screen="setup", draft=ui.draft, cursor=ui.cursor)
    return Screen(
        keys={
            Input("ok"): Binding(_("End"), Outcome(back if ui.draft else Ui(), ("abandon",))),
            Input("back"): Binding(_("Keep"), Outcome(back)),
        },
        title=_("End this match?") if ui.draft is None else _("End this match first?"),
        hint=_("It stays in the history"),
    )


def _history(ui: Ui, match: Mapping[str, Any] | None, ctx: Ctx) -> Screen:
    n = max(1, len(ui.rows))
    return Screen(
        keys={
            Input("prev"): Binding(_("Up"), Outcome(replace(ui, cursor=(ui.cursor - 1) % n))),
            Input("next"): Binding(_("Down"), Outcome(replace(ui, cursor=(ui.cursor + 1) % n))),
            Input("back"): Binding(_("Back"), Outcome(Ui(screen="menu"))),
        },
        title=_("History"), items=tuple(line for _i, line in ui.rows) or (_("No matches yet"),),
    )


def _info(ui: Ui, match: Mapping[str, Any] | None, ctx: Ctx) -> Screen:
    """The page's address; with a broker configured, its connection's status as the line."""
    return Screen(keys={Input("back"): Binding(_("Back"), Outcome(Ui()))},
                  title=_("Phone page"), hint=ctx.address or _("not served"),
                  items=() if ctx.broker is None else (ctx.broker,))


def _code(ui: Ui, match: Mapping[str, Any] | None, ctx: Ctx) -> Screen:
    """A one-time code that logs a phone in as the host, past any wrong-PIN wait (the
    screen's one item; drawn by the panel as it opens, void once it closes)."""
    return Screen(keys={
        Input("ok"): Binding(_("New"), Outcome(Ui(screen="code"), ("login-code",))),
        Input("back"): Binding(_("Back"), Outcome(Ui(screen="menu"))),
    }, title=_("Host login"), items=(ui.code,) if ui.code else (),
        hint=_("Type it on the phone"))


def _language(ui: Ui, match: Mapping[str, Any] | None, ctx: Ctx) -> Screen:
    """The OLED's language, each by its own name (the table's config chose the first;
    a choice here is kept, companion/panel.py)."""
    entries = [(NAMES[code], Outcome(Ui(), ("language", code))) for code in LANGUAGES]
    return listing(ui, _("Language"), entries, back=Outcome(Ui(screen="menu")))


# --- setting up a match -------------------------------------------------------------------


def setup(match: Mapping[str, Any] | None, ctx: Ctx) -> Ui:
    """The setup screen, starting from the current match's choices if there is one."""
    if match is None:
        return Ui(screen="setup", draft=default_draft(next(iter(ctx.catalog)), ctx))
    record = ctx.catalog.rematch(match)
    game = ctx.catalog.game(record["game"])
    options = {**{s.key: s.default for s in game.options}, **record["options"]}
    draft = Draft(game.id, tuple(record["players"]), tuple(options.items()))
    return Ui(screen="setup", draft=draft)


def default_draft(game_id: str, ctx: Ctx) -> Draft:
    """What a new match of ``game_id`` starts from on the setup screen: its fewest
    players from the names, its defaults, fitted by its panel (a sample start)."""
    game = ctx.catalog.game(game_id)
    options = {**{s.key: s.default for s in game.options}, **game.extras.get("defaults", {})}
    draft = Draft(game_id, tuple(ctx.names[: game.seats[0]]), tuple(options.items()))
    panel = _panel(game_id, ctx.catalog)
    return panel.fit_draft(draft) if panel and panel.fit_draft else draft


def _same(outcome: Outcome, _row: int) -> Outcome:
    """``outcome`` whichever row it is on (a game's own setup rows)."""
    return outcome


def _setup(ui: Ui, match: Mapping[str, Any] | None, ctx: Ctx) -> Screen:
    draft = ui.draft or default_draft(next(iter(ctx.catalog)), ctx)
    panel = _panel(draft.game, ctx.catalog)
    # A game's fit keeps its options in step with the players (AlakaSLAM: a
    # character per player, teams for the format), on every setup screen.
    fit = panel.fit_draft if panel and panel.fit_draft else _unchanged
    draft = fit(draft)
    ui = replace(ui, draft=draft)
    game = ctx.catalog.game(draft.game)
    # Each row: its label and, given the row's index, what OK does there.
    rows: list[tuple[str, Callable[[int], Outcome]]] = []

    def changes(label: str, change: Callable[[], Draft]) -> None:
        rows.append((label, lambda row: Outcome(replace(ui, draft=change(), cursor=row))))

    games = list(ctx.catalog)
    following = games[(games.index(draft.game) + 1) % len(games)]
    changes(_("Game: {game}", game=game.title), lambda: default_draft(following, ctx))
    low, high = game.seats
    if low != high:
        changes(_("Players: {count}", count=len(draft.players)),
                lambda: _seat_count(draft, ctx, low, high))
    for seat, name in enumerate(draft.players):
        changes(f"P{seat + 1}: {name}", partial(_next_name, draft, seat, ctx))
    for spec in game.options:
        value = draft.option(spec.key)
        # Both are marked messages (a game's options.py): said together in the OLED's
        # language, never joined into English words here.
        changes(_("{option}: {choice}", option=spec.label, choice=spec.label_of(value)),
                partial(_next_option, draft, spec, value, fit))
    extra = panel.setup_rows if panel else None
    if extra is not None:
        rows.extend((label, partial(_same, outcome)) for label, outcome in
                    extra(ui, draft, len(rows)))
    n = len(rows) + 1
    cursor = min(ui.cursor, n - 1)
    if cursor == n - 1 and match is not None and match["status"] == "active":
        # One match at a time: ask to end the unfinished one, the draft kept
        # (after End the setup comes back as it was, Start on the cursor).
        ok = Binding(_("Start"), Outcome(Ui(screen="confirm", draft=draft, cursor=cursor)))
    elif cursor == n - 1:
        ok = Binding(_("Start"), Outcome(Ui(), ("start", draft.record())))
    else:
        ok = Binding(_("Change"), rows[cursor][1](cursor))
    return Screen(
        keys={
            Input("prev"): Binding(_("Up"), Outcome(replace(ui, cursor=(cursor - 1) % n))),
            Input("next"): Binding(_("Down"), Outcome(replace(ui, cursor=(cursor + 1) % n))),
            Input("ok"): ok,
            Input("back"): Binding(_("Back"), Outcome(Ui(screen="menu"))),
        },
        title=_("New match"), items=(*(label for label, _o in rows), _("Start")),
    )


def _unchanged(draft: Draft) -> Draft:
    return draft


def _next_name(draft: Draft, seat: int, ctx: Ctx) -> Draft:
    """The draft with seat ``seat``'s next name on the ring of names not taken by another
    seat: the seat's own configured name ("Player 1"), recent players (newest first), then
    the other configured names. The seat's own name leads, so the first OK on a fresh
    seat offers the newest recent player, and every name is reached going round."""
    taken = {n for i, n in enumerate(draft.players) if i != seat}
    own = ctx.names[seat:seat + 1]
    names = [n for n in dict.fromkeys((*own, *ctx.choices)) if n not in taken] or [
        draft.players[seat]]
    current = draft.players[seat]
    following = names[(names.index(current) + 1) % len(names)] if current in names else names[0]
    players = list(draft.players)
    players[seat] = following
    return replace(draft, players=tuple(players))


def _seat_count(draft: Draft, ctx: Ctx, low: int, high: int) -> Draft:
    count = len(draft.players) + 1
    if count > high:
        count = low
    players = list(draft.players[:count])
    for name in ctx.choices:
        if len(players) == count:
            break
        if name not in players:
            players.append(name)
    return replace(draft, players=tuple(players))


def _next_option(draft: Draft, spec: Any, value: Any, fit: Callable[[Draft], Draft]) -> Draft:
    """The draft with the option's next value, skipping values the game's fit would undo
    (Alakazoo's First: no "P3" at a table of two)."""
    values = spec.values
    index = next(i for i, v in enumerate(values) if v == value and type(v) is type(value))
    for step in range(1, len(values) + 1):
        following = values[(index + step) % len(values)]
        changed = replace(draft, options=tuple({**dict(draft.options),
                                                 spec.key: following}.items()))
        kept = fit(changed).option(spec.key)
        if kept == following and type(kept) is type(following):
            return changed
    return draft


def _same_match_unfinished(snapshot: Mapping[str, Any]) -> Hashable:
    match = snapshot["match"]
    return None if match is None else (match["id"], match["status"])


#: The panel's own screens, by name (companion/ui/base.py PANEL_SCREENS: no game's
#: screen may be named as one of them). The board never closes (it is what a
#: closed screen goes back to); the menu is a draft (its entries follow undo
#: and redo, so a cursor must not slide onto another one); the setup screen
#: and its jersey editor stand on which match is on the table (a phone that
#: starts one closes them); "End this match?" on the match and its status;
#: the history reloads its rows; the phone page and the login code are independent.
SCREENS: dict[str, ScreenSpec] = screens({
    "board": ScreenSpec(_board, premise=independent),
    "menu": _menu,
    "confirm": ScreenSpec(_confirm, premise=_same_match_unfinished),
    "history": ScreenSpec(_history, premise=independent, reload=("history",)),
    "info": ScreenSpec(_info, premise=independent),
    "code": ScreenSpec(_code, premise=independent),
    "setup": ScreenSpec(_setup, premise=by_match),
    "language": ScreenSpec(_language, premise=independent),
})
if set(SCREENS) != set(PANEL_SCREENS):  # the names kits are kept from (companion/kit.py)
    raise AssertionError(f"companion/ui/base.py PANEL_SCREENS must name {sorted(SCREENS)}")
