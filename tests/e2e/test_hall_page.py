"""The hall board's page in Chromium: tables published to a real Mosquitto appear and
change live, offline tables and a lost broker are said in words, links only to http(s)
pages, a TV and a phone both fit, axe finds nothing in either theme."""

from __future__ import annotations

import threading
import time

import pytest

from companion.topics import OFFLINE, TableInfo, Topics, dumps, summary_payload
from tests.e2e.browser_support import (
    EACH_GAME,
    PHONE,
    accessibility_problems,
    require_chromium,
    shot,
)
from tests.e2e.test_alakaslam_pages import SINGLES
from tests.e2e.test_spectator_boards import boxes
from tests.hall.conftest import hall, sender  # noqa: F401 (fixtures)
from tests.hall.hall_support import Sender, Watch
from tests.mqtt_support import mosquitto  # noqa: F401 (a fixture)
from tests.support import CATALOG

expect = require_chromium().expect

TV = {"width": 1920, "height": 1080}
PREFIX = "table-companion"


def page_at(browser, viewport: dict, scheme: str = "dark"):
    return browser.new_context(viewport=viewport, color_scheme=scheme).new_page()


def room(sender) -> dict:  # noqa: F811
    """Six tables: each game in play, one won, one with no match; the last one's page link."""
    tables = {}
    for n, (game, record) in enumerate(EACH_GAME.items(), start=1):
        table = sender.table(TableInfo(f"t{n}", f"Table {n}", f"http://192.0.2.{n}:8080/"))
        table.start(record)
        tables[game] = table
    tables["center-court"].act({"type": "point", "winner": 1})
    won = sender.table(TableInfo("t5", "Table 5", "http://192.0.2.5:8080/"))
    won.start({**SINGLES, "options": {**SINGLES["options"], "target": 1}})
    won.act({"type": "point", "winner": 0})
    tables["won"] = won
    tables["idle"] = sender.table(TableInfo("t6", "Table 6"))
    return tables


def test_tables_appear_and_change_live(hall, sender, browser):  # noqa: F811
    page = page_at(browser, PHONE)
    page.goto(hall.urls[0])
    expect(page.locator("#empty")).to_be_visible()
    expect(page.locator("#empty")).to_contain_text("No tables yet")
    shot(page, "hall-empty-phone")
    table = sender.table(TableInfo("t1", "Table 1", "http://192.0.2.1:8080/"))
    table.start({"game": "center-court", "players": ["Ann", "Bob"]})
    card = page.locator(".tcard[data-id='t1']")
    expect(card.locator(".badge")).to_have_text("Live")
    expect(page.locator("#empty")).to_be_hidden()
    expect(card.locator("h2 a")).to_have_attribute("href", "http://192.0.2.1:8080/")
    expect(card.locator("tr.turn th")).to_contain_text("Ann")
    expect(card.locator(".game")).to_have_text("Center Court")
    before = boxes(page, [".tcard"])
    table.act({"type": "point", "winner": 1})
    expect(card.locator("tbody tr").nth(1).locator("td.last")).to_have_text("15")
    assert boxes(page, [".tcard"]) == before  # no layout jump
    # A second table, sorting before the first, appears where its name sorts.
    other = sender.table(TableInfo("a0", "A table"))
    other.start({**SINGLES, "options": {**SINGLES["options"], "target": 1}})
    other.act({"type": "point", "winner": 0})
    first = page.locator(".tcard").first
    expect(first).to_have_attribute("data-id", "a0")
    expect(first.locator(".badge")).to_have_text("Finished")
    expect(first.locator("tr.winner th")).to_contain_text("Ann")
    expect(first.locator("tr.winner .chip.won")).to_have_text("Won")
    expect(first.locator("h2 a")).to_have_count(0)  # no page of its own: no link
    expect(page.locator("#count")).to_have_text("Tables: 2 · live: 1")
    # Offline: greyed and said in words.
    sender.send(Topics(PREFIX, "t1").availability, OFFLINE)
    expect(card.locator(".badge")).to_have_text("Offline")
    expect(card).to_have_class("tcard off st-active")
    expect(card.locator("tbody tr").nth(1).locator("td.last")).to_have_text("15")  # kept
    page.context.close()


def test_the_broker_lost_is_said_and_the_cards_kept(mosquitto, hall, sender, browser):  # noqa: F811
    table = sender.table(TableInfo("t1", "Table 1"))
    table.start({"game": "center-court", "players": ["Ann", "Bob"]})
    Watch(hall.server.port).until(lambda w: (w.cards.get("t1") or {}).get("summary")).close()
    page = page_at(browser, PHONE)
    page.goto(hall.urls[0])
    expect(page.locator(".tcard .badge")).to_have_text("Live")
    sender.close()
    mosquitto.kill()
    banner = page.locator("#broker")
    expect(banner).to_be_visible(timeout=10_000)
    expect(banner).to_contain_text("Not connected to the broker (connection lost; retry in")
    expect(page.locator(".tcard.stale .seen")).to_contain_text("Last known")
    expect(page.locator(".tcard .game")).to_have_text("Center Court")
    shot(page, "hall-broker-lost-phone")
    mosquitto.start()
    expect(banner).to_be_hidden(timeout=15_000)
    # The restarted broker lost the retained card and the table has not spoken since:
    # its card is still the last known, not passed off as current.
    expect(page.locator(".tcard.stale .seen")).to_contain_text("Last known")
    again = Sender(mosquitto)
    try:
        again.table(TableInfo("t1", "Table 1")).start(
            {"game": "center-court", "players": ["Ann", "Bob"]})
        expect(page.locator(".tcard.stale")).to_have_count(0)
    finally:
        again.close()
    page.context.close()


def test_hostile_tables_do_not_break_the_page(hall, sender, browser):  # noqa: F811
    summary = {"table": {"id": "x", "name": "<img src=x onerror=alert(1)>",
                         "url": "javascript:alert(1)"}, "version": 1, "game": "center-court",
               "title": "<b>bold</b>", "status": "active", "players": "", "score": "",
               "turn": "", "winner": "", "columns": ["P"],
               "sides": [{"name": "<script>", "score": ["1"], "turn": True, "winner": False}]}
    live = page_at(browser, PHONE)
    live.goto(hall.urls[0])
    expect(live.locator("#empty")).to_be_visible()
    # Each drawing is one batch of changes to the grid: counted, to see them coalesced.
    live.evaluate("""() => { window.drawings = 0; new MutationObserver(() => window.drawings++)
        .observe(document.getElementById("tables"), {childList: true}); }""")
    # 600 made-up tables, then the hostile one: a full board gives each newcomer the
    # place of the card heard from least recently, and the open page follows.
    for n in range(600):
        sender.client.publish(Topics(PREFIX, f"n{n:03d}").availability, OFFLINE)
    sender.send(f"{PREFIX}/x/summary", dumps(summary))
    Watch(hall.server.port).until(lambda w: len(w.cards) >= 500 and "x" in w.cards,
                                  timeout=30).close()
    expect(live.locator(".tcard")).to_have_count(500)
    expect(live.locator(".tcard[data-id='x']")).to_have_count(1)
    expect(live.locator(".tcard[data-id='n000']")).to_have_count(0)  # gave its place
    # 700 messages (600 tables, 100 of them taking a place: a `gone` and a `table`),
    # drawn in a few batches (at most one per 200 ms), not one drawing per message.
    assert live.evaluate("window.drawings") < 100
    live.context.close()
    page = page_at(browser, PHONE)
    page.goto(hall.urls[0])
    expect(page.locator(".tcard")).to_have_count(500)
    hostile = page.locator(".tcard[data-id='x']")
    expect(hostile.locator("h2")).to_have_text("<img src=x onerror=alert(1)>")  # as text
    expect(hostile.locator("a")).to_have_count(0)
    expect(hostile.locator("th.name")).to_contain_text("<script>")
    assert page.locator("img").count() == 0
    page.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_room_on_a_tv_and_a_phone(hall, sender, browser, scheme):  # noqa: F811
    room(sender)
    sender.send(Topics(PREFIX, "t6").availability, OFFLINE)
    Watch(hall.server.port).until(
        lambda w: len(w.cards) == 6 and w.cards["t6"]["online"] is False
        and all(c["summary"] for c in w.cards.values())
        and w.cards["t5"]["summary"]["status"] == "finished").close()
    for name, viewport, columns in (("tv", TV, (3,)), ("phone", PHONE, (1,))):
        page = page_at(browser, viewport, scheme)
        page.goto(hall.urls[0])
        cards = page.locator(".tcard")
        expect(cards).to_have_count(6)
        tops = [round(cards.nth(i).bounding_box()["y"]) for i in range(6)]
        assert tops.count(tops[0]) in columns, tops  # cards in the first row
        for i in range(6):
            box = cards.nth(i).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box
        if name == "tv":
            # Read from across the room: the score at least 40 px high on the TV.
            size = page.locator(".tcard td.last").first.evaluate(
                "(e) => parseFloat(getComputedStyle(e).fontSize)")
            assert size >= 40, size
            assert all(cards.nth(i).bounding_box()["y"] + cards.nth(i).bounding_box()["height"]
                       <= TV["height"] for i in range(6)), "six tables fit one TV screen"
        shot(page, f"hall-{name}-{scheme}")
        assert accessibility_problems(page) == []
        page.context.close()


@pytest.mark.parametrize("width", [320, 390])
def test_names_that_cannot_wrap_keep_the_scores_on_a_phone(hall, sender, browser,  # noqa: F811
                                                           width):
    """Two 16-capital names (the form's longest, no space to wrap at) on a phone: the
    card is no wider than the screen and its score column stays inside it; a score
    growing to two digits does not make the card jump, at 320 px either (its column is
    two digits wide from the start: the names do not break again)."""
    page = page_at(browser, {"width": width, "height": 800})
    page.goto(hall.urls[0])
    table = sender.table(TableInfo("t1", "Table 1"))
    table.start({"game": "center-court", "players": ["W" * 16, "M" * 16]})
    card = page.locator(".tcard[data-id='t1']")
    expect(card.locator(".badge")).to_have_text("Live")
    before = boxes(page, [".tcard"])
    table.act({"type": "point", "winner": 1})
    expect(card.locator("tbody tr").nth(1).locator("td.last")).to_have_text("15")
    assert boxes(page, [".tcard"]) == before
    heights = "cells => cells.map((c) => c.offsetHeight)"
    names = card.locator("th.name").evaluate_all(heights)
    table.act({"type": "point", "winner": 0})
    expect(card.locator("tbody tr").nth(0).locator("td.last")).to_have_text("15")
    assert boxes(page, [".tcard"]) == before
    assert card.locator("th.name").evaluate_all(heights) == names
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for box in card.locator("td.last").evaluate_all(
            "cells => cells.map((c) => c.getBoundingClientRect().right)"):
        assert box <= width
    # The page's title keeps its word on one line beside the count and the link.
    lines = "(h) => { const r = document.createRange(); r.selectNodeContents(h); " \
        "return r.getClientRects().length; }"
    assert page.locator("header h1").evaluate(lines) == 1
    shot(page, f"hall-long-names-{width}")


def test_a_new_card_and_a_gone_one_drawn_together_keep_the_board_in_order(
        hall, sender, browser):  # noqa: F811
    # The page draws the changes since its last drawing together (at most one drawing
    # per 200 ms). A new card is placed where its name sorts while a card that went in
    # the same batch may still be on the grid: it must be placed all the same, and the
    # board end up whole and in order. The page's clock is held, so that both
    # changes are in one batch.
    page = page_at(browser, PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.clock.install()
    for name in ("Bee", "Cee", "Dee"):
        sender.table(TableInfo(name.lower(), name))
    Watch(hall.server.port).until(lambda w: len(w.cards) == 3).close()
    page.goto(hall.urls[0])
    page.clock.run_for(1000)
    expect(page.locator(".tcard h2")).to_have_text(["Bee", "Cee", "Dee"])

    def cards_known() -> list[str]:
        return page.evaluate("[...hall.cards.keys()].sort()")

    sender.table(TableInfo("eve", "Eve"))  # sorts last: every card is looked at
    sender.send(Topics(PREFIX, "cee").summary, b"")  # Cee's table retired: gone
    # Both changes reach the page (its stream is not held; its drawing is).
    deadline = time.monotonic() + 10
    while cards_known() != ["bee", "dee", "eve"] and time.monotonic() < deadline:
        threading.Event().wait(0.05)
    assert cards_known() == ["bee", "dee", "eve"]
    page.clock.run_for(1000)
    expect(page.locator(".tcard h2")).to_have_text(["Bee", "Dee", "Eve"])
    assert not errors
    page.context.close()


@pytest.mark.parametrize("width", [320, 390])
def test_what_the_broker_refuses_a_table_is_on_its_card(hall, sender, browser,  # noqa: F811
                                                        width):
    """A table renamed to table-2 whose user may not clear table-1's topics says so in its
    summary (drivers/refusals.py): its card shows the reason and the ACL lines to add,
    within a phone's width."""
    refused = [{"what": "the clearing of its old id's topics (table-companion/table-1)",
                "reason": "Not authorized", "acl": "topic write table-companion/table-1/#"},
               {"what": "the clearing of its old id's topics "
                        "(homeassistant/sensor/table_companion_table-1)",
                "reason": "Not authorized",
                "acl": "topic write homeassistant/sensor/table_companion_table-1/#"}]
    info = TableInfo("table-2", "Table 2", "http://192.0.2.2:8080/")
    state = {"version": 3, "epoch": 1, "match": None}
    sender.send(Topics(PREFIX, "table-2").availability, "online")
    sender.send(Topics(PREFIX, "table-2").summary, summary_payload(state, info, CATALOG, refused))
    page = page_at(browser, {"width": width, "height": 800})
    page.goto(hall.urls[0])
    card = page.locator(".tcard[data-id='table-2']")
    lines = card.locator(".refused li")
    expect(lines).to_have_count(2)
    expect(lines.nth(0)).to_contain_text("The broker refuses the clearing of its old id's "
                                         "topics (table-companion/table-1) (Not authorized)")
    expect(lines.nth(1).locator("code")).to_have_text(
        "topic write homeassistant/sensor/table_companion_table-1/#")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    right = card.bounding_box()["x"] + card.bounding_box()["width"]
    for edge in lines.evaluate_all("els => els.map((e) => e.getBoundingClientRect().right)"):
        assert edge <= right
    shot(page, f"hall-refused-{width}")
    assert accessibility_problems(page) == []
    # Nothing refused any more: the card says nothing of it.
    sender.send(Topics(PREFIX, "table-2").summary, summary_payload(state, info, CATALOG, []))
    expect(card.locator(".refused")).to_have_count(0)
    page.context.close()
