"""Alakazoo's pages in every shipped language (issue #40), German's long words first:
the spectator's and the host's pages of a four-player match with 16-capital names, in
play (the Spell Dice, Dark Power, swaps and the host's controls) and at the end (the
Magic Jury, the places), at 390x844 and 320x640: the layout checks of
tests/e2e/test_layout_matrix.py (nothing wider than the screen, no text out of its box,
no console error), no word broken across two lines, and no English left of the game's
own words (its scripts' messages and the rules' words a page shows)."""

from __future__ import annotations

import re

from companion.i18n import DOMAIN, PLACEHOLDER, SCRIPTS, words
from tests.e2e.browser_support import broken_words, require_chromium, url
from tests.e2e.test_language_layout import speaking_tabs as speaking_tabs
from tests.e2e.test_layout_matrix import LONG, check
from tests.e2e.test_layout_matrix import table as table
from tests.games.zoo_matches import FINISH, FOUR, MIDGAME

sync_api = require_chromium()
expect = sync_api.expect

#: The game's own files: the words searched for in English are theirs.
OURS = ("web/static/alakazoo.js", "web/static/alakazoo-host.js", "companion/games/alakazoo/")
#: Where the game's words are drawn: the board and the host's controls and bar.
GAME = "#board, #actions, #bar"


def english(lang: str, ours: tuple[str, ...] = OURS) -> list[re.Pattern[str]]:
    """The English messages of the files ``ours`` (paths or their starts) a translation
    replaces, each as the pattern of its words with any placeholder's value (words of
    three letters or fewer, and messages the language says alike, cannot tell a language
    apart; nor can a pattern its translation matches: "Point {side}", "Point pour {side}";
    nor a word in a card's name as printed, "Enchant" in "Enchant-2")."""
    found = []
    for domain in (DOMAIN, SCRIPTS):
        said = words(lang, domain, lambda path: path.startswith(ours))
        for message, translation in said.items():
            literal = PLACEHOLDER.sub("", message)
            if translation == message or len(re.sub(r"[^A-Za-z]", "", literal)) <= 3:
                continue
            parts = [re.escape(p) for p in PLACEHOLDER.split(message)[::2]]
            # A word joined by a hyphen is another's (Enchant-2, a card's printed name).
            pattern = re.compile(r"(?<![\w-])" + r".{1,80}?".join(parts)
                                 + (r"(?![\w-])" if message[-1].isalnum() else ""))
            if not pattern.search(PLACEHOLDER.sub("WWWWWWWWWWWWWWWA", translation)):
                found.append(pattern)
    return found


def test_alakazoo_s_pages_in_every_language(table, speaking_tabs):
    from tests.e2e.browser_support import play, start
    lang, tabs = speaking_tabs
    record = {**FOUR, "players": LONG}
    patterns = english(lang)
    assert len(patterns) > 100, lang  # the game's words are in the catalog
    problems: list[str] = []
    for label, actions in (("midgame", MIDGAME), ("finished", FINISH)):
        table.runner.call(lambda t: t.abandon() if t.match and not t.match.is_over else None)
        start(table, record)
        play(table, *actions)
        problems += check(table, tabs, f"{lang}-alakazoo-{label}")
        for tab in tabs:
            for path in ("", "host"):
                page = tab.page
                page.goto(url(table, path))
                expect(page.locator("#board > *").first).to_be_visible()
                assert page.evaluate("document.documentElement.lang") == lang
                # The players' names are not the language's words: a name wider than
                # its column wraps inside it by design (alakazoo.css).
                problems += [f"{tab.name} /{path}: broken word {w}"
                             for w in broken_words(page, GAME, LONG)]
                text = "\n".join(page.locator(GAME).all_inner_texts())
                text += "\n" + "\n".join(page.locator(
                    f":is({GAME}) :is([aria-label], [title])").evaluate_all(
                    "els => els.map((e) => `${e.getAttribute('aria-label') || ''} "
                    "${e.getAttribute('title') || ''}`)"))
                problems += [f"{tab.name} /{path}: English {p.pattern[:60]!r} in "
                             f"{text[max(0, m.start() - 30):m.end() + 30]!r}"
                             for p in patterns if (m := p.search(text))]
    assert not problems, "\n".join(problems)


def test_the_search_for_english_finds_it():
    """The search above fails on the game's English words (here, with a name and a space
    in place of the placeholders), and not on their translation."""
    patterns = english("de")
    assert any(p.search("Round 3 · WWWWWWWWWWWWWWWA's turn") for p in patterns)
    assert any(p.search("Space 4: which creature?") for p in patterns)
    assert not any(p.search("Runde 3 · WWWWWWWWWWWWWWWA ist dran") for p in patterns)

