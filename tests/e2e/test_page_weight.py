"""What a phone downloads for each page, counted in the browser: its requests and their
bytes (the page, stylesheet, icon, scripts, the OLED picture; the live streams by count
only, they never end), printed for each page (`./test -q tests/e2e/test_page_weight.py -s`).
No request leaves the Pi: every one goes to the companion's own origin. The spectator
page keeps its budget (tests/web/test_api.py LIGHT) for every game."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.e2e.browser_support import EACH_GAME, PHONE, log_in, require_chromium, start, url
from tests.web.test_api import LIGHT

expect = require_chromium().expect

#: Most requests a page's load may make (today: 7 to 11, the game's style and scripts
#: among them; logging in adds the session, the login, the pages' own reads, the host's
#: own style and session script, and the hall's offer of the next match).
MOST_REQUESTS = 16



@pytest.fixture
def companion(seated):
    """This module's pages want the seat buttons of the simulator."""
    return seated


#: What a page fetches after its load, when it shows a chart.
ON_DEMAND = ("/static/timeline.js", "/static/timeline.css", "/api/timeline")


def weigh(page, go, ready: str) -> tuple[int, list[str]]:
    """The bytes and the requests of a page's load: ``go()`` loads it, ``ready`` shows
    when it has drawn. Streams (text/event-stream) are counted, their bytes are not."""
    requests: list[str] = []
    sizes: dict[str, int] = {}

    def on_response(response) -> None:
        streaming = response.headers.get("content-type", "").startswith("text/event-stream")
        # The timeline chart (script, style, data) is fetched on demand after the load:
        # not part of the page's weight (tests/e2e/test_timeline_pages.py times it).
        later = any(part in response.url for part in ON_DEMAND)
        sizes[response.url] = 0 if streaming or later else len(response.body())

    page.on("request", lambda r: requests.append(r.url))
    page.on("response", on_response)
    go()
    expect(page.locator(ready).first).to_be_visible()
    page.wait_for_load_state("networkidle")
    page.remove_listener("response", on_response)
    return sum(sizes.values()), requests


def test_every_page_s_weight_and_requests_all_to_the_pi(companion, browser):
    """Each page on its first visit (a new browser context: nothing cached)."""
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(url(companion)))
    rows: list[tuple[str, int, list[str]]] = []

    def first_visit(name: str, go, ready: str) -> int:
        context = browser.new_context(viewport=PHONE)
        try:
            page = context.new_page()
            total, requests = weigh(page, lambda: go(page), ready)
        finally:
            context.close()
        rows.append((name, total, requests))
        return total

    for game, record in EACH_GAME.items():
        if companion.table.match is not None:
            companion.runner.call(lambda t: t.abandon())
        start(companion, record)
        total = first_visit(f"/ ({game})", lambda p: p.goto(url(companion)), "#board > *")
        assert total <= LIGHT, f"the {game} spectator page weighs {total} bytes"
    first_visit("/history", lambda p: p.goto(url(companion, "history")), "#history > li")
    first_visit("/host (logged out)", lambda p: p.goto(url(companion, "host")), "#login")
    first_visit("/host (logging in)", lambda p: log_in(p, companion, "host", "#host"), "#host")
    first_visit("/sim (logging in)", lambda p: log_in(p, companion, "sim", "#panel"), "#panel")
    print("\npage                       bytes  requests")
    for name, total, requests in rows:
        print(f"{name:24} {total:8,} {len(requests):9}")
    for name, _, requests in rows:
        elsewhere = [r for r in requests if not r.startswith(origin + "/")]
        assert elsewhere == [], f"{name} asks another host: {elsewhere}"
        assert len(requests) <= MOST_REQUESTS, (name, requests)
