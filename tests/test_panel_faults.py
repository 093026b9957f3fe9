"""A fault of the companion's own while handling a press is never silent.

A refusal (an illegal action) is the player's to read on the OLED; a bug is
something else: it is logged with the input that met it, the OLED says that
the press failed, and the table goes on taking presses.
"""

from __future__ import annotations

import logging
import random

from app.config import Config
from app.runtime import Companion
from companion.inputs import Input
from companion.panel import FAULT, Panel
from companion.table import Table
from companion.ui import controls
from companion.ui.oled import render
from tests.support import CATALOG

CC_START = {"game": "center-court", "players": ["Ann", "Bob"],
            "options": {"first_server": 0}}


def _failing_undo(table: Table) -> None:
    raise RuntimeError("a bug in undo")


def test_a_fault_in_a_command_is_logged_with_its_input_and_shown(store, monkeypatch, caplog):
    table = Table(store, CATALOG, rng=random.Random(1))
    table.start(CC_START)
    table.act({"type": "point", "winner": 0})
    panel = Panel(table)
    monkeypatch.setattr(Table, "undo", _failing_undo)

    with caplog.at_level(logging.ERROR, logger="companion.panel"):
        state = panel.handle(Input("back", hold=True))

    assert state.ui.screen == "board" and state.ui.message == FAULT
    frame = render(state, panel.ctx).tobytes()
    (record,) = [r for r in caplog.records if r.name == "companion.panel"]
    assert "back" in record.getMessage() and record.exc_info is not None
    assert len(table.match.events) == 1  # nothing was taken back

    monkeypatch.undo()
    panel.handle(Input("ok"))  # clears the message: the panel still answers
    assert panel.state.ui.message is None
    assert render(panel.state, panel.ctx).tobytes() != frame  # the OLED showed the fault
    panel.handle(Input("back", hold=True))
    assert len(table.match.events) == 0


def test_a_fault_the_panel_cannot_show_is_logged_by_the_input_lane(tmp_path, monkeypatch, caplog):
    """Even when no screen can be built, the press's failure reaches the log (before,
    the lane's future held the exception and nobody read it)."""
    with Companion(Config(), sim=True, data=tmp_path) as c:
        def broken(*args: object, **kwargs: object) -> None:
            raise KeyError("no screen for this game")

        monkeypatch.setattr(controls, "build", broken)
        with caplog.at_level(logging.ERROR):
            c.input(Input("ok"))
            c.runner.call(lambda _: None)  # the press was handled before this ran
        monkeypatch.undo()
        messages = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert any("ok" in m and "failed" in m for m in messages), messages
        # The table goes on: the next press is handled as usual.
        c.input(Input("ok"))
        assert c.runner.call(lambda _: c.panel.state).screen is not None
