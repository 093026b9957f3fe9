"""What each button means on each screen, and the menus.

The panel's state besides the table is a small frozen :class:`Ui`. For a
given Ui and table snapshot, :func:`bindings` says what every input does: a
soft-key label and an :class:`Outcome` (the next Ui, and a table command or
none). Both the OLED's soft-key labels and what the panel does with a press
come from that one function, so the labels can never disagree with a button.

Everywhere, holding BACK is undo. Everything here is pure; the
:class:`~companion.panel.Panel` runs the commands on the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.games import GAMES, get_game
from companion.games.center_court import ROLLED_SERVES, SERVICE_DIE, format_return, return_count
from companion.inputs import Input

#: A table command: ("act", action), ("start", record), ("undo",), ("redo",),
#: ("abandon",), or ("history",) to load the history rows into the Ui.
Command = tuple[Any, ...]

SOFT_KEYS = ("prev", "next", "ok", "back")
DIE_FACES = tuple(sorted(set(SERVICE_DIE)))


@dataclass(frozen=True)
class Draft:
    """A match being set up on the buttons."""

    game: str
    players: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]

    def option(self, key: str) -> Any:
        return dict(self.options)[key]

    def record(self) -> dict[str, Any]:
        return {"game": self.game, "players": list(self.players), "options": dict(self.options)}


@dataclass(frozen=True)
class Ui:
    """The panel's own state: which screen, where the cursor is, and so on."""

    screen: str = "board"
    cursor: int = 0
    draft: Draft | None = None
    #: The serve card waiting for a physical roll on the roll screen.
    card: int | None = None
    #: History lines, loaded when the history screen opens.
    rows: tuple[str, ...] = ()
    #: Why the last command was refused; cleared by the next input.
    message: str | None = None


@dataclass(frozen=True)
class Context:
    """What the controls need from outside the table."""

    names: tuple[str, ...] = ("Player 1", "Player 2", "Player 3", "Player 4")
    #: The spectator page's address, for the info screen (None: not served).
    address: str | None = None


@dataclass(frozen=True)
class Outcome:
    """What an input leads to: the next Ui and an optional table command."""

    ui: Ui
    command: Command | None = None


@dataclass(frozen=True)
class Binding:
    label: str
    outcome: Outcome


@dataclass(frozen=True)
class Screen:
    """Everything a screen shows and does, for the renderer and the handler."""

    keys: Mapping[Input, Binding] = field(default_factory=dict)
    #: Menu-like screens: the lines, and which one the cursor is on.
    title: str = ""
    items: tuple[str, ...] = ()
    hint: str = ""

    def label(self, button: str) -> str:
        binding = self.keys.get(Input(button))
        return binding.label if binding else ""


def build(ui: Ui, snapshot: Mapping[str, Any], ctx: Context) -> Screen:
    """The screen for ``ui`` over the table snapshot JSON (``{"version", "match"}``)."""
    match = snapshot.get("match")
    builder = _SCREENS.get(ui.screen, _board)
    screen = builder(replace(ui, message=None), match, ctx)
    undo = Binding("", Outcome(Ui(), ("undo",)))
    return replace(screen, keys={**screen.keys, Input("back", hold=True): undo})


# --- the board ------------------------------------------------------------------


def _board(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    menu = Binding("Menu", Outcome(Ui(screen="menu")))
    if match is None:
        return Screen(keys={
            Input("prev"): Binding("Hist", Outcome(Ui(screen="history"), ("history",))),
            Input("next"): Binding("Info", Outcome(Ui(screen="info"))),
            Input("ok"): Binding("New", Outcome(setup(None, ctx))),
            Input("back"): menu,
        })
    if match["status"] == "finished":
        return Screen(keys={
            Input("next"): Binding("New", Outcome(setup(match, ctx))),
            Input("ok"): Binding("Again", Outcome(Ui(), ("start", rematch(match)))),
            Input("back"): menu,
        })
    keys = _BOARDS[match["game"]](ui, match)
    return Screen(keys={**keys, Input("back"): menu})


def _board_center_court(ui: Ui, match: Mapping[str, Any]) -> dict[Input, Binding]:
    view = match["view"]
    names = view["players"]
    keys = {}
    for player, button in enumerate(("prev", "next")):
        point = Outcome(Ui(), ("act", {"type": "point", "winner": player}))
        keys[Input(button)] = Binding(f"+{names[player][:5]}", point)
        keys[Input(f"seat{player + 1}")] = Binding("", point)
    if view["in_play"]:
        cursor = view["volley"] - 1
        keys[Input("ok")] = Binding("Return", Outcome(Ui(screen="return", cursor=cursor)))
    else:
        keys[Input("ok")] = Binding("Serve", Outcome(Ui(screen="serve", cursor=2)))
    return keys


_BOARDS: dict[str, Callable[[Ui, Mapping[str, Any]], dict[Input, Binding]]] = {
    "center-court": _board_center_court,
}


# --- Center Court serve, roll and return ---------------------------------------------


def _cards(ui: Ui, n: int, confirm: Binding, back: Binding, **screen: Any) -> Screen:
    """A row of ``n`` choices: PREV/NEXT move, OK confirms, BACK goes back."""
    keys = {
        Input("prev"): Binding("<", Outcome(replace(ui, cursor=(ui.cursor - 1) % n))),
        Input("next"): Binding(">", Outcome(replace(ui, cursor=(ui.cursor + 1) % n))),
        Input("ok"): confirm,
        Input("back"): back,
    }
    return Screen(keys=keys, **screen)


def _serve(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    card = ui.cursor + 1
    serve = Outcome(Ui(), ("act", {"type": "serve", "card": card}))
    screen = _cards(ui, 6, Binding("Serve", serve), Binding("Back", Outcome(Ui())),
                    title="Serve which card?", items=tuple(str(c) for c in range(1, 7)),
                    hint="hold OK: own die roll" if card in ROLLED_SERVES else "no roll: 3 or 4")
    own_die = Outcome(Ui(screen="roll", card=card)) if card in ROLLED_SERVES else serve
    return replace(screen, keys={**screen.keys, Input("ok", hold=True): Binding("", own_die)})


def _roll(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    face = DIE_FACES[ui.cursor % len(DIE_FACES)]
    enter = Outcome(Ui(), ("act", {"type": "serve", "card": ui.card, "roll": face}))
    back = Outcome(Ui(screen="serve", cursor=(ui.card or 1) - 1))
    return _cards(ui, len(DIE_FACES), Binding("Enter", enter), Binding("Back", back),
                  title=f"Serve {ui.card}: die shows?", items=tuple(map(str, DIE_FACES)),
                  hint=f"{ui.card} on the die is a fault")


def _return(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    view = match["view"] if match else {}
    volley = view.get("volley") or 1
    card = ui.cursor + 1
    count = return_count(volley, card)
    ret = Outcome(Ui(), ("act", {"type": "return", "card": card, "count": count}))
    return _cards(ui, 6, Binding("Return", ret), Binding("Back", Outcome(Ui())),
                  title=f"Return {volley} with", items=tuple(str(c) for c in range(1, 7)),
                  hint=f"play {format_return(card, count)}")


# --- menus ----------------------------------------------------------------------------


def _menu(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    entries: list[tuple[str, Outcome]] = [("New match", Outcome(setup(match, ctx)))]
    if match is not None:
        if match["status"] == "finished":
            entries.append(("Rematch", Outcome(Ui(), ("start", rematch(match)))))
        if match["can_undo"]:
            entries.append(("Undo", Outcome(Ui(), ("undo",))))
        if match["can_redo"]:
            entries.append(("Redo", Outcome(Ui(), ("redo",))))
        if match["status"] == "active":
            entries.append(("End match", Outcome(Ui(screen="confirm"))))
    entries.append(("History", Outcome(Ui(screen="history"), ("history",))))
    entries.append(("Phone page", Outcome(Ui(screen="info"))))
    return _list(ui, "Menu", entries, back=Outcome(Ui()))


def _list(ui: Ui, title: str, entries: list[tuple[str, Outcome]], back: Outcome,
          ok_label: str = "OK") -> Screen:
    n = len(entries)
    cursor = min(ui.cursor, n - 1)
    return Screen(
        keys={
            Input("prev"): Binding("Up", Outcome(replace(ui, cursor=(cursor - 1) % n))),
            Input("next"): Binding("Down", Outcome(replace(ui, cursor=(cursor + 1) % n))),
            Input("ok"): Binding(ok_label, entries[cursor][1]),
            Input("back"): Binding("Back", back),
        },
        title=title, items=tuple(label for label, _ in entries),
    )


def _confirm(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    return Screen(
        keys={
            Input("ok"): Binding("End", Outcome(Ui(), ("abandon",))),
            Input("back"): Binding("Keep", Outcome(Ui(screen="menu"))),
        },
        title="End this match?", hint="It stays in the history",
    )


def _history(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    n = max(1, len(ui.rows))
    return Screen(
        keys={
            Input("prev"): Binding("Up", Outcome(replace(ui, cursor=(ui.cursor - 1) % n))),
            Input("next"): Binding("Down", Outcome(replace(ui, cursor=(ui.cursor + 1) % n))),
            Input("back"): Binding("Back", Outcome(Ui(screen="menu"))),
        },
        title="History", items=ui.rows or ("No matches yet",),
    )


def _info(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    return Screen(keys={Input("back"): Binding("Back", Outcome(Ui()))},
                  title="Phone page", hint=ctx.address or "not served")


# --- setting up a match -------------------------------------------------------------------


def setup(match: Mapping[str, Any] | None, ctx: Context) -> Ui:
    """The setup screen, starting from the current match's choices if there is one."""
    if match is None:
        return Ui(screen="setup", draft=_default_draft(next(iter(GAMES)), ctx))
    record = rematch(match)
    game = get_game(record["game"])
    options = {**{s.key: s.default for s in game.options}, **record["options"]}
    draft = Draft(game.id, tuple(record["players"]), tuple(options.items()))
    return Ui(screen="setup", draft=draft)


def rematch(match: Mapping[str, Any]) -> dict[str, Any]:
    """The start record for the same players and options (device decisions made again)."""
    game = get_game(match["game"])
    return {"game": game.id, "players": list(match["players"]),
            "options": game.again(match["options"])}


def _default_draft(game_id: str, ctx: Context) -> Draft:
    game = get_game(game_id)
    options = {**{s.key: s.default for s in game.options}, **game.extras.get("defaults", {})}
    return Draft(game_id, tuple(ctx.names[: game.seats[0]]), tuple(options.items()))


def _setup(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    draft = ui.draft or _default_draft(next(iter(GAMES)), ctx)
    game = get_game(draft.game)
    rows: list[tuple[str, Callable[[], Draft] | None]] = []
    games = list(GAMES)
    following = games[(games.index(draft.game) + 1) % len(games)]
    rows.append((f"Game: {game.title}", lambda: _default_draft(following, ctx)))
    low, high = game.seats
    if low != high:
        rows.append((f"Players: {len(draft.players)}",
                     lambda: _seat_count(draft, ctx, low, high)))
    for seat, name in enumerate(draft.players):
        rows.append((f"P{seat + 1}: {name}", lambda seat=seat: _next_name(draft, seat, ctx)))
    for spec in game.options:
        value = draft.option(spec.key)
        rows.append((f"{spec.label}: {spec.label_of(value)}",
                     lambda spec=spec, value=value: _next_option(draft, spec, value)))
    rows.append(("Start", None))
    n = len(rows)
    cursor = min(ui.cursor, n - 1)
    change = rows[cursor][1]
    if change is None:
        ok = Binding("Start", Outcome(Ui(), ("start", draft.record())))
    else:
        ok = Binding("Change", Outcome(replace(ui, draft=change(), cursor=cursor)))
    ui = replace(ui, draft=draft)
    return Screen(
        keys={
            Input("prev"): Binding("Up", Outcome(replace(ui, cursor=(cursor - 1) % n))),
            Input("next"): Binding("Down", Outcome(replace(ui, cursor=(cursor + 1) % n))),
            Input("ok"): ok,
            Input("back"): Binding("Back", Outcome(Ui(screen="menu"))),
        },
        title="New match", items=tuple(label for label, _ in rows),
    )


def _next_name(draft: Draft, seat: int, ctx: Context) -> Draft:
    taken = {n for i, n in enumerate(draft.players) if i != seat}
    names = [n for n in ctx.names if n not in taken] or [draft.players[seat]]
    current = draft.players[seat]
    following = names[(names.index(current) + 1) % len(names)] if current in names else names[0]
    players = list(draft.players)
    players[seat] = following
    return replace(draft, players=tuple(players))


def _seat_count(draft: Draft, ctx: Context, low: int, high: int) -> Draft:
    count = len(draft.players) + 1
    if count > high:
        count = low
    players = list(draft.players[:count])
    for name in ctx.names:
        if len(players) == count:
            break
        if name not in players:
            players.append(name)
    return replace(draft, players=tuple(players))


def _next_option(draft: Draft, spec: Any, value: Any) -> Draft:
    values = spec.values
    index = next(i for i, v in enumerate(values) if v == value and type(v) is type(value))
    options = dict(draft.options)
    options[spec.key] = values[(index + 1) % len(values)]
    return replace(draft, options=tuple(options.items()))


_SCREENS: dict[str, Callable[[Ui, Mapping[str, Any] | None, Context], Screen]] = {
    "board": _board,
    "serve": _serve,
    "roll": _roll,
    "return": _return,
    "menu": _menu,
    "confirm": _confirm,
    "history": _history,
    "info": _info,
    "setup": _setup,
}
