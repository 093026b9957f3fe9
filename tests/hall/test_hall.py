"""The hall board against a real Mosquitto: tables publish, the hall's JSON and stream follow."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

from companion.headline import headline
from companion.topics import OFFLINE, TableInfo, Topics, dumps
from hall.run import Hall
from tests.hall.hall_support import Watch, get, score
from tests.support import CATALOG

ANN_BOB = {"game": "center-court", "players": ["Ann", "Bob"]}


def test_a_match_played_on_a_table_shows_on_the_json_and_the_stream(hall, sender):
    # The hall's MQTT client connects on its own thread: until it has, the stream's
    # first list says "connecting", and the connection is one more `tables` message.
    # The table plays once the hall hears it, as a table in a hall does.
    with Watch(hall.server.port) as watch:
        watch.until(lambda w: w.connected)
        first = watch.events[0]
        assert first.event == "tables" and first.json()["tables"] == []
        # Until the hall's fan-out thread has taken the stream over, changes made
        # meanwhile reach it as the newest alone (on a busy machine: a gap, which the
        # watcher starts again from); its first keep-alive says it has.
        watch.until(lambda w: w.keepalives > 0)
        heard_from = len(watch.events)
        table = sender.table(TableInfo("t1", "Table 1", "http://192.0.2.7:8080/"))
        table.start(ANN_BOB)
        for winner in (0, 0, 1):
            table.act({"type": "point", "winner": winner})
        # The card's fields, and what the broker refuses the table: nothing.
        want = {**headline(json.loads(table.snapshot.json_text), CATALOG), "refused": []}
        # The availability and the summaries come on two topics, in either order.
        watch.until(lambda w: score(w.cards.get("t1", {})) == want["score"]
                    and w.cards["t1"]["online"])
        card = watch.cards["t1"]
        assert card["summary"] == {k: want[k] for k in card["summary"]}
        assert card["name"] == "Table 1" and card["url"] == "http://192.0.2.7:8080/"
        assert card["online"] is True and card["version"] == table.snapshot.version
        # Each change is one `table` message, numbered one after the other.
        ids = [e.id for e in watch.events]
        assert ids == list(range(ids[0], ids[0] + len(ids)))
        assert {e.event for e in watch.events[heard_from:]} == {"table"}
        status, _, body = get(f"{hall.urls[0]}api/tables")
        assert status == 200 and body["connected"] is True and body["broker"] == "connected"
        assert body["tables"] == [card]


def test_a_hall_started_after_the_tables_shows_them(mosquitto, sender):
    for n in (2, 1):
        table = sender.table(TableInfo(f"t{n}", f"Table {n}"))
        table.start(ANN_BOB)
        table.act({"type": "point", "winner": n - 1})
    with Hall(mosquitto.url, host="127.0.0.1", port=0, prefix="table-companion") as hall, \
            Watch(hall.server.port) as watch:
        watch.until(lambda w: len(w.cards) == 2 and all(score(c) for c in w.cards.values()))
        _, _, body = get(f"{hall.urls[0]}api/tables")
        assert [c["id"] for c in body["tables"]] == ["t1", "t2"]  # by name
        assert [score(c) for c in body["tables"]] == ["0-0 (15-0)", "0-0 (0-15)"]


def test_a_table_killed_is_marked_offline_by_its_last_will(mosquitto, hall):
    with subprocess.Popen([sys.executable, "-m", "tests.hall.table_process",
                           str(mosquitto.port), "far", "Far table"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as proc:
        try:
            assert proc.stdout.readline() == "ready\n"
            with Watch(hall.server.port) as watch:
                watch.until(lambda w: w.cards.get("far", {}).get("online") is True
                            and score(w.cards["far"]) == "0-0 (0-15)")
                proc.send_signal(signal.SIGKILL)
                proc.wait(10)
                watch.until(lambda w: w.cards["far"]["online"] is False)
                _, _, body = get(f"{hall.urls[0]}api/tables")
                assert body["tables"][0]["online"] is False
                assert score(body["tables"][0]) == "0-0 (0-15)"  # its last score stays
        finally:
            proc.kill()


def test_the_broker_lost_and_back(mosquitto, hall, sender):
    with Watch(hall.server.port) as watch:
        watch.until(lambda w: w.connected)
        table = sender.table(TableInfo("t1", "Table 1"))
        table.start(ANN_BOB)
        watch.until(lambda w: score(w.cards.get("t1", {})) == "0-0 (0-0)")
        sender.close()
        mosquitto.kill()
        watch.until(lambda w: w.connected is False)
        assert "connection lost" in watch.broker and "retry in" in watch.broker
        assert score(watch.cards["t1"]) == "0-0 (0-0)"  # kept, the page marks it stale
        mosquitto.start()
        watch.until(lambda w: w.connected is True, timeout=15)
        assert get(f"{hall.urls[0]}api/tables")[2]["broker"] == "connected"


def test_a_broker_that_stops_answering_is_said_as_such(mosquitto, monkeypatch):
    """SIGSTOP: the port still takes connections and nothing answers. The hall says the
    keep-alive ran out, not "is it a TLS port?", and is back when the broker is."""
    monkeypatch.setattr("hall.listener.KEEPALIVE", 1)
    with Hall(mosquitto.url, host="127.0.0.1", port=0, prefix="table-companion") as hall, \
            Watch(hall.server.port) as watch:
        watch.until(lambda w: w.connected)
        os.kill(mosquitto.pid(), signal.SIGSTOP)
        try:
            watch.until(lambda w: "connection lost" in w.broker)
            assert "the broker stopped answering" in watch.broker, watch.broker
            watch.until(lambda w: "connection lost" not in w.broker, timeout=15)
            assert (f"127.0.0.1:{mosquitto.port} took the connection but did not answer as a "
                    "broker within 1 s (keep-alive timeout)") in watch.broker, watch.broker
            assert "TLS" not in watch.broker
        finally:
            os.kill(mosquitto.pid(), signal.SIGCONT)
        watch.until(lambda w: w.connected, timeout=20)


def test_the_hall_changes_nothing_and_answers_only_its_own_names(hall):
    base = hall.urls[0]
    for path in ("", "api/tables", "api/hall/events"):
        status, headers, body = get(base + path, method="POST")
        assert status == 405 and "error" in body and "GET" in headers["Allow"], path
    for method in ("PUT", "DELETE", "PATCH"):
        assert get(base + "api/tables", method=method)[0] == 405
    status, _, body = get(base + "api/tables", headers={"Host": "evil.example"})
    assert status == 400 and "unknown host name" in body["error"]
    status, headers, _ = get(base + "api/tables")
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert get(base + "nothing")[0] == 404


def test_hostile_messages_are_ignored_and_bounded(mosquitto, hall, sender, caplog):
    p = "table-companion"
    sender.table(TableInfo("good", "Good", "http://192.0.2.1/")).start(ANN_BOB)
    with Watch(hall.server.port) as watch:
        # Its availability and its summary come on two topics, in either order.
        watch.until(lambda w: score(w.cards.get("good", {})) == "0-0 (0-0)"
                    and w.cards["good"]["online"])
        good = dict(watch.cards["good"])
        summary = dumps({"table": {"id": "good", "name": "Good", "url": "http://192.0.2.1/"},
                              "version": 1, **good["summary"]})
        hostile = [
            (f"{p}/good/summary", b"x" * (64 * 1024 + 1)),                # oversize
            (f"{p}/good/summary", b"{not json"),                          # not JSON
            (f"{p}/good/summary", b"[1, 2]"),                             # not an object
            (f"{p}/good/summary", b'{"table": {}, "version": -1}'),       # wrong shape
            (f"{p}/good/summary", summary.replace('"sides":[', '"sides":[7,').encode()),
            (f"{p}/good/summary", summary.replace('"turn":true', '"turn":"yes"').encode()),
            (f"{p}/good/summary", b"[" * 100_000),                       # deep nesting
            (f"{p}/good/availability", b"maybe"),
            (f"{p}/Bad!/summary", summary.encode()),                      # not a table id
            (f"{p}/{'x' * 33}/availability", b"online"),                 # id too long
        ]
        assert '"sides":[' in summary and '"turn":true' in summary
        for topic, payload in hostile:
            sender.send(topic, payload, retain=False)
        # A link that is not http(s) is dropped, the card kept.
        sender.send(f"{p}/js/summary", summary.replace("http://192.0.2.1/", "javascript:alert(1)")
                    .replace('"Good"', '"JS"'))
        watch.until(lambda w: "js" in w.cards)
        assert watch.cards["js"]["url"] is None and watch.cards["js"]["name"] == "JS"
        assert watch.cards["good"] == good  # not one of the hostile messages changed it
        _, _, body = get(f"{hall.urls[0]}api/tables")
        assert [c["id"] for c in body["tables"]] == ["good", "js"]
        assert hall.board.complain.count == len(hostile)


def test_a_flood_of_made_up_tables_cannot_hide_a_table_that_comes_later(hall, sender, caplog):
    """A client that may write any table's topics (no ACL here) makes up 2000 tables:
    the board stays at 500, the real table shown before keeps its card, and a real
    table that arrives after the flood takes a place at its first message."""
    p = "table-companion"
    sender.table(TableInfo("good", "Good")).start(ANN_BOB)
    with Watch(hall.server.port) as watch:
        watch.until(lambda w: score(w.cards.get("good", {})) == "0-0 (0-0)")
        for n in range(2000):
            sender.client.publish(Topics(p, f"n{n:04d}").availability, OFFLINE)
        late = sender.table(TableInfo("late", "Late table"))
        late.start(ANN_BOB)
        late.act({"type": "point", "winner": 0})
        # A table's availability and summary come on two topics, in either order.
        watch.until(lambda w: score(w.cards.get("late", {})) == "0-0 (15-0)"
                    and w.cards["late"]["online"] and w.cards["good"]["online"], timeout=30)
        status, _, body = get(f"{hall.urls[0]}api/tables")
        assert status == 200 and len(body["tables"]) == 500
        cards = {c["id"]: c for c in body["tables"]}
        assert cards["good"]["online"] is True and score(cards["good"]) == "0-0 (0-0)"
        assert cards["late"]["online"] is True and score(cards["late"]) == "0-0 (15-0)"
        said = [r.getMessage() for r in caplog.records if "at most 500 tables" in r.getMessage()]
        assert len(said) == 1, said  # once, however many places changed hands
