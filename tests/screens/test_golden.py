"""Golden images of every screen, reached by pressing buttons on a real panel.

A frame that differs from its golden PNG fails the test and is written next
to it as ``NAME.actual.png`` to look at. After a deliberate change, refresh
the goldens with ``UPDATE_GOLDEN=1 ./test tests/screens`` and look at every
changed image before committing it.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from companion.controls import Context
from companion.inputs import Input
from companion.panel import Panel
from companion.screens import render
from companion.store import Store
from companion.table import Table

GOLDEN = Path(__file__).parent / "golden"
CTX = Context(names=("Ann", "Bob", "Cy", "Di"), address="http://192.168.1.23:8080/")
START = {"game": "center-court", "players": ["Ann", "Bob"], "options": {"sets": 3}}


def press(panel: Panel, *buttons: str) -> None:
    for b in buttons:
        hold = b.endswith("!")
        panel.handle(Input(b.rstrip("!"), hold=hold))


def points(table: Table, *winners: int) -> None:
    for w in winners:
        table.act({"type": "point", "winner": w})


def started(table: Table, panel: Panel) -> None:
    table.start(START)


SCENES: dict[str, Callable[[Table, Panel], None]] = {
    "welcome": lambda t, p: None,
    "setup": lambda t, p: press(p, "ok"),
    "setup-start": lambda t, p: press(p, "ok", *["next"] * 7),
    "board-new": started,
    "board-deuce": lambda t, p: (started(t, p), points(t, 0, 1, 0, 1, 0, 1)),
    "board-advantage": lambda t, p: (started(t, p), points(t, 0, 1, 0, 1, 0, 1, 1)),
    "board-fault": lambda t, p: (started(t, p),
                                 t.act({"type": "serve", "card": 5, "roll": 5})),
    "board-double-fault": lambda t, p: (started(t, p),
                                        t.act({"type": "serve", "card": 5, "roll": 5}),
                                        t.act({"type": "serve", "card": 2, "roll": 2})),
    "board-in-play": lambda t, p: (started(t, p), t.act({"type": "serve", "card": 4})),
    "board-tiebreak": lambda t, p: (started(t, p), points(t, *([0] * 4 + [1] * 4) * 6, 0, 1, 1)),
    "board-second-set": lambda t, p: (started(t, p), points(t, *[0] * 24, 1, 1, 0)),
    "board-over": lambda t, p: (started(t, p), points(t, *[1] * 48)),
    "serve": lambda t, p: (started(t, p), press(p, "ok")),
    "serve-five": lambda t, p: (started(t, p), press(p, "ok", "next", "next")),
    "roll": lambda t, p: (started(t, p), press(p, "ok", "next", "next", "ok!")),
    "return": lambda t, p: (started(t, p), t.act({"type": "serve", "card": 6, "roll": 1}),
                            press(p, "ok", "prev", "prev")),
    "menu": lambda t, p: (started(t, p), points(t, 0), press(p, "back")),
    "confirm": lambda t, p: (started(t, p), press(p, "back", "next", "ok")),
    "history": lambda t, p: (started(t, p), points(t, *[1] * 48), t.start(START),
                             points(t, 0), press(p, "back", "next", "next", "next", "ok")),
    "history-empty": lambda t, p: press(p, "prev"),
    "info": lambda t, p: press(p, "next"),
    # The phone awards the point while the return screen is open on the panel.
    "refused": lambda t, p: (started(t, p), t.act({"type": "serve", "card": 4}),
                             press(p, "ok"), points(t, 0), press(p, "ok")),
}


def frame(scene: str) -> Image.Image:
    table = Table(Store(":memory:"), rng=random.Random(0))
    panel = Panel(table, CTX)
    SCENES[scene](table, panel)
    return render(panel.state, CTX)


@pytest.mark.parametrize("scene", SCENES)
def test_screen_matches_its_golden_image(scene):
    image = frame(scene)
    assert image.size == (128, 64) and image.mode == "1"
    path = GOLDEN / f"{scene}.png"
    if os.environ.get("UPDATE_GOLDEN"):
        image.save(path)
    assert path.exists(), f"no golden image for {scene}: run UPDATE_GOLDEN=1 ./test tests/screens"
    with Image.open(path) as stored:
        golden = stored.convert("L")
    diff = ImageChops.difference(image.convert("L"), golden).getbbox()
    if diff is not None:
        image.save(GOLDEN / f"{scene}.actual.png")
    assert diff is None, f"{scene} differs from its golden image in {diff}"


def test_every_screen_has_a_scene():
    from companion.controls import _SCREENS

    shown = {"board"} | {name.split("-")[0] for name in SCENES}
    assert set(_SCREENS) <= shown
