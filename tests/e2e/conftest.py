"""Fixtures of the browser tests: chromium, a real companion, a phone-sized page."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.config import Config
from app.runtime import SIM_SEATS, Companion, WebOptions
from tests.e2e.browser_support import ARGS, CHROMIUM, PHONE, PIN, playwright_driver


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
    each test opens its pages in a context of its own (``phone``: cookies, storage
    and cache are the context's and go with it)."""
    b = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    yield b
    b.close()


@pytest.fixture
def companion(tmp_path):
    web = WebOptions(host="127.0.0.1", port=0, pin=PIN, keepalive=1.0)
    with Companion(Config(), sim=True, data=tmp_path, web=web) as c:
        yield c


@pytest.fixture
def seated(tmp_path):
    """A simulated table with its four seat buttons, as `companion run --sim` has them."""
    cfg = Config()
    cfg = replace(cfg, buttons=replace(cfg.buttons, seats=SIM_SEATS))
    web = WebOptions(host="127.0.0.1", port=0, pin=PIN, keepalive=1.0)
    with Companion(cfg, sim=True, data=tmp_path, web=web) as c:
        yield c


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    yield page
    context.close()
