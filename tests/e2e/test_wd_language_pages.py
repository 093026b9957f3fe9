"""Wizard Dodgeball's pages in every shipped language at phone size (issue #40), German
first: the spectator and host pages of a match with 16-capital names at 390x844 and
320x640 pass the layout checks (nothing scrolls sideways, no text runs out of its box,
no console error: tests/e2e/test_layout_matrix.py), and no English message of the game's
scripts is left in the board or the host's controls."""

from __future__ import annotations

import re

from companion.i18n import SCRIPTS, words
from tests.e2e.browser_support import play, require_chromium, start, url
from tests.e2e.test_language_layout import speaking_tabs as speaking_tabs
from tests.e2e.test_layout_matrix import GAMES, LONG, check
from tests.e2e.test_layout_matrix import table as table

sync_api = require_chromium()


def test_a_wizard_dodgeball_match_fits_and_speaks_the_language(table, speaking_tabs):
    lang, tabs = speaking_tabs
    record, started, finished = GAMES["wizard-dodgeball"](LONG)
    table.runner.call(lambda t: t.abandon() if t.match and not t.match.is_over else None)
    start(table, record)
    play(table, *started)
    problems = check(table, tabs, f"{lang}-wd-started")
    english = {m for m, said in words(lang, SCRIPTS,
                                      lambda path: "wizard-dodgeball" in path).items()
               if said != m and len(m) > 3 and "{" not in m}
    page = tabs[0].page
    seen = []
    for path, parts in (("", "#board"), ("host", "#board, #actions")):
        page.goto(url(table, path))
        page.wait_for_load_state("networkidle")
        text = "\n".join(page.locator(parts).all_inner_texts())
        assert text.strip(), path
        seen += [f"/{path}: {m!r}" for m in sorted(english)
                 if re.search(rf"(?<!\w){re.escape(m)}(?!\w)", text)]
    play(table, *finished)
    problems += check(table, tabs, f"{lang}-wd-finished")
    assert not problems, "\n".join(problems)
    assert not seen, "\n".join(seen)
