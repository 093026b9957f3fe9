"""A club TV read from three metres (issue #37): at 1920x1080 the hall board (tables with
16-capital names, one won, one offline), the club leaderboard under it and the club
night's /night page, in both themes. On each: no text under 24 px, no word broken across
lines (a name, a badge such as "Won"), nothing wider than the screen, and the cards and
the leaderboard's games using the screen's width. Screenshots: SCREENSHOTS/tv-*.png."""

from __future__ import annotations

import json

import pytest

from companion.topics import OFFLINE, TableInfo, Topics
from tests.e2e.browser_support import broken_words, require_chromium, shot
from tests.e2e.test_night_pages import night  # noqa: F401 (a fixture)
from tests.hall.conftest import hall, sender  # noqa: F401 (fixtures)
from tests.hall.hall_support import Watch
from tests.hall.night_support import HttpDirector
from tests.mqtt_support import mosquitto  # noqa: F401 (a fixture)

expect = require_chromium().expect

TV = {"width": 1920, "height": 1080}
PREFIX = "table-companion"
#: The widest names the form takes: 16 capitals, no space to break at.
LONG = ["WWWWWWWWWWWWWWWA", "MMMMMMMMMMMMMMMB", "WWWWWWWWWWWWWWWC", "MMMMMMMMMMMMMMMD"]
SMALLEST = 24

#: What a reader across the room would miss: each visible text smaller than the least
#: size, and the page wider than the screen (a word laid out on two lines: broken_words).
TV_PROBLEMS = """(least) => {
  const found = [];
  const doc = document.documentElement;
  const said = (el) => `${el.tagName.toLowerCase()}.${el.className}`;
  if (doc.scrollWidth > innerWidth) found.push(`page ${doc.scrollWidth}px wide`);
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el.getClientRects().length) continue;
    if (el.closest('.sr-only, [hidden], script, style')) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    const text = node.textContent.trim().slice(0, 30);
    if (size < least) found.push(`${size}px: "${text}" (${said(el)})`);
  }
  return found;
}"""


def results(table: str, *matches: tuple[int, list[str], int]) -> str:
    """A table's ``results`` message: each match (id, two players, the winner's index)."""
    return json.dumps({"table": table, "epoch": 7, "results": [
        {"match": m, "game": "center-court", "players": players,
         "standing": {"teams": [[0], [1]], "places": [0 if w == 0 else 1, 1 if w == 0 else 0]},
         "started_at": 1000.0 + m} for m, players, w in matches]})


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_hall_and_its_leaderboard_read_from_across_the_room(hall, sender, browser,  # noqa: F811
                                                                 scheme):
    live = sender.table(TableInfo("t1", "Table 1 (by the window)"))
    live.start({"game": "center-court", "players": LONG[:2]})
    live.act({"type": "point", "winner": 1})
    won = sender.table(TableInfo("t2", "Table 2"))
    won.start({"game": "alakaslam", "players": LONG,
               "options": {"characters": ["austin", "rich", "toots", "simon"], "target": 1}})
    won.act({"type": "point", "winner": 0})
    zoo = sender.table(TableInfo("t3", "Table 3"))
    zoo.start({"game": "alakazoo", "players": LONG[:3], "options": {"first_player": 0}})
    sender.table(TableInfo("t4", "Table 4"))
    sender.send(Topics(PREFIX, "t4").availability, OFFLINE)
    sender.send(f"{PREFIX}/t1/results", results(
        "t1", (1, LONG[:2], 0), (2, [LONG[2], "Łukasz"], 1), (3, ["Σοφία", "李小龙"], 0)))
    Watch(hall.server.port).until(lambda w: len(w.cards) == 4 and all(
        c["summary"] for c in w.cards.values() if c["online"] is not False)).close()
    page = browser.new_context(viewport=TV, color_scheme=scheme).new_page()
    try:
        page.goto(hall.urls[0])
        expect(page.locator(".tcard")).to_have_count(4)
        expect(page.locator(".club-list li").first).to_be_visible()
        expect(page.locator(".tcard[data-id='t2'] .chip.won")).to_have_text("Won")
        problems = page.evaluate(TV_PROBLEMS, SMALLEST) + broken_words(page)
        # The width is used: three cards a row, each a third of the screen; the leaderboard's one
        # game across the row, not a narrow column beside empty space.
        widths = page.locator(".tcard").evaluate_all("(cs) => cs.map((c) => c.offsetWidth)")
        board = page.locator(".club-game").first.bounding_box()["width"]
        shot(page, f"tv-hall-{scheme}")
    finally:
        page.context.close()
    assert problems == [], "\n".join(problems)
    assert min(widths) >= TV["width"] * 0.3, widths
    assert board >= TV["width"] * 0.9, board


def test_the_night_on_the_tv_read_from_across_the_room(night, browser):  # noqa: F811
    board, tables, watch = night
    director = HttpDirector(board.urls[0])
    status, event = director.request("POST", "/api/events", {
        "name": "Thursday Swiss at the club", "game": "center-court", "options": {"sets": 1},
        "format": "swiss", "rounds": 2, "players": [*LONG, "Łukasz"], "tables": ["t1", "t2"]})
    assert status == 200, event
    director.change(f"/api/events/{event['id']}/rounds", {}, event["id"])
    offers = watch.until(lambda o: o.get("t1"))
    tables["t1"].start(offers["t1"])
    tables["t1"].table.act({"type": "point", "winner": 0})
    tables["t1"]._summary()
    page = browser.new_context(viewport=TV, color_scheme="dark").new_page()
    try:
        page.goto(f"{board.urls[0]}night")
        expect(page.locator("#games .game")).to_have_count(3)
        expect(page.locator("#games .game.st-playing .line")).to_contain_text("Live:")
        expect(page.locator("#standings tbody tr")).to_have_count(5)
        problems = page.evaluate(TV_PROBLEMS, SMALLEST) + broken_words(page)
        shot(page, "tv-night")
    finally:
        page.context.close()
    assert problems == [], "\n".join(problems)
