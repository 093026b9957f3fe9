"""axe-core over every page, in the light and the dark theme: the spectator page of each
game, the host's page logged out and in, the history (a finished match open), the
simulator logged out and in. No serious or critical finding; the minor ones are printed."""

from __future__ import annotations

import pytest

from tests.e2e.browser_support import (
    EACH_GAME,
    PHONE,
    accessibility_problems,
    log_in,
    play,
    require_chromium,
    shot,
    start,
    url,
)

expect = require_chromium().expect

SERIOUS = ("serious", "critical")

#: A play that gives each game's board something to show.
PLAYS = {"center-court": [{"type": "point", "winner": 1}],
         "alakaslam": [{"type": "point", "winner": 1}]}


@pytest.fixture
def companion(seated):
    """This module's pages want the seat buttons of the simulator."""
    return seated


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_has_no_serious_accessibility_problem(companion, phones, scheme):
    found: dict[str, list[str]] = {}
    minor: dict[str, list[str]] = {}

    def scan(page, name: str) -> None:
        every = accessibility_problems(page)
        found[name] = [p for p in every if any(f"({i})" in p for i in SERIOUS)]
        minor[name] = [p for p in every if p not in found[name]]
        shot(page, f"axe-{name}-{scheme}")

    page = phones.open(PHONE, scheme)
    page.goto(url(companion))
    expect(page.locator("#board")).to_contain_text("No match")
    scan(page, "spectator-empty")
    page.goto(url(companion, "host"))
    expect(page.locator("#login")).to_be_visible()
    scan(page, "host-logged-out")
    page.goto(url(companion, "sim"))
    expect(page.locator("#login")).to_be_visible()
    scan(page, "sim-logged-out")
    for game, record in EACH_GAME.items():
        if companion.table.match is not None and not companion.table.match.is_over:
            companion.runner.call(lambda t: t.abandon())
        start(companion, record)
        play(companion, *PLAYS.get(game, []))
        page.goto(url(companion))
        expect(page.locator("#board")).to_contain_text(record["players"][1])
        scan(page, f"spectator-{game}")
    log_in(page, companion, "host", "#host")
    scan(page, "host-logged-in")
    page.goto(url(companion, "sim"))  # the host's session holds here too
    expect(page.locator("#panel")).to_be_visible()
    expect(page.locator("#panel button[data-seat='1']")).to_have_text("Seat 1 Ann")
    scan(page, "sim-logged-in")
    page.goto(url(companion, "history"))
    page.locator("#history details.more summary").first.click()
    expect(page.locator("#history details.more .board").first).not_to_contain_text("Loading")
    scan(page, "history")
    print(f"\naxe, {scheme}: minor and moderate findings: {minor}")
    assert {k: v for k, v in found.items() if v} == {}
