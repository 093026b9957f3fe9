"""The simulator page in every shipped language (issue #40), German first: at 390x844
and 320x640 with 16-capital names on the seat buttons nothing runs out of its box or
scrolls sideways (tests/e2e/test_layout_matrix.py's checks), and no English is left in
the page's own words: its heading and hint, the login form, the panel's and the seats'
buttons, and sim.js's message when a press gets no answer."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from app.config import Config
from app.runtime import SIM_SEATS, Companion, WebOptions
from companion.i18n import DOMAIN, LANGUAGES, SCRIPTS, words
from tests.e2e.browser_support import PIN, broken_words, require_chromium, shot, url
from tests.e2e.test_layout_matrix import LONG, TABS, layout_problems

expect = require_chromium().expect

#: German first: its words are the longest.
ORDER = ["de", *(lang for lang in LANGUAGES if lang not in ("de", "en"))]
#: The simulator's own words: everything on the page but the OLED's picture.
OWN = "header, h1, #sim-hint, #login, #panel, #message"
#: What each language calls the seat buttons and the panel's BACK (written here, not
#: read from the catalog: the test holds the translation to what a club reads).
SEAT = {"de": "Platz", "fr": "Place", "es": "Puesto", "pl": "Miejsce"}
BACK = {"de": "ZURÜCK", "fr": "RETOUR", "es": "ATRÁS", "pl": "WSTECZ"}
#: The words of sim.js shown when the companion does not answer a press.
NO_ANSWER = {"de": "Der Companion antwortet nicht", "fr": "Le companion ne répond pas",
             "es": "El companion no responde", "pl": "Companion nie odpowiada"}


@pytest.fixture(scope="module")
def simulator(tmp_path_factory):
    """``companion run --sim`` as the command makes it (its four seat buttons), a match
    of two 16-capital names on the table."""
    cfg = Config()
    cfg = replace(cfg, buttons=replace(cfg.buttons, seats=SIM_SEATS))
    web = WebOptions(host="127.0.0.1", port=0, pin=PIN, keepalive=1.0)
    with Companion(cfg, sim=True, data=tmp_path_factory.mktemp("sim"), web=web) as c:
        c.runner.call(lambda t: t.start({"game": "center-court", "players": LONG[:2]}))
        yield c


def english_left(lang: str, text: str) -> list[str]:
    """The English messages a translation replaces that still show in ``text``."""
    english = {m for domain in (DOMAIN, SCRIPTS) for m, said in words(lang, domain).items()
               if said != m and len(m) > 3 and "{" not in m}
    return sorted(m for m in english
                  if re.search(rf"(?<!\w){re.escape(m)}(?!\w)", text) is not None)


@pytest.mark.parametrize("lang", ORDER)
def test_the_simulator_fits_the_phone_and_speaks_the_language(simulator, phones_context,
                                                              lang):
    host = url(simulator).rstrip("/")
    problems: list[str] = []
    try:
        for (size, scheme), viewport in TABS.items():
            # Logged out at each size: the login form is checked at each.
            phones_context.clear_cookies()
            phones_context.add_cookies([{"name": "lang", "value": lang, "url": host}])
            errors: list[str] = []
            page = phones_context.new_page()
            try:
                page.set_viewport_size(viewport)
                page.emulate_media(color_scheme=scheme)
                page.on("pageerror", lambda x, e=errors: e.append(str(x)))
                page.goto(url(simulator, "sim"))
                assert page.evaluate("document.documentElement.lang") == lang
                expect(page.locator("#login")).to_be_visible()
                # The login form, before anyone logs in.
                login = "\n".join(page.locator(OWN).all_inner_texts())
                problems += [f"{lang}-{size} login: English {m!r}"
                             for m in english_left(lang, login)]
                problems += [f"{lang}-{size} login: {p}" for p in layout_problems(page)]
                problems += [f"{lang}-{size} login: {p}" for p in broken_words(page, "main")]
                page.fill("#pin", PIN)
                page.click("#login button")
                seats = page.locator("#panel button[data-seat]")
                expect(seats.nth(0)).to_have_text(f"{SEAT[lang]} 1 {LONG[0]}")
                expect(seats.nth(1)).to_have_text(f"{SEAT[lang]} 2 {LONG[1]}")
                expect(seats.nth(2)).to_have_text(f"{SEAT[lang]} 3")
                expect(page.locator("#panel button[data-button=back]")).to_have_text(
                    BACK[lang])
                # A press that gets no answer is said in the page's language (sim.js).
                page.route("**/api/sim/button", lambda route: route.abort())
                page.locator("#panel button[data-button=ok]").click()
                expect(page.locator("#message")).to_contain_text(NO_ANSWER[lang])
                page.unroute("**/api/sim/button")
                text = "\n".join(page.locator(OWN).all_inner_texts())
                problems += [f"{lang}-{size}: English {m!r}" for m in english_left(lang, text)]
                problems += [f"{lang}-{size}: {p}" for p in layout_problems(page)]
                problems += [f"{lang}-{size}: {p}" for p in broken_words(page, "main")]
                problems += [f"{lang}-{size}: {e}" for e in errors]
                shot(page, f"sim-{lang}-{size}")
            finally:
                page.close()
    finally:
        phones_context.clear_cookies()
    assert not problems, "\n".join(problems)
