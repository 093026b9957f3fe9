"""Benchmark: how soon the spectator page shows its board in chromium, on a phone-sized
page (390x844) against a real companion on loopback.

Run: .venv/bin/python -m tests.bench.bench_phone [--runs 10]

For each game, with a match of it on the table, the page is opened ``--runs`` times,
each time in a new browser context (nothing cached: a phone's first visit), and the
browser's own timings are read: first contentful paint (the board is drawn by then: the
page carries the state and draws it as its scripts run), DOMContentLoaded and load,
from the navigation's start. Loopback has no Wi-Fi in it: this is the page's own cost.
Prints the median and the slowest; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from app.config import Config
from app.runtime import Companion, WebOptions
from tests.e2e.browser_support import ARGS, CHROMIUM, EACH_GAME, PHONE, PIN

#: The browser's timings of the page, in ms from the navigation's start.
TIMINGS = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  return {fcp: paint ? paint.startTime : null, dcl: nav.domContentLoadedEventEnd,
          load: nav.loadEventEnd};
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="page loads per game")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as data, sync_playwright() as p:
        web = WebOptions(host="127.0.0.1", port=0, pin=PIN)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        with Companion(Config(), sim=True, data=Path(data), web=web) as companion:
            print(f"spectator page first render, chromium {browser.version}, 390x844, "
                  f"{args.runs} first visits per game (ms from navigation start)")
            print(f"{'game':18} {'FCP median':>10} {'FCP max':>8} {'DCL med':>8} "
                  f"{'load med':>8}")
            for game, record in EACH_GAME.items():
                if companion.table.match is not None:
                    companion.runner.call(lambda t: t.abandon())
                companion.runner.call(lambda t, r=record: t.start(r))
                runs = []
                for _ in range(args.runs):
                    context = browser.new_context(viewport=PHONE)
                    page = context.new_page()
                    page.goto(companion.urls[0], wait_until="load")
                    page.locator("#board > *").first.wait_for()
                    # FCP is reported after the paint: wait for the entry, not a while.
                    page.wait_for_function(
                        "performance.getEntriesByName('first-contentful-paint').length")
                    runs.append(page.evaluate(TIMINGS))
                    context.close()
                fcp = [r["fcp"] for r in runs]
                print(f"{game:18} {statistics.median(fcp):10.1f} {max(fcp):8.1f} "
                      f"{statistics.median(r['dcl'] for r in runs):8.1f} "
                      f"{statistics.median(r['load'] for r in runs):8.1f}")
        browser.close()


if __name__ == "__main__":
    main()
