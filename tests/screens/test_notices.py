"""A message on the OLED never hides the score and never outstays its news.

Short messages on a board ("Undone", "Changed from a phone", a short refusal)
are a strip over the board's last status line; every message but news from
outside the controls (damaged storage at start) ends on its own: at the next
change from elsewhere, or a few seconds after it appeared.
"""

from __future__ import annotations

import random
import threading

import pytest
from PIL import ImageChops

from app.config import Config
from app.runtime import Companion
from companion.inputs import Input
from companion.panel import MESSAGE_SECONDS, NOTICE_CHARS, Panel, PanelState
from companion.store import Store
from companion.table import Table
from companion.ui.canvas import SMALL, WIDTH, char_width
from companion.ui.controls import CHANGED
from companion.ui.oled import notice_top, render
from tests.screens.test_golden import CTX, SCENES, points, press, started
from tests.support import CATALOG

BOARDS = [name for name in SCENES if name.startswith("board-")]


@pytest.mark.parametrize("scene", BOARDS)
@pytest.mark.parametrize("message", ["Undone", CHANGED, "Ann: it is Bob's turn",
                                     "Undone: #21 hit #45: out"])  # NOTICE_CHARS long
def test_a_short_message_leaves_every_row_above_the_status_line_as_it_was(scene, message):
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(0))
        panel = Panel(table, CTX)
        SCENES[scene](table, panel)
        plain = render(panel.state, panel.ctx)
        panel.notify(message)
        shown = render(panel.state, panel.ctx)
        top = notice_top(CATALOG.kit(table.snapshot.match["game"]))
    changed = ImageChops.difference(plain.convert("L"), shown.convert("L")).getbbox()
    assert changed is not None, "the message is not drawn"
    assert changed[1] >= top, f"the message covers row {changed[1]} (the board's rows < {top})"


@pytest.fixture
def panel(store):
    table = Table(store, CATALOG, rng=random.Random(0))
    panel = Panel(table, CTX)
    started(table, panel)
    return panel


def test_undone_ends_at_the_next_change_from_a_phone(panel):
    points(panel.table, 0, 1)
    press(panel, "back!")
    assert panel.state.ui.message == "Undone: point to Bob"
    points(panel.table, 1)  # a phone records a point
    assert panel.state.ui.message is None


def test_a_refusal_ends_at_the_next_change_from_a_phone(panel):
    press(panel, "back!")  # nothing to undo
    assert panel.state.ui.message is not None
    points(panel.table, 0)
    assert panel.state.ui.message is None


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def timed(store):
    clock = Clock()
    table = Table(store, CATALOG, rng=random.Random(0))
    panel = Panel(table, CTX, clock=clock)
    started(table, panel)
    return panel, clock


def test_a_message_ends_when_its_time_is_up(timed):
    panel, clock = timed
    points(panel.table, 0)
    press(panel, "back!")
    assert panel.expire() == MESSAGE_SECONDS and panel.state.ui.message == "Undone: point to Ann"
    clock.now += MESSAGE_SECONDS
    assert panel.expire() is None and panel.state.ui.message is None


def test_a_new_message_gets_its_whole_time(timed):
    panel, clock = timed
    points(panel.table, 0, 0)
    press(panel, "back!")
    clock.now += 3
    press(panel, "back!")  # "Undone: point to Ann" again: the same words, new news
    assert panel.expire() == MESSAGE_SECONDS


def test_the_changed_notice_ends_in_time_however_many_changes_follow(timed):
    """The phone keeps scoring: the notice still goes, its time counted from when it came."""
    panel, clock = timed
    panel.table.act({"type": "serve", "card": 4})
    press(panel, "ok")  # the return screen
    points(panel.table, 0)
    assert panel.state.ui.message == CHANGED
    for _ in range(4):
        clock.now += 1
        points(panel.table, 1)
        panel.expire()
    assert panel.state.ui.message is None


def test_news_from_outside_the_controls_stays_until_a_press(timed):
    panel, clock = timed
    panel.notify("Damaged data was set aside")
    clock.now += 60
    assert panel.expire() is None
    points(panel.table, 0)
    assert panel.state.ui.message == "Damaged data was set aside"
    press(panel, "ok")
    assert panel.state.ui.message is None


def test_a_message_ends_on_its_own_on_a_running_table(tmp_path):
    with Companion(Config(), sim=True, data=tmp_path) as c:
        c.runner.call(lambda table: (started(table, c.panel), points(table, 0)))
        gone = threading.Event()

        def watch(state: PanelState) -> None:
            if state.ui.message is None and state.snapshot.match["view"]["points"][0] == "0":
                gone.set()  # undone, and the message gone

        c.runner.call(lambda _: c.panel.subscribe(watch))
        c.input(Input("back", hold=True))  # undo: "Undone"
        assert gone.wait(MESSAGE_SECONDS + 5), "the message stayed"
        shown = c.runner.call(lambda _: c.panel.state)
        assert shown.ui.message is None and shown.snapshot.match["view"]["points"][0] == "0"


def test_the_panel_s_notice_budget_is_the_strip_s():
    """An "Undone: …" the panel lets through is a one-line strip, never a banner."""
    assert WIDTH // char_width(SMALL) - 1 == NOTICE_CHARS


@pytest.mark.parametrize(("play", "said"), [
    (lambda t: points(t, 0, 1), "Undone: point to Bob"),
    (lambda t: t.act({"type": "serve", "card": 3}), "Undone: serve"),
])
def test_an_undo_on_the_panel_says_what_it_took_back(panel, play, said):
    play(panel.table)
    press(panel, "back!")
    assert panel.state.ui.message == said


def test_an_undo_too_long_to_say_in_the_strip_says_undone(store):
    table = Table(store, CATALOG, rng=random.Random(0))
    panel = Panel(table, CTX)
    table.start({"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
                 "options": {"rosters": [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]}})
    table.act({"type": "cast", "caster": 21, "spell": "freeze", "targets": [45]})
    assert len("Undone: " + table.snapshot.match["view"]["last"]["text"]) > NOTICE_CHARS
    press(panel, "back!")
    assert panel.state.ui.message == "Undone"
