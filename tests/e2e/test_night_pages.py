"""The club night's pages in Chromium, on a real hall and Mosquitto: the director's page
(log in, create, start, enter and correct a result, move a game), the TV with each table's
live score and the standings, a player's "my next table", the printable standings. Axe
finds nothing; a phone (390 x 844) and a TV (1920 x 1080) both fit."""

from __future__ import annotations

import pytest

from hall.run import Hall
from tests.e2e.browser_support import PHONE, accessibility_problems, require_chromium, shot
from tests.hall.hall_support import Sender
from tests.hall.night_support import PIN, HttpDirector, OfferWatch, SimTable
from tests.mqtt_support import mosquitto  # noqa: F401 (a fixture)

expect = require_chromium().expect

TV = {"width": 1920, "height": 1080}
FOUR = ["Ann", "Bob", "Cy", "Dee"]
#: Names no line can break: the form's maximum of capitals, the widest letters.
LONG = ["WWWWWWWWWWWWWWWA", "MMMMMMMMMMMMMMMB", "WWWWWWWWWWWWWWWC", "MMMMMMMMMMMMMMMD"]


@pytest.fixture
def night(mosquitto, tmp_path):  # noqa: F811
    """A hall with a director PIN, two simulated tables and a watch on the offers."""
    with Hall(mosquitto.url, host="127.0.0.1", port=0, prefix="table-companion",
              keepalive=1.0, data=tmp_path, director_pin=PIN) as hall:
        sender = Sender(mosquitto)
        tables = {t: SimTable(sender, t) for t in ("t1", "t2")}
        watch = OfferWatch(mosquitto.port)
        yield hall, tables, watch
        watch.close()
        for table in tables.values():
            table.close()
        sender.close()


def page_at(browser, viewport: dict, scheme: str = "dark"):
    return browser.new_context(viewport=viewport, color_scheme=scheme).new_page()


def fits(page) -> None:
    """Nothing scrolls sideways (else: the elements that reach past the screen's edge)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"], \
        page.evaluate("""Array.from(document.querySelectorAll('body *')).filter((el) =>
            el.getBoundingClientRect().right > window.innerWidth + .5).map((el) =>
            `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`)
            .slice(0, 8)""")


def test_the_director_runs_a_round_from_the_phone(night, browser):
    hall, _, watch = night
    page = page_at(browser, PHONE)
    page.goto(f"{hall.urls[0]}director")
    # Read-only until logged in: the form asks for the PIN.
    expect(page.locator("#login")).to_be_visible()
    expect(page.locator("#desk")).to_be_hidden()
    page.fill("#pin", "0000")
    page.click("#login button")
    expect(page.locator("#login .error")).to_have_text("wrong PIN")
    page.fill("#pin", PIN)
    page.click("#login button")
    expect(page.locator("#create")).to_be_visible()
    page.fill("#name", "Tuesday Swiss")
    page.select_option("#format", "swiss")
    page.fill("#rounds", "2")
    page.fill("#names", "\n".join(FOUR))
    page.fill("#tables", "t1 t2")
    # The game's options are fields built from its kit: no JSON typed.
    page.get_by_label("Sets", exact=True).select_option(label="Best of 1")
    page.click("#create button[type=submit]")
    expect(page.locator("#event-title")).to_have_text("Tuesday Swiss")
    expect(page.locator("#start")).to_have_text("Start round 1")
    assert accessibility_problems(page) == []
    page.click("#start")
    games = page.locator("#games .dgame")
    expect(games).to_have_count(2)
    expect(games.first.locator(".line")).to_have_text("Ready: press OK on the table to start")
    expect(page.locator("#start")).to_be_disabled()
    expect(page.locator("#start-why")).to_have_text("round 1 has 2 games without a result")
    watch.until(lambda o: o.get("t1") and o.get("t2"))
    # Why this pairing?
    games.first.get_by_role("button", name="Why this pairing?").click()
    expect(games.first.locator(".why")).to_contain_text("not met before")
    # The first game is entered by hand, then corrected with a reason.
    first = games.first
    players = first.locator(".who").inner_text().split(": ", 1)[1].split(" v ")
    game = " v ".join(players)
    first.get_by_label(f"Result of {game}", exact=True).select_option(label=f"{players[0]} won")
    # With the game's own tiebreak: one player's alone is refused on the page.
    first.get_by_label(f"{players[0]}'s game tiebreak in {game}").fill("2.06")
    first.get_by_role("button", name="Save result").click()
    expect(page.locator("#problem")).to_contain_text("a game tiebreak, or none")
    first.get_by_label(f"{players[1]}'s game tiebreak in {game}").fill("-2.06")
    first.get_by_role("button", name="Save result").click()
    expect(first.locator(".line")).to_have_text(f"{players[0]} won")
    first = page.locator("#games .dgame").first
    expect(first.get_by_label(f"{players[1]}'s game tiebreak in {game}")).to_have_value("-2.06")
    first.get_by_label(f"Result of {game}", exact=True).select_option(label=f"{players[1]} won")
    first.get_by_role("button", name="Correct").click()
    expect(page.locator("#problem")).to_contain_text("a correction needs a reason")
    first = page.locator("#games .dgame").first
    first.get_by_label(f"Result of {game}", exact=True).select_option(label=f"{players[1]} won")
    first.get_by_label(f"Why the result of {game} is corrected").fill(
        "the score sheet was the other way round")
    first.get_by_role("button", name="Correct").click()
    expect(page.locator("#fixes")).to_contain_text("the score sheet was the other way round")
    expect(page.locator("#games .dgame").first.locator(".line")).to_contain_text(
        f"{players[1]} won (corrected: the score sheet was the other way round)")
    # The second game moves to a table without a companion; its offer is withdrawn.
    second = page.locator("#games .dgame").nth(1)
    label = second.locator(".who").inner_text().split(": ", 1)[1]
    second.get_by_label(f"Move {label} to").select_option(label="a table without a companion")
    expect(page.locator("#games .dgame").nth(1).locator(".line")).to_have_text(
        "Played on a table without a companion")
    watch.until(lambda o: o.get("t2") is None)
    fits(page)
    assert accessibility_problems(page) == []
    shot(page, "night-director-phone")
    page.set_viewport_size(TV)
    fits(page)
    assert accessibility_problems(page) == []


def test_the_tv_and_a_phone_follow_the_tables(night, browser):
    hall, tables, watch = night
    director = HttpDirector(hall.urls[0])
    status, event = director.request("POST", "/api/events", {
        "name": "Cup night", "game": "center-court", "options": {"sets": 1},
        "format": "swiss", "rounds": 1, "players": [*FOUR, "Eve"], "tables": ["t1", "t2"]})
    assert status == 200, event
    eid = event["id"]
    state = director.change(f"/api/events/{eid}/rounds", {}, eid)
    offers = watch.until(lambda o: o.get("t1") and o.get("t2"))
    tv = page_at(browser, TV)
    tv.goto(f"{hall.urls[0]}night")
    expect(tv.locator("#title")).to_have_text("Cup night")
    expect(tv.locator("#sub")).to_have_text("Center Court · Round 1 of 1")
    expect(tv.locator("#games .game")).to_have_count(3)  # two games and a bye
    # A table starts its game and plays a point: the TV shows its live score.
    tables["t1"].start(offers["t1"])
    tables["t1"].table.act({"type": "point", "winner": 0})
    tables["t1"]._summary()
    t1 = tv.locator(f"#games .game[data-id='{state['pairings'][0]['id']}']")
    expect(t1.locator(".line")).to_have_text("Live: 0-0 (15-0)")
    expect(t1).to_have_class("game st-playing")
    fits(tv)
    assert accessibility_problems(tv) == []
    shot(tv, "night-tv")
    # A player's phone: where do I play?
    phone = page_at(browser, PHONE, "light")
    phone.goto(f"{hall.urls[0]}next")
    mine = state["pairings"][1]
    name, other = mine["players"]
    phone.select_option("#me", name)
    expect(phone.locator("#where")).to_have_text("Table: t2")
    expect(phone.locator("#what")).to_contain_text(f"Round 1 against {other}.")
    fits(phone)
    assert accessibility_problems(phone) == []
    shot(phone, "night-next-phone")
    # The games finish at the tables: the standings and the winner follow by themselves.
    tables["t1"].finish(0)
    tables["t2"].start(offers["t2"])
    tables["t2"].finish(1)
    expect(phone.locator("#where")).to_have_text(f"Played: {other} won")
    director.change(f"/api/events/{eid}/rounds", {}, eid)
    final = director.event(eid)
    expect(tv.locator("#winner")).to_have_text(f"Winner: {final['winner']}")
    rows = tv.locator("#standings tbody tr")
    expect(rows).to_have_count(5)
    expect(rows.first.locator(".who")).to_have_text(final["standings"][0]["name"])
    assert accessibility_problems(tv) == []
    shot(tv, "night-tv-final")
    tv.set_viewport_size(PHONE)
    fits(tv)
    assert accessibility_problems(tv) == []
    # Printable standings, and the CSV they link to.
    printable = page_at(browser, PHONE)
    printable.goto(f"{hall.urls[0]}night/standings?event={eid}")
    expect(printable.locator("h1")).to_have_text("Cup night")
    expect(printable.locator("table.standings tbody tr")).to_have_count(5)
    expect(printable.locator("a[download]")).to_have_attribute(
        "href", f"/api/events/{eid}/standings.csv")
    fits(printable)
    assert accessibility_problems(printable) == []
    printable.emulate_media(media="print")
    expect(printable.locator("header")).to_be_hidden()


def untick_tables(page) -> None:
    """Only the tables typed in: the hall's known tables come ticked on the form."""
    page.wait_for_load_state("networkidle")
    page.eval_on_selector_all("#known-tables input",
                              "boxes => boxes.forEach((b) => { b.checked = false; })")


def create_one_round(page, name: str, game: str, lineup: str, table: str,
                     options: dict[str, str] | None = None, players: list[str] = FOUR) -> None:
    """Create a one-round event of ``players`` at ``table`` through the director's form."""
    page.fill("#name", name)
    page.select_option("#game", game)
    page.select_option("#lineup", lineup)
    page.fill("#rounds", "1")
    page.fill("#names", "\n".join(players))
    untick_tables(page)
    page.fill("#tables", table)
    for label, choice in (options or {}).items():
        page.get_by_label(label, exact=True).select_option(label=choice)
    page.click("#create button[type=submit]")
    expect(page.locator("#create .error")).to_have_text("")
    expect(page.locator("#event-title")).to_have_text(name)


def test_the_director_runs_doubles_and_alakazoo_tables(night, browser):
    hall, _, watch = night
    page = page_at(browser, PHONE)
    page.goto(f"{hall.urls[0]}director")
    page.fill("#pin", PIN)
    page.click("#login button")
    # The form offers a game only what it can be played as; a lineup the next game
    # chosen cannot play goes back to what its options say.
    page.select_option("#game", "alakazoo")
    page.select_option("#lineup", "tables")
    page.select_option("#game", "center-court")
    expect(page.locator("#lineup")).to_have_value("")
    offered = page.locator("#lineup option:enabled")
    expect(offered).to_have_count(1)
    page.select_option("#game", "alakaslam")
    expect(offered).to_have_count(3)
    expect(page.locator("#lineup option[value=tables]")).to_be_disabled()
    # An AlakaSLAM doubles event: four characters, teams of two, names that cannot wrap.
    # Its four characters, a menu per seat (the lineup's seats), each another at first.
    page.select_option("#game", "alakaslam")
    page.select_option("#lineup", "doubles")
    expect(page.locator("#options select[data-key=characters]")).to_have_count(4)
    create_one_round(page, "Doubles", "alakaslam", "doubles", "t1",
                     {"Seat 4: Character": "Wendolyn"}, LONG)
    assert hall.night.state("e-1")["options"]["characters"] == [
        "austin", "laurie", "rich", "wendolyn"]
    page.click("#start")
    game = page.locator("#games .dgame")
    expect(game).to_have_count(1)
    expect(page.locator("#teams")).to_contain_text("Teams: ")
    offer = watch.until(lambda o: o.get("t1"))["t1"]
    a, b = " & ".join(offer["players"][:2]), " & ".join(offer["players"][2:])
    expect(game.locator(".who")).to_have_text(f"t1: {a} v {b}")
    game.get_by_role("button", name="Why this pairing?").click()
    expect(game.locator(".why")).to_contain_text("rating totals")
    label = f"{a} v {b}"
    game.get_by_label(f"Result of {label}", exact=True).select_option(label=f"{b} won")
    game.get_by_role("button", name="Save result").click()
    expect(page.locator("#games .dgame .line")).to_have_text(f"{b} won")
    fits(page)
    # A player's phone says who the partner is and who the opponents are.
    phone = page_at(browser, PHONE, "light")
    phone.goto(f"{hall.urls[0]}next")
    me, mate, one, two = offer["players"]
    phone.select_option("#me", me)
    expect(phone.locator("#what")).to_contain_text(f"Round 1 with {mate}, against {one} and {two}.")
    fits(phone)
    assert accessibility_problems(phone) == []
    shot(page, "night-director-doubles-long")
    shot(phone, "night-next-doubles-long")
    # An Alakazoo event at tables of 3-4: each player's place is typed in.
    page.goto(f"{hall.urls[0]}director")
    create_one_round(page, "Zoo", "alakazoo", "tables", "t2")
    page.click("#start")
    game = page.locator("#games .dgame")
    expect(game).to_have_count(1)
    seats = watch.until(lambda o: o.get("t2"))["t2"]["players"]
    label = ", ".join(seats)
    game.get_by_role("button", name="Why this pairing?").click()
    expect(game.locator(".why")).to_contain_text("average rating")
    for name, place in zip(seats, (1, 1, 3, 4), strict=True):
        game.get_by_label(f"{name}'s place in {label}").fill(str(place))
    game.get_by_role("button", name="Save result").click()
    expect(page.locator("#games .dgame .line")).to_have_text(
        "Places: " + ", ".join(f"{n} {p}" for n, p in zip(seats, (1, 1, 3, 4), strict=True)))
    fits(page)
    assert accessibility_problems(page) == []
    shot(page, "night-director-tables")
