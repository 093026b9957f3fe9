"""The hall's director's word in the table's own history (issue 35, item 1): a doubles
match played for a club night, corrected at the hall, reads as the director's result on
the history page, with the table's own play named beside it. At 390 and 320 px wide,
with the widest names (16 capitals), nothing runs past the screen."""

from __future__ import annotations

import pytest

from companion.rulings import Ruling
from tests.e2e.browser_support import PHONE, play, require_chromium, shot, start, url
from tests.e2e.test_history_sides import DOUBLES, SMALL, A, B, C, D, overflow

expect = require_chromium().expect

EVENT = {"id": "e-1", "name": "Tuesday doubles", "round": 1, "pairing": "r1-1",
         "offer": "o-1"}


@pytest.mark.parametrize("viewport", [PHONE, SMALL], ids=["390", "320"])
def test_a_correction_at_the_hall_reads_as_the_directors_in_the_history(
        companion, phones, viewport):
    page = phones.open(viewport)
    start(companion, {**DOUBLES, "event": EVENT})
    play(companion, {"type": "point", "winner": 1})  # Bea & Dan's side wins at the table
    table = companion.table
    match = table.match_id
    ruling = Ruling("e-1-9", table.store.epoch, match, "e-1", "r1-1", "corrected",
                    "score sheet signed by both sides",
                    {"teams": [[0, 2], [1, 3]], "places": [0, 1]})
    assert companion.runner.call(lambda t: t.apply_rulings([ruling])) is not None
    page.goto(url(companion, "history"))
    row = page.locator("#history > li").first
    expect(row.locator(".who strong")).to_have_text([A, C])
    expect(row.locator(".result .outcome")).to_have_text(f"{A} & {C} won")
    expect(row.locator(".result .ruling")).to_have_text(
        f" · Corrected by the hall's director: score sheet signed by both sides "
        f"(played: {B} & {D} won)")
    assert overflow(page) == []
    shot(page, f"history-ruling-{viewport['width']}")
