"""AlakaSLAM's text on the 128x64 screen fits: nothing a player needs is cut off.

A line is read through the public drawing functions (``lines``, ``status``)
and the panel's screens, then measured in the pixels of its font.
"""

from __future__ import annotations

import random

from companion.games.alakaslam.oled import RIGHT, lines, status
from companion.panel import Panel
from companion.table import Table
from companion.ui.canvas import BODY, SMALL, WIDTH, char_width
from companion.ui.controls import Context
from tests.panel_support import Presses, press
from tests.support import CATALOG

LONG = ["Player 1", "Player 2", "Player 3", "Player 4"]
#: A list row: 120 pixels of the 6x10 font (companion/ui/canvas.py item_list).
ROW_CHARS = (WIDTH - 8) // char_width(BODY)


def table_of(store, players: list[str], characters: list[str], **options) -> Table:
    table = Table(store, CATALOG, rng=random.Random(5))
    table.start({"game": "alakaslam", "players": players,
                 "options": {"characters": characters, **options}})
    return table


def board_lines(table: Table) -> list[str]:
    """The lines under the court, each checked to fit the screen's width."""
    match = table.snapshot.match
    out = lines(match["view"], match["options"])
    for line in out:
        assert len(line) * char_width(SMALL) <= WIDTH, f"{line!r} is cut on the screen"
    return out


def test_a_bad_serves_point_line_fits_with_its_reason(memory_store):
    table = table_of(memory_store, LONG[2:], ["austin", "rich"])
    table.act({"type": "serve", "player": 0, "corner": "blue", "cards": ["R1"]})
    assert board_lines(table) == ["Player4 scores: bad serve"]


def test_a_doubles_point_line_names_the_winners_and_the_reason(memory_store):
    table = table_of(memory_store, ["Ann", "Bob", "Cid", "Dee"],
                     ["toots", "laurie", "rich", "austin"])
    table.act({"type": "serve", "player": 0, "corner": "red", "cards": ["B2"],
               "support": {"player": 1, "cards": ["B0"]}})
    table.act({"type": "shot", "player": 2, "cards": ["R0"], "support": {"player": 3,
                                                                        "cards": ["R0"]}})
    assert table.snapshot.match["view"]["last_point"]["reason"] == "net"
    assert board_lines(table) == ["Ann & Bob score: net"]


def test_long_doubles_names_are_shortened_so_no_return_still_shows(memory_store):
    table = table_of(memory_store, LONG, ["toots", "laurie", "rich", "austin"])
    table.act({"type": "point", "winner": 1, "reason": "no_return"})
    [line] = board_lines(table)
    # A pair takes the plural (RULINGS, third round), its names joined as everywhere.
    assert "&" in line and " score: " in line and line.endswith(": no return")


def test_the_coin_flip_line_fits(memory_store):
    table = table_of(memory_store, LONG[2:], ["austin", "rich"], first_server="coin")
    [line] = board_lines(table)
    assert line in ("Coin flip: Player3 serves", "Coin flip: Player4 serves")


def test_mulligans_show_before_the_serve_only(memory_store):
    table = table_of(memory_store, LONG[2:], ["austin", "rich"])
    table.act({"type": "mulligan", "player": 1})
    assert board_lines(table) == ["Play.4 mulligans: 7 cards"]
    table.act({"type": "serve", "player": 0, "corner": "red", "cards": ["B2"]})
    assert board_lines(table) == ["Last: Player 3 in 2,3"]


def test_the_last_shot_says_where_it_landed(memory_store):
    table = table_of(memory_store, ["Ann", "Bob"], ["austin", "rich"])
    table.act({"type": "serve", "player": 0, "corner": "red", "cards": ["B2"]})
    table.act({"type": "shot", "player": 1, "cards": ["R1"]})
    assert board_lines(table)[-1] == "Last: Bob in 1,2"


def test_the_status_tells_the_rally_from_the_target_and_fits(memory_store):
    table = table_of(memory_store, ["Ann", "Bob"], ["austin", "rich"], target=5)
    room = (WIDTH - RIGHT) // char_width(SMALL)
    assert status(table.snapshot.match["view"]) == "Serve · goal 5"
    table.act({"type": "serve", "player": 0, "corner": "red", "cards": ["B2"]})
    view = table.snapshot.match["view"]
    assert status(view) == "Rally 1 · goal 5"
    long_rally = status({**view, "rally": 12})
    assert long_rally.startswith("Rally 12") and long_rally.endswith("goal 5")
    assert len(long_rally) <= room, f"{long_rally!r} is cut beside the court"


def test_the_mulligan_menu_rows_fit(memory_store):
    table = table_of(memory_store, LONG[2:], ["austin", "rich"])
    panel = Panel(table, Context(CATALOG))
    press(panel, "prev")
    Presses(panel).to("Mulligan")
    assert panel.state.screen.items == ("Player3: 8 > 7 cards", "Player4: 8 > 7 cards")
    assert all(len(row) <= ROW_CHARS for row in panel.state.screen.items)


def test_an_alakaslam_history_row_fits(memory_store):
    table = table_of(memory_store, LONG[2:], ["austin", "rich"], target=1)
    table.act({"type": "point", "winner": 1, "reason": "out"})
    panel = Panel(table, Context(CATALOG))
    press(panel, "back")
    Presses(panel).to("History")
    row = panel.state.screen.items[0]
    assert row == "Play.3 v Play.4* 0-1"
    assert len(row) <= ROW_CHARS


def test_setup_character_rows_name_the_player(memory_store):
    panel = Panel(Table(memory_store, CATALOG), Context(CATALOG, names=("Ann", "Bob")))
    press(panel, "ok", "ok", "ok")  # New; Game: Wizard Dodgeball, then AlakaSLAM
    assert panel.state.screen.items[0] == "Game: AlakaSLAM"
    assert {"Ann: Austin", "Bob: Laurie"} <= set(panel.state.screen.items)
