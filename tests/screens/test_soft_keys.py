"""Soft-key labels: never longer than their cell, never touching a divider, names told apart."""

from __future__ import annotations

import random

import pytest

from companion.inputs import Input
from companion.panel import Panel
from companion.store import Store
from companion.table import Table
from companion.ui import canvas
from companion.ui.controls import SOFT_KEY_CHARS, SOFT_KEYS, Binding, Context, Outcome, Screen, Ui
from tests.support import CATALOG


def test_a_label_longer_than_its_cell_is_refused_where_it_is_made():
    with pytest.raises(ValueError, match="longer than 6 characters"):
        Binding("+Player", Outcome(Ui()))


@pytest.mark.parametrize("label", ["M" * SOFT_KEY_CHARS, "W" * SOFT_KEY_CHARS, "Return", "OK"])
def test_the_widest_labels_leave_a_clear_pixel_beside_each_divider(label):
    image, draw = canvas.blank()
    screen = Screen(keys={Input(b): Binding(label, Outcome(Ui())) for b in SOFT_KEYS})
    canvas.soft_keys(draw, screen)
    for i in range(1, len(SOFT_KEYS)):
        divider = i * canvas.KEY_CELL
        for y in range(canvas.KEYS_TOP + 1, canvas.HEIGHT):
            assert image.getpixel((divider, y)) == 1
            assert image.getpixel((divider - 1, y)) == 0, (label, divider, y)
            assert image.getpixel((divider + 1, y)) == 0, (label, divider, y)


@pytest.mark.parametrize("players", [["Player 1", "Player 2"], ["Alexandra", "Alexander"]])
def test_the_point_keys_name_each_player_differently(players):
    store = Store(":memory:")
    table = Table(store, CATALOG, rng=random.Random(1))
    table.start({"game": "center-court", "players": players})
    panel = Panel(table, Context(CATALOG))
    prev, next_ = panel.state.screen.label("prev"), panel.state.screen.label("next")
    assert prev != next_ and prev.startswith("+") and next_.startswith("+")
    store.close()
