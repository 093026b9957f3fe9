"""Driving a Panel in tests: presses (``"ok!"`` is a hold), counted presses, a phone's
change overtaking a screen, the view."""

from __future__ import annotations

from companion.inputs import Input
from companion.panel import Panel


def press(panel: Panel, *buttons: str) -> None:
    for b in buttons:
        panel.handle(Input(b.rstrip("!"), hold=b.endswith("!")))


def overtaken(panel: Panel, action: dict) -> None:
    """A phone records ``action`` while a panel screen is open: the screen must close
    back to the board with the notice, and the next press only clear it."""
    panel.table.act(action)
    assert panel.state.ui.screen == "board"
    assert panel.state.ui.message == "Changed from a phone"
    recorded = len(panel.table.match.events)
    press(panel, "ok")
    assert len(panel.table.match.events) == recorded and panel.state.ui.message is None


def view(panel: Panel) -> dict:
    return panel.table.snapshot.match["view"]


class Presses:
    """Counts the presses handed to a panel; ``to`` takes the shorter way round a list."""

    def __init__(self, panel: Panel) -> None:
        self.panel, self.count = panel, 0

    def __call__(self, *buttons: str) -> None:
        press(self.panel, *buttons)
        self.count += len(buttons)

    def to(self, label: str) -> None:
        """Move to the line starting with ``label`` (PREV or NEXT, fewer) and press OK."""
        items = self.panel.state.screen.items
        index = next(i for i, item in enumerate(items) if item.startswith(label))
        ahead = (index - self.panel.state.ui.cursor) % len(items)
        self(*(["next"] * ahead if ahead <= len(items) - ahead
               else ["prev"] * (len(items) - ahead)), "ok")
