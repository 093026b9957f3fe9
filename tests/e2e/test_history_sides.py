"""A stored match's players by side wherever they are listed (issue #37): the history
page and the spectators' "Last:" line say "A & B v C & D" for doubles, not "A v B v C v
D"; and a finished Alakazoo is a short list of places on the board. At 390 and 320 px
wide, with the widest names (16 capitals), nothing runs past the screen."""

from __future__ import annotations

import pytest

from tests.e2e.browser_support import PHONE, play, require_chromium, shot, start, url
from tests.games.zoo_matches import END, displays

expect = require_chromium().expect

A, B, C, D = "WWWWWWWWWWWWWWWA", "MMMMMMMMMMMMMMMB", "CHRISTOPHER WOLF", "WWWWWWWWWWWWWWWD"
#: Doubles, Ann and Cid against Bea and Dan (the ``teams`` option seats them so), to 1.
DOUBLES = {"game": "alakaslam", "players": [A, B, C, D],
           "options": {"characters": ["austin", "rich", "toots", "simon"],
                       "teams": [0, 1, 0, 1], "target": 1}}
#: Three players for themselves; no Dark Power reset, so three at 3 end the game.
ZOO = {"game": "alakazoo", "players": [A, B, C],
       "options": {"first_player": 0, "dark_power_reset": False}}
THREE_DARK = [{"type": "dark_power", "reason": "hand"}] * 3
SMALL = {"width": 320, "height": 640}


def overflow(page) -> list[str]:
    """The elements whose box runs past the screen's right edge, and the page's own width
    if it scrolls sideways."""
    return page.evaluate("""() => {
      const width = document.documentElement.clientWidth;
      const out = [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > width + 0.5)
        .map((e) => `${e.tagName}.${e.className}: ${Math.round(e.getBoundingClientRect().right)}`);
      const page = document.documentElement.scrollWidth;
      if (page > width) out.push(`page ${page}`);
      return out;
    }""")


@pytest.mark.parametrize("viewport", [PHONE, SMALL], ids=["390", "320"])
def test_the_players_by_side_and_the_places_of_a_free_for_all(companion, phones, viewport):
    page = phones.open(viewport)
    start(companion, ZOO)
    # Ann two creatures, Bob and Cid one each; each then takes Dark Power to 3: stuck.
    play(companion, *displays((1, 1), (2, 1)), *THREE_DARK, END,
         *displays((1, 2)), *THREE_DARK, END, *displays((1, 3)), *THREE_DARK, END)
    zoo = companion.table.snapshot.match
    assert zoo["status"] == "finished", zoo["view"]
    totals = [p["total"] for p in zoo["view"]["players"]]
    assert totals[0] > totals[1] == totals[2], totals  # Bob and Cid level: a shared 2nd

    # The board at the end: a row a player, place, name and total; the winner's marked.
    page.goto(url(companion))
    places = page.locator("#board .places li")
    expect(places).to_have_text([f"1st {A} {totals[0]}", f"=2nd {B} {totals[1]}",
                                 f"=2nd {C} {totals[2]}"])
    expect(page.locator("#board .places li.won")).to_have_text([f"1st {A} {totals[0]}"])
    shot(page, f"zoo-places-{viewport['width']}")
    # Each row a line, or two when a 16-letter name wraps: never a paragraph.
    for i in range(3):
        height, line = places.nth(i).evaluate(
            "(e) => [e.getBoundingClientRect().height, parseFloat(getComputedStyle(e).lineHeight)]")
        assert height <= 2 * line + 8, (i, height, line)
    assert overflow(page) == []

    # Doubles won by Bea & Dan's side; a rematch started and ended at once.
    start(companion, DOUBLES)
    play(companion, {"type": "point", "winner": 1})
    assert companion.table.snapshot.match["status"] == "finished"
    start(companion, DOUBLES)
    companion.runner.call(lambda t: t.abandon())
    # The empty table names the doubles by side.
    page.goto(url(companion))
    expect(page.locator("#board .empty")).to_contain_text(
        f"Last: {A} & {C} v {B} & {D}: {B} & {D} won")
    assert overflow(page) == []
    shot(page, f"last-sides-{viewport['width']}")

    page.goto(url(companion, "history"))
    rows = page.locator("#history > li")
    expect(rows).to_have_count(2)  # the rematch, nothing played, is folded away
    expect(rows.nth(0).locator(".who")).to_have_text(f"{A} & {C} v {B} & {D}")
    expect(rows.nth(0).locator(".who strong")).to_have_text([B, D])
    expect(rows.nth(0).locator(".result")).to_contain_text(f"{B} & {D} won")
    expect(rows.nth(1).locator(".who")).to_have_text(f"{A} v {B} v {C}")
    expect(rows.nth(1).locator(".who strong")).to_have_text([A])
    assert overflow(page) == []
    shot(page, f"history-sides-{viewport['width']}")
