"""The hall's own words on the club night's pages in every shipped language (issue #40),
German first: the director's "Why this pairing?" of every game, the round's problem and
the corrections, and the TV, at 390x844 and 320x640 with 16-capital names. The words the
hall makes in Python (hall/night.py, hall/director/*) reach these pages through its JSON:
each comes in the page's language, nothing runs out of its box, and no English is left,
neither a whole message nor the words around a message's placeholders."""

from __future__ import annotations

import re
from functools import cache

import pytest

from companion.i18n import DOMAIN, words
from tests.e2e.browser_support import require_chromium, shot
from tests.e2e.test_layout_matrix import TABS, layout_problems
from tests.e2e.test_night_languages import ORDER, corrected, english_left  # noqa: F401
from tests.e2e.test_night_pages import fits, night  # noqa: F401 (fixtures)
from tests.hall.night_support import PIN, HttpDirector
from tests.mqtt_support import mosquitto  # noqa: F401 (a fixture)

expect = require_chromium().expect

#: The page's text but the game's own options (its kit's words: the games' area).
TEXT = """() => { const copy = document.body.cloneNode(true);
  copy.querySelectorAll('#options, script, [hidden]').forEach((el) => el.remove());
  return copy.innerText; }"""


def _hall(path: str) -> bool:
    return path.startswith("hall/")


@cache
def fragments(lang: str) -> frozenset[str]:
    """The English words around the placeholders of every hall message ``lang``
    translates otherwise: each run of two words or more between placeholders."""
    out = set()
    for msgid, said in words(lang, DOMAIN, _hall).items():
        for part in re.split(r"\{\w+\}", msgid):
            part = part.strip(" :;,.()'\"")
            if " " in part and len(part) >= 8 and part not in said:
                out.add(part)
    return frozenset(out)


def english_in(lang: str, text: str) -> list[str]:
    return english_left(lang, text) + sorted(
        f for f in fragments(lang) if re.search(rf"(?<!\w){re.escape(f)}(?!\w)", text))


def test_the_check_finds_the_hall_words_left_in_english():
    """The check itself: an English why is found in every language, a translated one not."""
    english = "Ann v Bob: both 0 points, not met before"
    for lang in ORDER:
        assert english_in(lang, english), lang


@pytest.mark.parametrize("lang", ORDER)
def test_why_this_pairing_and_the_tv_in_every_language(corrected, browser, lang):  # noqa: F811
    hall, eid = corrected
    english = HttpDirector(hall.urls[0]).event(eid)
    games = [p for p in english["pairings"] if not p["bye"]]
    context = browser.new_context()
    try:
        problems, left = [], []
        for (size, scheme), viewport in TABS.items():
            page = context.new_page()
            page.set_viewport_size(viewport)
            page.emulate_media(color_scheme=scheme)
            errors: list[str] = []
            page.on("pageerror", lambda x, e=errors: e.append(str(x)))
            page.goto(f"{hall.urls[0]}director?lang={lang}&event={eid}")
            expect(page.locator("#login:visible, #desk:visible")).to_have_count(1)
            if page.locator("#login").is_visible():
                page.fill("#pin", PIN)
                page.click("#login button")
            items = page.locator("#games .dgame")
            expect(items).to_have_count(3)
            for game in games:
                item = page.locator(f"#games .dgame[data-id='{game['id']}']")
                item.locator(".row button.quiet").first.click()
                why = item.locator(".why")
                expect(why).to_be_visible()
                expect(why).not_to_have_text(game["why"])
                said = why.inner_text()
                assert all(n in said for n in game["players"]), said
            expect(page.locator("#start-why")).not_to_be_empty()
            problems += [f"{lang}-{size} director: {p}"
                         for p in layout_problems(page)]
            fits(page)
            left += english_in(lang, page.evaluate(TEXT))
            shot(page, f"night-why-{lang}-{size}")
            page.goto(f"{hall.urls[0]}night?lang={lang}")
            expect(page.locator("#games .game")).to_have_count(3)
            expect(page.locator("#standings tbody tr")).to_have_count(5)
            problems += [f"{lang}-{size} tv: {p}"
                         for p in layout_problems(page)]
            fits(page)
            left += english_in(lang, page.evaluate(TEXT))
            shot(page, f"night-tv-{lang}-{size}")
            problems += errors
            page.close()
        assert not problems, "\n".join(problems)
        assert not left, left
    finally:
        context.close()
