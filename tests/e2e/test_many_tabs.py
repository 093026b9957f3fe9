"""Many tabs of the companion in one browser all stay live. A browser keeps at most 6
connections to a host and each page follows the table over a stream that holds one: with
a stream per tab, the 7th tab waited for good. One page holds the stream for all."""

from __future__ import annotations

import time

from tests.e2e.browser_support import play, require_chromium, shot, start, url

expect = require_chromium().expect


def test_eight_tabs_of_one_browser_all_follow_the_table(companion, phones):
    start(companion, {"game": "center-court", "players": ["Ann", "Bob"]})
    pages = []
    for n in range(8):
        page = phones.open()
        page.goto(url(companion, "history" if n == 7 else ""))
        pages.append(page)
    spectators, history = pages[:7], pages[7]
    play(companion, {"type": "point", "winner": 1})
    for page in spectators:
        expect(page.locator("#board .points").nth(1)).to_have_text("15", timeout=10000)
        expect(page.locator("#offline")).to_be_hidden()
    expect(history.locator("#history > li")).to_have_count(1)
    # The page holding the stream closes: another takes it up and all stay live.
    spectators[0].close()
    play(companion, {"type": "point", "winner": 1})
    for page in spectators[1:]:
        expect(page.locator("#board .points").nth(1)).to_have_text("30", timeout=10000)
    companion.runner.call(lambda t: t.abandon())
    start(companion, {"game": "center-court", "players": ["Cid", "Dan"]})
    expect(history.locator("#history > li")).to_have_count(2, timeout=10000)
    shot(spectators[-1], "eighth-tab")
    # And the stream is one for the whole browser: the table soon counts one (the
    # closed page's is let go when its connection is seen closed).
    broker = companion.app.extensions["companion.broker"]
    deadline = time.monotonic() + 10
    while broker.streams != 1 and time.monotonic() < deadline:
        spectators[-1].wait_for_timeout(100)
    assert broker.streams == 1
