"""Fixtures of the browser tests: chromium, a real companion, a phone-sized page."""

from __future__ import annotations

from dataclasses import replace

import pytest
from playwright.sync_api import expect

from app.config import Config
from app.runtime import SIM_SEATS, Companion, WebOptions
from tests.e2e.browser_support import ARGS, CHROMIUM, PHONE, PIN, playwright_driver

#: How long a page's assertion waits for what it expects: a bound for a page that never
#: gets there, not a speed. Playwright's 5 s default failed on a busy CI machine (a load
#: of 40 on two cores) while the page was still drawing; a page that is right passes as
#: soon as it is.
expect.set_options(timeout=30_000)


@pytest.fixture(scope="session")
def playwright():
    """Playwright's driver, one per test process (a worker of the parallel run).

    While it runs, Playwright's event loop counts as running in the test
    thread, so a test must not start another one: the browser tests take this.
    """
    return playwright_driver()


@pytest.fixture(scope="session")
def browser(playwright):
    """One chromium per test process: launching it is the slowest part of a browser
    test, and nothing of a test outlives it but the browser process itself, since
    each test's pages are closed after it (``phones``)."""
    b = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    yield b
    b.close()


@pytest.fixture
def companion(tmp_path, catalog):
    web = WebOptions(host="127.0.0.1", port=0, pin=PIN, keepalive=1.0)
    with Companion(Config(), sim=True, data=tmp_path, web=web, catalog=catalog) as c:
        yield c


@pytest.fixture
def seated(tmp_path):
    """A simulated table with its four seat buttons, as `companion run --sim` has them."""
    cfg = Config()
    cfg = replace(cfg, buttons=replace(cfg.buttons, seats=SIM_SEATS))
    web = WebOptions(host="127.0.0.1", port=0, pin=PIN, keepalive=1.0)
    with Companion(cfg, sim=True, data=tmp_path, web=web) as c:
        yield c


#: Where the shared context's anchor page lives: a made-up address on the companions'
#: host that no server holds (port 9, "discard"); Playwright answers it from the test.
ANCHOR = "http://127.0.0.1:9/"


@pytest.fixture(scope="session")
def phones_context(browser):
    """One browser context per test process, in which the tests' phones open their pages.

    A new context starts a renderer for its first page: about half a second of CPU
    more than a page opened here (measured: 0.86 s for a new context and the host page,
    0.27 s for a page in this context; the browser tests open some 300). A page of
    the companions' site (``127.0.0.1``, whatever the port) kept open here keeps a
    renderer of that site alive, and each test's page is opened in it.

    What one test leaves does not reach the next: its pages are closed after it
    (``Phones``), so none of its streams or scripts runs on; the cookies (the host's
    session, which ignores the port) are cleared before and after each test; and each
    test's companion serves on a port the system hands out, so what its pages kept
    (storage, cached files) is another origin's, or, on a port handed out again, the
    same files of the same code (the pages that keep storage, the hall's night
    pages, open contexts of their own). A test that needs a phone with no cookies
    beside a logged-in one, or a clock of its own, opens a context of its own.
    """
    context = browser.new_context(viewport=PHONE)
    anchor = context.new_page()
    anchor.route(ANCHOR, lambda route: route.fulfill(
        body="<!doctype html><title>anchor</title>", content_type="text/html"))
    anchor.goto(ANCHOR)
    yield context
    context.close()


class Phones:
    """A test's pages in the shared context (``phones_context``), each sized and themed
    as asked; closed, and the cookies cleared, when the test ends."""

    def __init__(self, context) -> None:
        self.context = context
        self.pages: list = []
        context.clear_cookies()

    def open(self, viewport: dict | None = None, color_scheme: str | None = None):
        """A new page at ``viewport`` (the phone's by default) in ``color_scheme``
        (None: the browser's, light) from its first paint."""
        page = self.context.new_page()
        self.pages.append(page)
        if viewport is not None and viewport != PHONE:
            page.set_viewport_size(viewport)
        if color_scheme is not None:
            page.emulate_media(color_scheme=color_scheme)
        return page

    def close(self) -> None:
        for page in self.pages:
            page.close()
        self.context.clear_cookies()


@pytest.fixture
def phones(phones_context):
    """Open phone pages for this test: ``phones.open(viewport, color_scheme)``."""
    opened = Phones(phones_context)
    yield opened
    opened.close()


@pytest.fixture
def phone(phones):
    """A phone-sized page, its cookies fresh (see ``phones_context``)."""
    return phones.open()
