"""What the phones say about an empty table (issue #25): what is true, never "no match
yet" once matches were played."""

from __future__ import annotations

from tests.e2e.browser_support import play, require_chromium, start, url

expect = require_chromium().expect

CC = {"game": "center-court", "players": ["Ann", "Bob"], "options": {"sets": 1}}


def test_an_empty_table_says_what_the_last_match_came_to(companion, phone):
    phone.goto(url(companion))
    expect(phone.locator("#board .empty")).to_have_text("No match played yet.")
    start(companion, CC)
    play(companion, *[{"type": "point", "winner": 1}] * 24)
    start(companion, {**CC, "players": ["Cy", "Di"]})
    play(companion, {"type": "point", "winner": 0})
    companion.runner.call(lambda t: t.abandon())
    expect(phone.locator("#board .empty")).to_have_text(
        "No match in play. Last: Cy v Di: ended unfinished · 0-0")
    phone.goto(url(companion, "history"))
    expect(phone.locator("#history .who strong")).to_have_text(["Bob"])
    expect(phone.locator("#history .result").last).to_have_text("Bob won · 0-6")
