"""Where the director looks, in Chromium: a broker whose ACL lacks the hall's write line
(the README's ACL otherwise) refuses the hall's offers, and the hall board's banner and
the director's page both say so with the ACL line to add, on a 320 and a 390 px phone."""

from __future__ import annotations

import pytest

from hall.run import Hall
from tests.e2e.browser_support import PHONE, broken_words, require_chromium, shot
from tests.hall.hall_support import Watch
from tests.hall.night_support import PIN
from tests.mqtt.support import TIMEOUT
from tests.mqtt.test_offers import readme_acl
from tests.mqtt_support import Mosquitto

expect = require_chromium().expect

USERS = {"hall": "pw-hall", "table-1": "pw-1"}
LINE = "topic write table-companion/_hall/#"
NARROW = {"width": 320, "height": 640}


@pytest.fixture
def refused(tmp_path):
    """A hall whose offer of an open round the broker refuses."""
    acl = readme_acl().replace(LINE + "\n", "")
    with Mosquitto(tmp_path / "broker", users=USERS, acl=acl) as broker, \
            Hall(broker.url, host="127.0.0.1", port=0, prefix="table-companion",
                 username="hall", password=USERS["hall"], data=tmp_path / "hall",
                 director_pin=PIN) as hall, Watch(hall.server.port) as watch:
        watch.until(lambda w: w.connected, timeout=TIMEOUT)
        event = hall.night.create({"name": "Ольга's night", "game": "center-court",
                                   "format": "swiss", "rounds": 1,
                                   "players": ["Ольга", "李小龙"], "tables": ["table-1"]})
        hall.night.start_round(event["id"], {"version": event["version"]})
        watch.until(lambda w: w.broker.startswith("offers refused"), timeout=TIMEOUT)
        yield hall


@pytest.mark.parametrize("viewport", [PHONE, NARROW], ids=["390", "320"])
def test_the_board_and_the_director_see_the_offers_refused(refused, browser, viewport):
    url = refused.urls[0]
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(url)
    banner = page.locator("#broker")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Broker: offers refused: not authorized")
    expect(banner).to_contain_text(f"give user 'hall' `{LINE}` in the broker's ACL")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"hall-offers-refused-{viewport['width']}")
    page.goto(f"{url}director")
    page.fill("#pin", PIN)
    page.click("#login button")
    link = page.locator("#link")
    expect(link).to_be_visible(timeout=10_000)
    expect(link).to_contain_text("Broker: offers refused: not authorized")
    expect(link).to_contain_text(LINE)
    expect(link).to_contain_text("The tables do not get their games until it takes them")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"director-offers-refused-{viewport['width']}")
    # In German (the page's choice, kept for the director's page too): the status in
    # its words, the ACL line as the broker reads it.
    page.goto(f"{url}?lang=de")
    expect(banner).to_contain_text("Broker: Angebote abgelehnt: nicht berechtigt (dem "
                                   f"Benutzer 'hall' `{LINE}` in der ACL des Brokers geben)")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert broken_words(page, "#broker", (f"`{LINE}`",)) == []
    page.goto(f"{url}director")
    expect(link).to_contain_text("Broker: Angebote abgelehnt: nicht berechtigt",
                                 timeout=10_000)
    expect(link).to_contain_text("Die Tische bekommen ihre Spiele erst, wenn er sie annimmt.")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert broken_words(page, "#link", (f"`{LINE}`",)) == []
