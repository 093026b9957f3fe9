"""The pieces every screen is made of: the panel's Ui, bindings, screens and list helpers."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from companion.i18n import _
from companion.inputs import PANEL, Input

#: The hall's offer as the panel shows it: its id, and its lines ("Next: Ann v Bob",
#: "R2 · Tuesday Swiss"; companion/ui/controls.py offer_lines).
ShownOffer = tuple[str, tuple[str, ...]]

#: A table command: ("act", action), ("start", record), ("undo",), ("redo",),
#: ("abandon",), ("history",) to load the history rows into the Ui,
#: ("login-code",) to draw a one-time login code into it, or ("offer", offer id) to
#: start the hall's offer shown (companion/offers.py).
Command = tuple[Any, ...]

#: The buttons the OLED labels, left to right: the panel's four.
SOFT_KEYS = PANEL
#: The most characters a soft-key label may have: what fits its cell on the
#: OLED without touching the dividers (the renderer checks its cells hold it), in
#: every language (tests/i18n).
SOFT_KEY_CHARS = 6
#: The panel's own screens (companion/ui/controls.py ``SCREENS``): a game names its
#: screens as it likes (they are looked up in its own kit) but never as one of these.
PANEL_SCREENS = ("board", "menu", "confirm", "history", "info", "code", "setup", "language")
#: The notice shown when a change from elsewhere closed the open screen.
CHANGED = _("Changed from a phone")


@dataclass(frozen=True)
class Draft:
    """A match being set up on the buttons."""

    game: str
    players: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]

    def option(self, key: str) -> Any:
        return dict(self.options)[key]

    def record(self) -> dict[str, Any]:
        """The start record, JSON as a phone would send it (the draft's tuples as lists)."""
        return {"game": self.game, "players": list(self.players),
                "options": {k: _json(v) for k, v in self.options}}


def _json(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    return value


@dataclass(frozen=True)
class Ui:
    """The panel's own state: which screen, where the cursor is, and so on."""

    screen: str = "board"
    cursor: int = 0
    draft: Draft | None = None
    #: The serve card waiting for a physical roll on the roll screen.
    card: int | None = None
    #: History rows as (match id, line), loaded when the history screen opens.
    rows: tuple[tuple[int, str], ...] = ()
    #: An action being put together over several screens, as (field, value) pairs.
    pending: tuple[tuple[str, Any], ...] = ()
    #: The choices ticked so far on a pick-several screen.
    picked: tuple[Any, ...] = ()
    #: The one-time login code the code screen shows (see companion/login_code.py).
    code: str | None = None
    #: Why the last command was refused; cleared by the next input.
    message: str | None = None
    #: The page of :attr:`message` shown, when it is too long for one box (counted from
    #: 0; see companion/ui/canvas.py pages): every message set starts at 0.
    page: int = 0
    #: The message is a notice that the table changed from elsewhere: the
    #: next input only clears it (it may have been meant for what was shown).
    notice: bool = False
    #: The message is news from outside the controls (damaged storage found at
    #: start) that stays until the next input; any other message also ends on
    #: its own, after a few seconds or at the next change (see Panel.expire).
    lasting: bool = False
    #: What the screen was opened for (see :attr:`ScreenSpec.premise`), set by
    #: the panel after each of its own inputs.
    premise: Hashable = None


#: The catalog a :class:`Context` carries (companion/catalog.py's ``Catalog``): a type
#: parameter here, as this module sits below the kits a catalog holds.
C = TypeVar("C")


@dataclass(frozen=True)
class Context(Generic[C]):
    """What the controls need from outside the table."""

    #: The games the table plays (the table's own catalog: companion/panel.py checks).
    catalog: C
    names: tuple[str, ...] = ("Player 1", "Player 2", "Player 3", "Player 4")
    #: The spectator page's address, for the info screen (None: not served).
    address: str | None = None
    #: The MQTT broker connection's status for the info screen ("connected",
    #: "unreachable: port closed", ...; None: no broker configured).
    broker: str | None = None
    #: The players of recent stored matches, most recent first (the panel fills it).
    recent: tuple[str, ...] = ()
    #: The hall's usable offer of the next match (companion/offers.py), or None.
    offer: ShownOffer | None = None
    #: The hall's offers this table finished a match of: never offered again.
    played: frozenset[str] = frozenset()
    #: The language the OLED speaks (companion/i18n.py LANGUAGES): the table's config
    #: chose it, the Language menu changes it (companion/panel.py).
    language: str = "en"

    @property
    def choices(self) -> tuple[str, ...]:
        """The names the setup screen offers: recent players first, then the configured ones."""
        return tuple(dict.fromkeys((*self.recent, *self.names)))


@dataclass(frozen=True)
class Outcome:
    """What an input leads to: the next Ui and an optional table command."""

    ui: Ui
    command: Command | None = None


@dataclass(frozen=True)
class Binding:
    """A button's soft-key label (at most :data:`SOFT_KEY_CHARS`) and what it does."""

    label: str
    outcome: Outcome

    def __post_init__(self) -> None:
        # Checked here, where every label is made, so none can reach the
        # screen cut short or running into its neighbour.
        if len(self.label) > SOFT_KEY_CHARS:
            raise ValueError(f"soft-key label {self.label!r} is longer than "
                             f"{SOFT_KEY_CHARS} characters")


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
    #: The hall's offer the board shows (None: none).
    offer: ShownOffer | None = None

    def label(self, button: str) -> str:
        binding = self.keys.get(Input(button))
        return binding.label if binding else ""


Builder = Callable[[Ui, Mapping[str, Any] | None, Context[Any]], Screen]


def by_version(snapshot: Mapping[str, Any]) -> Hashable:
    """Premise of a draft: the table as it was; any change from elsewhere closes it."""
    return snapshot["version"]


def by_match(snapshot: Mapping[str, Any]) -> Hashable:
    """Premise of a screen about the match on the table, whatever happens in it: which match."""
    match = snapshot["match"]
    return None if match is None else match["id"]


def independent(snapshot: Mapping[str, Any]) -> Hashable:
    """Premise of a screen that does not depend on the table (the phone page)."""
    return None


@dataclass(frozen=True)
class ScreenSpec:
    """A screen of the panel: how it is built and what it stands on.

    When the table changes from elsewhere (a phone), the panel compares the
    screen's ``premise`` of the new snapshot with the one it was opened for.
    If it differs, the screen closes back to the board with a notice: nothing
    the screen offered is re-bound to a different subject. If it is the same,
    the screen stays and is rebuilt on the new snapshot, first running
    ``reload`` (a panel command) if it has rows of its own to refresh.

    The default premise is the table version: a draft closes on any change.
    """

    build: Builder
    premise: Callable[[Mapping[str, Any]], Hashable] = by_version
    reload: Command | None = None


def screens(table: Mapping[str, Builder | ScreenSpec]) -> dict[str, ScreenSpec]:
    """A screen registry: bare builders are drafts (premise: the table version)."""
    return {name: s if isinstance(s, ScreenSpec) else ScreenSpec(s) for name, s in table.items()}


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
          ok_label: str = _("OK")) -> Screen:
    n = len(entries)
    cursor = min(ui.cursor, n - 1)
    return Screen(
        keys={
            Input("prev"): Binding(_("Up"), Outcome(replace(ui, cursor=(cursor - 1) % n))),
            Input("next"): Binding(_("Down"), Outcome(replace(ui, cursor=(cursor + 1) % n))),
            Input("ok"): Binding(ok_label, entries[cursor][1]),
            Input("back"): Binding(_("Back"), back),
        },
        title=title, items=tuple(label for label, _outcome in entries),
    )


