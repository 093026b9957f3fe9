"""The simulator page by keyboard and screen reader: Enter taps, Space held down holds
(its real keydown-to-keyup time), seat buttons named for their players, and the page's
offline notice while the companion cannot be reached."""

from __future__ import annotations

import json

import pytest

from app.config import Config
from app.runtime import Companion, WebOptions
from tests.e2e.browser_support import PIN, above_the_fold, log_in, require_chromium, shot, url

expect = require_chromium().expect

COURT = {"game": "center-court", "players": ["Ann", "Bob"]}


@pytest.fixture
def companion(seated):
    """This module's pages want the seat buttons of the simulator."""
    return seated


def pressed(page, key_presses) -> tuple[dict, dict]:
    """What ``key_presses()`` sent to /api/sim/button, and the state it answered."""
    with page.expect_response("**/api/sim/button") as answer:
        key_presses()
    response = answer.value
    assert response.status == 200, response.text()
    return json.loads(response.request.post_data), response.json()


def test_enter_taps_and_a_long_space_press_holds(companion, phone):
    companion.runner.call(lambda t: t.start(COURT))
    log_in(phone, companion, "sim", "#panel")
    seats = phone.locator("#panel button[data-seat]")
    expect(seats.nth(0)).to_have_text("Seat 1 Ann")
    expect(seats.nth(1)).to_have_text("Seat 2 Bob")
    # Every button is reached with Tab, in order.
    phone.locator("#panel button[data-button=prev]").focus()
    reached = []
    for _ in range(5):
        reached.append(phone.evaluate("document.activeElement.dataset.button"))
        phone.keyboard.press("Tab")
    assert reached == ["prev", "next", "ok", "back", "seat1"]

    seats.nth(1).focus()
    body, state = pressed(phone, lambda: phone.keyboard.press("Enter"))
    assert body == {"button": "seat2", "hold": False}
    assert state["match"]["view"]["points"] == ["0", "15"]
    seats.nth(0).focus()
    body, state = pressed(phone, lambda: phone.keyboard.press(" "))  # a short Space: a tap
    assert body == {"button": "seat1", "hold": False}
    assert state["match"]["view"]["points"] == ["15", "15"]

    phone.locator("#panel button[data-button=back]").focus()

    def long_space() -> None:
        phone.keyboard.down(" ")
        phone.wait_for_timeout(700)  # the press itself: longer than the half-second hold
        phone.keyboard.up(" ")

    body, state = pressed(phone, long_space)
    assert body == {"button": "back", "hold": True}
    assert state["match"]["view"]["points"] == ["0", "15"]  # hold BACK: undo
    for selector in ["#oled", "#panel button[data-button=back]", "#panel button[data-seat='2']"]:
        above_the_fold(phone, selector)
    shot(phone, "sim-keyboard")


def test_seat_labels_follow_the_match_on_the_table(companion, phone):
    log_in(phone, companion, "sim", "#panel")
    seat1 = phone.locator("#panel button[data-seat='1']")
    expect(seat1).to_have_text("Seat 1")
    companion.runner.call(lambda t: t.start({**COURT, "players": ["Cleo", "Dan"]}))
    expect(seat1).to_have_text("Seat 1 Cleo")
    expect(phone.get_by_role("button", name="Seat 2 Dan")).to_be_visible()


def test_the_sim_page_says_when_the_companion_is_offline(tmp_path, phone):
    def serve(port: int) -> Companion:
        web = WebOptions(host="127.0.0.1", port=port, pin=PIN, keepalive=1.0)
        return Companion(Config(), sim=True, data=tmp_path, web=web)

    with serve(0) as first:
        port = first.server.port
        phone.goto(url(first, "sim"))
        expect(phone.locator("#login")).to_be_visible()
        expect(phone.locator("#offline")).to_be_hidden()
    notice = phone.locator("#offline")
    expect(notice).to_be_visible(timeout=10000)
    above_the_fold(phone, "#offline")
    shot(phone, "sim-offline")
    with serve(port):
        expect(notice).to_be_hidden(timeout=10000)


def test_a_press_that_got_no_answer_is_said_in_words(companion, phone):
    """Not the browser's "Failed to fetch": what happened and what to do (issue #37)."""
    log_in(phone, companion, "sim", "#panel")
    phone.route("**/api/sim/button", lambda route: route.abort())
    phone.locator("#panel button[data-button=ok]").click()
    expect(phone.locator("#message")).to_contain_text("not answering")
    expect(phone.locator("#message")).not_to_contain_text("Failed to fetch")
