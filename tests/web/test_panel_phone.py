"""The panel and the host phone on one table: a screen never acts on a state it was not built for.

The panel lives on the table's writer thread and the phone's requests run
there too (the real HTTP API over a real store, as in the product). Every
screen of every game is reached with the golden images' scenes, so a screen
added later is covered as soon as it has a golden image.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from companion.inputs import Input
from companion.login_code import LoginCodes
from companion.panel import Panel, history_line
from companion.store import Store
from companion.table import Table, TableRunner
from companion.ui.controls import CHANGED, GENERIC_SCREENS, SCREENS, Ui
from tests.screens.test_golden import CTX, SCENES
from tests.support import CATALOG
from tests.web.conftest import START as CC_START

WD_START = {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
            "options": {"rosters": [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]}}
#: A move the phone can make in a match of each game that has nothing to undo.
MOVES = {"center-court": {"type": "point", "winner": 1},
         "wizard-dodgeball": {"type": "end_activation"},
         "alakaslam": {"type": "point", "winner": 1},
         "alakazoo": {"type": "end_turn"}}
#: Screens that stand on the match, not the table version: a move inside the
#: match leaves them open. Every other screen (a new one too) must close.
KEPT_ON_A_MOVE = {"board", "info", "code", "history", "setup", "wd-jersey", "wd-cards",
                  "confirm", "language"}
#: Screens that do not depend on the match: another match leaves them open.
KEPT_ON_A_NEW_MATCH = {"board", "info", "code", "history", "language"}


def end_screen(scene: str) -> tuple[str, bool]:
    """The screen a golden scene ends on, and whether a match is on the table then."""
    store = Store(":memory:")
    try:
        table = Table(store, CATALOG, rng=random.Random(0))
        panel = Panel(table, CTX, codes=LoginCodes())
        SCENES[scene](table, panel)
        return panel.state.ui.screen, table.snapshot.match is not None
    finally:
        store.close()


ENDS = {scene: end_screen(scene) for scene in SCENES}
#: The scenes that end on a screen other than the board.
SUB_SCREENS = [scene for scene, (screen, _) in ENDS.items() if screen != "board"]


@pytest.fixture
def panel(runner) -> Panel:
    ctx = replace(CTX, catalog=runner.table.catalog)
    return runner.call(lambda table: Panel(table, ctx, codes=LoginCodes()))


def press(runner: TableRunner, panel: Panel, *buttons: str) -> None:
    """Presses on the writer thread, as the buttons' input path makes them."""
    for b in buttons:
        inp = Input(b.rstrip("!"), hold=b.endswith("!"))
        runner.call(lambda _, inp=inp: panel.handle(inp))


def ui(runner: TableRunner, panel: Panel) -> Ui:
    return runner.call(lambda _: panel.state.ui)


def phone(host, path: str, body=None) -> None:
    response = host.post(path, body)
    assert response.status_code == 200, response.json


def phone_move(host, runner: TableRunner) -> None:
    """One change from the phone inside the match on the table: undo, or a move."""
    match = runner.table.snapshot.match
    if match["can_undo"]:
        phone(host, "/api/undo")
    else:
        phone(host, "/api/action", MOVES[match["game"]])


def phone_new_match(host, runner: TableRunner) -> None:
    """The phone ends the match on the table if it is unfinished, then starts another."""
    match = runner.table.snapshot.match
    if match is not None and match["status"] == "active":
        phone(host, "/api/match/end")
    phone(host, "/api/match", CC_START)


def test_every_screen_is_reached_by_a_scene():
    """The generic panel's screens (a game without a panel of its own) have their own test
    below, with the test-only game."""
    own = {*SCREENS, *(name for kit in CATALOG.kits.values() for name in kit.screens)}
    assert own <= {screen for screen, _ in ENDS.values()}
    assert set(GENERIC_SCREENS) == {"play"}


@pytest.mark.usefixtures("first_to_game")
def test_the_generic_play_list_closes_when_the_phone_plays(runner, panel, host):
    """A game with no panel of its own is played from the list of what ``legal`` offers:
    a list built on one state, closed by a change from elsewhere."""
    phone(host, "/api/match", {"game": "first-to", "players": ["Ann", "Bob"]})
    press(runner, panel, "ok", "next")  # Play, on the second seat's point
    assert ui(runner, panel).screen == "play"
    phone(host, "/api/action", {"type": "point", "seat": 0})
    check_after(runner, panel, "play", kept=False)
    assert runner.table.snapshot.match["view"]["scores"] == [1, 0]
    press(runner, panel, "ok")  # Play again: a match the phone starts closes it too
    assert ui(runner, panel).screen == "play"
    phone_new_match(host, runner)
    check_after(runner, panel, "play", kept=False)


def check_after(runner: TableRunner, panel: Panel, screen: str, kept: bool) -> None:
    """The screen closed with the notice and OK records nothing, or it is kept and current."""
    state = runner.call(lambda _: panel.state)
    before = runner.table.snapshot
    if not kept:
        assert (state.ui.screen, state.ui.message) == ("board", CHANGED)
        assert [state.screen.label(b) for b in ("prev", "next", "ok", "back")] == ["OK"] * 4
        press(runner, panel, "ok")
        assert runner.table.snapshot == before  # the press only cleared the notice
        assert ui(runner, panel).message is None
        return
    assert state.ui.screen == screen and not state.ui.notice
    if screen == "history":
        assert [line for _, line in state.ui.rows] == [
            history_line(s) for s in runner.table.history(20)]
    if screen == "confirm":
        press(runner, panel, "ok")  # End: the match it asked about, still on the table
        assert runner.table.snapshot.match is None
        assert runner.table.history(1)[0].id == before.match["id"]
    elif screen != "board":
        press(runner, panel, "ok")
        assert runner.table.snapshot == before


@pytest.mark.parametrize("scene", [s for s in SUB_SCREENS if ENDS[s][1]])
def test_a_phone_move_closes_every_draft(runner, panel, host, scene):
    runner.call(lambda table: SCENES[scene](table, panel))
    screen = ui(runner, panel).screen
    phone_move(host, runner)
    check_after(runner, panel, screen, kept=screen in KEPT_ON_A_MOVE)


@pytest.mark.parametrize("scene", SUB_SCREENS)
def test_a_match_started_from_a_phone_closes_every_screen_about_the_old_one(
        runner, panel, host, scene):
    runner.call(lambda table: SCENES[scene](table, panel))
    screen = ui(runner, panel).screen
    phone_new_match(host, runner)
    check_after(runner, panel, screen, kept=screen in KEPT_ON_A_NEW_MATCH)


# --- the cases the issue names ----------------------------------------------------------


def menu_to(runner: TableRunner, panel: Panel, label: str) -> None:
    state = ui(runner, panel)
    items = runner.call(lambda _: panel.state.screen.items)
    index = next(i for i, item in enumerate(items) if item.startswith(label))
    press(runner, panel, *["next"] * ((index - state.cursor) % len(items)), "ok")


def test_a_throw_screen_does_not_become_the_next_wizards(runner, panel, host):
    phone(host, "/api/match", WD_START)
    press(runner, panel, "ok")
    menu_to(runner, panel, "Throw")
    assert runner.call(lambda _: panel.state.screen.title) == "#1 throws at"
    phone(host, "/api/action", {"type": "end_activation"})  # #6 is active now
    assert (ui(runner, panel).screen, ui(runner, panel).message) == ("board", CHANGED)
    events = list(runner.table.match.events)
    press(runner, panel, "ok", "ok", "ok")  # what used to record a throw by #6 at #1
    assert list(runner.table.match.events) == events
    assert runner.call(lambda _: panel.state.screen.title) == "#6 throws at"


def test_a_return_screen_closes_when_the_phone_awards_the_point(runner, panel, host):
    phone(host, "/api/match", CC_START)
    phone(host, "/api/action", {"type": "serve", "card": 4})
    press(runner, panel, "ok")
    assert runner.call(lambda _: panel.state.screen.title) == "Return 4 with"
    phone(host, "/api/action", {"type": "point", "winner": 0})
    assert (ui(runner, panel).screen, ui(runner, panel).message) == ("board", CHANGED)
    before = runner.table.snapshot
    press(runner, panel, "ok")
    assert runner.table.snapshot == before and ui(runner, panel).message is None


def test_the_history_shows_a_match_the_phone_started(runner, panel, host):
    press(runner, panel, "prev")  # Hist
    assert ui(runner, panel).rows == ()
    phone(host, "/api/match", CC_START)
    state = runner.call(lambda _: panel.state)
    assert state.ui.screen == "history" and state.screen.items == ("Ann v Bob (live)",)


def test_the_history_cursor_stays_on_its_match_when_a_row_comes_in(runner, panel, host):
    for _ in range(2):
        phone(host, "/api/match", CC_START)
        phone(host, "/api/match/end")
    press(runner, panel, "prev", "next")  # Hist, on the older match
    older = ui(runner, panel).rows[1][0]
    phone(host, "/api/match", CC_START)
    state = ui(runner, panel)
    assert len(state.rows) == 3 and state.rows[state.cursor][0] == older


def test_the_menu_cursor_never_lands_on_an_entry_it_did_not_show(runner, panel, host):
    phone(host, "/api/match", CC_START)
    press(runner, panel, "back")
    menu_to_end = runner.call(lambda _: panel.state.screen.items).index("End match")
    press(runner, panel, *["next"] * menu_to_end)
    # A point from the phone makes Undo an entry, where End match was.
    phone(host, "/api/action", {"type": "point", "winner": 1})
    assert ui(runner, panel).message == CHANGED
    press(runner, panel, "ok")
    assert runner.table.snapshot.match["view"]["points"] == ["0", "15"]


def test_end_this_match_never_ends_the_one_the_phone_started(runner, panel, host):
    phone(host, "/api/match", CC_START)
    press(runner, panel, "back")
    menu_to(runner, panel, "End match")
    assert ui(runner, panel).screen == "confirm"
    phone(host, "/api/match/end")
    phone(host, "/api/match", CC_START)
    press(runner, panel, "ok", "ok")  # clear the notice; OK on the board opens the serve row
    assert runner.table.snapshot.match["status"] == "active"


def test_a_setup_closes_when_the_phone_starts_a_match(runner, panel, host):
    press(runner, panel, "ok")  # New
    assert ui(runner, panel).screen == "setup"
    phone(host, "/api/match", WD_START)
    assert (ui(runner, panel).screen, ui(runner, panel).message) == ("board", CHANGED)


def test_the_panels_own_commands_bring_no_notice(runner, panel):
    runner.call(lambda table: table.start(CC_START))
    press(runner, panel, "ok", "ok", "prev", "back!", "back")
    assert ui(runner, panel).message is None and not ui(runner, panel).notice


# --- a press made before a change it had not seen -----------------------------------------


def stale_press(runner: TableRunner, panel: Panel, change: Callable[[Table], object],
                button: str) -> None:
    """A press stamped before ``change``, which the writer handles first (as the queue does)."""
    seen = runner.call(lambda _: panel.epoch)
    runner.call(change)
    runner.call(lambda _: panel.handle(Input(button), seen))


def test_a_press_made_before_a_phone_change_is_not_acted_on(runner, panel):
    runner.call(lambda table: table.start(WD_START))
    stale_press(runner, panel, lambda table: table.act({"type": "end_activation"}), "next")
    events = list(runner.table.match.events)
    assert events == [{"type": "end_activation"}]  # the phone's; not #6's too
    assert ui(runner, panel).message == CHANGED
    press(runner, panel, "next")  # clears the notice
    assert len(runner.table.match.events) == 1
    press(runner, panel, "next")  # made on the board as it is: ends #6's activation
    assert len(runner.table.match.events) == 2


def test_a_press_made_before_the_notice_does_not_clear_it(runner, panel):
    runner.call(lambda table: table.start(CC_START))
    press(runner, panel, "ok")  # the serve row
    stale_press(runner, panel, lambda table: table.act({"type": "point", "winner": 0}), "ok")
    assert ui(runner, panel).message == CHANGED
    assert runner.table.snapshot.match["view"]["points"] == ["15", "0"]
