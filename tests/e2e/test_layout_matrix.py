"""Every game's pages at phone size (issue #25): the spectator board, the host page and
the history at 390x844 (light) and 320x640 (dark), with a match started and finished,
with short names and with names that cannot wrap (16 capitals, the form's maximum).
A theme sets colours only (tests/web/test_game_styles.py holds every stylesheet to
that), so one theme a size shows each layout; both themes are drawn and looked at.

On each: nothing scrolls sideways, every score lies inside the screen, the host's bar
is never more than two lines of text tall, no text runs out of its box (an ellipsis
counts only where the whole name is in a title), the navigation
on one line of 44 px links that stay put from page to page, no console error. One
browser, one companion and a tab a size and theme, reused; the states are set on the
table as the panel would. The screenshots go to SCREENSHOTS/layout/ (the path is
printed).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from app.config import Config
from app.runtime import Companion, WebOptions
from tests.e2e.browser_support import (
    PIN,
    SHOTS,
    out_of_card,
    play,
    require_chromium,
    start,
    url,
)
from tests.games.zoo_matches import FINISH

sync_api = require_chromium()
expect = sync_api.expect

#: Names no line can break: the form's maximum of capitals, the widest letters.
LONG = ["WWWWWWWWWWWWWWWA", "MMMMMMMMMMMMMMMB", "CHRISTOPHER WOLF", "WWWWWWWWWWWWWWWD"]
SHORT = ["Ann", "Bo", "Cy", "Di"]
ANN, BOB = {"type": "point", "winner": 0}, {"type": "point", "winner": 1}


def center_court(names):
    record = {"game": "center-court", "players": names[:2],
              "options": {"sets": 1, "first_server": 0}}
    started = [ANN, BOB, ANN, {"type": "serve", "card": 3}, {"type": "return", "card": 3}, BOB]
    return record, started, [ANN] * 22


def dodgeball(names):
    record = {"game": "wizard-dodgeball", "players": names[:2],
              "options": {"target": 3, "rosters": [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]],
                          "wizards": {"21": {"name": "Hoary Burblepot"}}}}
    end = {"type": "end_activation"}
    started = [{"type": "hit", "thrower": 21, "target": 45}, end]
    return record, started, [{"type": "catch", "thrower": 45, "catcher": 58, "returning": None},
                             end, {"type": "hit", "thrower": 58, "target": 30}]


def alakaslam(names):
    record = {"game": "alakaslam", "players": names,
              "options": {"characters": ["laurie", "rich", "wendolyn", "simon"], "target": 2}}
    started = [{"type": "serve", "player": 0, "corner": "blue", "cards": ["R1"],
                "support": {"player": 1, "cards": ["E2", "R1"], "enchant": 3}},
               {"type": "shot", "player": 3, "cards": ["B1", "R1"],
                "support": {"player": 2, "cards": ["B0"]}}, BOB]
    return record, started, [{"type": "point", "winner": 0, "reason": "net"}, ANN]


def alakazoo(names):
    record = {"game": "alakazoo", "players": names,
              "options": {"portals": [1, 5, 3, 4], "first_player": 0}}
    return record, FINISH[:5], FINISH[5:]


GAMES = {"center-court": center_court, "wizard-dodgeball": dodgeball,
         "alakaslam": alakaslam, "alakazoo": alakazoo}
#: The tabs: each phone size in a theme of its own.
TABS = {("390", "light"): {"width": 390, "height": 844},
        ("320", "dark"): {"width": 320, "height": 640}}
#: The scores: each must lie wholly inside the screen.
SCORES = "#board .score .points, #board .score .games, #board .score .set, #board .pts"

#: What runs out of its box: elements whose text is wider than they are (an ellipsis only
#: where the whole text is in a title), the page wider than the screen, and the elements
#: the selector given picks (the scores) that do not lie wholly inside the screen.
PROBLEMS = """(scores) => {
  const found = [];
  const said = (el, n) =>
    `${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, n)}"`;
  const skip = 'svg, script, style, [hidden], .sr-only, details:not([open]) > :not(summary)';
  const doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth) {
    // Name the widest element past the screen's edge whose children all end inside it.
    const past = Array.from(document.querySelectorAll('body *')).filter(
      (el) => el.getBoundingClientRect().right > window.innerWidth + .5);
    const leaves = past.filter((el) => !past.some((o) => o !== el && el.contains(o)));
    found.push(`page ${doc.scrollWidth}px wide: ` +
               leaves.slice(0, 3).map((el) => said(el, 30)).join(', '));
  }
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest(skip)) continue;
    const css = getComputedStyle(el);
    if (css.display === 'inline' || css.display === 'contents' || css.display === 'none') continue;
    if (!el.getClientRects().length) continue;
    if (!Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    if (el.scrollWidth <= el.clientWidth + 1) continue;
    if (css.textOverflow === 'ellipsis' && el.closest('[title]')) continue;
    if (el.matches('input, select, textarea')) continue;
    found.push(`${said(el, 40)} ${el.scrollWidth}>${el.clientWidth}`);
  }
  // The navigation on one line, each link a 44 px target.
  const links = Array.from(document.querySelectorAll('header nav a'));
  if (new Set(links.map((a) => Math.round(a.getBoundingClientRect().top))).size > 1)
    found.push('the navigation wraps');
  for (const a of links) {
    if (a.getBoundingClientRect().height < 44) found.push(`${said(a, 20)} is under 44 px tall`);
  }
  const box = (el) => el.getBoundingClientRect();
  for (const el of document.querySelectorAll(scores || '#none')) {
    const b = box(el);
    if (b.width && (b.left < 0 || b.right > window.innerWidth + .5))
      found.push(`score ${said(el, 9)} at ${Math.round(b.left)}-${Math.round(b.right)}`);
  }
  return found;
}"""
#: The pages' cards: nothing shown inside one reaches past its sides.
CARDS = ".card, .dgame, .dheld"


def layout_problems(page, scores: str = "") -> list[str]:
    """What runs out of its box or its card on ``page`` as it is now (see layout_problems), each
    ``scores`` selects wholly inside the screen."""
    return page.evaluate(PROBLEMS, scores) + [f"out of its card: {w}"
                                              for w in out_of_card(page, CARDS)]


#: The host's bar at the bottom of the screen stays small whatever the names: no button
#: in it more than two lines of text tall (a long name is cut to one line, whole in the
#: button's title).
TALL_BAR = """() => Array.from(document.querySelectorAll('#bar button'))
  .filter((b) => b.offsetParent).flatMap((b) => {
    const css = getComputedStyle(b);
    const line = parseFloat(css.lineHeight) || 1.2 * parseFloat(css.fontSize);
    const text = b.clientHeight - parseFloat(css.paddingTop) - parseFloat(css.paddingBottom);
    return text > 2 * line + 1 ? [`bar button "${b.textContent.trim().slice(0, 30)}" is ${
      Math.round(text / line)} lines tall`] : [];
  })"""


@dataclass
class Tab:
    """One size and theme: its page (the host logged in) and what it logged."""
    name: str
    page: object
    errors: list


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    web = WebOptions(host="127.0.0.1", port=0, pin=PIN, keepalive=1.0)
    with Companion(Config(), sim=True, data=tmp_path_factory.mktemp("data"), web=web) as c:
        yield c


@pytest.fixture(scope="module")
def tabs(table, phones_context):
    """A logged-in host page for each size and theme: tabs of one phone's browser (its
    connections to the table are one browser's, at most six)."""
    made = []
    phones_context.clear_cookies()
    for (size, scheme), viewport in TABS.items():
        errors: list[str] = []
        page = phones_context.new_page()
        page.set_viewport_size(viewport)
        page.emulate_media(color_scheme=scheme)
        page.on("console", lambda m, e=errors, p=page: m.type == "error"
                and e.append(f"{p.url}: {m.text}"))
        page.on("pageerror", lambda x, e=errors, p=page: e.append(f"{p.url}: {x}"))
        page.goto(url(table, "host"))
        if not made:  # the first tab logs in; the others share its session
            page.fill("#pin", PIN)
            page.click("#login button")
        expect(page.locator("#host")).to_be_visible()
        made.append(Tab(f"{size}-{scheme}", page, errors))
    print(f"\nlayout screenshots: {SHOTS / 'layout'}")
    yield made
    for tab in made:
        tab.page.close()
    phones_context.clear_cookies()


def check(table: Companion, tabs: list[Tab], label: str) -> list[str]:
    """What is wrong on each tab's three pages as the table is now (see layout_problems)."""
    problems = []
    for tab in tabs:
        navs = {}
        for page_name, path in (("spectator", ""), ("host", "host"), ("history", "history")):
            page = tab.page
            page.goto(url(table, path))
            if page_name == "history":
                expect(page.locator("#history li").first).to_be_visible()
            else:
                expect(page.locator("#board > *").first).to_be_visible()
            space = page.locator("fieldset[data-action=display] button[data-space]")
            if page_name == "host" and space.count():
                space.first.click()  # Alakazoo: the creatures' buttons for that space
                expect(page.locator(".creatures button").first).to_be_visible()
            found = layout_problems(page, SCORES)
            if page_name == "host":
                found += page.evaluate(TALL_BAR)
            navs[page_name] = page.evaluate("""Array.from(document.querySelectorAll('header nav a'))
                .map((a) => [Math.round(a.getBoundingClientRect().left),
                             Math.round(a.getBoundingClientRect().width)])""")
            problems += [f"{tab.name} {page_name}: {p}" for p in found]
            (SHOTS / "layout").mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "layout" / f"{label}-{page_name}-{tab.name}.png"),
                            full_page=True)
        # The current page's link marked without moving a link.
        if len({str(n) for n in navs.values()}) > 1:
            problems.append(f"{tab.name}: the navigation moves from page to page: {navs}")
        problems += [f"{tab.name} {e}" for e in tab.errors]
        tab.errors.clear()
    return [f"{label} {p}" for p in problems]


@pytest.mark.parametrize("names", ["short", "long"])
@pytest.mark.parametrize("game", list(GAMES))
def test_every_page_fits_the_phone(table, tabs, game, names):
    record, started, finished = GAMES[game](LONG if names == "long" else SHORT)
    table.runner.call(lambda t: t.abandon() if t.match and not t.match.is_over else None)
    start(table, record)
    play(table, *started)
    problems = check(table, tabs, f"{game}-{names}-started")
    play(table, *finished)
    assert table.runner.call(lambda t: t.match.is_over)
    problems += check(table, tabs, f"{game}-{names}-finished")
    assert not problems, "\n".join(problems)
