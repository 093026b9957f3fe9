"""Center Court's pages speak the page's language (issue #40): a match with 16-capital
names on the spectator's and the host's pages at 390x844 and 320x640, in every shipped
language, German first, started and won: no English of the game's scripts is left in the
board's and the host's controls' rendered text. (The layout checks of the same pages in
every language are tests/e2e/test_language_layout.py's, whose fixtures this uses.)"""

from __future__ import annotations

import re

import pytest

from companion.i18n import SCRIPTS, words
from tests.e2e.browser_support import play, require_chromium, start, url
from tests.e2e.test_language_layout import speaking_tabs as speaking_tabs
from tests.e2e.test_language_layout import table as table
from tests.e2e.test_layout_matrix import GAMES, LONG

expect = require_chromium().expect

#: The game's scripts, as the catalog names them.
SCRIPT_FILES = {"center-court": ("web/static/center-court.js", "web/static/center-court-host.js")}
#: Where the game's words show: its board, and the host's controls of its actions.
SHOWN = "#board, #actions"


def english(lang: str, game: str) -> list[re.Pattern[str]]:
    """The English words of the game's scripts that the language says otherwise, as
    patterns of whole words (a message with placeholders: its words before the first)."""
    files = SCRIPT_FILES[game]
    said = words(lang, SCRIPTS, lambda path: path in files)
    found = []
    for message, translation in said.items():
        if translation == message:
            continue
        fixed = message.split("{", 1)[0].strip()
        if len(fixed) > 3:
            found.append(re.compile(rf"(?<!\w){re.escape(fixed)}(?!\w)"))
    return found


@pytest.mark.parametrize("game", list(SCRIPT_FILES))
def test_no_english_is_left_on_the_game_s_pages(table, speaking_tabs, game):
    lang, tabs = speaking_tabs
    record, started, finished = GAMES[game](LONG)
    table.runner.call(lambda t: t.abandon() if t.match and not t.match.is_over else None)
    start(table, record)
    left = []
    patterns = english(lang, game)
    assert patterns, "the game's scripts have words in this language"
    for moves, when in ((started, "started"), (finished, "won")):
        play(table, *moves)
        for tab in tabs[:2]:  # one tab at 390 px, one at 320 px
            for path in ("", "host"):
                page = tab.page
                page.goto(url(table, path))
                expect(page.locator("#board > *").first).to_be_visible()
                text = "\n".join(page.locator(SHOWN).all_inner_texts())
                assert any(name in text for name in LONG[:2]), text
                left += [f"{lang} {when} {tab.name} /{path}: {p.pattern}"
                         for p in patterns if p.search(text)]
    assert not left, "\n".join(left)
