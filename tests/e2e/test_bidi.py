"""A right-to-left name never turns a score line round on the pages: in a real browser,
the text the shared scripts write keeps "דוד 3-2 Ann" in that order (name, 3, 2, Ann),
where the bidirectional algorithm alone draws "2-3 דוד Ann"."""

from __future__ import annotations

import pytest

from tests.e2e.browser_support import require_chromium, start, url

sync_api = require_chromium()

#: Where each piece of ``line`` is drawn, left to right, by its characters' boxes.
ORDER = """([line, pieces]) => {
  const p = TC.el("p", {id: "bidi-probe"}, line);
  document.body.prepend(p);
  const text = p.firstChild;
  const lefts = pieces.map((piece) => {
    const at = text.data.indexOf(piece);
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + piece.length);
    return range.getBoundingClientRect().left;
  });
  p.remove();
  return lefts;
}"""


@pytest.mark.parametrize(("line", "pieces"), [
    ("דוד 3-2 Ann", ["דוד", "3", "2", "Ann"]),
    ("Ann 3-2 דוד", ["Ann", "3", "2", "דוד"]),
    ("محمد علي 15-30 Bob", ["محمد علي", "15", "30", "Bob"]),
    ("דוד wins 6-4 6-3", ["דוד", "wins", "6-4", "6-3"]),
    ("Next: דוד v محمد", ["Next", "דוד", " v ", "محمد"]),
])
@pytest.mark.parametrize("page", ["", "history", "host"])
def test_a_right_to_left_name_keeps_the_line_in_order(companion, phone, page, line, pieces):
    start(companion, {"game": "center-court", "players": ["דוד", "Ann"]})
    phone.goto(url(companion, page))
    lefts = phone.evaluate(ORDER, [line, pieces])
    assert lefts == sorted(lefts), f"{line!r} drawn out of order: {lefts}"


#: Where each piece (its last time) of the empty table's "Last: …" line is drawn: [its
#: line's top, its left].
LAST_LINE = """(pieces) => {
  const p = document.querySelector("#board .empty");
  const text = Array.from(p.childNodes).find((n) => n.nodeType === 3 && n.data.includes(pieces[0]));
  return pieces.map((piece) => {
    const range = document.createRange();
    const at = text.data.lastIndexOf(piece);
    range.setStart(text, at);
    range.setEnd(text, at + piece.length);
    const box = range.getBoundingClientRect();
    return [Math.round(box.top), box.left];
  });
}"""


def test_the_last_match_line_keeps_a_right_to_left_name_in_order(companion, phone):
    """The empty table's line of the last match is written in order where a score follows
    a right-to-left name ("… · דוד: 1 in play", not "… · 1 :דוד in play")."""
    start(companion, {"game": "alakazoo", "players": ["Ann", "דוד"],
                      "options": {"first_player": 1, "portals": [2, 3],
                                  "dark_power_reset": False}})
    companion.runner.call(lambda t: (t.act({"type": "display", "space": 1, "creature": 1}),
                                     t.abandon()))
    phone.goto(url(companion))
    line = phone.locator("#board .empty")
    sync_api.expect(line).to_contain_text("1 in play")
    pieces = ["Last", "ended unfinished", "Ann: 0 in play", "דוד", "1 in play"]
    places = phone.evaluate(LAST_LINE, pieces)  # the line may wrap: by line, then left
    assert places == sorted(places), f"drawn out of order: {places}"
