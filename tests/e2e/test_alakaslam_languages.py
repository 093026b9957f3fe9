"""AlakaSLAM's pages in every shipped language (issue #40), German's long words first:
the spectator's board and the host's controls of singles, doubles and Canadian doubles
with 16-capital names and names in every script (Łukasz, Σοφία, Ольга, 李小龙, דוד), as a
serve is due, as a shot is due under Enchantments (the host's picker showing the
refusal its preview says), just after a point and once the match is won, at 390x844 and
320x640: the layout checks of tests/e2e/test_layout_matrix.py (nothing wider than the
screen, no text out of its box, the host's bar two lines at most, no console error), no
word broken across two lines, no English of the game's scripts left (their words, the
court's labels and results, the controls' names for a screen reader), and axe clean
with an Enchantment to obey. The screenshots go to SCREENSHOTS/layout/slam-*."""

from __future__ import annotations

import pytest

from tests.e2e.browser_support import (
    SHOTS,
    accessibility_problems,
    broken_words,
    play,
    require_chromium,
    start,
    url,
)
from tests.e2e.test_alakazoo_languages import english
from tests.e2e.test_language_layout import speaking_tabs as speaking_tabs
from tests.e2e.test_layout_matrix import LONG, TALL_BAR, layout_problems
from tests.e2e.test_layout_matrix import table as table

sync_api = require_chromium()
expect = sync_api.expect

#: The game's page scripts: the English searched for is theirs.
SCRIPT_FILES = ("web/static/alakaslam.js", "web/static/alakaslam-host.js")
#: Where the game's words are drawn: the board, the host's controls and bar.
GAME = "#board, #actions, #bar"
SINGLES, DOUBLES, CANADIAN = "singles", "doubles", "canadian"

#: Each format's match: its start record, then the actions that bring each state, in
#: order (each state's actions played after the ones before it).
MATCHES = {
    SINGLES: ({"game": "alakaslam", "players": [LONG[0], "Σοφία"],
               "options": {"characters": ["austin", "sarissia"], "target": 2}}, [
        ("serve", []),
        # Σοφία's Enchant-2 binds the server: exactly 2 cards (Enchanted by Σοφία).
        ("shot", [{"type": "serve", "player": 0, "corner": "red", "cards": ["B1", "B2"]},
                  {"type": "shot", "player": 1, "cards": ["R2", "E2"]}]),
        ("point", [{"type": "shot", "player": 0, "cards": ["R0", "R2"]}]),  # out
        ("won", [{"type": "point", "winner": 1, "reason": "bad_serve"}]),
    ]),
    DOUBLES: ({"game": "alakaslam", "players": [LONG[0], LONG[1], "Ольга", "דוד"],
               "options": {"characters": ["laurie", "rich", "wendolyn", "simon"],
                           "target": 2}}, [
        # Simon copies Rich; Ольга took a mulligan.
        ("serve", [{"type": "copy", "player": 3, "character": "rich"},
                   {"type": "mulligan", "player": 2}]),
        # Rich's Enchant-2 binds Ольга: 2 cards, no Enchantment.
        ("shot", [{"type": "serve", "player": 0, "corner": "red", "cards": ["B1"],
                   "support": {"player": 1, "cards": ["E2", "B1"], "enchant": 2}}]),
        ("point", [{"type": "shot", "player": 2, "cards": ["R1", "B0"],
                    "support": {"player": 3, "cards": ["B0"]}},
                   {"type": "point", "winner": 1}]),
        ("won", [{"type": "point", "winner": 1, "reason": "bad_serve"}]),
    ]),
    CANADIAN: ({"game": "alakaslam", "players": [LONG[3], "李小龙", "Łukasz"],
                "options": {"characters": ["austin", "josephias", "simon"], "target": 2}}, [
        ("serve", []),
        # Two Enchantments on the player alone: 2 or 3 cards (Enchanted by both).
        ("shot", [{"type": "serve", "player": 0, "corner": "red", "cards": ["B2"]},
                  {"type": "shot", "player": 1, "cards": ["E2", "R1"],
                   "support": {"player": 2, "cards": ["E3"]}}]),
    ]),
}
#: On the host's page of a state, the cards tapped (player, card) so that its preview
#: says something: where a serve lands, why a row breaking an Enchantment is refused.
TAPS = {("serve", SINGLES): [(0, "R2")], ("serve", DOUBLES): [(0, "B1")],
        ("shot", SINGLES): [(0, "R1")], ("shot", DOUBLES): [(2, "R1"), (3, "B0")],
        ("shot", CANADIAN): [(0, "B0")]}


def test_the_matches_reach_the_states_they_are_shown_in(table):
    """Each state is what its name says (a test of this file's matches, before the
    browser sees them): a serve due, a shot due under an Enchantment, a point just won,
    a winner."""
    for fmt, (record, states) in MATCHES.items():
        table.runner.call(lambda t: t.abandon() if t.match and not t.match.is_over else None)
        start(table, record)
        for state, actions in states:
            play(table, *actions)
            v = table.table.snapshot.match["view"]
            assert v["format"] == fmt
            if state == "serve":
                assert v["due"] == "serve" and v["last_point"] is None, fmt
            elif state == "shot":
                assert v["due"] == "shot" and v["obligations"], fmt
            elif state == "point":
                assert v["due"] == "serve" and v["last_point"] and v["winner"] is None, fmt
            else:
                assert v["winner"] is not None, fmt


def _text(page) -> str:
    """The words the game's parts show or say: their text, the court's labels and
    results (svg), and the names a screen reader reads."""
    text = "\n".join(page.locator(GAME).all_inner_texts())
    text += "\n" + "\n".join(page.locator(f":is({GAME}) :is(svg text, svg title)")
                             .all_text_contents())
    text += "\n" + "\n".join(page.locator(
        f":is({GAME}) :is([aria-label], [title])").evaluate_all(
        "els => els.map((e) => `${e.getAttribute('aria-label') || ''} "
        "${e.getAttribute('title') || ''}`)"))
    return text


@pytest.mark.parametrize("fmt", list(MATCHES))
def test_alakaslam_s_pages_in_every_language(table, speaking_tabs, fmt):
    lang, tabs = speaking_tabs
    record, states = MATCHES[fmt]
    patterns = english(lang, SCRIPT_FILES)
    assert len(patterns) > 60, lang  # the scripts' words are in the catalog
    names = record["players"]
    problems: list[str] = []
    table.runner.call(lambda t: t.abandon() if t.match and not t.match.is_over else None)
    start(table, record)
    for state, actions in states:
        play(table, *actions)
        for tab in tabs:
            for path in ("", "host"):
                page = tab.page
                page.goto(url(table, path))
                expect(page.locator("#board > *").first).to_be_visible()
                assert page.evaluate("document.documentElement.lang") == lang
                where = f"{fmt} {state} {tab.name} /{path}"
                for player, card in TAPS.get((state, fmt), []) if path else []:
                    page.locator(f".picker[data-player='{player}'] [data-card={card}]").click()
                if path and (state, fmt) in TAPS:
                    expect(page.locator(".hit .landing")).not_to_have_text("")
                found = layout_problems(page, "#board .score .points")
                if path:
                    found += page.evaluate(TALL_BAR)
                problems += [f"{where}: {p}" for p in found]
                problems += [f"{where}: broken word {w}"
                             for w in broken_words(page, GAME, names)]
                text = _text(page)
                assert any(n in text for n in names), where
                problems += [f"{where}: English {p.pattern[:60]!r} in "
                             f"{text[max(0, m.start() - 30):m.end() + 30]!r}"
                             for p in patterns if (m := p.search(text))]
                (SHOTS / "layout").mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / "layout" / f"slam-{lang}-{fmt}-{state}-"
                                         f"{'host' if path else 'board'}-{tab.name}.png"),
                                full_page=True)
                if state == "shot" and tab is tabs[0]:
                    problems += [f"{where}: axe {p}" for p in accessibility_problems(page)]
        problems += [f"{fmt} {state} {tab.name}: {e}" for tab in tabs for e in tab.errors]
        for tab in tabs:
            tab.errors.clear()
    assert not problems, "\n".join(problems)


def test_the_search_for_english_finds_it():
    """The search above fails on the scripts' English words (a name and a space in place
    of the placeholders), and not on their translation, nor on a translation that starts
    as the English does ("Point pour ...")."""
    patterns = english("de", SCRIPT_FILES)
    assert any(p.search("WWWWWWWWWWWWWWWA to hit · rally 3") for p in patterns)
    assert any(p.search("Σοφία must play exactly 2 cards (Enchanted by Ольга)")
               for p in patterns)
    assert any(p.search("Tap up to 3 cards") for p in patterns)
    assert not any(p.search("Am Schlag: WWWWWWWWWWWWWWWA · Ballwechsel 3") for p in patterns)
    french = english("fr", SCRIPT_FILES)
    assert not any(p.search("Point pour Σοφία") for p in french)
