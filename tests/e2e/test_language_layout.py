"""The pages in every shipped language at phone size (issue #40), German's long words
first: the layout checks of tests/e2e/test_layout_matrix.py (nothing scrolls sideways,
no text runs out of its box, the navigation on one line, the host's bar two lines at
most, no console error) at 390x844 and 320x640 with 16-capital names, the page's
language chosen as a phone chooses it (the picker's cookie). And no English left: the
page's own words (nav, headings, buttons, the scripts' messages shown) are the
language's."""

from __future__ import annotations

import re

import pytest

from companion.i18n import DOMAIN, LANGUAGES, SCRIPTS, words
from tests.e2e.browser_support import PIN, require_chromium, url
from tests.e2e.test_layout_matrix import GAMES, LONG, TABS, Tab, check
from tests.e2e.test_layout_matrix import table as table

sync_api = require_chromium()
expect = sync_api.expect

#: German first: its words are the longest.
ORDER = ["de", *(lang for lang in LANGUAGES if lang not in ("de", "en"))]


@pytest.fixture(scope="module", params=ORDER)
def speaking_tabs(request, table, phones_context):
    """A logged-in host page for each size and theme, the browser speaking ``param``."""
    lang = request.param
    phones_context.clear_cookies()
    host = url(table, "").rstrip("/")
    phones_context.add_cookies([{"name": "lang", "value": lang, "url": host}])
    made = []
    for (size, scheme), viewport in TABS.items():
        errors: list[str] = []
        page = phones_context.new_page()
        page.set_viewport_size(viewport)
        page.emulate_media(color_scheme=scheme)
        page.on("console", lambda m, e=errors, p=page: m.type == "error"
                and e.append(f"{p.url}: {m.text}"))
        page.on("pageerror", lambda x, e=errors, p=page: e.append(f"{p.url}: {x}"))
        page.goto(url(table, "host"))
        if not made:
            page.fill("#pin", PIN)
            page.click("#login button")
        expect(page.locator("#host")).to_be_visible()
        made.append(Tab(f"{lang}-{size}-{scheme}", page, errors))
    yield lang, made
    for tab in made:
        tab.page.close()
    phones_context.clear_cookies()


@pytest.mark.parametrize("game", list(GAMES))
def test_every_page_fits_the_phone_in_every_language(table, speaking_tabs, game):
    from tests.e2e.browser_support import play, start
    lang, tabs = speaking_tabs
    if lang != "de" and game != "center-court":
        pytest.skip("German's long words are checked with every game; the others with one")
    record, started, finished = GAMES[game](LONG)
    table.runner.call(lambda t: t.abandon() if t.match and not t.match.is_over else None)
    start(table, record)
    play(table, *started)
    problems = check(table, tabs, f"{lang}-{game}-started")
    for tab in tabs:
        assert tab.page.evaluate("document.documentElement.lang") == lang
    play(table, *finished)
    problems += check(table, tabs, f"{lang}-{game}-finished")
    assert not problems, "\n".join(problems)


#: The page's own words (its frame and controls), apart from the board and the game's
#: controls, whose words come from the rules (companion/games: see README "Languages").
OWN = ("header, footer, h1, h2, #match-row, #bar > button, #new-match > summary, #start > label,"
       " #start > button, #logout, #zone, #search, .paging, #boards .empty")


def test_no_english_is_left_on_the_pages_own_words(table, speaking_tabs):
    """The words the page and its scripts say themselves are the language's: none of the
    English messages a translation replaces shows in them."""
    lang, tabs = speaking_tabs
    page = tabs[0].page
    english = {m for domain in (DOMAIN, SCRIPTS) for m, said in words(lang, domain).items()
               if said != m and len(m) > 3 and "{" not in m}
    seen = []
    for path in ("", "host", "history", "players"):
        page.goto(url(table, path))
        page.wait_for_load_state("networkidle")
        text = "\n".join(page.locator(OWN).all_inner_texts())
        assert text.strip(), path
        seen += [f"/{path}: {m!r}" for m in sorted(english) if _whole(m, text)]
    assert not seen, "\n".join(seen)


def _whole(message: str, text: str) -> bool:
    """Whether ``message`` shows in ``text`` as words of its own (not inside a longer
    word: "Match" in "Matches")."""
    return re.search(rf"(?<!\w){re.escape(message)}(?!\w)", text) is not None
