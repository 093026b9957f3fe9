"""The button panel's brain: inputs in, table commands out, frames to draw.

A :class:`Panel` lives on the table's writer thread (inputs reach it through
:class:`~companion.table.TableRunner`). For each input it asks
:mod:`companion.controls` what the input means, runs the table command if
there is one, and publishes a :class:`PanelState` (the Ui plus the table
snapshot) to its outputs, the OLED first among them. A refused command
leaves the table as it was and shows why on the screen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from companion import controls
from companion.controls import Context, Screen, Ui
from companion.errors import CompanionError
from companion.inputs import Input
from companion.store import MatchSummary
from companion.subscribers import Subscribers
from companion.table import Snapshot, Table

HISTORY_ROWS = 20
#: Table methods a control may call, with the command's arguments.
TABLE_COMMANDS = frozenset({"act", "start", "undo", "redo", "abandon"})


@dataclass(frozen=True)
class PanelState:
    """What the panel shows: its Ui over a table snapshot, and the built screen."""

    ui: Ui
    snapshot: Snapshot
    screen: Screen


class Panel:
    """Runs the controls against a table. Not thread-safe: the writer thread owns it."""

    def __init__(self, table: Table, ctx: Context | None = None) -> None:
        self.table = table
        self.ctx = ctx or Context()
        self._ui = Ui()
        self._subscribers: Subscribers[PanelState] = Subscribers()
        self.state = self._build()
        table.subscribe(self._table_changed)

    def handle(self, inp: Input) -> PanelState:
        """Act on one input and publish the result."""
        before = self._ui
        # self.state is rebuilt on every table change and every input, so its
        # screen already holds what each button means now.
        binding = self.state.screen.keys.get(inp)
        outcome = binding.outcome if binding else controls.Outcome(replace(before, message=None))
        try:
            ui = self._run(outcome.command, outcome.ui)
        except CompanionError as err:
            ui = replace(before, message=str(err))
        self._ui = ui
        return self._publish()

    def _run(self, command: controls.Command | None, ui: Ui) -> Ui:
        if command is None:
            return ui
        kind, *args = command
        if kind == "history":
            return replace(ui, rows=tuple(history_line(r) for r in
                                          self.table.history(HISTORY_ROWS)))
        if kind not in TABLE_COMMANDS:
            raise ValueError(f"unknown panel command {kind!r}")
        # The table publishes and _table_changed builds from self._ui: set it
        # first, so the new screen is published once, not twice.
        self._ui = ui
        getattr(self.table, kind)(*args)
        return ui

    def subscribe(self, subscriber: Callable[[PanelState], None]) -> Callable[[], None]:
        """Call ``subscriber(state)`` after every change (on the writer thread)."""
        return self._subscribers.add(subscriber)

    def _table_changed(self, snapshot: Snapshot) -> None:
        self._publish()

    def _build(self) -> PanelState:
        snapshot = self.table.snapshot
        screen = controls.build(self._ui, snapshot.to_json(), self.ctx)
        return PanelState(self._ui, snapshot, screen)

    def _publish(self) -> PanelState:
        state = self._build()
        if state == self.state:
            return state
        self.state = state
        self._subscribers.notify(state)
        return state


def history_line(summary: MatchSummary) -> str:
    """One history row for a small screen: ``"Ann v Bob 6-4 6-3"``, winner first-marked."""
    names = [f"{n}*" if summary.winner == i else n for i, n in enumerate(summary.players)]
    status = {"abandoned": " (ended)", "active": " (live)"}.get(summary.status, "")
    return f"{' v '.join(names)} {summary.summary}{status}".strip()
