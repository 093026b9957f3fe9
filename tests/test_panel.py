"""The panel: button presses through the controls to the table, as players use it."""

from __future__ import annotations

import random

import pytest

from companion.inputs import Input
from companion.panel import Panel
from companion.store import Store
from companion.table import Table
from companion.ui.controls import SOFT_KEYS, Context, Ui, build
from tests.panel_support import Presses, press, view
from tests.support import CATALOG

CTX = Context(CATALOG, names=("Ann", "Bob", "Cy"), address="http://10.0.0.2:8080/")
START = {"game": "center-court", "players": ["Ann", "Bob"], "options": {"sets": 1}}


@pytest.fixture
def panel():
    with Store(":memory:") as store:
        yield Panel(Table(store, CATALOG, rng=random.Random(3)), CTX)


def test_set_up_and_start_a_match_with_the_buttons(panel):
    press(panel, "ok")  # New
    assert panel.state.ui.screen == "setup"
    press(panel, "next", "ok")  # P1: Ann -> Cy (Bob is taken by P2)
    press(panel, "next", "next", "ok", "ok")  # Sets: 3 -> 5 -> 1
    press(panel, "prev", "prev")  # back up to P2... then down to Start
    press(panel, *["next"] * 6)
    assert panel.state.screen.label("ok") == "Start"
    press(panel, "ok")
    match = panel.table.snapshot.match
    assert match["players"] == ["Cy", "Bob"] and match["options"]["sets"] == 1
    assert panel.state.ui.screen == "board"


def test_points_from_the_panel_and_the_seat_buttons(panel):
    panel.table.start(START)
    press(panel, "prev", "next", "seat2", "seat1", "seat1")
    assert view(panel)["points"] == ["40", "30"]


def test_serve_with_the_device_rolling(panel):
    panel.table.start(START)
    press(panel, "ok", "next", "next", "ok")  # serve screen opens on 3; move to 5
    last = view(panel)["last_serve"]
    assert last["card"] == 5 and last["roll"] in (1, 2, 5, 6)


def test_serve_with_a_physical_roll(panel):
    panel.table.start(START)
    press(panel, "ok", "prev", "ok!")  # card 2, hold OK: own die
    assert panel.state.ui.screen == "roll"
    press(panel, "next", "ok")  # faces 1, 2, 5, 6: the 2
    assert view(panel)["last_serve"] == {"player": 0, "card": 2, "roll": 2, "fault": True}
    assert view(panel)["call"] == "fault"


def test_return_from_the_panel(panel):
    panel.table.start(START)
    panel.table.act({"type": "serve", "card": 6, "roll": 1})
    press(panel, "ok")
    assert panel.state.screen.hint == "play 6"
    press(panel, "prev", "prev", "ok")
    assert panel.table.match.events[-1] == {"type": "return", "card": 4, "count": 3}


def open_menu_item(panel: Panel, label: str) -> None:
    press(panel, "back")
    press(panel, *["next"] * panel.state.screen.items.index(label), "ok")


@pytest.mark.parametrize(("screen", "reach"), [
    ("board", lambda p: None),
    ("serve", lambda p: press(p, "ok")),
    ("roll", lambda p: press(p, "ok", "prev", "ok!")),
    ("menu", lambda p: press(p, "back")),
    ("setup", lambda p: open_menu_item(p, "New match")),
    ("history", lambda p: open_menu_item(p, "History")),
    ("info", lambda p: open_menu_item(p, "Phone page")),
    ("confirm", lambda p: open_menu_item(p, "End match")),
])
def test_holding_back_is_undo_on_every_screen(panel, screen, reach):
    panel.table.start(START)
    press(panel, "prev", "prev")
    reach(panel)
    assert panel.state.ui.screen == screen
    press(panel, "back!")
    assert view(panel)["points"] == ["15", "0"]
    assert panel.state.ui.screen == "board"
    assert panel.state.ui.message == "Undone: point to Ann"  # the board barely changes: said
    press(panel, "prev")  # the next press acts as usual and clears it
    assert view(panel)["points"] == ["30", "0"] and panel.state.ui.message is None


def test_rematch_is_one_press_from_the_result(panel):
    panel.table.start({**START, "options": {"sets": 1, "first_server": "coin"}})
    press(panel, *["next"] * 24)
    assert view(panel)["winner"] == 1
    assert panel.state.screen.label("ok") == "Again"
    first = panel.table.match_id
    press(panel, "ok")
    match = panel.table.snapshot.match
    assert panel.table.match_id == first + 1 and match["view"]["winner"] is None
    assert match["players"] == ["Ann", "Bob"] and match["options"]["coin_flip"] is True


def test_ending_a_match_needs_a_confirmation(panel):
    panel.table.start(START)
    press(panel, "back")
    items = panel.state.screen.items
    press(panel, *["next"] * items.index("End match"), "ok")
    assert panel.state.ui.screen == "confirm"
    press(panel, "back")  # Keep
    assert panel.table.match is not None and panel.state.ui.screen == "menu"
    press(panel, *["next"] * items.index("End match"), "ok", "ok")
    assert panel.table.match is None


def test_a_refusal_is_shown_and_cleared_by_the_next_press(panel):
    panel.table.start(START)
    open_menu_item(panel, "New match")
    before = panel.table.snapshot
    press(panel, "back!")  # undo, with nothing to undo yet
    assert panel.state.ui.message
    assert panel.table.snapshot == before
    open_menu_item(panel, "New match")  # acts (the menu opens) and clears the refusal
    assert panel.state.ui.message is None and panel.state.ui.screen == "setup"


def test_starting_a_new_match_over_an_unfinished_one_ends_it_first_and_keeps_the_setup(panel):
    panel.table.start(START)
    first = panel.table.match_id
    open_menu_item(panel, "New match")
    press(panel, "next", "ok")  # P1: Ann -> Cy
    Presses(panel).to("Sets: Best of 1")  # -> 3
    items = panel.state.screen.items
    Presses(panel).to("Start")
    assert panel.state.ui.screen == "confirm" and panel.table.match_id == first
    press(panel, "back")  # Keep: the match goes on, the setup is as it was left
    assert panel.state.ui.screen == "setup" and panel.state.screen.items == items
    assert panel.table.snapshot.match["status"] == "active"
    press(panel, "ok", "ok")  # Start, End
    assert panel.table.snapshot.match is None
    assert panel.state.ui.screen == "setup" and panel.state.screen.items == items
    assert panel.state.screen.label("ok") == "Start"
    press(panel, "ok")
    match = panel.table.snapshot.match
    assert panel.table.match_id == first + 1
    assert match["players"] == ["Cy", "Bob"] and match["options"]["sets"] == 3


def test_history_screen_lists_matches(panel):
    panel.table.start(START)
    press(panel, *["next"] * 24)
    open_menu_item(panel, "History")
    assert panel.state.screen.items == ("Ann v Bob* 0-6",)


def test_history_screen_marks_both_players_of_a_winning_team(panel):
    panel.table.start({"game": "alakaslam", "players": ["Ann", "Bea", "Cid", "Dan"],
                       "options": {"characters": ["austin", "rich", "toots", "simon"],
                                   "target": 1}})
    panel.table.act({"type": "point", "winner": 1})
    open_menu_item(panel, "History")
    assert panel.state.screen.items[0].startswith("Ann v Bea v Cid* v Dan* 0-1")


def test_phone_changes_reach_the_panel_subscribers(panel):
    frames = []
    panel.subscribe(frames.append)
    panel.table.start(START)
    panel.table.act({"type": "point", "winner": 0})
    assert [f.snapshot.version for f in frames] == [1, 2]


def test_soft_keys_always_name_what_the_button_does(panel):
    panel.table.start(START)
    for screen in ("board", "serve", "roll", "return", "menu", "setup", "history", "info",
                   "confirm"):
        built = build(Ui(screen=screen, card=5), panel.table.snapshot.to_json(), CTX)
        for button in SOFT_KEYS:
            binding = built.keys.get(Input(button))
            assert (binding is None) == (built.label(button) == "")


def test_a_device_rolled_serve_of_the_servers_last_card_is_two_presses(panel):
    panel.table.start(START)
    press(panel, "ok", "next", "next", "ok")  # Ann's first serve: the row opens on 3; 5
    press(panel, "prev")  # Ann wins the point
    presses = Presses(panel)
    presses("ok", "ok")  # Serve, Serve: the row opens on Ann's 5
    assert presses.count == 2
    event = panel.table.match.events[-1]
    assert event["type"] == "serve" and event["card"] == 5 and event["roll"] in (1, 2, 5, 6)
    assert view(panel)["last_serve_card"] == [5, None]


def test_the_serve_row_opens_on_each_servers_own_last_card(panel):
    panel.table.start(START)
    panel.table.act({"type": "serve", "card": 2, "roll": 1})
    press(panel, *["prev"] * 4)  # Ann holds; Bob serves the next game
    press(panel, "ok")
    assert panel.state.ui.cursor == 2  # Bob has not served: 3, never rolled
    press(panel, "next", "next", "next", "ok")  # Bob serves 6
    press(panel, *["next"] * 4)  # Bob holds; Ann serves again
    press(panel, "ok")
    assert panel.state.screen.items[panel.state.ui.cursor] == "2"
    # A fault counts as the last card too: the second serve opens on it.
    press(panel, "back")
    panel.table.act({"type": "serve", "card": 1, "roll": 1})
    press(panel, "ok")
    assert panel.state.screen.items[panel.state.ui.cursor] == "1"


def test_a_good_device_rolled_serve_shows_its_die_on_the_board(panel):
    from companion.games.center_court.oled import status

    panel.table.start(START)
    press(panel, "ok", "next", "next", "ok")  # card 5: seed 3 rolls it in
    last = view(panel)["last_serve"]
    assert last["card"] == 5 and not last["fault"]
    assert status(view(panel)).startswith(f"Die {last['roll']}: in  5 to Bob")
    press(panel, "ok", "ok")  # Bob returns with a 5: the die is old news
    assert status(view(panel)).startswith("5 to Ann")


def test_the_setup_offers_recent_players_first(panel):
    for players in (["Dora", "Ann"], ["Alexandra", "Alexander"]):  # the second is the newest
        panel.table.start({**START, "players": players})
        panel.table.abandon()
    press(panel, "ok", "next")  # New; on "P1: Ann"
    offered = []
    for _ in range(6):
        press(panel, "ok")
        offered.append(panel.state.screen.items[1])
    # The first OK offers the newest recent player (never a configured name before the
    # recent ones), then the rest, each once, round to the seat's own; Bob is P2's.
    assert offered == ["P1: Alexandra", "P1: Alexander", "P1: Dora", "P1: Cy", "P1: Ann",
                       "P1: Alexandra"]
    press(panel, *["next"] * 6, "ok")  # Start with Alexandra
    assert panel.table.snapshot.match["players"] == ["Alexandra", "Bob"]


def test_an_undo_from_a_phone_is_said_on_the_board_and_ends_at_the_next_change(panel):
    panel.table.start(START)
    panel.table.act({"type": "point", "winner": 1})
    panel.table.undo()  # a host's phone (or a second panel): not this panel's own press
    assert panel.state.ui.screen == "board"
    assert panel.state.ui.message == "Undone: point to Bob"
    panel.table.act({"type": "point", "winner": 0})
    assert panel.state.ui.message is None


def test_an_undo_and_a_redo_say_what_they_did_with_long_names(panel):
    """The OLED says what an undo took back and what a redo put back, the names shortened
    to fit its strip (it said a bare "Undone" for an AlakaSLAM serve of 16-letter names,
    and always a bare "Redone")."""
    names = ["WWWWWWWWWWWWWWWA", "MMMMMMMMMMMMMMMB", "CHRISTOPHER WOLF", "WWWWWWWWWWWWWWWD"]
    panel.table.start({"game": "alakaslam", "players": names,
                       "options": {"characters": ["laurie", "rich", "wendolyn", "simon"]}})
    panel.table.act({"type": "serve", "player": 0, "corner": "blue", "cards": ["R1"],
                     "support": {"player": 1, "cards": ["B1"]}})
    press(panel, "back!")
    said = panel.state.ui.message
    assert said.startswith("Undone: serve by WWW") and len(said) <= 24, said
    open_menu_item(panel, "Redo")
    said = panel.state.ui.message
    assert said.startswith("Redone: serve by WWW") and len(said) <= 24, said
    assert panel.table.snapshot.to_json()["redone"] == {"type": "serve", "by": names[0]}
