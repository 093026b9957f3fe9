"""A game with no page scripts of its own (the test-only First to N, registered with one
catalog line) is drawn by the host page's generic controls and the spectator's generic
board, and played from the phone."""

from __future__ import annotations

import pytest

from tests.e2e.browser_support import log_in, require_chromium, url

expect = require_chromium().expect


@pytest.mark.usefixtures("first_to_game")
def test_the_generic_controls_play_a_game_without_scripts(companion, phone, browser):
    companion.runner.call(lambda t: t.start({"game": "first-to", "players": ["Ann", "Bob"]}))
    log_in(phone, companion, "host", "#host")
    # One row of buttons per legal shape; a point's row goes to the thumb's bar.
    # (Their labels are host.js's to choose: a button per seat is what counts.)
    points = phone.locator("#quick [data-action=point] button")
    expect(points).to_have_count(2)
    points.nth(1).click()
    expect(phone.locator("#actions")).to_have_attribute("data-version", "2")
    assert companion.table.snapshot.match["view"]["scores"] == [0, 1]
    # The spectators' generic board draws the match's card (the face the hall card
    # reads): names, scores, whose turn, then the winner; no raw view (issue #37).
    spectator = browser.new_context().new_page()
    try:
        spectator.goto(url(companion))
        rows = spectator.locator("#board table.score tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.nth(1).locator("th")).to_contain_text("Bob")
        expect(rows.nth(1).locator("td.last")).to_have_text("1")
        expect(spectator.locator("#board pre")).to_have_count(0)
        for version in ("3", "4"):
            # One tap at a time, as a thumb plays: a tap before the page has the last
            # point's version is refused as stale (rightly: its premise is gone).
            points.nth(1).click()
            expect(phone.locator("#actions")).to_have_attribute("data-version", version)
        expect(spectator.locator("#board .head")).to_have_text("Bob won")
        expect(rows.nth(1).locator(".chip.won")).to_have_text("Won")
        expect(rows.nth(1).locator("td.last")).to_have_text("3")
        # The host page's score header, from the same card.
        expect(phone.locator("#scoreline .side.winner .who")).to_have_text("Bob")
    finally:
        spectator.context.close()
