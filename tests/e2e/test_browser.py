"""The pages in a real browser: Debian's chromium driven by Playwright, at phone size
(tests/e2e/browser_support.py)."""

from __future__ import annotations

import sqlite3

import web.api
from app.config import Config
from app.runtime import Companion, WebOptions
from companion.data_folder import DB_NAME
from tests.e2e.browser_support import PHONE, PIN, log_in, play, require_chromium, shot, url

sync_api = require_chromium()


def test_spectator_page_updates_live_without_reload(companion, phone):
    phone.goto(url(companion))
    sync_api.expect(phone.locator("#board")).to_contain_text("No match")
    companion.runner.call(lambda t: t.start({"game": "center-court",
                                             "players": ["Ann", "Bob"]}))
    sync_api.expect(phone.locator("#board")).to_contain_text("Ann")
    marker = phone.evaluate("window.marker = 42")
    companion.runner.call(lambda t: t.act({"type": "point", "winner": 1}))
    sync_api.expect(phone.locator(".points").nth(1)).to_have_text("15")
    assert phone.evaluate("window.marker") == marker  # the same page: no reload
    assert phone.locator("#offline").is_hidden()
    shot(phone, "spectator")


def test_spectator_page_shows_the_state_before_any_stream(companion, phones):
    companion.runner.call(lambda t: t.start({"game": "center-court",
                                             "players": ["Ann", "Bob"]}))
    page = phones.open()
    # No stream at all: the page must still show the match from its first load.
    page.route("**/api/events*", lambda route: route.abort())  # ?epoch=... too
    page.goto(url(companion))
    sync_api.expect(page.locator("#board")).to_contain_text("Bob")
    sync_api.expect(page.locator("#offline")).to_be_visible()


def test_host_logs_in_and_plays_points(companion, phone):
    phone.goto(url(companion, "host"))
    phone.fill("#pin", "0000")
    phone.click("#login button")
    sync_api.expect(phone.locator("#login .error")).to_contain_text("wrong PIN")
    phone.fill("#pin", PIN)
    phone.click("#login button")
    sync_api.expect(phone.locator("#host")).to_be_visible()
    phone.fill("#players input >> nth=0", "Ann")
    phone.fill("#players input >> nth=1", "Bob")
    phone.click("#start button[type=submit]")
    sync_api.expect(phone.locator("#board")).to_contain_text("Ann")
    phone.click("text=Point Ann")
    # A tap is drawn for one table version: the next waits for the answer to this one
    # (a tap sent before it would be refused as made for the table as it was).
    sync_api.expect(phone.locator(".points").first).to_have_text("15")
    phone.click("text=Point Ann")
    sync_api.expect(phone.locator(".points").first).to_have_text("30")
    phone.click("text=Serve 4")
    sync_api.expect(phone.locator("#actions")).to_contain_text("Return 4")
    phone.click("#undo")
    sync_api.expect(phone.locator("#actions")).to_contain_text("Serve 4")
    view = companion.table.snapshot.match["view"]
    assert view["points"] == ["30", "0"] and not view["in_play"]
    shot(phone, "host")


def test_host_logs_in_with_the_panels_code_while_pin_logins_wait(companion, phone):
    lockout = companion.app.extensions["companion"].lockout
    for n in range(lockout.table_tries):  # a stranger with many addresses spent the budget
        lockout.failed(f"10.7.{n}.1")
    phone.goto(url(companion, "host"))
    phone.fill("#pin", PIN)
    phone.click("#login button")
    sync_api.expect(phone.locator("#login .error")).to_contain_text("Menu > Host login")
    for button in ("back", "next", "next", "next", "ok"):  # the menu's last entry
        companion.press(button).result(10)
    phone.fill("#code", companion.panel.state.screen.items[0].lower())
    phone.click("#login button")
    sync_api.expect(phone.locator("#host")).to_be_visible()


def test_host_page_retries_a_busy_change_and_it_counts_once(companion, phone, monkeypatch,
                                                             tmp_path):
    """A commit slower than the server's waits: the page retries with the same
    Idempotency-Key and the point is applied once, with no error left shown."""
    monkeypatch.setattr(web.api, "WRITE_TIMEOUT", 0.3)
    monkeypatch.setattr(web.api, "COMMIT_WAIT", 0.3)
    companion.runner.call(lambda t: t.start({"game": "center-court",
                                             "players": ["Ann", "Bob"]}))
    version = companion.table.version
    log_in(phone, companion, "host", "#host")
    # Another connection holds the database's write lock: the point's commit waits.
    other = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        phone.click("text=Point Ann")
        sync_api.expect(phone.locator("#message")).to_contain_text("trying again")
    finally:
        other.rollback()
        other.close()
    sync_api.expect(phone.locator(".points").first).to_have_text("15")
    sync_api.expect(phone.locator("#message")).to_be_empty()
    assert companion.table.version == version + 1
    assert companion.table.snapshot.match["view"]["points"] == ["15", "0"]


def test_spectator_page_never_calls_a_rally_a_second_serve(companion, phone):
    companion.runner.call(lambda t: t.start({"game": "center-court",
                                             "players": ["Ann", "Bob"]}))
    phone.goto(url(companion))
    status = phone.locator("#board .status")
    call = phone.locator("#board .callout .call")
    sync_api.expect(status).to_have_text("Ann to serve")
    play(companion, {"type": "serve", "card": 5, "roll": 5})
    sync_api.expect(call).to_have_text("FAULT · second serve")
    play(companion, {"type": "serve", "card": 2, "roll": 6})
    sync_api.expect(status).to_contain_text("Ball in play: 2 to Bob")
    sync_api.expect(call).to_have_count(0)
    sync_api.expect(status).to_have_text("Last serve: 2 (2nd), die 6 · Ball in play: 2 to Bob")
    shot(phone, "spectator-rally")
    # The serve belongs to its point: once the point is won, nothing stale stays
    # through the next ones (issue #25); the next serve is said for its own point.
    play(companion, {"type": "return", "card": 3}, {"type": "point", "winner": 0})
    sync_api.expect(phone.locator("#board .score .points")).to_have_text(["15", "0"])
    sync_api.expect(status).to_have_text("Ann to serve")  # the next point's, nothing stale
    play(companion, {"type": "serve", "card": 5, "roll": 1})
    sync_api.expect(status).to_have_text("Last serve: 5, die 1 · Ball in play: 5 to Bob")


def test_spectator_page_shows_a_won_match_from_the_winners_side(companion, phone):
    # Bob wins 6-0 6-0 before the match tiebreak that would have decided 1-1.
    companion.runner.call(lambda t: t.start({"game": "center-court", "players": ["Ann", "Bob"],
                                             "options": {"final_set": "match-tiebreak"}}))
    phone.goto(url(companion))
    play(companion, *[{"type": "point", "winner": 1}] * 48)
    head = phone.locator("#board .head")
    sync_api.expect(head).to_have_text("Bob wins 6-0 6-0")
    sync_api.expect(phone.locator("#board")).not_to_contain_text("iebreak")
    sync_api.expect(phone.locator("#board .games")).to_have_count(0)
    sync_api.expect(phone.locator("#board .points")).to_have_count(0)
    sync_api.expect(phone.locator("#board tr.winner .name")).to_have_text("Bob winner")
    shot(phone, "spectator-won")


def test_spectator_page_shows_a_match_tiebreak_by_its_points(companion, phone):
    companion.runner.call(lambda t: t.start({"game": "center-court", "players": ["Ann", "Bob"],
                                             "options": {"sets": 1,
                                                         "final_set": "match-tiebreak"}}))
    phone.goto(url(companion))
    play(companion, *[{"type": "point", "winner": w} for w in [0, 1] * 8 + [0, 0]])
    sync_api.expect(phone.locator("#board .head")).to_have_text("Ann wins [10-8]")
    sync_api.expect(phone.locator("#board .set")).to_have_text(["10", "8"])
    shot(phone, "spectator-match-tiebreak")


def test_a_tap_on_the_simulator_changes_the_oled(companion, phone):
    log_in(phone, companion, "sim", "#panel")
    before = phone.locator("#oled").get_attribute("src")
    png_before = companion.display_png()
    phone.click("button[data-button=ok]")  # the welcome screen's OK: set up a match
    sync_api.expect(phone.locator("#oled")).not_to_have_attribute("src", before)
    assert companion.display_png() != png_before
    assert companion.panel.state.ui.screen == "setup"
    shot(phone, "simulator")


WD_START = {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
            "options": {"rosters": [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]],
                        "wizards": {"21": {"name": "Hoary Burblepot"}}}}


def test_dodgeball_spectator_board_shows_rosters_effects_and_recharge(companion, phone):
    companion.runner.call(lambda t: t.start(WD_START))
    phone.goto(url(companion))
    board = phone.locator("#board")
    sync_api.expect(board).to_contain_text("Hoary Burblepot")
    sync_api.expect(phone.locator(".wd .side.active h2")).to_contain_text("Owls")
    companion.runner.call(lambda t: t.act({"type": "cast", "caster": 21, "spell": "freeze",
                                           "targets": [45]}))
    companion.runner.call(lambda t: t.act({
        "type": "throw", "thrower": 21, "target": 30, "range": 2, "target_holding_ball": False,
        "rolls": {"throw": [5, 6], "dodge": [1, 2]}}))
    companion.runner.call(lambda t: t.act({"type": "end_activation"}))
    newts = phone.locator('.wd .side[data-side="1"]')
    sync_api.expect(newts.locator("li.now")).to_contain_text("#45")
    sync_api.expect(newts.locator("li.now .chip")).to_have_text("FRZ")  # the OLED's code
    sync_api.expect(newts.locator("li.off")).to_contain_text("#30")
    sync_api.expect(newts.locator(".pts")).to_have_text("0")
    owls = phone.locator('.wd .side[data-side="0"]')
    sync_api.expect(owls.locator(".pts")).to_have_text("1")
    recharging = phone.locator('.wd .hand[data-side="0"] .recharging')
    sync_api.expect(recharging).to_have_text("FRZ #21 ⟳10")
    sync_api.expect(recharging.locator(".chip")).to_have_attribute(
        "title", "Freeze, cast by #21: back after activation 11")
    sync_api.expect(phone.locator(".status.now")).to_contain_text("frozen: no actions")
    sync_api.expect(phone.locator(".lastplay")).to_contain_text("throw 5+6 v dodge 1+2")
    shot(phone, "dodgeball-spectator")


def test_dodgeball_host_starts_a_match_and_plays_every_kind_of_action(companion, phone):
    log_in(phone, companion, "host", "#host")
    phone.select_option("#game", "wizard-dodgeball")
    phone.fill("#players input >> nth=0", "Owls")
    phone.fill("#players input >> nth=1", "Newts")
    # The rosters are folded to a line that lists them; opened, a wizard a line.
    roster = phone.locator('details.roster-form[data-side="0"]')
    sync_api.expect(roster.locator(".roster-sum")).to_have_text("#1 #2 #3 #4 #5")
    roster.locator("summary").first.click()
    phone.fill('.wiz[data-side="0"][data-slot="0"] [name=jersey]', "21")
    sync_api.expect(roster.locator(".roster-sum")).to_have_text("#21 #2 #3 #4 #5")
    phone.fill('.wiz[data-side="0"][data-slot="0"] [name=name]', "Hoary")
    phone.click("#start button[type=submit]")
    sync_api.expect(phone.locator("#board")).to_contain_text("Hoary")
    # A rolled cast names at least one wizard: the page offers no roll before a tick.
    rolls = phone.locator('fieldset[data-action="cast"]').locator("text=Device rolls")
    sync_api.expect(rolls).to_be_disabled()
    assert companion.table.match.events == ()
    # Cast Freeze on #6 (Newts' first wizard), the device rolling the resist.
    cast = phone.locator('fieldset[data-action="cast"]')
    cast.locator("select").select_option(label="Freeze")
    cast.locator('input[value="6"]').check()
    cast.locator("text=It took effect").click()
    sync_api.expect(phone.locator('.wd .side[data-side="1"] li >> nth=0')).to_contain_text(
        "FRZ")
    # One cast per basic activation: the cast form is gone, the throw is left.
    sync_api.expect(phone.locator(".status.now")).to_contain_text("left: throw")
    assert phone.locator('fieldset[data-action="cast"]').count() == 0
    # A rolled throw, then the activation ends.
    throw = phone.locator('fieldset[data-action="throw"]')
    throw.locator("select[name=target]").select_option(label="#7")
    throw.locator("text=Roll the throw").click()
    sync_api.expect(phone.locator(".status.last")).to_contain_text("#7")
    phone.click("text=End #21's activation")
    sync_api.expect(phone.locator(".status.now")).to_contain_text("#6")
    # Frozen #6 has no throw or cast: only the end.
    assert phone.locator('fieldset[data-action="throw"]').count() == 0
    # Owls' #58 dispels the Freeze.
    phone.click("text=End #6's activation")
    dispel = phone.locator('fieldset[data-action="dispel"]')
    dispel.locator("text=It worked").click()
    sync_api.expect(phone.locator('.wd .side[data-side="1"] li >> nth=0')).not_to_contain_text(
        "FRZ")
    # #2 passes to a teammate (not #21: the device's throw may have been
    # caught, and #21 off the court): the pass is its throw, so nothing is left.
    passing = phone.locator('fieldset[data-action="pass"]')
    receivers = passing.locator("select[name=to] option").all_inner_texts()
    receiver = next(label for label in receivers if not label.startswith("#21"))
    passing.locator("select[name=to]").select_option(label=receiver)
    passing.locator("button", has_text="Pass").click()
    sync_api.expect(phone.locator(".status.last")).to_contain_text(
        f"#2 passed to {receiver.split()[0]}")
    sync_api.expect(phone.locator(".status.now")).to_contain_text("no throw or cast left")
    assert phone.locator('fieldset[data-action="pass"]').count() == 0
    events = companion.table.match.events
    assert [e["type"] for e in events] == ["cast", "throw", "end_activation",
                                           "end_activation", "dispel", "pass"]
    shot(phone, "dodgeball-host")


def test_host_page_asks_for_the_pin_again_after_a_logout_on_another_phone(companion, browser):
    """A logout ends every host session: the other phone's host page and the simulator
    say so and show the PIN form at the next tap, and work again once logged in."""
    companion.runner.call(lambda t: t.start({"game": "center-court",
                                             "players": ["Ann", "Bob"]}))
    pages = []
    for path, shown in (("host", "#host"), ("host", "#host"), ("sim", "#panel")):
        page = browser.new_context(viewport=PHONE).new_page()
        log_in(page, companion, path, shown)
        pages.append(page)
    mine, other, sim = pages
    try:
        other.click("#logout")
        sync_api.expect(other.locator("#login")).to_be_visible()
        mine.click("text=Point Ann")
        sync_api.expect(mine.locator("#login")).to_be_visible()
        sync_api.expect(mine.locator("#login .error")).to_contain_text("session has ended")
        sync_api.expect(mine.locator("#host")).to_be_hidden()
        shot(mine, "host-session-ended")
        sim.click("[data-button=next]")
        sync_api.expect(sim.locator("#login .error")).to_contain_text("session has ended")
        sync_api.expect(sim.locator("#panel")).to_be_hidden()
        assert companion.table.snapshot.match["view"]["points"] == ["0", "0"]
        mine.fill("#pin", PIN)
        mine.click("#login button")
        sync_api.expect(mine.locator("#host")).to_be_visible()
        sync_api.expect(mine.locator("#message")).to_be_empty()
        mine.click("text=Point Ann")
        sync_api.expect(mine.locator(".points").first).to_have_text("15")
    finally:
        for page in pages:
            page.context.close()


def test_a_host_tab_keeps_working_after_another_tab_logged_in_again(companion, browser):
    """Two host tabs in one browser share the cookie: after a logout elsewhere and a
    login in one tab (a new CSRF token), a tap in the other is applied, not refused."""
    companion.runner.call(lambda t: t.start({"game": "center-court",
                                             "players": ["Ann", "Bob"]}))
    context = browser.new_context(viewport=PHONE)
    elsewhere = browser.new_context(viewport=PHONE)
    try:
        first, second = context.new_page(), context.new_page()
        log_in(first, companion, "host", "#host")
        second.goto(url(companion, "host"))
        sync_api.expect(second.locator("#host")).to_be_visible()
        other = elsewhere.new_page()
        log_in(other, companion, "host", "#host")
        other.click("#logout")
        sync_api.expect(other.locator("#login")).to_be_visible()
        log_in(second, companion, "host", "#host")
        first.click("text=Point Bob")
        sync_api.expect(first.locator(".points").nth(1)).to_have_text("15")
        sync_api.expect(first.locator("#message")).to_be_empty()
    finally:
        context.close()
        elsewhere.close()


def test_host_page_never_goes_back_to_an_older_state(companion, phone):
    """The answer to a tap can arrive after the stream showed a later change (another
    phone's, the panel's): the page keeps the later state."""
    companion.runner.call(lambda t: t.start({"game": "center-court",
                                             "players": ["Ann", "Bob"]}))
    log_in(phone, companion, "host", "#host")
    phone.evaluate("""() => { window.shown = [];
        const points = () => [...document.querySelectorAll('#board .points')]
          .map((td) => td.textContent).join('-');
        new MutationObserver(() => window.shown.push(points())).observe(
          document.getElementById('board'), {childList: true, subtree: true}); }""")
    held = []
    def hold(route):  # the first tap's answer is held back; later ones go through
        if held:
            route.continue_()
        else:
            held.append(route)

    phone.route("**/api/action", hold)
    phone.click("text=Point Ann")
    for _ in range(250):  # Playwright runs the handler while the page is being waited on
        if held:
            break
        phone.wait_for_timeout(20)
    answer = held[0].fetch()  # the point is applied; its answer is held back
    play(companion, {"type": "point", "winner": 1})
    sync_api.expect(phone.locator(".points").nth(1)).to_have_text("15")
    with phone.expect_response("**/api/action"):
        held[0].fulfill(response=answer)
    phone.click("text=Point Ann")
    sync_api.expect(phone.locator(".points").first).to_have_text("30")
    shown = phone.evaluate("window.shown")
    assert "15-0" not in shown[shown.index("15-15"):], shown


def test_a_phone_follows_a_new_database_at_the_version_it_last_saw(tmp_path, phone):
    """The database moved aside (as the damage message advises), the companion
    restarted on a new one that soon reaches the very version number the
    phone last saw: by version alone the phone would take it for what it
    shows and keep the old match for good. The database's epoch tells them apart."""
    data = tmp_path / "data"

    def serve(port: int) -> Companion:
        web = WebOptions(host="127.0.0.1", port=port, pin=PIN, keepalive=1.0)
        return Companion(Config(), sim=True, data=data, web=web)

    def to_version_3(c: Companion, players: list[str]) -> None:
        c.runner.call(lambda t: t.start({"game": "center-court", "players": players}))
        play(c, {"type": "point", "winner": 0}, {"type": "point", "winner": 0})
        assert c.table.snapshot.version == 3

    with serve(0) as first:
        port = first.server.port
        to_version_3(first, ["Ann", "Bob"])
        phone.goto(url(first))
        sync_api.expect(phone.locator("#board")).to_contain_text("Ann")
    sync_api.expect(phone.locator("#offline")).to_be_visible(timeout=10000)
    aside = tmp_path / "kept"
    aside.mkdir()
    for f in data.glob(DB_NAME + "*"):
        f.rename(aside / f.name)
    with serve(port) as second:
        to_version_3(second, ["Cleo", "Dan"])  # before the page's retry (2 s) reconnects
        sync_api.expect(phone.locator("#board")).to_contain_text("Cleo", timeout=10000)
        sync_api.expect(phone.locator("#offline")).to_be_hidden()


def test_a_host_tap_on_a_state_the_panel_has_left_is_refused(companion, phone):
    """The panel scores while the phone's page has not yet shown it (its stream
    lags): the phone's tap, made on the state it showed, must not be recorded."""
    companion.runner.call(lambda t: t.start({"game": "center-court",
                                             "players": ["Ann", "Bob"]}))
    phone.route("**/api/events*", lambda route: route.abort())  # the page hears nothing new
    log_in(phone, companion, "host", "#host")
    play(companion, {"type": "point", "winner": 1})  # the panel, meanwhile
    phone.click("text=Point Ann")
    sync_api.expect(phone.locator("#message")).to_contain_text("changed")
    assert companion.table.snapshot.match["view"]["points"] == ["0", "15"]


def test_history_page_marks_every_winner_of_a_team(companion, phone):
    companion.runner.call(lambda t: t.start({
        "game": "alakaslam", "players": ["Ann", "Bea", "Cid", "Dan"],
        "options": {"characters": ["austin", "rich", "toots", "simon"], "target": 1}}))
    companion.runner.call(lambda t: t.act({"type": "point", "winner": 1}))
    phone.goto(url(companion, "/history"))
    sync_api.expect(phone.locator("#history .who")).to_have_text(
        "Ann & Bea v Cid & Dan")
    sync_api.expect(phone.locator("#history .who strong")).to_have_text(["Cid", "Dan"])
    sync_api.expect(phone.locator("#history .result")).to_have_text(
        "Cid & Dan won · 0-1 · Cid & Dan: 1 no return")


def test_no_page_asks_for_anything_that_fails(companion, phone):
    """Every page loads without a failed request or a console error: the icon too
    (a browser asks for /favicon.ico unless the page names its icon)."""
    failed, errors = [], []
    phone.on("response", lambda r: r.status < 400 or failed.append(f"{r.status} {r.url}"))
    phone.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    for path in ("", "history", "host", "sim"):
        phone.goto(url(companion, path))
        phone.wait_for_load_state("load")
    assert failed == [] and errors == []
    icon = phone.evaluate("document.querySelector('link[rel=icon]').href")
    answer = phone.request.get(icon)
    assert answer.status == 200 and answer.headers["content-type"].startswith("image/svg+xml")
