"""The host page's card for the hall's offer, on a phone (390x844): shown while no match
is in play, one tap starts it, a tap on an offer the hall changed meanwhile is refused
in words and starts nothing; while a match is in play the offer waits. Axe finds nothing.

The offer reaches the table as the MQTT client hands it over (Offers.receive): the
broker's part is tests/mqtt/test_offers.py's."""

from __future__ import annotations

import json

from tests.e2e.browser_support import (
    PHONE,
    accessibility_problems,
    log_in,
    play,
    require_chromium,
    shot,
    start,
)
from tests.screens.test_offer_screen import LONG, offer_payload

expect = require_chromium().expect

#: How long an offer may take to reach the page: it reads the offer every 3 s (and with
#: each state), on a machine the parallel tests keep busy.
READ = 15_000


def test_the_offer_card_starts_the_offer_shown_and_only_that(companion, phone):
    log_in(phone, companion, "host", "#to-start")
    companion.offers.receive(offer_payload(LONG, options={"sets": 1}))
    card = phone.locator("#offer")
    expect(card).to_be_visible(timeout=READ)
    expect(card).to_contain_text("Next match from the hall")
    expect(card).to_contain_text(f"{LONG[0]} v {LONG[1]} · R2 · Tuesday Swiss")
    start_button = phone.locator("#offer-start")
    expect(start_button).to_be_visible()
    # Above the start form and within the phone's width, long names and all.
    box = card.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert box["y"] < phone.locator("#new-match").bounding_box()["y"]
    assert accessibility_problems(phone) == []
    shot(phone, "host-offer")
    assert companion.table.snapshot.match is None  # shown, not started

    # The hall replaces the offer while the page still shows the first one (its next
    # read held back): the tap names the offer it showed, and is refused.
    shown = json.dumps(companion.offers.to_json())
    phone.route("**/api/offer", lambda route: route.fulfill(
        status=200, content_type="application/json", body=shown))
    companion.offers.receive(offer_payload(["Cy", "Di"], offer="o-2", round_=3))
    start_button.click()
    expect(phone.locator("#message")).to_contain_text("the hall's offer changed")
    assert companion.table.snapshot.match is None
    phone.unroute("**/api/offer")
    expect(card).to_contain_text("Cy v Di · R3 · Tuesday Swiss", timeout=READ)

    start_button.click()
    expect(phone.locator("#end")).to_be_visible()
    match = companion.table.snapshot.match
    assert match["players"] == ["Cy", "Di"] and match["event"]["offer"] == "o-2"
    # The board says which event's match it is, on the host's page and the spectators'.
    expect(phone.locator("#board .event")).to_have_text("R3 · Tuesday Swiss")
    # Its own match is on the table: the card says so, and offers no second start.
    expect(card).to_contain_text("This match, from the hall")
    expect(start_button).to_be_hidden()


def test_an_offer_waits_while_a_match_is_in_play(companion, phone):
    log_in(phone, companion, "host", "#to-start")
    start(companion, {"game": "center-court", "players": ["Ann", "Bob"],
                      "options": {"sets": 1}})
    companion.offers.receive(offer_payload(["Cy", "Di"]))
    card = phone.locator("#offer")
    expect(card).to_contain_text("Next, after this match", timeout=READ)
    expect(card).to_contain_text("Cy v Di · R2 · Tuesday Swiss")
    expect(phone.locator("#offer-start")).to_be_hidden()
    assert accessibility_problems(phone) == []
    play(companion, *[{"type": "point", "winner": 0}] * 24)
    expect(card).to_contain_text("Next match from the hall")
    expect(phone.locator("#offer-start")).to_be_visible()


def test_an_unusable_offer_is_said_with_its_reason(companion, phone):
    log_in(phone, companion, "host", "#to-start")
    companion.offers.receive(offer_payload(["Cy", "Di"], game="chess"))
    card = phone.locator("#offer")
    expect(card).to_contain_text("The hall's offer could not be used:", timeout=READ)
    expect(card).to_contain_text("chess")
    expect(phone.locator("#offer-start")).to_be_hidden()
    companion.offers.receive(b"")
    expect(card).to_be_hidden(timeout=READ)
