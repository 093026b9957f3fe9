"""The pieces every screen is made of: the panel's Ui, bindings, and list helpers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.inputs import Input

#: A table command: ("act", action), ("start", record), ("undo",), ("redo",),
#: ("abandon",), or ("history",) to load the history rows into the Ui.
Command = tuple[Any, ...]

SOFT_KEYS = ("prev", "next", "ok", "back")


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
    #: An action being put together over several screens, as (field, value) pairs.
    pending: tuple[tuple[str, Any], ...] = ()
    #: The choices ticked so far on a pick-several screen.
    picked: tuple[Any, ...] = ()
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
    #: Show ``items`` as one row of big choices (cards, digits) instead of a list.
    row: bool = False

    def label(self, button: str) -> str:
        binding = self.keys.get(Input(button))
        return binding.label if binding else ""


def choice_row(ui: Ui, n: int, confirm: Binding, back: Binding, **screen: Any) -> Screen:
    """A row of ``n`` choices: PREV/NEXT move, OK confirms, BACK goes back."""
    keys = {
        Input("prev"): Binding("<", Outcome(replace(ui, cursor=(ui.cursor - 1) % n))),
        Input("next"): Binding(">", Outcome(replace(ui, cursor=(ui.cursor + 1) % n))),
        Input("ok"): confirm,
        Input("back"): back,
    }
    return Screen(keys=keys, row=True, **screen)


def listing(ui: Ui, title: str, entries: list[tuple[str, Outcome]], back: Outcome,
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


