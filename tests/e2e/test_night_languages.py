"""The director's page and the printable standings in every shipped language (issue
#40), German's long words first: at 390x844 and 320x640 with 16-capital names, a round
under way with a bye, a result entered and corrected, nothing runs out of its box or its
card or scrolls sideways (tests/e2e/test_layout_matrix.py's checks), the page says its
language, and none of the English messages a translation replaces is left in the page's
own words (its headings, labels, buttons, menus and the script's lines)."""

from __future__ import annotations

import re

import pytest

from companion.i18n import DOMAIN, LANGUAGES, SCRIPTS, words
from tests.e2e.browser_support import broken_words, require_chromium, shot
from tests.e2e.test_layout_matrix import TABS, layout_problems
from tests.e2e.test_night_pages import LONG, fits, night  # noqa: F401 (a fixture)
from tests.hall.night_support import PIN, HttpDirector
from tests.mqtt_support import mosquitto  # noqa: F401 (a fixture)

expect = require_chromium().expect

#: German first: its words are the longest.
ORDER = ["de", *(lang for lang in LANGUAGES if lang not in ("de", "en"))]
#: The director's own words: everything but the names, the event's and the game's, and
#: the game's options (its kit's words, from the rules engines: README "Languages").
OWN = """Array.from(document.querySelectorAll(
  'h1, h2:not(#event-title), h3, label, legend, button, option, .hint, #start, .who'))
  .filter((el) => !el.closest('#options')).map((el) => el.textContent).join('\\n')"""


def english_left(lang: str, text: str) -> list[str]:
    """The English messages (of either domain) translated in ``lang`` that show whole in
    ``text``."""
    english = {m for domain in (DOMAIN, SCRIPTS) for m, said in words(lang, domain).items()
               if said != m and len(m) > 3 and "{" not in m}
    return sorted(m for m in english
                  if re.search(rf"(?<!\w){re.escape(m)}(?!\w)", text) is not None)


@pytest.fixture
def corrected(night):  # noqa: F811 (the fixture imported)
    """A Swiss event of five (a bye), round 1 started, one result entered and corrected."""
    hall, _, watch = night
    director = HttpDirector(hall.urls[0])
    status, event = director.request("POST", "/api/events", {
        "name": "Dienstagsturnier", "game": "center-court", "options": {"sets": 1},
        "format": "swiss", "rounds": 2, "players": [*LONG, "Łukasz"], "tables": ["t1", "t2"]})
    assert status == 200, event
    eid = event["id"]
    state = director.change(f"/api/events/{eid}/rounds", {}, eid)
    watch.until(lambda o: o.get("t1") and o.get("t2"))
    game = next(g for g in state["pairings"] if not g["bye"])
    path = f"/api/events/{eid}/pairings/{game['id']}/result"
    director.change(path, {"ranks": [1, 2]}, eid)
    director.change(path, {"ranks": [2, 1], "reason": "Falsch eingetragen"}, eid)
    return hall, eid


@pytest.mark.parametrize("lang", ORDER)
def test_the_director_page_fits_the_phone_in_every_language(corrected, browser, lang):
    hall, eid = corrected
    context = browser.new_context()
    try:
        problems, english = [], []
        for (size, scheme), viewport in TABS.items():
            page = context.new_page()
            page.set_viewport_size(viewport)
            page.emulate_media(color_scheme=scheme)
            errors: list[str] = []
            page.on("pageerror", lambda x, e=errors: e.append(str(x)))
            page.goto(f"{hall.urls[0]}director?lang={lang}&event={eid}")
            # The page asks whether it is logged in before it shows either the login or
            # the desk: wait for one of them, never decide on the first instant.
            login = page.locator("#login")
            expect(page.locator("#login:visible, #desk:visible")).to_have_count(1)
            if login.is_visible():
                page.fill("#pin", PIN)
                page.click("#login button")
            expect(page.locator("#games .dgame")).to_have_count(3)  # two games and a bye
            expect(page.locator("#fixes li")).to_have_count(1)
            assert page.evaluate("document.documentElement.lang") == lang
            problems += [f"{lang}-{size} director: {p}"
                         for p in layout_problems(page)]
            fits(page)
            # The event's name and the page's words whole on their line; the players'
            # 16-capital names wrap in a table's card by design (night.css).
            problems += [f"{lang}-{size} director: broken word {w}"
                         for w in broken_words(page, "main", LONG)]
            english += english_left(lang, page.evaluate(f"() => {OWN}"))
            shot(page, f"night-director-{lang}-{size}")
            page.goto(f"{hall.urls[0]}night/standings?event={eid}")
            expect(page.locator("table.standings tbody tr")).to_have_count(5)
            problems += [f"{lang}-{size} standings: {p}"
                         for p in layout_problems(page)]
            english += english_left(lang, page.locator("main, body").first.inner_text())
            problems += errors
            page.close()
        assert not problems, "\n".join(problems)
        assert not english, english
    finally:
        context.close()
