"""The players' pages on a phone (390x844): the leaderboards, a player's page with the
rating's course drawn, axe-clean, and 16-character names that stay inside the screen;
the scoreboard's ratings line and the host form's suggestions."""

from __future__ import annotations

import json
import random

from hall.results import ClubResults
from hall.run import Hall
from tests.e2e.browser_support import (
    PHONE,
    accessibility_problems,
    broken_words,
    log_in,
    play,
    require_chromium,
    shot,
    start,
    url,
)
from tests.mqtt_support import free_port
from tests.players_support import alakaslam, alakazoo, center_court, random_match
from tests.support import CATALOG

expect = require_chromium().expect

LONG = ["Maximilianus Rex", "Wwwwwwwwwwwwwwww", "Alexandra Oberon", "Bartholomew Kent"]


def history(companion) -> None:
    rng = random.Random(11)

    def run(table):
        center_court(table, LONG[:2], 0)
        alakaslam(table, LONG, 1)
        alakazoo(table, LONG[1:], [1, 0, 2])
        for _ in range(12):
            random_match(table, rng, LONG)
    companion.runner.call(run, timeout=120)


def inside(page, selector: str) -> None:
    """Every element ``selector`` matches lies within the phone's width."""
    found = page.locator(selector)
    assert found.count(), selector
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways: {width}px"
    for i in range(found.count()):
        box = found.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], \
            (selector, i, box)


def test_leaderboards_and_a_player_page_fit_a_phone_and_are_axe_clean(companion, phone):
    history(companion)
    phone.goto(url(companion, "players"))
    sections = phone.locator("#boards section")
    expect(sections).to_have_count(4)
    expect(phone.locator("nav a[aria-current=page]")).to_have_text("Players")
    expect(sections.first.locator("tbody tr").first).to_be_visible()
    inside(phone, "#boards td a")
    assert accessibility_problems(phone) == []
    shot(phone, "players")
    phone.locator("#boards section", has_text="AlakaSLAM").locator("td a",
                                                                   has_text=LONG[2]).click()
    expect(phone).to_have_url(url(companion, "players/Alexandra%20Oberon"))
    expect(phone.locator("#name")).to_have_text(LONG[2])
    card = phone.locator("section.game-card", has_text="AlakaSLAM")
    expect(card.locator("figure.tl svg").first).to_be_visible()
    expect(card.locator(".results li").first).to_contain_text("against")
    inside(phone, "#player section, #player .results li, #name")
    assert accessibility_problems(phone) == []
    shot(phone, "player")


def test_the_scoreboard_shows_each_player_s_rating_and_the_form_suggests(companion, phone):
    companion.runner.call(lambda t: [center_court(t, ["Ann", "Bob"], 0),
                                     center_court(t, ["Cleo", "Bob"], 0)])
    companion.runner.call(lambda t: t.start({"game": "center-court",
                                             "players": ["Ann", "Dan"]}))
    phone.goto(url(companion))
    line = phone.locator("#ratings")
    expect(line.locator("a")).to_have_count(2)
    expect(line.locator("a").first).to_contain_text("Ann")
    expect(line.locator("a").nth(1)).to_have_text("Dan new")
    log_in(phone, companion, "host", "#board")
    phone.locator("#new-match summary").click()
    expect(phone.locator("#player-names option")).to_have_count(4)
    assert phone.locator("#players input").first.get_attribute("list") == "player-names"
    expect(phone.locator("#fair")).to_contain_text("Fair pairing")
    phone.locator("#fair button").click()
    names = phone.locator("#players input")
    pair = {names.nth(0).input_value(), names.nth(1).input_value()}
    assert len(pair) == 2 and pair <= {"Ann", "Bob", "Cleo"}


def test_the_hall_shows_the_club_leaderboard_with_no_table_and_no_broker(tmp_path, browser):
    """What the hall kept is on its page at once: no broker answers, no table is online."""
    kept = ClubResults(tmp_path / "hall", CATALOG)
    kept.receive("a", json.dumps({"table": "a", "epoch": 1, "results": [
        {"match": i, "game": "alakazoo", "players": LONG[:3],
         "standing": {"teams": [[0], [1], [2]], "places": [0, 0, 2]}, "started_at": i}
        for i in range(1, 4)]}).encode())
    kept.close()
    with Hall(f"mqtt://127.0.0.1:{free_port()}", host="127.0.0.1", port=0,
              prefix="table-companion", data=tmp_path / "hall") as hall:
        context = browser.new_context(viewport=PHONE)
        try:
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{hall.server.port}/")
            board = page.locator("#club")
            expect(board).to_be_visible()
            expect(board.locator("h3")).to_have_text(["Alakazoo"])
            expect(board.locator("li")).to_have_count(3)
            inside(page, "#club li")
            assert accessibility_problems(page, ("serious", "critical")) == []
            shot(page, "hall-club")
        finally:
            context.close()


def test_no_rating_chart_before_there_is_a_course(companion, phone):
    """After one match a player's rating has one point: no empty chart (issue #37)."""
    start(companion, {"game": "center-court", "players": ["Ann", "Bob"],
                      "options": {"sets": 1, "first_server": 0}})
    play(companion, *[{"type": "point", "winner": 0}] * 24)
    phone.goto(url(companion, "players/Ann"))
    expect(phone.locator(".game-card h2")).to_have_text("Center Court")
    expect(phone.locator(".game-card .timeline")).to_have_count(0)


def test_a_leaderboard_keeps_names_whole_on_a_phone_in_polish(companion, browser):
    """Polish headings are long ("Wygrana", "Ranking"): on a phone the wins are left out
    and a name of a word ("Łukasz", "Σοφία") stays whole on its line, at 390 and 320 px;
    a wide screen shows every column."""
    companion.runner.call(lambda t: center_court(t, ["Łukasz", "Σοφία"], 0))
    context = browser.new_context(locale="pl-PL")
    try:
        for width, height, columns in ((390, 844, 5), (320, 640, 5), (1920, 1080, 6)):
            page = context.new_page()
            page.set_viewport_size({"width": width, "height": height})
            page.goto(url(companion, "players"))
            assert page.evaluate("document.documentElement.lang") == "pl"
            table = page.locator(".board-table")
            expect(table.locator("tbody tr")).to_have_count(2)
            expect(table.locator("thead th:visible")).to_have_count(columns)
            assert broken_words(page, ".board-table") == [], width
            shot(page, f"players-pl-{width}")
            page.close()
    finally:
        context.close()
