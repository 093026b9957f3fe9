"""The club night's pages tell the truth (issue 35), in Chromium on a real hall and
Mosquitto, at a phone's 390 x 844 and a TV's 1920 x 1080, with 16-letter names: a table
offline since when with its last known score, the hall cut off from the broker said on
every night page, an offer waiting behind a friendly, a doubles event won by a team, the
director's held result with its choices, and a correction being typed that survives
other results arriving."""

from __future__ import annotations

import pytest

from hall.run import Hall
from tests.e2e.browser_support import PHONE, accessibility_problems, require_chromium, shot
from tests.e2e.test_night_pages import TV, fits, page_at
from tests.hall.hall_support import Sender
from tests.hall.night_support import PIN, HttpDirector, OfferWatch, SimTable
from tests.mqtt_support import mosquitto  # noqa: F401 (a fixture)

expect = require_chromium().expect

#: Sixteen capitals each: the widest names the form takes.
LONG = ["WWWWWWWWWWWWWWWA", "MMMMMMMMMMMMMMMB", "WWWWWWWWWWWWWWWC", "MMMMMMMMMMMMMMMD"]


@pytest.fixture
def night(mosquitto, tmp_path):  # noqa: F811
    with Hall(mosquitto.url, host="127.0.0.1", port=0, prefix="table-companion",
              keepalive=1.0, data=tmp_path, director_pin=PIN) as hall:
        sender = Sender(mosquitto)
        tables = {t: SimTable(sender, t) for t in ("t1", "t2")}
        watch = OfferWatch(mosquitto.port)
        yield hall, tables, watch, sender, mosquitto
        watch.close()
        for table in tables.values():
            table.close()
        sender.close()


def director_page(browser, hall, viewport):
    page = page_at(browser, viewport)
    page.goto(f"{hall.urls[0]}director")
    page.fill("#pin", PIN)
    page.click("#login button")
    expect(page.locator("#create")).to_be_visible()
    return page


def test_the_tv_and_the_director_tell_the_truth_about_each_table(night, browser):
    hall, tables, watch, sender, broker = night
    director = HttpDirector(hall.urls[0])
    status, event = director.request("POST", "/api/events", {
        "name": "Truth night", "game": "center-court", "options": {"sets": 1},
        "format": "swiss", "rounds": 1, "players": LONG, "tables": ["t1", "t2"]})
    assert status == 200, event
    eid = event["id"]
    # t2 is busy with a friendly when the round is offered.
    tables["t2"].table.start({"game": "center-court", "players": ["Zed", "Yan"],
                              "options": {"sets": 1}})
    tables["t2"].event = None
    tables["t2"]._summary()
    state = director.change(f"/api/events/{eid}/rounds", {}, eid)
    offers = watch.until(lambda o: o.get("t1") and o.get("t2"))
    tv = page_at(browser, TV)
    tv.goto(f"{hall.urls[0]}night?event={eid}")
    games = {g["table"]: g for g in state["pairings"]}
    line = {t: tv.locator(f"#games .game[data-id='{games[t]['id']}'] .line") for t in games}
    expect(line["t2"]).to_have_text("Offered: the table is finishing another match")
    expect(line["t1"]).to_have_text("Ready: press OK on the table to start")
    # t1 plays: live; then it goes offline: offline since when, the score last known.
    tables["t1"].start(offers["t1"])
    tables["t1"].table.act({"type": "point", "winner": 0})
    tables["t1"]._summary()
    expect(line["t1"]).to_have_text("Live: 0-0 (15-0)")
    sender.send(tables["t1"].topics.availability, "offline")
    expect(line["t1"]).to_contain_text("Table offline since ")
    expect(line["t1"]).to_contain_text("· last known 0-0 (15-0)")
    fits(tv)
    assert accessibility_problems(tv) == []
    shot(tv, "night-tv-offline-table")

    # The director types a correction's tiebreak for t2's game while t1's result arrives:
    # the event is drawn again, and what was typed stays.
    sender.send(tables["t1"].topics.availability, "online")
    phone = director_page(browser, hall, PHONE)
    game = phone.locator(f"#games .dgame[data-id='{games['t2']['id']}']")
    a, b = games["t2"]["players"]
    field = game.get_by_label(f"{a}'s game tiebreak in {a} v {b}")
    field.fill("1.5")
    tables["t1"].finish(1)
    expect(phone.locator(f"#games .dgame[data-id='{games['t1']['id']}'] .line")).to_have_text(
        f"{games['t1']['players'][1]} won")
    expect(phone.locator(f"#games .dgame[data-id='{games['t2']['id']}']").get_by_label(
        f"{a}'s game tiebreak in {a} v {b}")).to_have_value("1.5")
    fits(phone)
    shot(phone, "night-director-typing-kept")

    # The friendly ends; t2 plays the offer; the last round's button finishes the event.
    tables["t2"].table.abandon()
    tables["t2"].start(offers["t2"])
    tables["t2"].finish(0)
    expect(phone.locator("#start")).to_have_text("Finish the event")
    phone.click("#start")
    expect(phone.locator("#start")).to_have_text("Finished")
    # Then t1's players undo past the match point and the other player wins: held for
    # the director, who sees what changed and why it waits.
    tables["t1"].table.undo()
    tables["t1"].publish_results()
    tables["t1"].table.act({"type": "point", "winner": 0})
    while tables["t1"].table.snapshot.match["status"] == "active":
        tables["t1"].table.act({"type": "point", "winner": 0})
    tables["t1"].events[tables["t1"].table.snapshot.match["id"]] = {
        **offers["t1"]["event"], "offer": offers["t1"]["offer"]}
    tables["t1"].publish_results()
    held = phone.locator("#held .dheld")
    one, two = games["t1"]["players"]
    expect(held).to_contain_text(f"t1: the result of {one} v {two} changed to {one}; the "
                                 f"event finished on {two}'s win")
    fits(phone)
    assert accessibility_problems(phone) == []
    shot(phone, "night-director-held")
    phone.set_viewport_size(TV)
    fits(phone)
    phone.set_viewport_size(PHONE)
    held.get_by_role("button", name="Apply it").click()
    expect(phone.locator("#held")).to_be_empty()
    expect(phone.locator("#fixes")).to_contain_text("changed at the table")

    # The hall loses its broker: every night page says so, scores only last known.
    broker.kill()
    for page in (tv, phone):
        expect(page.locator("#broker-lost")).to_contain_text("The hall has lost the broker")
    nxt = page_at(browser, PHONE, "light")
    nxt.goto(f"{hall.urls[0]}next")
    expect(nxt.locator("#broker-lost")).to_be_visible()
    fits(tv)
    assert accessibility_problems(tv) == []
    shot(tv, "night-tv-broker-lost")
    broker.start()
    expect(tv.locator("#broker-lost")).to_be_hidden(timeout=30000)


def test_a_doubles_event_is_won_by_a_team_and_each_partner_is_told(night, browser):
    hall, _, _, _, _ = night
    director = HttpDirector(hall.urls[0])
    status, event = director.request("POST", "/api/events", {
        "name": "Doubles", "game": "alakaslam",
        "options": {"characters": ["austin", "laurie", "rich", "toots"]},
        "format": "swiss", "rounds": 1, "players": LONG, "tables": []})
    assert status == 200, event
    eid = event["id"]
    state = director.change(f"/api/events/{eid}/rounds", {}, eid)
    [game] = state["pairings"]
    director.change(f"/api/events/{eid}/pairings/{game['id']}/move", {"table": None}, eid)
    director.change(f"/api/events/{eid}/pairings/{game['id']}/result",
                    {"ranks": [1, 1, 2, 2]}, eid)
    final = director.change(f"/api/events/{eid}/rounds", {}, eid)
    team = [n for n, s in zip(game["players"], game["sides"], strict=True)
            if s == game["sides"][0]]
    assert final["winners"] == team and final["winner"] == " & ".join(team)
    tv = page_at(browser, TV)
    tv.goto(f"{hall.urls[0]}night?event={eid}")
    expect(tv.locator("#winner")).to_have_text(f"Winner: {' & '.join(team)}")
    fits(tv)
    assert accessibility_problems(tv) == []
    shot(tv, "night-tv-doubles-winner")
    tv.set_viewport_size(PHONE)
    fits(tv)
    for name in team:
        phone = page_at(browser, PHONE, "light")
        phone.goto(f"{hall.urls[0]}next?event={eid}")
        phone.select_option("#me", name)
        expect(phone.locator("#where")).to_have_text("You won the event!")
        partner = next(n for n in team if n != name)
        expect(phone.locator("#what")).to_contain_text(f"With {partner}.")
        fits(phone)
    shot(phone, "night-next-doubles-winner")
