"""The hall's offer on the table: the start record's event, the offer read and kept,
shown on the panel, started by one press naming the offer shown, and never otherwise."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import matchfile
from companion.errors import InvalidAction, MatchFileError
from companion.inputs import Input
from companion.match import StartRecord
from companion.offers import MAX_OFFER, OfferChanged, Offers, parse_offer
from companion.panel import OFFER_CHANGED, Panel
from companion.store import Store
from companion.table import Table
from companion.topics import TableInfo, summary_payload
from tests.panel_support import press
from tests.screens.test_offer_screen import offer_payload
from tests.support import CATALOG

EVENT = {"id": "e-1", "name": "Tuesday Swiss", "round": 2, "pairing": "p-17", "offer": "o-1"}
START = {"game": "center-court", "players": ["Ann", "Bob"], "options": {"sets": 1},
         "event": EVENT}


def win(table: Table, seat: int = 0) -> None:
    """A one-set match won by ``seat``: six games of four points."""
    while table.snapshot.match["status"] == "active":
        table.act({"type": "point", "winner": seat})


# --- the start record's event -------------------------------------------------------


def test_the_event_is_kept_in_the_start_line_the_state_and_the_summary(tmp_path):
    with Store(tmp_path / "c.db") as store:
        table = Table(store, CATALOG, rng=random.Random(1))
        table.start(START)
        match = table.snapshot.match
        assert match["event"] == EVENT
        assert store.start_of(match["id"])["event"] == EVENT
        summary = json.loads(summary_payload(table.snapshot.to_json(), TableInfo("t", "T"),
                                             CATALOG))
        assert summary["event"] == EVENT
        # Replayed from the store (a restart) it is the same match, event and all.
        again = Table(store, CATALOG, rng=random.Random(2))
        assert again.snapshot.match["event"] == EVENT
        win(table)
        assert table.snapshot.results[-1]["event"] == EVENT
        # A rematch of an event's match is a friendly: no event.
        assert "event" not in CATALOG.rematch(table.snapshot.match)
        table.start(CATALOG.rematch(table.snapshot.match))
        assert table.snapshot.match["event"] is None
        assert json.loads(summary_payload(table.snapshot.to_json(),
                                          TableInfo("t", "T"), CATALOG))["event"] is None
        win(table, 1)
        assert "event" not in table.snapshot.results[-1]
        assert table.snapshot.results[-2]["event"] == EVENT


def test_export_and_import_keep_the_event(tmp_path):
    with Store(tmp_path / "c.db") as store:
        table = Table(store, CATALOG, rng=random.Random(1))
        table.start(START)
        win(table)
        text = matchfile.export(store.load(table.match_id), CATALOG)
    assert json.loads(text.splitlines()[0])["event"] == EVENT
    read = matchfile.read(text.splitlines(), random.Random(0), CATALOG)
    assert read.match.start.event == EVENT
    with Store(tmp_path / "other.db") as other:
        assert matchfile.already_stored(other, read, CATALOG) is None


@pytest.mark.parametrize(("event", "says"), [
    ("e-1", "'event' must be a JSON object"),
    ({**EVENT, "table": 3}, "'event' has no field 'table'"),
    ({k: v for k, v in EVENT.items() if k != "pairing"}, "'event' needs 'pairing'"),
    ({**EVENT, "id": ""}, "event 'id' must be 1-64"),
    ({**EVENT, "offer": "o/1"}, "event 'offer' must be 1-64"),
    ({**EVENT, "pairing": "p" * 65}, "event 'pairing' must be 1-64"),
    ({**EVENT, "name": "x" * 61}, "at most 60 characters"),
    ({**EVENT, "name": " "}, "event 'name' must be printable text"),
    ({**EVENT, "name": "a\nb"}, "event 'name' must be printable text"),
    ({**EVENT, "round": 0}, "event 'round' must be a whole number from 1"),
    ({**EVENT, "round": True}, "event 'round' must be a whole number from 1"),
    ({**EVENT, "round": 1.5}, "event 'round' must be a whole number from 1"),
])
def test_a_bad_event_is_refused_by_name_and_nothing_starts(tmp_path, event, says):
    with Store(tmp_path / "c.db") as store:
        table = Table(store, CATALOG)
        with pytest.raises(InvalidAction, match=says):
            table.start({**START, "event": event})
        assert table.snapshot.match is None and store.history() == []
    with pytest.raises(MatchFileError, match=says):
        matchfile.read([json.dumps({**START, "event": event})], random.Random(0), CATALOG)


def test_an_event_name_is_kept_with_its_spaces_made_one():
    start = StartRecord.create({**START, "event": {**EVENT, "name": "  Tuesday   Swiss "}},
                               random.Random(0), CATALOG)
    assert start.event["name"] == "Tuesday Swiss"


# --- reading an offer -----------------------------------------------------------------


def test_an_offer_is_read_into_the_start_record_it_starts():
    offer = parse_offer(offer_payload(["Ann", "Bob"]), CATALOG)
    assert offer.id == "o-1" and offer.players == ("Ann", "Bob")
    assert offer.record == {"game": "center-court", "players": ["Ann", "Bob"],
                            "options": {"sets": 3},
                            "event": {"id": "e-1", "name": "Tuesday Swiss", "round": 2,
                                      "pairing": "p-17", "offer": "o-1"}}
    assert offer.sent_at == 1764050000


def body(**changes) -> bytes:
    base = json.loads(offer_payload(["Ann", "Bob"]))
    base.update(changes)
    return json.dumps({k: v for k, v in base.items() if v is not ...}).encode()


@pytest.mark.parametrize(("payload", "says"), [
    (b"\xff", "UTF-8"),
    (b"{", "must be JSON"),
    (b"[1]", "a JSON object"),
    # Python 3.11's decoder stops at 1,000 levels; 3.13's takes these 4,000 (its limit is
    # past what 8 KiB can nest), and the list is then refused for what it is.
    (b"[" * 4000 + b"]" * 4000, "nested a few levels at most|must be a JSON object"),
    (b" " * (MAX_OFFER + 1), "at most 8192 bytes"),
    (body(table="t-1"), "no field 'table'"),
    (body(offer=...), "has no 'offer'"),
    (body(offer="o 1"), "1-64 of A-Z"),
    (body(event="e-1"), "'event' must be a JSON object"),
    (body(event={"id": "e-1", "name": "S", "round": 1, "pairing": "p", "x": 1}),
     "event has no field 'x'"),
    (body(event={"id": "e-1", "name": "S", "round": 0, "pairing": "p"}), "round"),
    (body(game="chess"), "chess"),
    (body(players=["Ann"]), "players"),
    (body(players=["Ann", "x" * 17]), "at most 16"),
    (body(options={"sets": 4}), "sets"),
    (body(sent_at="today"), "sent_at"),
    # Past Python's limit of int digits (4,300): a plain ValueError from json.loads.
    (b'{"offer": "o-1", "sent_at": ' + b"7" * 4400 + b"}", "at most 4300 digits"),
    (b'{"offer": "o-1", "event": {"round": ' + b"1" * 4301 + b"}}", "at most 4300 digits"),
])
def test_an_unusable_offer_is_refused_with_its_reason(payload, says):
    with pytest.raises(InvalidAction, match=says):
        parse_offer(payload, CATALOG)


def test_offers_keep_the_latest_log_an_unusable_one_once_and_withdraw_on_empty(caplog):
    offers, told = Offers(CATALOG), []
    offers.subscribe(lambda o: told.append((o.current and o.current.id, o.problem)))
    offers.receive(offer_payload(["Ann", "Bob"]))
    offers.receive(offer_payload(["Ann", "Bob"]))  # the same again (a reconnection)
    assert told == [("o-1", None)]
    bad = body(game="chess")
    offers.receive(bad)
    offers.receive(bad)
    assert offers.current is None and "chess" in offers.problem
    assert len([r for r in caplog.records if "cannot be used" in r.message]) == 1
    assert offers.to_json()["offer"] is None
    offers.receive(offer_payload(["Cy", "Di"], offer="o-2"))
    assert offers.current.id == "o-2" and offers.problem is None
    offers.receive(b"")
    assert offers.current is None and offers.to_json() == {
        "offer": None, "problem": None, "played": None, "notice": None}
    assert [t[0] for t in told] == ["o-1", None, "o-2", None]


def test_an_offer_with_a_huge_number_is_one_clear_line_not_a_traceback(caplog):
    offers = Offers(CATALOG)
    huge = b'{"offer": "o-1", "sent_at": ' + b"9" * 4400 + b"}"
    for _ in range(3):  # a retained offer comes again at every connection
        offers.receive(huge)
    assert offers.current is None and "at most 4300 digits" in offers.problem
    said = [r for r in caplog.records if r.name == "companion.offers"]
    assert [r.getMessage() for r in said] == [
        "the hall's offer cannot be used: an offer's numbers must have at most 4300 digits"]
    assert said[0].exc_info is None and "Traceback" not in caplog.text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(
    st.binary(max_size=600),
    st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                 lambda inner: st.lists(inner, max_size=4)
                 | st.dictionaries(st.sampled_from(["offer", "event", "game", "options",
                                                    "players", "sent_at", "id", "name",
                                                    "round", "pairing", "x"]), inner,
                                   max_size=6),
                 max_leaves=20).map(lambda v: json.dumps(v).encode()),
))
def test_no_payload_on_the_offer_topic_crashes_the_table_or_starts_anything(payload):
    with Store(":memory:") as store:
        table = Table(store, CATALOG)
        offers = Offers(CATALOG)
        panel = Panel(table, offers=offers)
        offers.receive(payload)
        panel.show_offer()
        assert table.snapshot.match is None and table.version == 0
        assert offers.current is not None or offers.problem is not None or not payload
        assert json.dumps(offers.to_json())


# --- the panel ---------------------------------------------------------------------------


def panel_with_offer(store: Store) -> tuple[Table, Offers, Panel]:
    table = Table(store, CATALOG, rng=random.Random(3))
    offers = Offers(CATALOG)
    panel = Panel(table, offers=offers)
    offers.receive(offer_payload(["Ann", "Bob"]))
    panel.show_offer()
    return table, offers, panel


def test_one_ok_starts_the_offer_shown_and_nothing_starts_without_it():
    with Store(":memory:") as store:
        table, offers, panel = panel_with_offer(store)
        assert panel.state.screen.offer == ("o-1", ("Next: Ann v Bob", "R2 · Tuesday Swiss"))
        assert table.snapshot.match is None  # shown, not started
        press(panel, "ok")
        match = table.snapshot.match
        assert match["players"] == ["Ann", "Bob"] and match["options"]["sets"] == 3
        assert match["event"] == {**EVENT, "offer": "o-1"}
        # The match is in play: the board is its board; the offer (still the hall's until
        # it has seen the result) is not offered again, even once the match is over.
        assert panel.state.screen.offer is None
        win(table)
        assert panel.state.screen.offer is None
        with pytest.raises(OfferChanged, match="started already"):
            offers.start(table, "o-1")


def test_a_replaced_offer_puts_the_board_under_a_notice_and_a_press_starts_nothing():
    with Store(":memory:") as store:
        table, offers, panel = panel_with_offer(store)
        seen = panel.epoch  # a press made while "o-1" was on the screen...
        offers.receive(offer_payload(["Cy", "Di"], offer="o-2"))
        panel.show_offer()  # ...handled after the offer changed
        panel.handle(Input("ok"), seen)
        assert table.snapshot.match is None
        assert panel.state.ui.message == OFFER_CHANGED
        press(panel, "ok")  # the notice, seen, goes
        assert table.snapshot.match is None and panel.state.ui.message is None
        assert panel.state.screen.offer[0] == "o-2"
        press(panel, "ok")
        assert table.snapshot.match["players"] == ["Cy", "Di"]


def test_a_withdrawn_offer_closes_and_an_old_command_is_refused():
    with Store(":memory:") as store:
        table, offers, panel = panel_with_offer(store)
        offers.receive(b"")
        # The command of the screen as it was: refused by the offer's id, nothing started.
        with pytest.raises(OfferChanged):
            offers.start(table, "o-1")
        panel.show_offer()
        assert panel.state.screen.offer is None and panel.state.ui.message == OFFER_CHANGED
        press(panel, "ok", "ok")  # the notice, then the welcome board's New
        assert table.snapshot.match is None


def test_an_offer_while_a_match_is_in_play_waits_until_it_is_over():
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(3))
        offers = Offers(CATALOG)
        panel = Panel(table, offers=offers)
        table.start({"game": "center-court", "players": ["Cy", "Di"], "options": {"sets": 1}})
        offers.receive(offer_payload(["Ann", "Bob"]))
        panel.show_offer()
        assert panel.state.screen.offer is None
        press(panel, "ok")  # the board's own OK: nothing of the offer
        assert table.snapshot.match["players"] == ["Cy", "Di"]
        win(table)  # from a phone: the board is under its notice, which OK clears
        assert panel.state.screen.offer[0] == "o-1"
        press(panel, "ok")
        assert table.snapshot.match["event"] is None
        press(panel, "ok")
        assert table.snapshot.match["event"]["offer"] == "o-1"


# --- an offer is played once ----------------------------------------------------------------


def test_again_then_end_never_brings_a_played_offer_back_to_start():
    """Issue 35: the hall is down, so the played offer stays on the topic; "Again" and End
    leave no match on the table: the offer is not shown, and a start of it is refused."""
    with Store(":memory:") as store:
        table, offers, panel = panel_with_offer(store)
        press(panel, "ok")  # the offer starts
        win(table)
        played = table.snapshot.match["id"]
        press(panel, "ok")  # the notice of the phone's change goes
        press(panel, "ok")  # "Again": a rematch, a friendly
        assert table.snapshot.match["event"] is None
        table.abandon()  # End: no match on the table, the offer still on the topic
        assert table.snapshot.match is None
        panel.show_offer()
        assert panel.state.screen.offer is None  # never shown to start again
        press(panel, "ok", "ok")  # whatever is pressed, nothing of the offer starts
        assert (table.snapshot.match or {}).get("event") is None
        with pytest.raises(OfferChanged, match=f"played at this table already \\(match "
                                               f"{played}\\)"):
            offers.start(table, "o-1")
        assert offers.to_json({"o-1": played})["played"] == played
        assert [m.id for m in store.finished() if (m.event or {}).get("offer") == "o-1"] \
            == [played]


def test_a_played_offer_is_refused_from_the_store_even_beyond_the_last_results():
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(3))
        offers = Offers(CATALOG)
        offers.receive(offer_payload(["Ann", "Bob"]))
        offers.start(table, "o-1")
        win(table)
        assert store.offer_played("o-1") == table.snapshot.match["id"]
        assert store.offer_played("o-2") is None
        for _ in range(3):  # the played match leaves no trace but the store's
            table.start({"game": "center-court", "players": ["Cy", "Di"],
                         "options": {"sets": 1}})
            win(table)
        with pytest.raises(OfferChanged, match="played at this table already"):
            offers.start(table, "o-1")


def test_a_withdrawal_notice_says_why_and_is_no_offer():
    with Store(":memory:") as store:
        _table, offers, panel = panel_with_offer(store)
        press(panel, "ok")
        reason = "the director moved Ann v Bob to t3: its match here is abandoned"
        offers.receive(json.dumps({"withdrawn": "o-1", "reason": reason}).encode())
        assert offers.current is None and offers.notice == reason
        panel.show_offer()
        assert panel.state.ui.message == "Hall moved this match"
        assert offers.to_json()["notice"] == reason
        # A notice that is not one is an unusable offer, said as such.
        offers.receive(json.dumps({"withdrawn": 5, "reason": reason}).encode())
        assert offers.notice is None and offers.problem is not None
        offers.receive(b"")
        assert offers.to_json()["notice"] is None


def test_a_doubles_offer_says_its_sides_on_the_board_and_the_host_card():
    payload = offer_payload(["Ann", "Bob", "Hal", "Zoë"], game="alakaslam", options={
        "characters": ["austin", "laurie", "rich", "toots"]})
    offer = parse_offer(payload, CATALOG)
    assert offer.sides == (0, 0, 1, 1) and offer.label == "Ann & Bob v Hal & Zoë"
    assert offer.to_json()["label"] == "Ann & Bob v Hal & Zoë"
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(3))
        offers = Offers(CATALOG)
        panel = Panel(table, offers=offers)
        offers.receive(payload)
        panel.show_offer()
        assert panel.state.screen.offer == ("o-1", ("Next: Ann&Bob v Hal&Zoë",
                                                    "R2 · Tuesday Swiss"))
    canadian = parse_offer(offer_payload(["Ann", "Bob", "Cy"], game="alakaslam", options={
        "characters": ["austin", "laurie", "rich"]}), CATALOG)
    assert canadian.label == "Ann v Bob & Cy"
    assert parse_offer(offer_payload(["Ann", "Bob"]), CATALOG).label == "Ann v Bob"
