"""Fixtures of the browser tests: chromium, a real companion, a phone-sized page."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.config import Config
from app.runtime import SIM_SEATS, Companion, WebOptions
from tests.e2e.browser_support import ARGS, CHROMIUM, PHONE, PIN, require_chromium


@pytest.fixture(scope="module")
def browser():
    with require_chromium().sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
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
