"""The score in sight on the host page (issue #37): at 390x844 (light) and 320x640 (dark),
every game with 16-capital names, a match played to its end, half from the table (the
panel, another phone) and half by taps on the page.

- After every change the score header lies wholly in the first screen, above the bar,
  whether the page is at its top or scrolled to its foot, and says the score the table
  has (its last cell for each side).
- The match's own actions (End, or Rematch and New match) and Undo are in the first
  screen at the top of the page.
- Nothing jumps: the layout shift of the whole match, as the browser's Layout Instability
  API counts it (PerformanceObserver "layout-shift", shifts right after a tap excepted as
  the API excepts them), stays under 0.05, and no control moves between two taps of the
  same shot (two cards of an AlakaSLAM serve, a space and its creature in Alakazoo, two
  points in the bar).

One companion and a tab a size for the module; screenshots in SCREENSHOTS/sight/.
"""

from __future__ import annotations

import pytest

from app.config import Config
from app.runtime import Companion, WebOptions
from tests.e2e.browser_support import PIN, SHOTS, play, require_chromium, start, url
from tests.e2e.test_layout_matrix import GAMES, LONG

expect = require_chromium().expect

TABS = {"390-light": ({"width": 390, "height": 844}, "light"),
        "320-dark": ({"width": 320, "height": 640}, "dark")}
MOST_SHIFT = 0.05

#: Sum the layout shifts from now on (not those of the page's load).
#: The layout shift of the match's part of the page. The New match form, last on the
#: page, is filled again for a rematch when a match starts or ends (after its read of
#: /api/rematch): it moves only itself, and is seen only at the page's foot, where this
#: test scrolls for a moment; on a busy machine the refill came while it looked there.
#: The tabs serve every game in turn: the observer of the game before is stopped, or
#: each shift would be counted once per game played in the tab so far.
OBSERVE = """() => { window.tcShift = 0; window.tcShifts = [];
  const form = document.getElementById('new-match');
  if (window.tcObserver) window.tcObserver.disconnect();
  window.tcObserver = new PerformanceObserver((list) => { for (const e of list.getEntries()) {
    if (e.hadRecentInput) continue;
    if (e.sources.length && e.sources.every((s) => s.node && form.contains(s.node))) continue;
    window.tcShift += e.value;
    window.tcShifts.push(`${e.value.toFixed(4)}: ${e.sources.map((s) => s.node
      ? `${s.node.nodeName}#${s.node.id || ''}.${s.node.className || ''}` : '?').join(', ')}`);
  } });
  window.tcObserver.observe({type: 'layout-shift', buffered: false}); }"""

#: Where the score header is and what it says, the page at its top and at its foot.
HEADER = """(where) => {
  window.scrollTo(0, where === 'top' ? 0 : document.documentElement.scrollHeight);
  const head = document.getElementById('scoreline').getBoundingClientRect();
  const bar = document.getElementById('bar');
  const floor = bar.hidden ? innerHeight : bar.getBoundingClientRect().top;
  const cells = [...document.querySelectorAll('#scoreline .cell.last')];
  const last = cells.map((c) => c.lastChild.textContent);
  return {top: head.top, bottom: head.bottom, floor, last};
}"""


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    web = WebOptions(host="127.0.0.1", port=0, pin=PIN, keepalive=1.0)
    with Companion(Config(), sim=True, data=tmp_path_factory.mktemp("data"), web=web) as c:
        yield c


@pytest.fixture(scope="module")
def tabs(table, phones_context):
    made = {}
    phones_context.clear_cookies()
    for name, (viewport, scheme) in TABS.items():
        page = phones_context.new_page()
        page.set_viewport_size(viewport)
        page.emulate_media(color_scheme=scheme)
        page.goto(url(table, "host"))
        if not made:
            page.fill("#pin", PIN)
            page.click("#login button")
        expect(page.locator("#host")).to_be_visible()
        made[name] = page
    yield made
    for page in made.values():
        page.close()
    phones_context.clear_cookies()


def drawn(page, version: int) -> None:
    page.wait_for_function(
        "(v) => Number(document.getElementById('actions').dataset.version) >= v", arg=version)


def in_sight(page, table: Companion, label: str) -> list[str]:
    """What is wrong with the score header as the table is now."""
    card = table.table.snapshot.match["card"]
    problems = []
    for where in ("top", "foot"):
        h = page.evaluate(HEADER, where)
        if h["top"] < 0 or h["bottom"] > h["floor"] + 0.5:
            problems.append(f"{label} at its {where}: the score header at {h['top']:.0f}-"
                            f"{h['bottom']:.0f}, the bar at {h['floor']:.0f}")
        if h["last"] != [s["score"][-1] for s in card["sides"]]:
            problems.append(f"{label}: the header says {h['last']}, the card {card}")
    page.evaluate("window.scrollTo(0, 0)")
    return problems


def place(page, selector: str) -> list[float]:
    """Where the first element ``selector`` matches lies on the page (not the screen: a
    tap scrolls to what it taps)."""
    return page.locator(selector).first.evaluate(
        "(e) => { const r = e.getBoundingClientRect(); "
        "return [r.left + scrollX, r.top + scrollY, r.width, r.height]; }")


def same_place(page, selector: str, before: list[float], label: str) -> list[str]:
    after = place(page, selector)
    return [] if after == before else [f"{label}: {selector} moved from {before} to {after}"]


def taps(page, game: str, table: Companion, label: str) -> list[str]:
    """Two taps of one shot on the page (the first one only picks, or its state is drawn
    before the second): the second control has not moved meanwhile."""
    problems: list[str] = []
    if game == "center-court":
        points = "#bar [data-action=point] button"
        before = place(page, points + " >> nth=1")
        version = table.table.version
        page.locator(points).first.click()
        drawn(page, version + 1)
        problems += same_place(page, points + " >> nth=1", before, label)
        page.locator(points).nth(1).click()
        drawn(page, version + 2)
    elif game == "alakaslam":
        form = "fieldset[data-action=serve], fieldset[data-action=shot]"
        card = f":is({form}) .picker .deck [data-card=B1]"
        before = place(page, card)
        page.locator(f":is({form}) .picker .deck [data-card=R1]").first.click()
        problems += same_place(page, card, before, label)
    elif game == "alakazoo":
        grid = "fieldset[data-action=display] .grid"
        before = place(page, grid)
        page.locator("fieldset[data-action=display] button[data-space]").first.click()
        expect(page.locator(".creatures button").first).to_be_visible()
        problems += same_place(page, grid, before, label)
    return problems


@pytest.mark.parametrize("game", list(GAMES))
def test_the_score_stays_in_sight_and_nothing_jumps(table, tabs, game):
    record, started, finished = GAMES[game](LONG)
    problems: list[str] = []
    table.runner.call(lambda t: t.abandon() if t.match and not t.match.is_over else None)
    start(table, record)
    version = table.table.version
    for name, page in tabs.items():
        drawn(page, version)
        expect(page.locator("#scoreline .side").first).to_be_visible()
        page.evaluate(OBSERVE)
        for control in ("#end", "#undo"):
            b = page.locator(control).bounding_box()
            if b is None or b["y"] < 0 or b["y"] + b["height"] > page.viewport_size["height"]:
                problems.append(f"{game} {name}: {control} is not in the first screen: {b}")
    for step, action in enumerate([*started, *finished]):
        if step == 1:
            for name, page in tabs.items():
                problems += taps(page, game, table, f"{game} {name}")
        play(table, action)
        version = table.table.version
        for name, page in tabs.items():
            drawn(page, version)
            problems += in_sight(page, table, f"{game} {name} after {action['type']}")
    assert table.runner.call(lambda t: t.match.is_over)
    for name, page in tabs.items():
        expect(page.locator("#scoreline .side.winner").first).to_be_visible()
        expect(page.locator("#rematch")).to_be_visible()
        b = page.locator("#rematch").bounding_box()
        if b["y"] < 0 or b["y"] + b["height"] > page.viewport_size["height"]:
            problems.append(f"{game} {name}: Rematch is not in the first screen: {b}")
        shift = page.evaluate("window.tcShift")
        if shift >= MOST_SHIFT:
            problems.append(f"{game} {name}: layout shift {shift:.3f}: "
                            + "; ".join(page.evaluate("window.tcShifts")))
        (SHOTS / "sight").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "sight" / f"{game}-{name}-won.png"))
    assert not problems, "\n".join(problems)
