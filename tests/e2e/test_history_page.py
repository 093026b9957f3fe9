"""The history page on a phone: each match's game, players, result, local start time and
duration; a finished match opens to its board (the stats), its timeline place and its
match file; abandoned matches where nothing was played are folded away."""

from __future__ import annotations

import json
import time
from datetime import datetime
from zoneinfo import ZoneInfo

from app import cli
from companion.store import iso_utc
from tests.e2e.browser_support import (
    PHONE,
    above_the_fold,
    play,
    require_chromium,
    shot,
    start,
    url,
)

expect = require_chromium().expect

SLAM = {"game": "alakaslam", "players": ["Ann", "Bea", "Cid", "Dan"],
        "options": {"characters": ["austin", "rich", "toots", "simon"], "target": 1}}


def imported(tmp_path, record: dict, started: float) -> None:
    """A finished Center Court match begun at ``started``, added as `companion import` does."""
    file = tmp_path / "old.jsonl"
    points = [{"type": "point", "winner": 0}] * 48
    file.write_text("\n".join(json.dumps(x) for x in [{**record, "started": iso_utc(started)},
                                                       *points]) + "\n")
    assert cli.main(["import", str(file), "--data", str(tmp_path), "--seed", "1"]) == 0


def test_rows_say_game_result_local_time_and_duration(companion, browser, tmp_path):
    began = time.time() - 65.5 * 60  # 65 whole minutes before its last change (now)
    imported(tmp_path, {"game": "center-court", "players": ["Ann", "Bob"]}, began)
    start(companion, SLAM)
    companion.runner.call(lambda t: t.act({"type": "point", "winner": 1}))
    zone = "Pacific/Auckland"
    context = browser.new_context(viewport=PHONE, timezone_id=zone, locale="en-US")
    try:
        page = context.new_page()
        page.goto(url(companion, "history"))
        rows = page.locator("#history > li")
        expect(rows).to_have_count(2)
        slam, court = rows.nth(0), rows.nth(1)
        expect(slam.locator(".game")).to_have_text("AlakaSLAM")
        expect(slam.locator(".result")).to_have_text("Cid & Dan won · 0-1 · Cid & Dan: 1 no return")
        expect(slam.locator(".who")).to_have_text("Ann & Bea v Cid & Dan")
        expect(slam.locator(".who strong")).to_have_text(["Cid", "Dan"])
        expect(slam.locator(".duration")).to_have_text(" · under a minute")
        expect(court.locator(".game")).to_have_text("Center Court")
        expect(court.locator(".result")).to_contain_text("Ann won")
        expect(court.locator(".duration")).to_have_text(" · 1 h 05 min")
        # The start in the phone's zone, and the page says the zone is the phone's.
        local = datetime.fromtimestamp(int(began), ZoneInfo(zone))
        expect(court.locator("time")).to_contain_text(f"{local.hour % 12 or 12}:{local.minute:02d}")
        expect(court.locator("time")).to_contain_text(local.strftime("%b"))
        expect(page.locator("#zone")).to_have_text(f"Times are this phone's local time ({zone}).")
        for selector in ["#zone", "#history > li:nth-child(1) .result",
                         "#history > li:nth-child(1) time", "#history > li:nth-child(2) .result",
                         "#history > li:nth-child(2) .duration"]:
            above_the_fold(page, selector)
        shot(page, "history-rows")
    finally:
        context.close()


def test_a_finished_match_opens_to_its_board_stats_timeline_place_and_file(companion, phone):
    start(companion, SLAM)
    companion.runner.call(lambda t: t.act({"type": "point", "winner": 1}))
    start(companion, {"game": "center-court", "players": ["Eve", "Fay"]})  # the table moves on
    phone.goto(url(companion, "history"))
    finished = phone.locator("#history > li[data-status=finished]")
    expect(finished).to_have_count(1)
    more = finished.locator("details.more")
    expect(more.locator(".board")).to_be_hidden()
    more.locator("summary").press("Enter")  # keyboard opens it
    # The final board of that match (not the table's), with the game's stats table.
    expect(more.locator(".board .slam")).to_be_visible()
    expect(more.locator(".board table.stats")).to_be_visible()
    # The chart of that match (match 1), drawn by timeline.js once opened.
    expect(more.locator(".timeline figure.tl")).to_have_attribute("data-game", "alakaslam")
    link = more.locator("a.file")
    expect(link).to_have_attribute("href", "/api/matches/1/export")
    above_the_fold(phone, "#history > li[data-status=finished] details.more summary")
    answer = phone.request.get(url(companion, "api/matches/1/export"))
    assert answer.status == 200 and '"alakaslam"' in answer.text().splitlines()[0]
    shot(phone, "history-open")


def test_the_stored_match_api_answers_a_view_or_a_clear_404(companion, phone):
    start(companion, SLAM)
    companion.runner.call(lambda t: t.act({"type": "point", "winner": 1}))
    got = phone.request.get(url(companion, "api/matches/1")).json()
    assert got["game"] == "alakaslam" and got["status"] == "finished"
    assert got["view"] == companion.table.snapshot.match["view"]
    missing = phone.request.get(url(companion, "api/matches/99"))
    assert missing.status == 404 and "no match 99" in missing.json()["error"]


def test_abandoned_matches_with_nothing_played_are_folded_away(companion, phone):
    for _ in range(3):
        start(companion, {"game": "center-court", "players": ["Ann", "Bob"]})
        companion.runner.call(lambda t: t.abandon())
    # One where a point was played and taken back: still nothing played.
    start(companion, {"game": "center-court", "players": ["Ann", "Bob"]})
    companion.runner.call(lambda t: (t.act({"type": "point", "winner": 0}), t.undo(), t.abandon()))
    start(companion, {"game": "center-court", "players": ["Cid", "Dan"]})
    companion.runner.call(lambda t: (t.act({"type": "point", "winner": 0}), t.abandon()))
    phone.goto(url(companion, "history"))
    rows = phone.locator("#history > li")
    expect(rows).to_have_count(1)
    # Its score (in games) is 0-0 too: a point was played, so it stays in sight.
    expect(rows.first.locator(".who")).to_have_text("Cid v Dan")
    expect(rows.first.locator(".result")).to_have_text("Abandoned · 0-0")
    folded = phone.locator("#abandoned")
    expect(folded.locator("summary")).to_have_text("Abandoned before anything was played: 4")
    expect(folded.locator("li").first).to_be_hidden()
    above_the_fold(phone, "#abandoned summary")
    folded.locator("summary").click()
    expect(folded.locator("li")).to_have_count(4)
    expect(folded.locator("li").first).to_be_visible()
    shot(phone, "history-folded")


def stored(companion, count: int, name=lambda i: f"Ann {i}") -> None:
    """``count`` finished Center Court matches (Ann won 6-0), stored as `companion import` does."""
    start = {"game": "center-court", "players": ["?", "Bob"], "options": {"sets": 1}}
    for i in range(count):
        companion.store.import_match({**start, "players": [name(i), "Bob"]},
                                     [{"type": "point", "winner": 0}] * 24, status="finished",
                                     winner=0, summary="6-0", started_at=time.time() - 60)


def test_the_history_loads_a_page_at_a_time_and_searches_on_the_server(companion, phone):
    stored(companion, 55, lambda i: "Zed" if i in (3, 30, 52) else f"Ann {i}")
    asked: list[str] = []
    phone.on("request", lambda r: asked.append(r.url) if "/api/history" in r.url else None)
    phone.goto(url(companion, "history"))
    rows = phone.locator("#history > li")
    expect(rows).to_have_count(50)  # the newest page only: the page never holds them all
    expect(rows.first.locator(".who")).to_have_text("Ann 54 v Bob")
    more = phone.locator("#more")
    above_the_fold(phone, "#q")
    more.click()
    expect(rows).to_have_count(55)
    expect(rows.last.locator(".who")).to_have_text("Ann 0 v Bob")
    expect(more).to_be_hidden()
    # A table change: only what is new is asked for, the 55 are kept.
    asked.clear()
    start(companion, {"game": "center-court", "players": ["Cy", "Di"]})
    expect(rows).to_have_count(56)
    expect(rows.first.locator(".who")).to_have_text("Cy v Di")
    expect(rows.first.locator(".result")).to_have_text("In play")
    play(companion, *[{"type": "point", "winner": 1}] * 4)  # a game to Di
    expect(rows.first.locator(".result")).to_have_text("In play · 0-1")
    assert asked and all("after=55" in a for a in asked), asked
    # The search is the server's: three matches of the 56, a page of them.
    phone.locator("#q").fill("zed")
    phone.locator("#search button").click()
    expect(rows).to_have_count(3)
    expect(rows.locator(".who strong")).to_have_text(["Zed"] * 3)
    assert any("q=zed" in a for a in asked)
    expect(more).to_be_hidden()
    shot(phone, "history-search")
    phone.locator("#q").fill("nobody")
    phone.locator("#q").press("Enter")
    expect(rows).to_have_text(["No match found."])
    phone.locator("#q").fill("")
    phone.locator("#q").press("Enter")
    expect(rows).to_have_count(50)
    expect(more).to_be_visible()
