"""A page that is open when a match of another game starts brings that game's style
with its scripts, and draws the new board styled (web/static/<game>.css)."""

from __future__ import annotations

from tests.e2e.browser_support import EACH_GAME, log_in, require_chromium, start, url

expect = require_chromium().expect

#: A style each game's own stylesheet gives its board: (selector, CSS property, value).
STYLED = {
    "center-court": ("#board .cc .score .games", "min-width", "51.2px"),
    "wizard-dodgeball": ("#board .wd .side", "border-top-width", "4px"),
    "alakaslam": ("#board .slam .court", "max-width", "384px"),
    "alakazoo": ("#board .zp", "border-top-width", "4px"),
}


def styled(page, game: str) -> None:
    selector, prop, value = STYLED[game]
    expect(page.locator(selector).first).to_have_css(prop, value)


def test_an_open_page_loads_the_next_game_s_style_with_its_board(companion, phone):
    games = list(EACH_GAME)
    start(companion, EACH_GAME[games[0]])
    phone.goto(url(companion))
    styled(phone, games[0])
    for game in games[1:]:
        companion.runner.call(lambda t: t.abandon())
        start(companion, EACH_GAME[game])
        styled(phone, game)
        expect(phone.locator(f"link[rel=stylesheet][href='/static/{game}.css']")).to_have_count(1)
    # The host page does the same for its controls' and start form's style.
    log_in(phone, companion, "host", "#host")
    companion.runner.call(lambda t: t.abandon())
    start(companion, EACH_GAME[games[0]])
    styled(phone, games[0])
