"""The generic faces on the OLED: a game that brings no board of its own (the test-only
First to N, in these tests' catalog) is drawn as names and scores from its card,
its actions listed from its legal offers."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.panel import Panel
from companion.store import Store
from companion.table import Table
from companion.ui.controls import GENERIC_SCREENS, offer_label
from companion.ui.oled import render
from tests.panel_support import press
from tests.screens.test_golden import CTX, assert_golden
from tests.support import with_first_to

START = {"game": "first-to", "players": ["Ann", "Bob"], "options": {"target": 3}}

SCENES = {
    "generic-board": lambda t, p: t.start(START),
    "generic-board-scored": lambda t, p: (t.start(START), press(p, "ok", "next", "ok")),
    "generic-play": lambda t, p: (t.start(START), press(p, "ok", "next")),
    "generic-board-won": lambda t, p: (t.start(START), *(press(p, "ok", "ok") for _ in range(3))),
    "generic-board-notice": lambda t, p: (t.start(START), press(p, "ok", "ok", "back!")),
}


@pytest.mark.parametrize("scene", SCENES)
def test_generic_face_matches_its_golden_image(scene):
    with Store(":memory:") as store:
        table = Table(store, with_first_to(), rng=random.Random(0))
        panel = Panel(table, replace(CTX, catalog=table.catalog))
        SCENES[scene](table, panel)
        assert_golden(render(panel.state, panel.ctx), scene)


def test_every_generic_screen_has_a_scene():
    assert {f"generic-{name}" for name in GENERIC_SCREENS} <= set(SCENES)


@pytest.mark.parametrize("action, said", [
    ({"type": "point", "seat": 1}, "Point Bob"),
    ({"type": "point", "seat": 2}, "point seat 2"),  # no such seat: said as it is
    ({"type": "point", "seat": True}, "point seat True"),
    ({"type": "end_turn"}, "end turn"),
    ({"type": "serve", "card": 3, "roll": 5}, "serve card 3 roll 5"),
])
def test_a_generic_list_row_says_its_action_in_words(action, said):
    assert offer_label(action, ["Ann", "Bob"]) == said
