"""Names in every script on every board that shows names: golden images, and frames
that never fail for a glyph.

Each script's name plays each game against Latin names; the goldens (in
``golden/scripts/``) were looked at one by one: the name drawn whole or shortened by
its drawn width, in the script's own letters, right-to-left names in their reading
order, nothing running into the score.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from companion.inputs import Input
from companion.panel import Panel
from companion.store import Store
from companion.table import Table
from companion.ui import canvas, text
from companion.ui.controls import Context
from companion.ui.oled import render
from tests.screens.test_golden import GOLDEN, assert_golden
from tests.support import CATALOG

#: One name per script the phones accept, and the widest Latin name (16 capitals).
SCRIPTS = {
    "polish": "Łukasz",
    "czech": "Dvořák",
    "turkish": "Işık",
    "greek": "Σοφία",
    "cyrillic": "Ольга",
    "chinese": "李小龙",
    "hebrew": "דוד",
    "arabic": "محمد علي",
    "capitals": "WWWWWWWWWWWWWWWW",
}
CTX = Context(CATALOG, names=("Ann", "Bob", "Cy", "Di"))

Start = Callable[[Table, str], None]


def center_court(table: Table, name: str) -> None:
    table.start({"game": "center-court", "players": ["Bob", name], "options": {"sets": 3}})
    # Bob's serve is in: the status line names who returns it.
    table.act({"type": "serve", "card": 5, "roll": 2})


def center_court_won(table: Table, name: str) -> None:
    table.start({"game": "center-court", "players": [name, "Bob"], "options": {"sets": 1}})
    for _ in range(24):
        table.act({"type": "point", "winner": 0})


def dodgeball(table: Table, name: str) -> None:
    table.start({"game": "wizard-dodgeball", "players": [name, "Newts"],
                 "options": {"rosters": [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]}})


def alakaslam(table: Table, name: str) -> None:
    table.start({"game": "alakaslam", "players": [name, "Bob", "Cy", "Di"],
                 "options": {"characters": ["toots", "laurie", "wendolyn", "sarissia"]}})


def alakazoo(table: Table, name: str) -> None:
    table.start({"game": "alakazoo", "players": ["Ann", name, "Cleo"],
                 "options": {"first_player": 1}})


BOARDS: dict[str, Start] = {
    "cc": center_court,
    "cc-won": center_court_won,
    "wd": dodgeball,
    "slam": alakaslam,
    "zoo": alakazoo,
}


def frame(start: Start, name: str, *presses: str) -> Image.Image:
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(0))
        panel = Panel(table, CTX)
        start(table, name)
        for button in presses:
            panel.handle(Input(button))
        return render(panel.state, panel.ctx)


@pytest.mark.parametrize("script", SCRIPTS)
@pytest.mark.parametrize("board", BOARDS)
def test_a_name_in_any_script_is_drawn_on_every_board(board, script):
    (GOLDEN / "scripts").mkdir(exist_ok=True)
    assert_golden(frame(BOARDS[board], SCRIPTS[script]), f"scripts/{board}-{script}")


def test_a_name_is_drawn_in_its_own_letters_not_replacement_marks():
    """Every character of each script's name has a glyph in the scoreboards' fonts, and
    the Arabic and Hebrew names are drawn from their right (a name alone reads in its
    own direction)."""
    for name in SCRIPTS.values():
        for style in (canvas.SMALL, canvas.BODY, canvas.BOLD):
            assert text.REPLACEMENT not in "".join(c for _, c in text.runs(name, style))
    assert text.display("דוד") == "דוד"[::-1]
    assert text.display("דוד wins") == "דוד"[::-1] + " wins"
    # A number after a name in an English line stays after it (the Unicode algorithm
    # alone takes "+2" into the name's direction: "2+ דוד"); a name of two words too.
    assert text.display("דוד +2: own, first") == "דוד"[::-1] + " +2: own, first"
    assert text.display("דוד לוי 3-2 Ann") == "דוד לוי"[::-1] + " 3-2 Ann"


def test_names_are_shortened_by_their_drawn_width():
    """Four CJK characters take the room of eight Latin letters: the Center Court row
    (49 pixels of the bold font: seven Latin letters) keeps three of them and the dot."""
    short = canvas.short(["李小龙王芳张", "Bob"], 49, canvas.BOLD)
    assert short[0] == "李小龙." and canvas.text_width(short[0], canvas.BOLD) <= 49
    assert canvas.short(["Alexandra", "Bob"], 49, canvas.BOLD) == ["Alexan.", "Bob"]


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=40))
def test_no_text_fails_a_frame(words):
    """Any string at all (emoji, surrogates, combining marks, controls, right-to-left
    and CJK mixed) is measured and drawn in every style, in a box and on a line."""
    _image, draw = canvas.blank()
    for style in text.STYLES:
        canvas.write(draw, (0, 0), words, style)
        assert canvas.text_width(words, style) >= 0
        canvas.fit(words, style, 40)
    canvas.banner(draw, words)
    canvas.strip(draw, words, 44)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=16), min_size=2, max_size=4, unique=True))
def test_any_names_shorten_apart_within_their_room(names):
    for style, room in ((canvas.SMALL, 50), (canvas.BOLD, 49)):
        short = canvas.short(names, room, style)
        assert len(set(short)) == len(set(names))
        assert all(canvas.text_width(s, style) <= room for s in short)


@pytest.mark.parametrize("name", ["😀", "🎾🎾", "\u2b50"])
def test_a_name_of_emoji_alone_is_refused_with_a_reason(name):
    from companion.errors import InvalidAction

    with Store(":memory:") as store, pytest.raises(InvalidAction, match="letter or a digit"):
        Table(store, CATALOG).start({"game": "center-court", "players": [name, "Bob"]})


def test_a_name_with_an_emoji_is_drawn_with_a_replacement_mark():
    image = frame(center_court, "Ann 🎾")
    runs = "".join(c for _, c in text.runs("Ann 🎾", canvas.BOLD))
    assert runs == "Ann " + text.REPLACEMENT and image.getbbox() is not None
