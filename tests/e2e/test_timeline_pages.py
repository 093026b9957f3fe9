"""The match timeline chart on the spectator page, in a real browser at phone size: drawn
for every game below the board, updated as the match goes, loaded only after the page,
readable and accessible in light and dark."""

from __future__ import annotations

import pytest

from tests.e2e.browser_support import (
    PHONE,
    SHOTS,
    accessibility_problems,
    play,
    require_chromium,
    shot,
    start,
    url,
)
from tests.e2e.test_alakazoo_pages import COMPLETED, FINISH, FOUR
from tests.games.test_timeline import DODGEBALL

expect = require_chromium().expect

ANN, BOB = {"type": "point", "winner": 0}, {"type": "point", "winner": 1}
SLAM = [{"type": "serve", "player": 0, "corner": "red", "cards": ["E2", "B3"]},
        {"type": "shot", "player": 1, "cards": ["B3", "E1"]},
        {"type": "shot", "player": 0, "cards": ["R2"]},
        {"type": "point", "winner": 0, "reason": "declined"},
        {"type": "serve", "player": 1, "corner": "blue", "cards": ["B1", "R2"]},
        {"type": "point", "winner": 1}, {"type": "point", "winner": 0, "reason": "net"}]
#: Per game: the start record, what is played before the page opens, what is played live.
MATCHES = {
    "center-court": ({"game": "center-court", "players": ["Ann", "Bob"],
                      "options": {"sets": 3, "first_server": 0}},
                     [ANN] * 24 + [BOB] * 6, [BOB, ANN] * 3),
    "wizard-dodgeball": (DODGEBALL[0], DODGEBALL[1:6], DODGEBALL[6:]),
    "alakaslam": ({"game": "alakaslam", "players": ["Ann", "Bob"],
                   "options": {"characters": ["wendolyn", "austin"]}}, SLAM[:4], SLAM[4:]),
    "alakazoo": (FOUR, FINISH[:COMPLETED], FINISH[COMPLETED:]),
}


def box(page, selector: str) -> dict:
    b = page.locator(selector).bounding_box()
    assert b is not None, selector
    return b


@pytest.mark.parametrize("game", list(MATCHES))
def test_the_chart_appears_below_the_board_and_follows_the_match(companion, phone, game):
    record, before, live = MATCHES[game]
    start(companion, record)
    play(companion, *before)
    phone.goto(url(companion))
    figure = phone.locator("#timeline figure.tl")
    expect(figure).to_have_attribute("data-game", game)
    expect(figure).to_have_attribute("data-events", str(len(before)))
    # Below the board, within the phone's width; its lines and marks drawn.
    chart, board = box(phone, "#timeline svg.tl-chart"), box(phone, "#board")
    assert chart["y"] >= board["y"] + board["height"], (chart, board)
    assert chart["x"] >= 0 and chart["x"] + chart["width"] <= PHONE["width"], chart
    assert chart["height"] > 150, chart
    lines = figure.locator("polyline.tl-line")
    expect(lines).to_have_count(len(companion.table.snapshot.match["players"])
                                if game == "alakazoo" else 1 if game == "center-court" else 2)
    # A screen reader gets the title and the summary; the summary is on the page too.
    svg = figure.locator("svg.tl-chart")
    title_id, desc_id = svg.get_attribute("aria-labelledby").split()
    assert phone.locator(f"[id='{title_id}']").text_content() == figure.locator(
        "figcaption").text_content()
    summary = phone.locator(f"[id='{desc_id}']").text_content()
    expect(figure.locator(".tl-summary")).to_have_text(summary)
    figure.scroll_into_view_if_needed()
    shot(phone, f"timeline-{game}-live-before")
    play(companion, *live)
    expect(figure).to_have_attribute("data-events", str(len(before) + len(live)))
    expect(figure.locator(".tl-summary")).not_to_have_text(summary)
    shot(phone, f"timeline-{game}-live-after")


def test_the_marks_and_bars_say_what_happened(companion, phone):
    record, before, live = MATCHES["wizard-dodgeball"]
    start(companion, record)
    play(companion, *before, *live)
    phone.goto(url(companion))
    figure = phone.locator("#timeline figure.tl")
    expect(figure.locator(".tl-mark")).to_have_count(4)
    expect(figure.locator(".tl-mark[data-kind=catch] title")).to_have_text("#58 caught #30")
    expect(figure.locator(".tl-legend li")).to_have_text(["Owls", "Newts", "cast", "hit",
                                                          "catch"])
    expect(figure.locator(".tl-bars rect")).to_have_count(6)
    expect(figure.locator(".tl-bars rect").nth(0).locator("title")).to_have_text("Owls: 2 hits")


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_charts_pass_axe_and_are_readable(companion, phones, scheme):
    page = phones.open(PHONE, scheme)
    for game, (record, before, live) in MATCHES.items():
        if companion.table.snapshot.match and \
                companion.table.snapshot.match["status"] != "finished":
            companion.runner.call(lambda t: t.abandon())
        start(companion, record)
        play(companion, *before, *live)
        page.goto(url(companion))
        figure = page.locator("#timeline figure.tl")
        expect(figure).to_have_attribute("data-game", game)
        assert accessibility_problems(page) == [], game
        SHOTS.mkdir(parents=True, exist_ok=True)
        figure.screenshot(path=str(SHOTS / f"timeline-{game}-{scheme}.png"))


def test_the_chart_script_comes_after_the_page_has_loaded(companion, phone):
    """The scoreboard's first load is the board only: timeline.js is not in the page and
    is requested after the load event (so the <= 60 KB first load stays as it was)."""
    record, before, _ = MATCHES["center-court"]
    start(companion, record)
    play(companion, *before)
    phone.goto(url(companion))
    expect(phone.locator("#timeline figure.tl")).to_be_visible()
    assert "timeline.js" not in phone.content().split('id="timeline"')[0]
    timing = phone.evaluate("""() => {
        const nav = performance.getEntriesByType("navigation")[0];
        const res = performance.getEntriesByType("resource");
        const first = res.filter((r) => r.startTime < nav.loadEventStart);
        const chart = res.filter((r) => r.name.endsWith("/static/timeline.js"));
        return {load: nav.loadEventStart, chart: chart.map((r) => [r.startTime, r.encodedBodySize]),
                first: first.map((r) => r.name.split("/").pop()),
                firstBytes: nav.encodedBodySize + first.reduce((n, r) => n + r.encodedBodySize, 0)};
    }""")
    assert len(timing["chart"]) == 1, timing
    started, size = timing["chart"][0]
    assert started >= timing["load"], timing
    assert "timeline.js" not in timing["first"], timing
    print(f"first load {timing['firstBytes']} bytes ({timing['first']}); "
          f"timeline.js {size} bytes, fetched {started - timing['load']:.0f} ms after load")


def test_a_finished_match_in_the_history_opens_to_its_timeline(companion, phone):
    record, before, live = MATCHES["alakazoo"]
    start(companion, record)
    play(companion, *before, *live)
    phone.goto(url(companion, "history"))
    row = phone.locator("#history li").first
    opener = row.locator("details.more summary")
    expect(opener).to_have_text("Stats, timeline and match file")
    opener.click()  # a keyboard's Enter opens a <details> as well
    figure = row.locator(".timeline figure.tl")
    expect(figure).to_have_attribute("data-game", "alakazoo")
    expect(figure.locator(".tl-bars")).to_be_visible()
    chart = box(phone, "#history li .tl-chart")
    assert chart["x"] >= 0 and chart["x"] + chart["width"] <= PHONE["width"], chart
    assert accessibility_problems(phone) == []
    shot(phone, "timeline-history-alakazoo")


LONG = ["WWWWWWWWWWWWWWWA", "MMMMMMMMMMMMMMMB", "WWWWWWWWWWWWWWWC", "MMMMMMMMMMMMMMMD"]
#: Chart texts out of their place (to half a pixel): any text outside its drawing, and a
#: note (a side's "▲ … ahead") outside the plot, between the ends of its grid lines.
TEXT_OUTSIDE = """(sel) => Array.from(document.querySelectorAll(sel)).flatMap((chart) => {
  const c = chart.getBoundingClientRect();
  const grid = Array.from(chart.querySelectorAll('.tl-grid, .tl-zero'))
    .map((l) => l.getBoundingClientRect());
  const plot = grid.length ? {left: Math.min(...grid.map((g) => g.left)),
                              right: Math.max(...grid.map((g) => g.right))} : c;
  return Array.from(chart.querySelectorAll('text')).filter((t) => {
    const b = t.getBoundingClientRect();
    const box = t.matches('.tl-chart .tl-note') ? plot : c;
    return b.left < box.left - .5 || b.right > box.right + .5 || b.top < c.top - .5
      || b.bottom > c.bottom + .5;
  }).map((t) => `${t.textContent} ${Math.round(t.getBoundingClientRect().right)}`
                + `>${Math.round(plot.right)}`);
})"""


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 320, "height": 640}])
def test_no_chart_text_runs_out_of_its_chart_with_long_names(companion, phones, size):
    """16 capitals (the form's maximum), a side's name of two of them: every note, tick
    and label of the momentum, balance and rating charts stays inside its drawing."""
    games = [({"game": "center-court", "players": LONG[:2], "options": {"first_server": 0}},
              [ANN, ANN, BOB]),
             ({"game": "alakaslam", "players": LONG,
               "options": {"characters": ["laurie", "rich", "wendolyn", "simon"], "target": 3}},
              [ANN, BOB, ANN])]
    page = phones.open(size)
    for record, actions in games:
        companion.runner.call(lambda t: t.abandon() if t.match and not t.match.is_over
                              else None)
        start(companion, record)
        play(companion, *actions)
        page.goto(url(companion))
        expect(page.locator("#timeline figure.tl")).to_have_attribute(
            "data-game", record["game"])
        outside = page.evaluate(TEXT_OUTSIDE, "#timeline svg")
        page.locator("#timeline").screenshot(
            path=str(SHOTS / f"timeline-long-{record['game']}-{size['width']}.png"))
        assert outside == [], (record["game"], outside)
    # A player's rating course (the players page draws it with the same code): two
    # matches, a course (after one there is no line to draw, and none is drawn).
    companion.runner.call(lambda t: t.abandon())
    for _ in range(2):
        start(companion, {"game": "center-court", "players": LONG[:2],
                          "options": {"sets": 1, "first_server": 0}})
        play(companion, *[ANN] * 24)
    page.goto(url(companion, f"players/{LONG[0]}"))
    expect(page.locator(".timeline svg").first).to_be_visible()
    assert page.evaluate(TEXT_OUTSIDE, ".timeline svg") == []
    page.screenshot(path=str(SHOTS / f"players-long-{size['width']}.png"), full_page=True)
