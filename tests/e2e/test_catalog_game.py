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
    spectator = browser.new_context().new_page()
    try:
        spectator.goto(url(companion))
        expect(spectator.locator("#board")).to_contain_text("Bob")
    finally:
        spectator.context.close()
