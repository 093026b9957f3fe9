"""The host page's match actions and start form in a real browser at 390x844 (Debian's
chromium): each game's controls come from its own host script, a game without one gets
the generic controls from `legal`; Rematch, New match, End and Undo are on one screen; a
half-picked AlakaSLAM shot stays in its match; the form keeps its defaults and names and
says when a name is cut; a tap while the companion is down says it was not recorded."""

from __future__ import annotations

from urllib.parse import urlsplit

from app.config import Config
from app.runtime import Companion, WebOptions
from tests.e2e.browser_support import (
    PHONE,
    PIN,
    above_the_fold,
    accessibility_problems,
    log_in,
    play,
    require_chromium,
    shot,
    start,
    url,
)

sync_api = require_chromium()
expect = sync_api.expect

SINGLES = {"game": "alakaslam", "players": ["Ann", "Bob"],
           "options": {"characters": ["austin", "sarissia"]}}


def drawn_for(page, companion) -> None:
    """Wait until the controls are drawn for the table's version now."""
    page.wait_for_function("(v) => Number(document.getElementById('actions').dataset.version) >= v",
                           arg=companion.table.version)


def test_a_game_without_a_host_script_gets_generic_controls_from_legal(companion, phone):
    # Center Court's host script answers empty (as a game with none has nothing to
    # register): the page still offers every legal action, from `legal`.
    phone.route("**/static/center-court-host.js",
                lambda route: route.fulfill(status=200, content_type="text/javascript",
                                            body="/* nothing registered */"))
    start(companion, {"game": "center-court", "players": ["Ann", "Bob"]})
    log_in(phone, companion, "host", "#host")
    assert phone.evaluate("() => !('center-court' in TC.hosts)")
    serve = phone.locator("#actions [data-action=serve] button")
    expect(serve).to_have_text([f"serve {c}" for c in range(1, 7)])
    expect(phone.locator("#roll")).to_have_count(0)  # Center Court's own control: not here
    expect(phone.locator("#bar [data-action=point] button")).to_have_text(["Point Ann",
                                                                            "Point Bob"])
    shot(phone, "host-generic-controls")
    phone.locator("#bar [data-action=point] button").first.click()
    expect(phone.locator("#board")).to_contain_text("15")
    assert companion.table.snapshot.match["can_undo"]  # the generic tap was recorded


def test_center_court_s_host_script_sends_the_die_the_players_rolled(companion, phone):
    start(companion, {"game": "center-court", "players": ["Ann", "Bob"]})
    log_in(phone, companion, "host", "#host")
    expect(phone.locator("#actions [data-action=serve] button")).to_have_text(
        [f"Serve {c}" for c in range(1, 7)])
    phone.select_option("#roll", "5")
    phone.click("text=Serve 2")
    expect(phone.locator("#actions [data-action=return] button").first).to_be_visible()
    served = companion.table.snapshot.match["view"]["last_serve"]
    assert (served["card"], served["roll"]) == (2, 5), served
    expect(phone.locator("#actions [data-action=return] button")).to_have_text(
        ["Return 1-1", "Return 2", "Return 3-3", "Return 4-4-4", "Return 5-5-5-5",
         "Return 6-6-6-6-6"])


def test_each_game_registers_its_host_script(companion, phone):
    log_in(phone, companion, "host", "#host")
    for game in ("center-court", "wizard-dodgeball", "alakaslam", "alakazoo"):
        phone.select_option("#game", game)
        phone.wait_for_function("(g) => TC.hosts[g] !== undefined", arg=game)


def test_rematch_new_match_end_and_undo_are_on_one_screen(companion, phone):
    log_in(phone, companion, "host", "#host")
    start(companion, {"game": "center-court", "players": ["Ann", "Bob"],
                      "options": {"sets": 1, "no_ad": True}})
    drawn_for(phone, companion)
    phone.locator("#bar [data-action=point] button").first.click()
    expect(phone.locator("#undo")).to_be_enabled()
    # While the match is played: End (not folded away) and Undo on the first screen.
    above_the_fold(phone, "#end")
    above_the_fold(phone, "#undo")
    expect(phone.locator("#rematch")).to_be_hidden()
    expect(phone.locator("#to-start")).to_be_hidden()
    shot(phone, "host-match-row-active")
    phone.once("dialog", lambda d: d.accept())
    phone.click("#end")
    expect(phone.locator("#board")).to_contain_text("No match")
    # Once ended: Rematch and New match at the top; one tap starts the same match again.
    expect(phone.locator("#rematch")).to_be_visible()
    above_the_fold(phone, "#rematch")
    above_the_fold(phone, "#to-start")
    expect(phone.locator("#end")).to_be_hidden()
    shot(phone, "host-match-row-ended")
    before = companion.table.snapshot.match
    assert before is None
    phone.click("#rematch")
    expect(phone.locator("#end")).to_be_visible()
    match = companion.table.snapshot.match
    assert match["game"] == "center-court" and match["players"] == ["Ann", "Bob"]
    assert match["options"]["sets"] == 1 and match["options"]["no_ad"] is True
    expect(phone.locator("#new-match")).not_to_have_attribute("open", "")


def test_undo_says_what_it_undid(companion, phone):
    start(companion, {"game": "center-court", "players": ["Ann", "Bob"]})
    play(companion, {"type": "point", "winner": 1})
    log_in(phone, companion, "host", "#host")
    drawn_for(phone, companion)
    phone.click("#undo")
    message = phone.locator("#bar #message")
    expect(message).to_have_text("Undone: point to Bob")
    above_the_fold(phone, "#bar #message")
    # News, not an error: not in the refusals' red, readable (AA) in both themes.
    expect(message).to_have_class("note")
    for scheme in ("dark", "light"):
        phone.emulate_media(color_scheme=scheme)
        colour = phone.evaluate("() => getComputedStyle(document.getElementById('message')).color")
        bad = phone.evaluate("() => { const p = document.createElement('p'); p.className = 'error';"
                             " document.body.append(p); const c = getComputedStyle(p).color;"
                             " p.remove(); return c; }")
        assert colour != bad, scheme
        assert accessibility_problems(phone) == [], scheme
        shot(phone, f"host-undone-{scheme}")
    # A redo says what it put back, in the same words.
    phone.click("#redo")
    expect(message).to_have_text("Redone: point to Bob")
    # It is about the table it was said of: the next change clears it.
    play(companion, {"type": "point", "winner": 0})
    expect(message).to_be_empty()


def test_rematch_carries_its_premise(companion, phone):
    # The page hears no stream (as when a phone's Wi-Fi lags): it knows the table by its
    # own taps' answers only.
    phone.route("**/api/events*", lambda route: route.abort())
    start(companion, {"game": "center-court", "players": ["Ann", "Bob"]})
    log_in(phone, companion, "host", "#host")
    phone.once("dialog", lambda d: d.accept())
    phone.click("#end")
    expect(phone.locator("#rematch")).to_be_visible()
    # The panel starts a match of its own while the page still shows the empty table:
    # the page's Rematch was drawn for the empty table, and the table refuses it.
    seen = companion.table.version
    start(companion, {"game": "alakazoo", "players": ["Cleo", "Dan"],
                      "options": {"first_player": 0}})
    assert companion.table.version > seen
    phone.click("#rematch")
    expect(phone.locator("#message")).to_contain_text("Someone else changed the table")
    assert companion.table.snapshot.match["game"] == "alakazoo"


def test_a_half_picked_shot_stays_in_its_match(companion, phone):
    start(companion, SINGLES)
    log_in(phone, companion, "host", "#host")
    serve = phone.locator("fieldset[data-action=serve]")
    serve.locator(".picker[data-player='0'] [data-card=R1]").click()
    expect(serve.locator(".send")).to_be_enabled()
    # End with a card tapped, then the same players again.
    phone.once("dialog", lambda d: d.accept())
    phone.click("#end")
    expect(phone.locator("#board")).to_contain_text("No match")
    phone.click("#rematch")
    serve = phone.locator("fieldset[data-action=serve]")
    expect(serve).to_be_visible()
    expect(serve.locator(".chosen")).to_have_count(0)
    expect(serve.locator(".send")).to_be_disabled()
    expect(serve.locator(".moved")).to_have_count(0)
    expect(phone.locator("#message")).to_be_empty()
    shot(phone, "host-slam-new-match-nothing-picked")


def test_alakaslam_for_four_starts_with_the_form_s_defaults(companion, phone):
    # A singles match first: the form is then filled from it (two characters).
    start(companion, SINGLES)
    log_in(phone, companion, "host", "#host")
    phone.once("dialog", lambda d: d.accept())
    phone.click("#end")
    # The form is filled again for the ended match once its rematch record is read (the
    # Rematch button says so): typed before that, a name races the form's redraw, which
    # test_names_typed_before_the_rematch_arrives_stay covers on its own.
    expect(phone.locator("#rematch")).to_be_visible()
    expect(phone.locator("#game")).to_have_value("alakaslam")
    names = phone.locator("#players input")
    expect(names.nth(0)).to_have_value("Ann")
    names.nth(2).fill("Cy")
    names.nth(3).fill("Di")
    characters = phone.locator(".slam-setup [name=character]")
    picked = [characters.nth(i).input_value() for i in range(4)]
    assert picked[:2] == ["austin", "sarissia"] and len(set(picked)) == 4, picked
    phone.click("#start button[type=submit]")
    expect(phone.locator("#end")).to_be_visible()
    match = companion.table.snapshot.match
    assert match["players"] == ["Ann", "Bob", "Cy", "Di"]
    assert len(set(match["options"]["characters"])) == 4


def end_holding_the_rematch(phone) -> list:
    """End the match from the host page with the start form's rematch record (GET
    /api/rematch) held back: the held requests, for :func:`release`."""
    held: list = []
    phone.route("**/api/rematch*", lambda route: held.append(route))
    phone.once("dialog", lambda d: d.accept())
    phone.click("#end")
    expect(phone.locator("#new-match")).to_have_attribute("open", "")  # the table moved on
    return held


def release(phone, held: list) -> None:
    """Let the held rematch record through once the page has asked for it, and hold
    none after it."""
    for _ in range(200):  # the page's turns, until it has asked (10 s at most)
        if held:
            break
        phone.wait_for_timeout(50)
    assert held, "the form asked for no rematch record after End"
    for route in held:
        route.continue_()
    phone.unroute("**/api/rematch*")


def test_names_typed_before_the_rematch_arrives_stay(companion, phone):
    """End, then the names at once: the rematch's record (GET /api/rematch) arriving after
    the host began typing fills the form again, and must not take the typed names away
    (a 4-player AlakaSLAM started as 3 players when it did)."""
    start(companion, SINGLES)
    log_in(phone, companion, "host", "#host")
    expect(phone.locator("#game")).to_have_value("alakaslam")  # filled from the match
    held = end_holding_the_rematch(phone)
    phone.wait_for_function("() => document.querySelectorAll('#players input').length === 4")
    names = phone.locator("#players input")
    names.nth(2).fill("Cy")
    names.nth(3).fill("Di")
    release(phone, held)
    expect(names.nth(0)).to_have_value("Ann")  # the rematch's names came in ...
    expect(names.nth(2)).to_have_value("Cy")  # ... and the typed ones stayed
    expect(names.nth(3)).to_have_value("Di")


def test_options_chosen_before_the_rematch_arrives_stay(companion, phone):
    """End, then another game and its options at once: the rematch's record (GET
    /api/rematch) arriving after the host chose them leaves the choice as it is (it drew
    the form again, the ended match's game and every option back: an advanced Dodgeball
    would have started as the last match's game)."""
    start(companion, {"game": "center-court", "players": ["Ann", "Bob"]})
    log_in(phone, companion, "host", "#host")
    expect(phone.locator("#game")).to_have_value("center-court")  # filled from the match
    held = end_holding_the_rematch(phone)
    phone.select_option("#game", "wizard-dodgeball")
    phone.select_option("#options select[name=turn]", label="Advanced")
    release(phone, held)
    # The record came: Rematch offers the ended match; the form is as the host set it.
    expect(phone.locator("#rematch")).to_be_visible()
    expect(phone.locator("#game")).to_have_value("wizard-dodgeball")
    expect(phone.locator("#options select[name=turn] option:checked")).to_have_text("Advanced")
    phone.fill("#players input >> nth=0", "Owls")
    phone.fill("#players input >> nth=1", "Newts")
    phone.click("#start button[type=submit]")
    expect(phone.locator("#end")).to_be_visible()
    assert companion.table.snapshot.match["view"]["turn"] == "advanced"


def test_names_stay_when_the_game_changes_and_a_cut_is_said(companion, phone):
    log_in(phone, companion, "host", "#host")
    phone.select_option("#game", "center-court")
    names = phone.locator("#players input")
    names.nth(0).fill("Ann")
    names.nth(1).fill("Bob")
    phone.select_option("#game", "alakazoo")
    phone.wait_for_function("() => document.querySelector('.zoo-setup') !== null")
    expect(names.nth(0)).to_have_value("Ann")
    expect(names.nth(1)).to_have_value("Bob")
    phone.select_option("#game", "wizard-dodgeball")
    phone.wait_for_function("() => document.querySelector('.roster-form') !== null")
    expect(names.nth(0)).to_have_value("Ann")
    # 16 characters at most: a longer name is cut there, and the form says so.
    expect(phone.locator("#players")).to_contain_text("up to 16 characters")
    expect(phone.locator("#name-note-0")).to_be_hidden()
    # Exactly 16, typed or filled: nothing was cut, nothing is said.
    names.nth(1).fill("")
    names.nth(1).press_sequentially("CHRISTOPHERWOLFG")
    names.nth(0).fill("ABCDEFGHIJKLMNOP")
    expect(names.nth(1)).to_have_value("CHRISTOPHERWOLFG")
    expect(names.nth(0)).to_have_value("ABCDEFGHIJKLMNOP")
    for n in (0, 1):
        expect(phone.locator(f"#name-note-{n}")).to_be_hidden()
    # Pasted (inserted whole) past 16: cut, and said.
    names.nth(1).fill("")
    names.nth(1).focus()
    phone.keyboard.insert_text("QRSTUVWXYZABCDEFGH")
    expect(names.nth(1)).to_have_value("QRSTUVWXYZABCDEF")
    expect(phone.locator("#name-note-1")).to_have_text("16 characters at most: the rest is cut")
    names.nth(0).fill("")
    names.nth(0).press_sequentially("CHRISTOPHERWOLFGANG")
    expect(names.nth(0)).to_have_value("CHRISTOPHERWOLFG")
    expect(phone.locator("#name-note-0")).to_have_text("16 characters at most: the rest is cut")
    expect(phone.locator("#name-note-0")).to_be_visible()
    shot(phone, "host-name-cut")
    names.nth(0).fill("Ann")
    expect(phone.locator("#name-note-0")).to_be_hidden()


def test_a_tap_while_the_companion_is_down_says_it_was_not_recorded(browser, tmp_path):
    first = Companion(Config(), sim=True, data=tmp_path,
                      web=WebOptions(host="127.0.0.1", port=0, pin=PIN, keepalive=1.0))
    port = urlsplit(first.urls[0]).port
    context = browser.new_context(viewport=PHONE)
    phone = context.new_page()
    try:
        with first:
            start(first, {"game": "center-court", "players": ["Ann", "Bob"]})
            play(first, {"type": "point", "winner": 0})
            log_in(phone, first, "host", "#host")
            expect(phone.locator("#board")).to_contain_text("15")
            truth = first.table.snapshot.to_json()
        # The companion is stopped: the page sees it gone, and a tap is not recorded.
        expect(phone.locator("#offline")).to_be_visible()
        phone.locator("#bar [data-action=point] button").nth(1).click()
        message = phone.locator("#message")
        expect(message).to_contain_text("this tap was not recorded")
        expect(message).not_to_contain_text("Failed to fetch")
        above_the_fold(phone, "#message")
        shot(phone, "host-tap-while-down")
        # Back on the same port and data, the panel having scored meanwhile for Ann: the
        # message goes, and the page shows the table as it is (no Bob point).
        again = Companion(Config(), sim=True, data=tmp_path,
                          web=WebOptions(host="127.0.0.1", port=port, pin=PIN, keepalive=1.0))
        with again:
            assert again.table.snapshot.to_json()["match"]["view"] == truth["match"]["view"]
            play(again, {"type": "point", "winner": 0})
            expect(phone.locator("#offline")).to_be_hidden(timeout=20_000)
            expect(message).to_be_empty()
            expect(phone.locator("#board")).to_contain_text("30")
            phone.wait_for_function(
                "(v) => Number(document.getElementById('actions').dataset.version) === v",
                arg=again.table.version)
            shot(phone, "host-tap-after-reconnect")
    finally:
        context.close()


def test_a_tap_whose_answer_was_lost_is_told_from_the_table(companion, phone):
    """The request reached the table and was recorded, but its answer never came back
    (the connection dropped on the way back): the page does not guess, it reads the
    table and says the board shows what was recorded."""
    start(companion, {"game": "center-court", "players": ["Ann", "Bob"]})
    log_in(phone, companion, "host", "#host")
    drawn_for(phone, companion)

    def lost_on_the_way_back(route):
        route.fetch()  # the table gets it and applies it
        route.abort("connectionreset")

    phone.route("**/api/action", lost_on_the_way_back)
    phone.locator("#bar [data-action=point] button").nth(1).click()
    message = phone.locator("#message")
    # Sent again with the same key while no answer comes (each lost too), then read.
    expect(message).to_contain_text("No answer from the table; trying again")
    expect(message).to_contain_text("the board shows what was recorded", timeout=20_000)
    expect(phone.locator("#board")).to_contain_text("15")
    assert companion.table.snapshot.match["view"]["points"] == ["0", "15"]
    # Recorded once, whatever the retries: they carried the same key and premise.
    assert companion.table.version == 2
    shot(phone, "host-tap-answer-lost")


def busy_first(page, pattern: str) -> list[int]:
    """Answer the first request ``pattern`` matches as a busy server does (429, Retry-After
    1 s, the reason in JSON) and let the rest through: the statuses given, in order."""
    given: list[int] = []

    def answer(route) -> None:
        if given:
            given.append(200)
            route.continue_()
            return
        given.append(429)
        route.fulfill(status=429, headers={"Retry-After": "1"}, content_type="application/json",
                      body='{"error": "Too many requests from this address: try again soon"}')
    page.route(pattern, answer)
    return given


def test_a_busy_table_s_answer_is_asked_again_never_taken_for_the_read(companion, phone):
    """A read refused because the table is busy (429 or 503, as web/reads.py's gate
    answers many reads from one address) is asked again after its Retry-After. The
    refusal is never taken for the answer: the start form gets its games, the Rematch
    button its match, and the spectator's line its last match (not "none played")."""
    errors: list[str] = []
    phone.on("pageerror", lambda e: errors.append(str(e)))
    start(companion, {"game": "center-court", "players": ["Łukasz", "Σοφία"],
                      "options": {"sets": 1}})
    companion.runner.call(lambda t: t.abandon())
    games = busy_first(phone, "**/api/games")
    rematch = busy_first(phone, "**/api/rematch")
    log_in(phone, companion, "host", "#host")
    expect(phone.locator("#rematch")).to_be_visible()
    expect(phone.locator("#rematch")).to_have_attribute(
        "aria-label", "Rematch: Łukasz, Σοφία, same options")
    expect(phone.locator("#game")).to_have_value("center-court")
    assert games[:2] == [429, 200] and rematch[:2] == [429, 200]
    phone.click("#rematch")
    expect(phone.locator("#end")).to_be_visible()
    assert companion.table.snapshot.match["players"] == ["Łukasz", "Σοφία"]
    # The spectator's line of the last match, asked of a busy table.
    companion.runner.call(lambda t: t.abandon())
    history = busy_first(phone, "**/api/history?limit=5")
    phone.goto(url(companion))
    expect(phone.locator("#board .empty")).to_contain_text("Last: Łukasz v Σοφία")
    assert history[:2] == [429, 200]
    assert errors == []


#: The height of a box as drawn, and as its content alone would make it (no least height).
HEIGHTS = """(id) => {
  const box = document.getElementById(id);
  const kept = box.style.minHeight;
  box.style.minHeight = "";
  const natural = box.offsetHeight;
  box.style.minHeight = kept;
  return [box.offsetHeight, natural];
}"""


def test_the_controls_give_back_their_room_once_the_match_is_gone(companion, phone):
    """While a match is on the table its controls' box keeps its tallest height (what lies
    under it stays put, a win included: tests/e2e/test_score_in_sight.py); once the match
    is gone (ended), the box is as tall as what it holds: no empty screen above the
    board and the form."""
    log_in(phone, companion, "host", "#host")
    start(companion, {"game": "alakazoo", "players": ["Ольга", "李小龙"],
                      "options": {"first_player": 1, "portals": [2, 3],
                                  "dark_power_reset": False}})
    drawn_for(phone, companion)
    phone.locator("fieldset[data-action=display] button[data-space]").first.click()
    expect(phone.locator(".creatures button").first).to_be_visible()
    played, _ = phone.evaluate(HEIGHTS, "actions")
    assert played > 0
    phone.once("dialog", lambda d: d.accept())
    phone.locator("#end").click()
    expect(phone.locator("#board")).to_contain_text("No match")
    assert phone.evaluate(HEIGHTS, "actions") == [0, 0]
    assert phone.evaluate(HEIGHTS, "bar") == [0, 0]  # hidden: nothing to undo
    shot(phone, "host-ended-no-room-kept")


def test_a_tap_waiting_for_its_answer_says_so_and_a_second_on_its_state_is_told_apart(
        companion, phone):
    """A tap the table has not answered within 2 s is said to be waiting (a table slow or
    stuck is never silence). A second tap made on the same state before the first was
    answered is refused once the first is recorded, and said to be this page's own
    earlier tap, not "someone else"; one point is recorded."""
    start(companion, {"game": "center-court", "players": ["Łukasz", "Σοφία"]})
    log_in(phone, companion, "host", "#host")
    drawn_for(phone, companion)
    held: list = []
    phone.route("**/api/action", lambda route: held.append(route))
    point = phone.locator("#bar [data-action=point] button").first
    message = phone.locator("#bar > #message")
    point.click()
    expect(message).to_have_text("Waiting for the table to answer…")
    expect(message).to_have_class("note")  # news, not a refusal
    point.click()
    for _ in range(200):  # the page's turns, until it has sent the second (10 s at most)
        if len(held) == 2:
            break
        phone.wait_for_timeout(50)
    assert len(held) == 2
    held[0].continue_()
    expect(phone.locator(".points").nth(0)).to_have_text("15")
    held[1].continue_()
    expect(message).to_have_text("Your tap before this one was recorded first: this one was "
                                 "not. Here is the table now.")
    assert companion.table.snapshot.match["view"]["points"] == ["15", "0"]
    phone.unroute("**/api/action")


def test_the_panel_s_undo_and_redo_are_said_on_the_host_page(companion, phone):
    """An undo or redo from the panel (or another phone) is said on the host page as its
    own are, in the bar by Undo: the score changing alone leaves a host guessing."""
    start(companion, {"game": "center-court", "players": ["Łukasz", "Σοφία"]})
    play(companion, {"type": "point", "winner": 1})
    log_in(phone, companion, "host", "#host")
    drawn_for(phone, companion)
    message = phone.locator("#bar > #message")
    companion.runner.call(lambda t: t.undo())  # as the panel's held BACK does
    expect(message).to_have_text("Undone: point to Σοφία")
    expect(message).to_have_class("note")
    companion.runner.call(lambda t: t.redo())
    expect(message).to_have_text("Redone: point to Σοφία")
    play(companion, {"type": "point", "winner": 0})  # the next change: old news
    expect(message).to_be_empty()


def test_the_language_is_chosen_on_the_login_form_and_kept_once_in(companion, phone):
    """A host not yet logged in finds the language picker under the login form; once in,
    it sits above the New match form, the language kept."""
    phone.goto(url(companion, "host"))
    expect(phone.locator("#login")).to_be_visible()
    picker = phone.locator("#language")
    expect(picker).to_be_visible()
    shot(phone, "host-login-language")
    with phone.expect_navigation():
        picker.select_option("pl")
    expect(phone.locator("#login")).to_be_visible()
    assert phone.evaluate("document.documentElement.lang") == "pl"
    phone.fill("#pin", PIN)
    phone.click("#login button")
    expect(phone.locator("#host")).to_be_visible()
    expect(picker).to_be_visible()
    expect(picker).to_have_value("pl")
    assert phone.evaluate("document.getElementById('logout').previousElementSibling"
                          ".classList.contains('language')")


def test_a_late_answer_to_an_undo_says_nothing_of_a_table_that_moved_on(companion, phone):
    """The stream may bring the undo's state before its answer: the page says it then. An
    answer that comes after the table moved on again (the panel's next point) is old
    news: the message is not said again about a state no longer shown."""
    start(companion, {"game": "center-court", "players": ["Ann", "Bob"]})
    play(companion, {"type": "point", "winner": 1})
    log_in(phone, companion, "host", "#host")
    drawn_for(phone, companion)
    late: list = []

    def answer_late(route) -> None:
        late.append((route, route.fetch()))  # the table has undone: its answer held back
    phone.route("**/api/undo", answer_late)
    message = phone.locator("#bar #message")
    phone.click("#undo")
    expect(message).to_have_text("Undone: point to Bob")  # from the stream
    play(companion, {"type": "point", "winner": 0})
    expect(phone.locator(".points").nth(0)).to_have_text("15")
    expect(message).to_be_empty()
    assert len(late) == 1
    route, response = late[0]
    with phone.expect_response("**/api/undo"):
        route.fulfill(response=response)
    # Two turns of the page's event loop: the answer's handlers have run.
    phone.evaluate("() => new Promise((done) => setTimeout(() => setTimeout(done)))")
    expect(message).to_be_empty()
    phone.unroute("**/api/undo")
