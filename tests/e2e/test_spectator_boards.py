"""The spectator page as a scoreboard, for every game and state (new, in play, a call
shown, finished), in a real browser at phone size: the key facts inside the first screen
(by their boxes), the score in the page title, nothing moved by a new state, text that
grows with the phone's font size, axe clean in both themes."""

from __future__ import annotations

import pytest

from tests.e2e.browser_support import (
    PHONE,
    PIN,
    SHOTS,
    above_the_fold,
    accessibility_problems,
    broken_words,
    play,
    require_chromium,
    shot,
    start,
    url,
)
from tests.e2e.test_alakaslam_pages import SINGLES
from tests.e2e.test_alakazoo_pages import FINISH, FOUR, MIDGAME
from tests.e2e.test_browser import WD_START

sync_api = require_chromium()
expect = sync_api.expect

CC = {"game": "center-court", "players": ["Ann", "Bob"], "options": {"first_server": 0}}
POINT = [{"type": "point", "winner": 0}, {"type": "point", "winner": 1}]


def boxes(page, selectors: list[str]) -> dict[str, list]:
    """Where each element of ``selectors`` is drawn, to compare across a new state (to the
    whole pixel: a line box's height in fractions of one is no shift anyone sees)."""
    def whole(b: dict) -> dict:
        return {k: round(v) for k, v in b.items()}
    return {s: [whole(page.locator(s).nth(i).bounding_box())
                for i in range(page.locator(s).count())] for s in selectors}


def title_is(page, text: str) -> None:
    expect(page).to_have_title(f"{text} · Table Companion")


# --- Center Court ---------------------------------------------------------------------

CC_FACTS = ["#board .head", "#board .score thead .col-games", "#board .score thead .col-points",
            "#board .score .name", "#board .score .games", "#board .score .points",
            "#board tr.serving .ball", "#board .stats.live", "#board .rally"]


def test_center_court_new_and_in_play(companion, phone):
    start(companion, CC)
    phone.goto(url(companion))
    expect(phone.locator("#board .head")).to_have_text("Set 1")
    title_is(phone, "Ann v Bob: 0-0, 0-0")
    expect(phone.locator("#board .score thead th")).to_have_text(["Gms", "Points"])
    expect(phone.locator("#board tr.serving .name")).to_have_text("Ann")
    for s in CC_FACTS:
        above_the_fold(phone, s)
    shot(phone, "spectator-cc-new")
    # A 6-4 set, then a rally of three shots won by Ann, a game in.
    play(companion, *[POINT[0]] * 4 * 5, *[POINT[1]] * 4 * 4, *[POINT[0]] * 4)
    play(companion, {"type": "serve", "card": 3}, {"type": "return", "card": 3},
         {"type": "return", "card": 3}, POINT[0], *[POINT[0]] * 3, POINT[1])
    title_is(phone, "Ann v Bob: 6-4 1-0, 0-15")
    expect(phone.locator("#board .score thead th")).to_have_text(["Set", "Gms", "Points"])
    expect(phone.locator("#board .rally")).to_have_text("Longest rally (shots): 3")
    expect(phone.locator("#board .stats.live tbody tr").nth(0)).to_have_text("Points won2817")
    for s in [*CC_FACTS, "#board .score .set"]:
        above_the_fold(phone, s)
    shot(phone, "spectator-cc-in-play")


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_phones_say_what_an_undo_took_back_and_the_notice_ends(companion, phones, scheme):
    """An undo from the panel (or any host) says on every phone what it took back, as a
    notice over the page's foot (the board does not move) that ends on its own, or at
    the next change; a page opened after an undo does not bring that old news up."""
    start(companion, CC)
    play(companion, POINT[0], POINT[1])
    phone = phones.open(PHONE, scheme)
    phone.goto(url(companion))
    title_is(phone, "Ann v Bob: 0-0, 15-15")
    notice = phone.locator("#undone")
    expect(notice).to_be_hidden()
    before = boxes(phone, CC_FACTS[:6])
    companion.runner.call(lambda t: t.undo())  # as the panel's held BACK does
    expect(notice).to_have_text("Undone: point to Bob")
    expect(notice).to_be_visible()
    above_the_fold(phone, "#undone")
    title_is(phone, "Ann v Bob: 0-0, 15-0")
    assert boxes(phone, CC_FACTS[:6]) == before  # over the page: nothing moved
    assert accessibility_problems(phone) == []
    shot(phone, f"spectator-undone-{scheme}")
    # It ends on its own, a few seconds later.
    expect(notice).to_be_hidden(timeout=10_000)
    # And at the next change, whatever that is.
    companion.runner.call(lambda t: t.undo())
    expect(notice).to_have_text("Undone: point to Ann")
    play(companion, POINT[1])
    expect(notice).to_be_hidden(timeout=2000)
    # Opened after an undo: the board, no notice.
    companion.runner.call(lambda t: t.undo())
    phone.goto(url(companion))
    title_is(phone, "Ann v Bob: 0-0, 0-0")
    expect(notice).to_be_hidden()


def test_center_court_calls_a_fault_without_moving_the_score(companion, phone):
    start(companion, CC)
    play(companion, POINT[0])
    phone.goto(url(companion))
    watched = ["#board .score .name", "#board .score .points", "#board .stats.live",
               "#board .callout", "#board .rally"]
    before = boxes(phone, watched)
    play(companion, {"type": "serve", "card": 5, "roll": 5})
    call = phone.locator("#board .callout .call")
    expect(call).to_have_text("FAULT · second serve")
    above_the_fold(phone, "#board .callout .call")
    assert boxes(phone, watched) == before
    shot(phone, "spectator-cc-fault")
    play(companion, {"type": "serve", "card": 2, "roll": 2})
    expect(call).to_have_text("DOUBLE FAULT")
    title_is(phone, "Ann v Bob: 0-0, 15-15")
    assert boxes(phone, watched) == before
    expect(phone.locator("#board .stats.live tbody tr").nth(3)).to_have_text("Double faults10")
    shot(phone, "spectator-cc-double-fault")
    play(companion, {"type": "serve", "card": 4})
    expect(phone.locator("#board .status")).to_contain_text("Ball in play: 4 to Bob")
    expect(call).to_have_count(0)
    assert boxes(phone, watched) == before


def test_center_court_tiebreak_and_the_winner(companion, phone):
    start(companion, {**CC, "options": {**CC["options"], "sets": 1}})
    phone.goto(url(companion))
    play(companion, *[w for _ in range(6) for w in [POINT[0]] * 4 + [POINT[1]] * 4])
    expect(phone.locator("#board .head")).to_have_text("Set 1 · Tiebreak")
    expect(phone.locator("#board .score thead th")).to_have_text(["Gms", "TB"])
    for s in CC_FACTS:
        above_the_fold(phone, s)
    shot(phone, "spectator-cc-tiebreak")
    play(companion, *[POINT[1]] * 7)
    head = phone.locator("#board .head")
    expect(head).to_have_text("Bob wins 7-6(7-0)")
    expect(head).to_have_class("head over")
    title_is(phone, "Bob wins 7-6(7-0)")
    winner = phone.locator("#board tr.winner")
    expect(winner.locator(".name")).to_have_text("Bob winner")
    expect(winner.locator(".chip.won")).to_be_visible()
    for s in ["#board .head", "#board tr.winner .chip.won", "#board .score .set",
              "#board .stats.live", "#board .rally"]:
        above_the_fold(phone, s)
    shot(phone, "spectator-cc-won")


# --- Wizard Dodgeball -----------------------------------------------------------------

WD_FACTS = ["#board .head", "#board .lastplay", "#board .status.now",
            "#board .side h2 .sname", "#board .side .pts", "#board .side li.now"]
FREEZE = {"type": "cast", "caster": 21, "spell": "freeze", "targets": [45]}
THROW = {"type": "throw", "thrower": 21, "target": 30, "range": 2, "target_holding_ball": False,
         "rolls": {"throw": [5, 6], "dodge": [1, 2]}}
END = {"type": "end_activation"}


def test_dodgeball_last_play_and_dice_first_hands_as_chips(companion, phone):
    start(companion, WD_START)
    phone.goto(url(companion))
    expect(phone.locator("#board .lastplay")).to_have_text("No play yet")
    title_is(phone, "Owls 0-0 Newts")
    for s in WD_FACTS:
        above_the_fold(phone, s)
    shot(phone, "spectator-wd-new")
    watched = ["#board .side h2", "#board .status.now", "#board .lastplay"]
    before = boxes(phone, watched)
    play(companion, FREEZE, THROW, END)
    last = phone.locator("#board .lastplay")
    expect(last).to_contain_text("Last: #21 hit #30 (11v3): out")
    expect(last.locator(".dice")).to_have_text("throw 5+6 v dodge 1+2")
    assert boxes(phone, watched) == before  # the play arrived: nothing moved
    title_is(phone, "Owls 1-0 Newts")
    newts = phone.locator('#board .side[data-side="1"]')
    expect(newts.locator("li.now .chip")).to_have_text("FRZ")
    expect(newts.locator("li.now .chip")).to_have_attribute("title", "Freeze")
    expect(newts.locator("li.off")).to_contain_text("#30out")
    owls_hand = phone.locator('#board .hand[data-side="0"]')
    expect(owls_hand.locator(".recharging")).to_have_text("FRZ #21 ⟳10")
    expect(owls_hand.locator(".ready .chip")).to_have_count(14)  # 15 faces, Freeze out
    expect(phone.locator("#board .legend.spells")).to_contain_text("FRZ Freeze")
    stats = phone.locator("#board .stats.live tbody tr")
    expect(stats).to_have_text(["Hits10", "Catches00", "Casts10"])
    expect(phone.locator("#board .status.now")).to_contain_text("frozen: no actions")
    for s in [*WD_FACTS, "#board .lastplay .dice", "#board .side li.off .chip.out",
              "#board .side li .chip.fx-freeze"]:
        above_the_fold(phone, s)
    shot(phone, "spectator-wd-in-play")


def test_dodgeball_spell_codes_are_the_oleds(companion, phone):
    from companion.games.wizard_dodgeball.cards import SHORT

    start(companion, WD_START)
    phone.goto(url(companion))
    expect(phone.locator("#board .wd")).to_be_visible()
    assert phone.evaluate("TC.SPELL_CODES") == SHORT


def test_dodgeball_winner(companion, phone):
    start(companion, {**WD_START, "options": {**WD_START["options"], "target": 1}})
    phone.goto(url(companion))
    play(companion, {"type": "hit", "thrower": 21, "target": 45})
    head = phone.locator("#board .head")
    expect(head).to_have_text("Owls wins · first to 1")
    expect(head).to_have_class("head over")
    title_is(phone, "Owls wins 1-0")
    expect(phone.locator('#board .side.winner[data-side="0"] .chip.won')).to_have_text("winner")
    for s in ["#board .head", "#board .side.winner .chip.won", "#board .lastplay",
              "#board .side .pts"]:
        above_the_fold(phone, s)
    shot(phone, "spectator-wd-won")


# --- AlakaSLAM and Alakazoo -----------------------------------------------------------

SERVE = {"type": "serve", "player": 0, "corner": "red", "cards": ["B1", "B2"]}


def test_alakaslam_in_play_and_the_winner(companion, phone):
    start(companion, {**SINGLES, "options": {**SINGLES["options"], "target": 1}})
    phone.goto(url(companion))
    title_is(phone, "Ann 0-0 Bob")
    facts = ["#board .head", "#board .score .name", "#board .score .points",
             "#board .status.now", "#board svg.court"]
    for s in facts:
        above_the_fold(phone, s)
    shot(phone, "spectator-slam-new")
    before = boxes(phone, ["#board .score", "#board .status.now", "#board svg.court"])
    play(companion, SERVE)
    expect(phone.locator("#board .status.now")).to_have_text("Bob to hit · rally 1")
    assert boxes(phone, ["#board .score", "#board .status.now", "#board svg.court"]) == before
    for s in [*facts, "#board .status.last"]:
        above_the_fold(phone, s)
    shot(phone, "spectator-slam-in-play")
    play(companion, {"type": "point", "winner": 0})
    head = phone.locator("#board .head")
    expect(head).to_have_text("Ann wins 1-0")
    expect(head).to_have_class("head over")
    title_is(phone, "Ann wins 1-0")
    expect(phone.locator("#board tr.winner .chip.won")).to_have_text("winner")
    for s in ["#board .head", "#board tr.winner .chip.won", "#board .score .points"]:
        above_the_fold(phone, s)
    shot(phone, "spectator-slam-won")


def test_alakazoo_title_colours_and_the_winner(companion, phone):
    start(companion, FOUR)
    play(companion, *MIDGAME[:-1])
    phone.goto(url(companion))
    title_is(phone, "Annabelle 4 · Bartholomew 2 · Cleo 1 · Dimitri 2")
    watched = ["#board .zp", "#board .head"]
    before = boxes(phone, watched)
    play(companion, MIDGAME[-1])  # the Spell Dice: a line that was kept for them
    expect(phone.locator("#board .last")).to_contain_text("Spell Dice")
    assert boxes(phone, watched) == before
    colours = phone.locator("#board .zp h2 .swatch").evaluate_all(
        "(els) => els.map((e) => getComputedStyle(e).backgroundColor)")
    assert len(set(colours)) == 4, colours  # a colour per player
    companion.runner.call(lambda t: t.abandon())
    start(companion, FOUR)
    play(companion, *FINISH)
    head = phone.locator("#board .head")
    expect(head.locator("li")).to_have_text(
        ["1st Annabelle 18", "2nd Bartholomew 4", "=3rd Cleo 1", "=3rd Dimitri 1"])
    expect(head).to_have_class("head over places")
    title_is(phone, "Annabelle wins with 18")
    for s in ["#board .head", "#board .zp.winner .chip.won", "#board .zp .pts"]:
        above_the_fold(phone, s)
    shot(phone, "spectator-zoo-won")


# --- every game: axe in both themes, text that grows ------------------------------------

#: Each game in play, with a call or a last play on the board.
IN_PLAY = {
    "center-court": (CC, [POINT[0], {"type": "serve", "card": 5, "roll": 5}],
                     ["#board .head", "#board .score .name", "#board .score .points",
                      "#board .callout .call", "#board .stats.live"]),
    "wizard-dodgeball": (WD_START, [FREEZE, THROW, END], WD_FACTS),
    "alakaslam": (SINGLES, [SERVE], ["#board .head", "#board .score .name",
                                     "#board .score .points", "#board .status.now"]),
    "alakazoo": (FOUR, MIDGAME, ["#board .head", "#board .status.last", "#board .status.now",
                                 "#board .zp h2"]),
}


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_every_board_passes_axe(companion, phones, scheme):
    page = phones.open(PHONE, scheme)
    for game, (setup, actions, facts) in IN_PLAY.items():
        companion.runner.call(lambda t: t.abandon() if t.match else None)
        start(companion, setup)
        play(companion, *actions)
        page.goto(url(companion))
        expect(page.locator(facts[0])).to_be_visible()
        for fact in facts:  # the scan covers the board with its call or last play
            above_the_fold(page, fact)
        assert accessibility_problems(page) == [], game
        shot(page, f"spectator-{game}-{scheme}")


def overlaps(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


@pytest.mark.parametrize("game", list(IN_PLAY))
def test_text_grows_with_the_phones_font_size_and_nothing_overlaps(companion, phones, game):
    """At a default font size of 24px (150%, as a phone's large text), the board's text
    is larger, nothing is wider than the phone and no two key facts overlap."""
    setup, actions, facts = IN_PLAY[game]
    start(companion, setup)
    play(companion, *actions)
    page = phones.open()
    cdp = phones.context.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 24}})
    page.goto(url(companion))
    expect(page.locator(facts[0])).to_be_visible()
    assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") == 27
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    drawn = [(s, i, page.locator(s).nth(i).bounding_box())
             for s in facts for i in range(page.locator(s).count())]
    for s, i, b in drawn:
        assert b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"], (s, i, b)
    for n, (s, i, b) in enumerate(drawn):
        for t, j, c in drawn[n + 1:]:
            other = page.locator(t).nth(j).element_handle()
            inside = page.locator(s).nth(i).evaluate(
                "(a, b) => a.contains(b) || b.contains(a)", other)
            assert inside or not overlaps(b, c), (s, i, t, j)
    # Every name on one line: no word broken in two.
    lines = page.locator("#board .score .name, #board .side h2 .sname, #board .zp .pname")
    assert lines.count()
    for n in range(lines.count()):
        assert lines.nth(n).evaluate("""(e) => {
            const text = [...e.childNodes].find((c) => c.nodeType === 3 && c.data.trim());
            const r = document.createRange();
            r.selectNodeContents(text);
            return r.getClientRects().length;
        }""") == 1, lines.nth(n).inner_text()
    # The first screen only: a full-page screenshot resizes the page and chromium
    # drops the font sizes set above while doing so.
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"spectator-{game}-large-text.png"))


#: The tallest band of a board without any text or drawing in it (px): from the board's
#: top to its last text, every line box and every drawing (svg, img) is collected, and the
#: largest space between them returned, with what is under it.
WIDEST_GAP = """() => {
  const board = document.querySelector('#board');
  const bands = [];
  const walker = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim() || n.parentElement.closest('[hidden], .sr-only')) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) {
      if (r.height) bands.push([r.top, r.bottom, n.parentElement]);
    }
  }
  for (const el of board.querySelectorAll('svg, img')) {
    const r = el.getBoundingClientRect();
    if (r.height) bands.push([r.top, r.bottom, el]);
  }
  bands.sort((a, b) => a[0] - b[0]);
  let reach = bands.length ? bands[0][1] : 0;
  let widest = [0, ''];
  for (const [top, bottom, el] of bands) {
    if (top - reach > widest[0]) {
      widest = [Math.round(top - reach), `${el.tagName}.${el.className}`];
    }
    reach = Math.max(reach, bottom);
  }
  return widest;
}"""
#: At most about two empty lines of the board's text anywhere in it (18 px text).
GAP_MAX = 2 * 1.4 * 18 + 8

CC_LONG = {**CC, "players": ["WWWWWWWWWWWWWWWA", "MMMMMMMMMMMMMMMB"]}
WD_LONG = {**WD_START, "players": ["WWWWWWWWWWWWWWWA", "MMMMMMMMMMMMMMMB"]}
WD_HIT = {"type": "hit", "thrower": 21, "target": 30}


@pytest.mark.parametrize(("setup", "actions"), [
    (CC, []), (CC, [POINT[0]]), (CC_LONG, [POINT[0]]), (CC_LONG, [POINT[0], POINT[0]]),
    (WD_START, []), (WD_START, [WD_HIT]), (WD_LONG, [WD_HIT]), (WD_LONG, [FREEZE, THROW, END]),
], ids=["cc-new", "cc-point", "cc-long-point", "cc-long-30", "wd-new", "wd-hit", "wd-long-hit",
        "wd-long-throw"])
def test_no_wide_empty_gap_in_a_board_in_play(companion, phones, setup, actions):
    """Lines kept for news (a call, the last play) keep nothing moving without opening
    a wide empty band under the score: on the spectators' and the host's page, at 390
    and 320 px."""
    start(companion, setup)
    play(companion, *actions)
    for size in ({"width": 390, "height": 844}, {"width": 320, "height": 640}):
        page = phones.open(size)
        for path in ("", "host"):
            if path:
                page.goto(url(companion, "host"))
                page.fill("#pin", PIN)
                page.click("#login button")
            else:
                page.goto(url(companion))
            expect(page.locator("#board > *").first).to_be_visible()
            gap, above = page.evaluate(WIDEST_GAP)
            where = path or "spectator"
            shot(page, f"gap-{setup['game']}-{len(actions)}-{size['width']}-{where}")
            assert gap <= GAP_MAX, (size, where, gap, above)
        phones.context.clear_cookies()  # the next size is another phone: it logs in


def test_after_an_end_the_page_shows_the_match_played_before(companion, phone):
    """A match won, a rematch started and ended at once: the empty table names the match
    that was played, with its final board, not the rematch "ended unfinished 0-0" over a
    blank screen (issue #37)."""
    companion.runner.call(lambda t: t.start({"game": "center-court", "players": ["Ann", "Bob"],
                                             "options": {"sets": 1, "first_server": 0}}))
    companion.runner.call(lambda t: [t.act({"type": "point", "winner": 0}) for _ in range(24)])
    companion.runner.call(lambda t: t.start({"game": "center-court", "players": ["Ann", "Bob"]}))
    companion.runner.call(lambda t: t.abandon())
    phone.goto(url(companion))
    expect(phone.locator("#board .empty")).to_contain_text("Last: Ann v Bob: Ann won")
    expect(phone.locator("#board .last-match .head")).to_have_text("Ann wins 6-0")


#: What the phones say of an undo, in each page's language: a Center Court point, a
#: Wizard Dodgeball activation ended, an Alakazoo display (written as a club reads them).
UNDONE_SAID = {
    "de": ("Rückgängig: Punkt für Bob", "Rückgängig: Aktivierung beendet",
           "Rückgängig: Auslegen von Ann"),
    "fr": ("Annulé : point pour Bob", "Annulé : fin d'activation", "Annulé : pose (Ann)"),
    "es": ("Deshecho: punto para Bob", "Deshecho: fin de activación",
           "Deshecho: colocación de Ann"),
    "pl": ("Cofnięto: punkt (Bob)", "Cofnięto: koniec aktywacji", "Cofnięto: wyłożenie (Ann)"),
}


@pytest.mark.parametrize("lang", list(UNDONE_SAID))
def test_the_phones_say_what_an_undo_took_back_in_their_language(companion, phones, lang):
    """One state for every phone tells what the undo took back as data: each page words it
    with its game's words (no English left in the notice)."""
    point, ended, displayed = UNDONE_SAID[lang]
    phone = phones.open(PHONE, "light")
    for setup, action, said in (
            (CC, POINT[1], point),
            (WD_START, {"type": "end_activation"}, ended),
            ({"game": "alakazoo", "players": ["Ann", "Bob"], "options": {"first_player": 0}},
             {"type": "display", "by": 0, "space": 1, "creature": 1}, displayed)):
        start(companion, setup)
        play(companion, action)
        phone.goto(url(companion, f"?lang={lang}"))
        notice = phone.locator("#undone")
        expect(phone.locator("#board")).not_to_be_empty()
        companion.runner.call(lambda t: t.undo())
        expect(notice).to_have_text(said)
        assert broken_words(phone, "#undone") == []
        companion.runner.call(lambda t: t.abandon())
