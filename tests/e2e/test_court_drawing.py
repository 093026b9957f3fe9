"""AlakaSLAM's court drawing on the phones (issue #25 item 10): a shot's result ("IN",
"BAD SERVE") is written clear of the row and column numbers, of the path and its arrow,
inside the drawing, for every shot from any cell of the court to any cell of it or its
margin (a bad serve: of it); the sides' names, the widest included, inside it too; and
the host's sticky Serve never covers the preview."""

from __future__ import annotations

from tests.e2e.browser_support import PHONE, log_in, require_chromium, start, url
from tests.e2e.test_alakaslam_pages import SINGLES

expect = require_chromium().expect

#: Every path on a 4-column court, each result drawn; the boxes (getBBox) that overlap.
OVERLAPS = """() => {
  const found = [];
  const host = document.createElement('div');
  host.style.width = '24rem';
  document.body.append(host);
  const cols = 4, S = 40;
  for (const result of ['in', 'out', 'net', 'bad_serve'])
  for (let fc = 1; fc <= cols; fc++) for (let fr = 1; fr <= 4; fr++)
  for (let tc = 0; tc <= cols + 1; tc++) for (let tr = 0; tr <= 5; tr++) {
    if (fc === tc && fr === tr) continue;
    // A serve that lands off the court is out: a bad serve lands on it.
    if (result === 'bad_serve' && (tc < 1 || tc > cols || tr < 1 || tr > 4)) continue;
    const svg = TC.slam.court({cols, ball: null, path: {from: [fc, fr], to: [tc, tr], result},
                               label: 'test', names: ['Ann', 'Bob']});
    host.replaceChildren(svg);
    const text = svg.querySelector('.result').getBBox();
    const [W, H] = svg.getAttribute('viewBox').split(' ').slice(2).map(Number);
    const say = (why) => found.push(`${result} c${fc} r${fr} -> c${tc} r${tr}: ${why}`);
    const over = (b) => b.x < text.x + text.width && text.x < b.x + b.width &&
                        b.y < text.y + text.height && text.y < b.y + b.height;
    if (text.x < 0 || text.y < 0 || text.x + text.width > W || text.y + text.height > H) {
      say('outside');
    }
    for (const c of svg.querySelectorAll('.coord')) {
      if (over(c.getBBox())) say(`over number ${c.textContent}`);
    }
    const line = svg.querySelector('.path line');
    const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((k) => Number(line.getAttribute(k)));
    if (over({x: x2 - 8, y: y2 - 8, width: 16, height: 16})) say('over the arrow');
    for (let t = 0; t <= 1; t += .05) {
      if (over({x: x1 + (x2 - x1) * t - 1, y: y1 + (y2 - y1) * t - 1, width: 2, height: 2})) {
        say('over the path'); break;
      }
    }
  }
  host.remove();
  return found;
}"""


def test_a_result_is_written_clear_of_the_numbers_the_path_and_the_edge(companion, phone):
    start(companion, SINGLES)
    phone.goto(url(companion))
    expect(phone.locator("#board .court")).to_be_visible()
    found = phone.evaluate(OVERLAPS)
    assert not found, f"{len(found)} drawings: " + "\n".join(found[:20])


def test_the_sticky_serve_never_covers_the_preview(companion, phone):
    start(companion, SINGLES)
    log_in(phone, companion, "host", "#host")
    send = phone.locator("#actions .hit .send")
    court = phone.locator("#actions .hit .preview .court")
    expect(court).to_be_visible()
    bar = phone.locator("#bar").bounding_box()
    # Scrolled a few pixels at a time through the form: wherever the court is on the
    # screen, the Serve button is not over it.
    top = phone.evaluate("document.querySelector('#actions .hit').getBoundingClientRect().top"
                         " + scrollY")
    for y in range(max(0, int(top) - PHONE["height"]), int(top) + 1200, 40):
        phone.evaluate(f"scrollTo(0, {y})")
        b, c = send.bounding_box(), court.bounding_box()
        visible = c["y"] < bar["y"] and c["y"] + c["height"] > 0
        if visible:
            assert b["y"] + b["height"] <= c["y"] or b["y"] >= c["y"] + c["height"], (y, b, c)


#: The sides' names of a singles and a doubles court with the widest names a table keeps:
#: each line's box (getBBox, the squeeze included) against the drawing's width.
NAMES_OUTSIDE = """() => {
  const found = [];
  const host = document.createElement('div');
  host.style.width = '24rem';
  document.body.append(host);
  const W16 = 'WWWWWWWWWWWWWWW';
  for (const [cols, names] of [[3, [W16 + 'A', W16 + 'B']],
                               [4, [`${W16}A & ${W16}C`, `${W16}B & MMMMMMMMMMMMMMMD`]],
                               [3, ['Ann', 'Bob']]]) {
    const svg = TC.slam.court({cols, ball: null, label: 'test', names});
    host.replaceChildren(svg);
    const W = Number(svg.getAttribute('viewBox').split(' ')[2]);
    for (const t of svg.querySelectorAll('.sidename')) {
      const b = t.getBBox();
      if (b.x < 0 || b.x + b.width > W) found.push(`${cols} columns: "${t.textContent}" ${
        Math.round(b.x)}-${Math.round(b.x + b.width)} of 0-${W}`);
    }
    if (names[0] === 'Ann' && svg.querySelector('.sidename[textLength]')) {
      found.push('a short name is squeezed');
    }
  }
  host.remove();
  return found;
}"""


def test_the_widest_names_stay_inside_the_court_drawing(companion, phone):
    """16 capitals W (about 12 units each in the sides' 13px semibold) were cut at both
    edges: the squeeze went by 10 units a letter."""
    start(companion, SINGLES)
    phone.goto(url(companion))
    expect(phone.locator("#board .court")).to_be_visible()
    assert phone.evaluate(NAMES_OUTSIDE) == []
