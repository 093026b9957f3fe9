"""A table on a real Mosquitto: retained state and summary, one event per action, the
broker killed and restarted mid-match, a rename that clears the old topics, and a
restart that leaves the results retained."""

from __future__ import annotations

import json
import time
from dataclasses import replace

from companion.topics import RESULTS, Topics, discovery, discovery_topics, summary_payload
from tests.mqtt.support import START, TIMEOUT, Listener, companion, on_broker
from tests.support import CATALOG
from tests.web.test_server import HttpHost

A = Topics("table-companion", "a")
#: A press must be handled well within this, broker or no broker (a liveness
#: bound for a slow CI machine, not a benchmark).
PRESS_BOUND = 1.0


def timed_press(c, button: str, hold: bool = False) -> float:
    """Press ``button`` on the simulated panel; seconds until the table handled it."""
    began = time.monotonic()
    c.press(button, hold).result(TIMEOUT)
    return time.monotonic() - began


def events(listener: Listener) -> list[dict]:
    return [json.loads(m.payload) for m in listener.on(A.events)]


def test_a_match_shows_up_retained_with_one_event_per_action(tmp_path, mosquitto):
    live = Listener(mosquitto, ["table-companion/#"])
    with companion(on_broker(mosquitto, name="Window table"), tmp_path) as c:
        assert c.publisher.wait_status(lambda s: s == "connected", TIMEOUT)
        first = c.table.version
        c.runner.call(lambda t: t.start(START))
        for button in ("prev", "next", "prev", "prev"):  # points to Ann, Bob, Ann, Ann
            timed_press(c, button)
        timed_press(c, "back", hold=True)  # undo
        last = c.table.snapshot
        live.wait_for(lambda: len(events(live)) == 6, "six events")
        got = events(live)
        assert [e["version"] for e in got] == list(range(first + 1, last.version + 1))
        assert [e["op"] for e in got] == ["start", "event", "event", "event", "event", "undo"]
        assert all(m.qos == 1 and not m.retain for m in live.on(A.events))
        assert got[-1]["event"] == {"type": "point", "winner": 0}  # the one taken back

        # A subscriber that comes later gets the table from the broker's retained messages.
        fresh = Listener(mosquitto, ["table-companion/#", "homeassistant/#"])
        fresh.wait_for(lambda: fresh.last(A.state) and fresh.last(A.summary)
                       and fresh.last(A.availability), "the retained topics")
        api = HttpHost(c.server.port).request("GET", "/api/state")[2]
        assert fresh.json(A.state) == api == last.to_json()
        assert fresh.json(A.summary) == json.loads(summary_payload(api, c.mqtt_info, CATALOG))
        assert fresh.json(A.summary)["table"] == {"id": "a", "name": "Window table",
                                                  "url": c.urls[0]}
        assert fresh.last(A.availability) == b"online"
        assert all(m.retain for m in fresh.messages)
        expected = dict(discovery(c.mqtt_info, A))
        fresh.wait_for(lambda: all(fresh.last(t) for t in expected), "the discovery configs")
        assert {t: fresh.json(t) for t in expected} == \
            {t: json.loads(p) for t, p in expected.items()}
        assert fresh.on(A.events) == []  # events are not retained
    # A clean stop says so.
    live.wait_payload(A.availability, b"offline")
    live.close()
    fresh.close()


def test_a_dead_broker_neither_slows_nor_loses_a_press(tmp_path, mosquitto):
    with companion(on_broker(mosquitto), tmp_path) as c:
        assert c.publisher.wait_status(lambda s: s == "connected", TIMEOUT)
        c.runner.call(lambda t: t.start(START))
        with_broker = [timed_press(c, b) for b in ("prev", "next") * 3]
        before = c.table.version
        mosquitto.kill()
        assert c.publisher.wait_status(lambda s: s != "connected", TIMEOUT)
        without = [timed_press(c, b) for b in ("prev", "next") * 5]
        # Every press is on the table, none waited for the network.
        assert c.table.version == before + 10
        assert c.publisher.queued == 10 and c.publisher.dropped == 0
        assert max(with_broker) < PRESS_BOUND and max(without) < PRESS_BOUND, \
            (with_broker, without)
        print(f"press -> handled, broker up: max {max(with_broker) * 1000:.1f} ms; "
              f"broker down: max {max(without) * 1000:.1f} ms")
        # Restarted after a failed retry: the next one is at least 2 s away, time
        # enough for the test's subscriber to be there first.
        assert c.publisher.wait_status(lambda s: s == "unreachable: port closed", TIMEOUT)
        restarted = time.time()
        mosquitto.start()
        back = Listener(mosquitto, ["table-companion/#"])
        made = list(range(before + 1, before + 11))

        def down() -> list[int]:  # QoS 1 is at least once: one in flight may come again
            return [e["version"] for e in events(back) if e["version"] > before]

        back.wait_for(lambda: len(down()) >= 10, "the ten events made while down")
        assert down() == made
        # Each carries the time it was committed, not the time the broker got it.
        assert all(e["at"] < restarted for e in events(back) if e["version"] > before)
        # The restarted broker had lost every retained message: they are back.
        back.wait_for(lambda: back.last(A.state) is not None, "the state again")
        assert back.json(A.state) == c.table.snapshot.to_json()
        assert back.last(A.availability) == b"online"
        assert c.publisher.status == "connected" and c.publisher.queued == 0
        back.close()


def test_events_past_the_queue_are_dropped_oldest_first_and_counted(tmp_path, mosquitto,
                                                                     monkeypatch):
    monkeypatch.setattr("drivers.mqtt.EVENT_QUEUE", 3)
    with companion(on_broker(mosquitto), tmp_path) as c:
        assert c.publisher.wait_status(lambda s: s == "connected", TIMEOUT)
        mosquitto.kill()
        assert c.publisher.wait_status(lambda s: s == "unreachable: port closed", TIMEOUT)
        c.runner.call(lambda t: t.start(START))
        for b in ("prev", "next", "prev", "next"):
            timed_press(c, b)
        assert (c.publisher.queued, c.publisher.dropped) == (3, 2)
        last = c.table.version
        mosquitto.start()
        back = Listener(mosquitto, ["table-companion/#"])
        back.wait_for(lambda: len(events(back)) == 3, "the three newest events")
        assert [e["version"] for e in events(back)] == [last - 2, last - 1, last]
        back.close()


def test_a_renamed_table_clears_its_old_topics(tmp_path, mosquitto):
    with companion(on_broker(mosquitto, table="a"), tmp_path) as c:
        assert c.publisher.wait_status(lambda s: s == "connected", TIMEOUT)
        c.runner.call(lambda t: t.start(START))
    old = [A.state, A.summary, A.availability, *discovery_topics("a")]
    seen = Listener(mosquitto, ["#"])
    seen.wait_for(lambda: all(seen.last(t) for t in old), "table a's retained topics")
    b = Topics("table-companion", "b")
    with companion(on_broker(mosquitto, table="b", name="Table B"), tmp_path) as c:
        assert c.publisher.wait_status(lambda s: s == "connected", TIMEOUT)
        seen.wait_for(lambda: all(seen.last(t) == b"" for t in old), "a's topics cleared")
        new = [b.state, b.summary, b.availability, *discovery_topics("b")]
        seen.wait_for(lambda: all(seen.last(t) for t in new), "b's retained topics")
        # A newcomer finds table b only; the marker, published after it subscribed,
        # arrives after every retained message.
        fresh = Listener(mosquitto, ["#"])
        fresh.client.publish("marker", b"end", qos=1)
        fresh.wait_for(lambda: fresh.last("marker") == b"end", "the marker")
        retained = {m.topic for m in fresh.messages if m.retain}
        assert not retained & set(old)
        assert set(new) <= retained
        assert json.loads(fresh.last(discovery_topics("b")[0]))["device"]["name"] == "Table B"
        fresh.close()
    seen.close()


def test_a_restarted_broker_gets_everything_retained_again(tmp_path, mosquitto):
    with companion(on_broker(mosquitto), tmp_path) as c:
        c.runner.call(lambda t: t.start(START))
        first = Listener(mosquitto, ["table-companion/#"])
        first.wait_for(lambda: first.last(A.state) is not None, "the state")
        first.close()
        mosquitto.kill()  # nothing changes on the table while the broker is away
        assert c.publisher.wait_status(lambda s: s == "unreachable: port closed", TIMEOUT)
        mosquitto.start()
        back = Listener(mosquitto, ["table-companion/#", "homeassistant/#"])
        wanted = [A.state, A.summary, A.availability, *discovery_topics("a")]
        back.wait_for(lambda: all(back.last(t) for t in wanted), "every retained topic")
        assert back.json(A.state) == c.table.snapshot.to_json()
        assert back.last(A.availability) == b"online"
        back.close()


def test_a_damaged_record_of_earlier_names_clears_nothing(tmp_path, mosquitto, caplog):
    (tmp_path / "mqtt_published.json").write_text(
        '[{"table": "#", "prefix": "x", "name": "x", "discovery": true, '
        '"discovery_prefix": "homeassistant"}]')
    with companion(on_broker(mosquitto), tmp_path) as c:
        assert c.publisher.wait_status(lambda s: s == "connected", TIMEOUT)
        seen = Listener(mosquitto, ["#"])
        wanted = [A.state, A.summary, *discovery_topics("a")]
        seen.wait_for(lambda: all(seen.last(t) for t in wanted), "everything all the same")
        seen.close()
    assert "mqtt_published.json is unreadable" in caplog.text
    assert json.loads((tmp_path / "mqtt_published.json").read_text())[0]["table"] == "a"


def test_a_restarted_table_leaves_its_results_retained_for_a_later_hall(tmp_path, mosquitto):
    # A table's retained results are its finished matches for any hall that subscribes
    # later (a hall restarted, or one that reached a restarted broker after the table).
    results = A.leaf(RESULTS)
    slam = {"game": "alakaslam", "players": ["Ann", "Bob", "Cleo", "Dan"],
            "options": {"characters": ["austin", "laurie", "rich", "toots"], "target": 1}}
    with companion(on_broker(mosquitto), tmp_path) as c:
        assert c.publisher.wait_status(lambda s: s == "connected", TIMEOUT)
        c.runner.call(lambda t: t.start(slam))
        assert c.runner.call(lambda t: t.act({"type": "point", "winner": 0})).match[
            "status"] == "finished"
    seen = Listener(mosquitto, [results, A.events])
    # Started again with the same data folder (so, too, after a SIGKILL): it greets the
    # broker with everything retained, then an event of what it does next.
    with companion(on_broker(mosquitto), tmp_path) as c:
        assert c.publisher.wait_status(lambda s: s == "connected", TIMEOUT)
        version = c.runner.call(lambda t: t.start(START)).version
        seen.wait_for(lambda: any(e["version"] == version for e in
                                  (json.loads(m.payload) for m in seen.on(A.events))),
                      "the event after the greeting")
        sent = [m.payload for m in seen.on(results)]
        assert sent and b"" not in sent, "the table cleared its own results"
        later = Listener(mosquitto, [results, "marker"])
        later.client.publish("marker", b"end", qos=1)  # after every retained message
        later.wait_for(lambda: later.last("marker") == b"end", "the marker")
        assert later.json(results)["results"][0]["players"] == slam["players"]
        later.close()
    seen.close()


def test_home_assistant_reads_the_sensors_in_the_table_s_language(tmp_path, mosquitto):
    """A table set to German publishes its sensors' names in German (issue #40): Home
    Assistant shows one name per sensor, and a club's installation reads the club's
    language."""
    cfg = on_broker(mosquitto, name="Fenstertisch")
    cfg = replace(cfg, table=replace(cfg.table, language="de"))
    with companion(cfg, tmp_path) as c:
        assert c.publisher.wait_status(lambda s: s == "connected", TIMEOUT)
        german = dict(discovery(c.mqtt_info, A, language="de"))
        english = dict(discovery(c.mqtt_info, A))
        fresh = Listener(mosquitto, ["homeassistant/#"])
        fresh.wait_for(lambda: all(fresh.last(t) for t in german), "the discovery configs")
        got = {t: fresh.json(t)["name"] for t in german}
        assert got == {t: json.loads(p)["name"] for t, p in german.items()}
        assert got != {t: json.loads(p)["name"] for t, p in english.items()}
        fresh.close()
