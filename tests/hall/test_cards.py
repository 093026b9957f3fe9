"""The board's pieces without a broker: a stream that starts from a whole list, links,
the complaints' rate limit, a bounded number of tables."""

from __future__ import annotations

import json
import logging

from companion.topics import ONLINE
from hall.cards import Board, Complaints, safe_url
from tests.support import Clock
from web.stream import Broker, event_bytes


def test_a_stream_starts_from_its_first_message_and_follows_only_newer_ones():
    broker = Broker("table", 4, keepalive=0.05,
                    first=lambda: (5, event_bytes(5, "tables", "[]")))
    broker.publish(3, '"older than the list"')
    stream = broker.open(None)
    assert next(stream).startswith(b"retry:")
    assert next(stream) == b"id: 5\nevent: tables\ndata: []\n\n"
    assert next(stream) == b": keep-alive\n\n"  # not the message older than the list
    broker.publish(6, '"a change"')
    assert next(stream) == b'id: 6\nevent: table\ndata: "a change"\n\n'
    broker.publish(7, '"all"', event="tables")
    assert next(stream) == b'id: 7\nevent: tables\ndata: "all"\n\n'
    stream.close()
    broker.close()


def test_only_http_links_are_kept():
    assert safe_url("http://192.0.2.1:8080/") == "http://192.0.2.1:8080/"
    assert safe_url("HTTPS://table.local/") == "HTTPS://table.local/"
    for bad in ("javascript:alert(1)", "data:text/html,x", "//evil.example/", "http:///x",
                "http://a/\n", 7, None, "http://[::1", "http://" + "a" * 3000):
        assert safe_url(bad) is None, bad


def test_complaints_are_logged_at_most_once_per_interval(caplog):
    clock = Clock()
    complain = Complaints(every=10, clock=clock)
    with caplog.at_level(logging.WARNING):
        for _ in range(100):
            complain("bad %s", "thing")
        clock.now += 10
        complain("bad %s", "again")
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["ignored: bad thing", "ignored: bad again (99 more like it before this)"]
    assert complain.count == 101


def test_a_full_board_gives_a_new_table_the_place_heard_from_least_recently(caplog):
    """A new table always gets a place: that of the card heard from least recently
    among those not online, else of the one heard from least recently (README)."""
    sent = []
    board = Board("p", lambda *message: sent.append(message), max_tables=3)

    def ids() -> list[str]:
        return [c["id"] for c in json.loads(board.json_text())["tables"]]

    board.receive("p/t0/availability", ONLINE.encode())
    board.receive("p/t1/availability", b"offline")
    board.receive("p/t2/availability", ONLINE.encode())
    board.receive("p/t0/availability", ONLINE.encode())  # nothing new, but t0 is there
    assert len(sent) == 3 and len(board) == 3
    board.receive("p/t3/availability", ONLINE.encode())  # t1, offline, gives its place
    assert ids() == ["t0", "t2", "t3"]
    # Two changes, one small message each: t1 gone, then t3's card.
    assert [(m[1], json.loads(m[2])["id"]) for m in sent[-2:]] == [("gone", "t1"), ("table", "t3")]
    assert sent[-1][0] == sent[-2][0] + 1
    board.receive("p/t4/availability", ONLINE.encode())  # all online: t2 was heard last
    assert ids() == ["t0", "t3", "t4"]
    for n in range(5, 50):  # a flood of made-up tables: the board stays at its bound
        board.receive(f"p/f{n}/availability", ONLINE.encode())
    assert len(board) == 3
    board.receive("p/t1/availability", ONLINE.encode())  # the real table, later: it is shown
    assert "t1" in ids()
    said = [r.getMessage() for r in caplog.records if "at most 3 tables" in r.getMessage()]
    assert len(said) == 1 and "'t3' took the place of 't1'" in said[0]  # once, rate-limited
    board.receive("p/t1/summary", b"")  # a summary cleared: the table is gone
    assert sent[-1][1:] == ("gone", '{"id":"t1"}') and len(board) == 2 and "t1" not in ids()


def test_a_renamed_table_leaves_no_card_behind():
    """A table renamed clears its old summary, state and availability (in that order,
    drivers/mqtt.py): nothing of it stays on a hall that was watching."""
    board = Board("p")
    board.receive("p/old/availability", ONLINE.encode())
    board.receive("p/old/summary", b"")
    board.receive("p/old/availability", b"")
    assert json.loads(board.json_text())["tables"] == []
    board.receive("p/gone/availability", b"")  # a clearing of a table never seen
    assert len(board) == 0


def test_cards_are_last_known_from_a_reconnection_until_their_table_speaks():
    board = Board("p")
    board.connection(True, "connected")
    board.receive("p/a/availability", ONLINE.encode())
    board.receive("p/b/availability", ONLINE.encode())
    board.connection(False, "connection lost")
    board.connection(True, "connected")
    fresh = {c["id"]: c["fresh"] for c in json.loads(board.json_text())["tables"]}
    assert fresh == {"a": False, "b": False}
    board.receive("p/a/availability", ONLINE.encode())  # a's retained message, or a itself
    fresh = {c["id"]: c["fresh"] for c in json.loads(board.json_text())["tables"]}
    assert fresh == {"a": True, "b": False}


def test_a_repeated_message_keeps_the_time_of_the_last_change():
    clock = Clock()
    sent = []
    board = Board("p", lambda *message: sent.append(message), clock=clock)
    board.receive("p/a/availability", ONLINE.encode())
    clock.now += 60
    board.receive("p/a/availability", ONLINE.encode())  # nothing new: not even sent
    assert len(sent) == 1
    board.connection(False, "connection lost")
    board.connection(True, "connected")
    clock.now += 60
    board.receive("p/a/availability", ONLINE.encode())  # the retained one, again
    (card,) = json.loads(board.json_text())["tables"]
    assert card["fresh"] and card["seen"] == 1000
    clock.now += 60
    board.receive("p/a/availability", b"offline")
    (card,) = json.loads(board.json_text())["tables"]
    assert card["seen"] == 1180
