"""A refusal of the hall's own publishes is heard: a real Mosquitto whose ACL lacks the
hall's write line (README's ACL otherwise) answers each offer with a PUBACK saying "Not
authorized" (MQTT v5); the hall logs it once with the ACL line its user needs, shows it
as its broker status on the hall board, keeps the offer and publishes it again until the
broker takes it: once the ACL is put right (the broker reloaded), the offer arrives."""

from __future__ import annotations

import json
import logging
import signal
import threading

from hall.listener import Listener as HallListener
from hall.run import Hall
from tests.hall.hall_support import Watch
from tests.mqtt.support import TIMEOUT, Listener
from tests.mqtt.test_offers import readme_acl
from tests.mqtt_support import Mosquitto

USERS = {"table-1": "pw-1", "table-2": "pw-2", "hall": "pw-hall", "homeassistant": "pw-ha"}
HALL_WRITE = "topic write table-companion/_hall/#"
OFFER = "table-companion/_hall/offers/table-1"


def test_an_offer_the_broker_refuses_is_said_once_shown_and_sent_once_allowed(
        tmp_path, caplog, monkeypatch):
    monkeypatch.setattr("hall.listener.REFUSED_RETRY", 0.3)
    sent: list[str] = []
    published = threading.Condition()
    publish = HallListener.publish

    def counted(self: HallListener, topic: str, payload: bytes) -> None:
        publish(self, topic, payload)
        with published:
            sent.append(topic)
            published.notify_all()

    monkeypatch.setattr(HallListener, "publish", counted)
    acl = readme_acl()
    assert HALL_WRITE in acl  # the README's line, which this broker lacks at first
    with Mosquitto(tmp_path / "broker", users=USERS,
                   acl=acl.replace(HALL_WRITE + "\n", "")) as broker, \
            caplog.at_level(logging.INFO, logger="hall.listener"), \
            Hall(broker.url, host="127.0.0.1", port=0, prefix="table-companion",
                 username="hall", password=USERS["hall"], data=tmp_path / "hall",
                 director_pin="1234") as hall, \
            Watch(hall.server.port) as watch, \
            Listener(broker, [OFFER], username="table-1", password=USERS["table-1"]) as table:
        watch.until(lambda w: w.connected, timeout=TIMEOUT)
        event = hall.night.create({"name": "Łukasz's night", "game": "center-court",
                                   "format": "swiss", "rounds": 1,
                                   "players": ["Łukasz", "Σοφία"], "tables": ["table-1"]})
        state = hall.night.start_round(event["id"], {"version": event["version"]})
        offer = state["pairings"][0]["offer"]
        # Shown where the hall says its connection: connected, and what is refused.
        watch.until(lambda w: w.connected and w.broker.startswith("offers refused"),
                    timeout=TIMEOUT)
        assert watch.broker == ("offers refused: not authorized (give user 'hall' "
                                "`topic write table-companion/_hall/#` in the broker's ACL)")
        # Tried again and again while refused (each try is refused too): said once.
        records = lambda: [r.getMessage() for r in caplog.records  # noqa: E731
                           if r.name == "hall.listener" and "refuses" in r.getMessage()]
        # Two tries more after the first refusal, each refused again.
        with published:
            assert published.wait_for(lambda: sent.count(OFFER) >= 4, TIMEOUT)
        assert table.messages == [] or all(not m.payload for m in table.messages)
        (said,) = records()
        assert OFFER in said and "Not authorized" in said
        assert "give user 'hall' `topic write table-companion/_hall/#` in the broker's ACL" \
            in said
        assert hall.listener is not None
        assert hall.listener.refusals.refuses([OFFER])
        # The ACL put right, the broker reloaded: the next try is taken, the offer arrives.
        (broker.folder / "acl").write_text(acl)
        broker.process.send_signal(signal.SIGHUP)
        table.wait_for(lambda: any(m.payload and json.loads(m.payload)["offer"] == offer
                                   for m in table.on(OFFER)), "the offer, once allowed")
        watch.until(lambda w: w.connected and w.broker == "connected", timeout=TIMEOUT)
        assert len(records()) == 1
        assert any("takes the club night's offers" in r.getMessage() for r in caplog.records)
        assert not hall.listener.refusals.refuses([OFFER])



def test_the_greeting_at_connection_holds_none_of_paho_s_locks(tmp_path):
    """The hall's republish at each connection takes the club night's lock, under which a
    director's change publishes; a publish that meets a broken socket calls paho's
    on_disconnect, which waits for the lock paho holds around every callback. Called
    inside paho's on_connect, the two threads waited for each other and a hall hung in
    CI. The greeting now runs with that lock free (paho's ``_in_callback_mutex``: the
    regression is read there, as the race cannot be made to happen on demand)."""
    from drivers.broker import BrokerAddress

    held: list[bool] = []
    greeted = threading.Event()

    def republish(listener: HallListener) -> None:
        held.append(listener._client._in_callback_mutex.locked())
        greeted.set()

    with Mosquitto(tmp_path / "broker") as broker:
        listener = HallListener(BrokerAddress.parse(broker.url), "table-companion",
                                lambda topic, payload: None, on_connected=republish)
        try:
            assert greeted.wait(TIMEOUT)
            assert held == [False]
        finally:
            listener.close()
