"""What the browser tests share (their fixtures are in conftest.py): Debian's chromium
driven by Playwright at phone size, the host's login, screenshots.

CI installs chromium (.ci/run). On a machine without it the browser tests are
skipped, except under CI, where a missing browser is a failure.
"""

from __future__ import annotations

import atexit
import os
import shutil
from pathlib import Path

import pytest

from app.runtime import Companion

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
PIN = "1357"
PHONE = {"width": 390, "height": 844}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: A start record of each game (the bench and the every-page tests open each game's page).
EACH_GAME = {
    "center-court": {"game": "center-court", "players": ["Ann", "Bob"]},
    "wizard-dodgeball": {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
                         "options": {"rosters": [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]}},
    "alakaslam": {"game": "alakaslam", "players": ["Ann", "Bea", "Cid", "Dan"],
                  "options": {"characters": ["austin", "rich", "toots", "simon"], "target": 1}},
    "alakazoo": {"game": "alakazoo", "players": ["Ann", "Bob"], "options": {"first_player": 0}},
}
SHOTS = Path(os.environ.get("SCREENSHOTS", "/tmp/companion-screenshots"))


def require_chromium():
    """The Playwright API, or the calling test module skipped when chromium is missing."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            raise RuntimeError(f"CI needs chromium for the browser tests; {CHROMIUM} is missing")
        pytest.skip("chromium is not installed (apt-get install chromium)",
                    allow_module_level=True)
    return pytest.importorskip("playwright.sync_api")


_driver = None


def playwright_driver():
    """This test process's one Playwright driver, started on first use, stopped at exit.

    While it runs, Playwright's event loop counts as running in the test
    thread, so nothing in the process may start another (``sync_playwright()``
    raises "using Playwright Sync API inside the asyncio loop"): every test
    that drives a browser, browser tests and the docs check alike, takes it
    from here (or from the ``playwright``/``browser`` fixtures, which do).
    """
    global _driver
    if _driver is None:
        _driver = require_chromium().sync_playwright().start()
        atexit.register(_driver.stop)
    return _driver


def url(companion: Companion, path: str = "") -> str:
    return f"{companion.urls[0]}{path}"


def log_in(phone, companion: Companion, path: str, shown: str) -> None:
    """Open ``path`` and log in as the host; ``shown`` appears once logged in."""
    phone.goto(url(companion, path))
    phone.fill("#pin", PIN)
    phone.click("#login button")
    require_chromium().expect(phone.locator(shown)).to_be_visible()


#: Each word laid out on more than one line (a Range over a word has one box per line)
#: in the shown text under the elements ``roots`` selects, as "word" (tag.class); a word
#: inside one of ``names`` is passed over where a page lets a name wrap in its column.
#: A compound's parts count as words: a line may end after its hyphen.
_BROKEN_WORDS = """([roots, names]) => {
  const found = [];
  const skip = names.flatMap((n) => n.split(/\\s+/));
  for (const root of document.querySelectorAll(roots)) {
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      const el = node.parentElement;
      if (!el || !el.getClientRects().length) continue;
      if (el.closest('[hidden], .sr-only, select, script, style')) continue;
      for (const m of node.textContent.matchAll(/[^\\s\\u002d\\u2010\\u00ad]{2,}/g)) {
        if (skip.some((n) => m[0].includes(n))) continue;
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set(Array.from(range.getClientRects()).filter((r) => r.width)
          .map((r) => Math.round(r.top)));
        if (lines.size > 1) found.push(`"${m[0]}" (${el.tagName.toLowerCase()}.${el.className})`);
      }
    }
  }
  return found;
}"""


#: Each shown element that reaches past the sides of its card (the nearest ancestor
#: ``cards`` selects): "tag.class "text" left-right in card left-right". The page can be
#: narrow enough and still run a field out of its card, as an intrinsic width does.
_OUT_OF_CARD = """(cards) => {
  const found = [];
  const skip = '[hidden], option, script, style, details:not([open]) > :not(summary)';
  for (const card of document.querySelectorAll(cards)) {
    for (const el of card.querySelectorAll('*')) {
      if (el.closest(skip)) continue;
      const r = el.getBoundingClientRect();
      if (!r.width || el.parentElement.closest(cards) !== card) continue;
      const c = card.getBoundingClientRect();
      if (r.right > c.right + .5 || r.left < c.left - .5) {
        const text = el.textContent.trim().slice(0, 30);
        found.push(`${el.tagName.toLowerCase()}.${el.className} "${text}" ` +
                   `${Math.round(r.left)}-${Math.round(r.right)} in ${card.className} ` +
                   `${Math.round(c.left)}-${Math.round(c.right)}`);
      }
    }
  }
  return found;
}"""


def out_of_card(page, cards: str = ".card") -> list[str]:
    """The shown elements that reach past the sides of their card (the nearest ancestor
    ``cards`` selects), each as 'tag.class "text" left-right in card left-right'."""
    return page.evaluate(_OUT_OF_CARD, cards)


def broken_words(page, roots: str = "body", names: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The words of the page's shown text under ``roots`` (a selector) drawn across two
    lines or more, each as '"word" (tag.class)'; words inside ``names`` are passed over."""
    return page.evaluate(_BROKEN_WORDS, [roots, list(names)])


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def above_the_fold(page, selector: str) -> None:
    """Every element ``selector`` matches (one at least) lies wholly inside the phone's
    first screen."""
    found = page.locator(selector)
    assert found.count(), selector
    for i in range(found.count()):
        b = found.nth(i).bounding_box()
        assert b is not None and b["width"] > 0 and b["height"] > 0, (selector, i)
        assert b["y"] >= 0 and b["y"] + b["height"] <= PHONE["height"], (selector, i, b)
        assert b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"], (selector, i, b)


def accessibility_problems(page, impacts: tuple[str, ...] | None = None) -> list[str]:
    """What axe-core (the copy the axe-playwright-python wheel ships) finds wrong on the
    page as it is now, one line per rule broken: "rule (impact): the elements"; with
    ``impacts`` (e.g. ("serious", "critical")), only the rules broken with those."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']]}" for v in found
            if impacts is None or v["impact"] in impacts]


def start(companion: Companion, setup: dict) -> None:
    """Start the match ``setup`` (a start record) on the table, as the panel would."""
    companion.runner.call(lambda t: t.start(setup))


def play(companion: Companion, *actions: dict) -> None:
    def run(table):
        for action in actions:
            table.act(action)
    companion.runner.call(run)
