"""A broker that refuses, fails TLS, is not there or is taken over: a clear status and
log line, retries with backoff, and the table keeps working."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.config import Config
from app.runtime import Companion
from companion.topics import TableInfo
from companion.ui.oled import render
from drivers.mqtt import MqttConfig, TablePublisher
from tests.mqtt.support import START, TIMEOUT, companion, on_broker
from tests.mqtt_support import Mosquitto, free_port
from tests.support import CATALOG


def publisher(url: str, table: str = "a", **keys) -> TablePublisher:
    """A publisher on its own (no table, nothing remembered) for connection errors."""
    return TablePublisher(MqttConfig(url=url, table=table, **keys), TableInfo(table, table),
                          CATALOG, password=None, data=None)


def warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "drivers.mqtt" and r.levelno == logging.WARNING]


def refusals(broker: Mosquitto) -> int:
    """How many connections the broker refused for bad credentials (its own log)."""
    return broker.log.read_text().count("not authorised")


def test_refused_credentials_are_said_once_and_the_table_keeps_working(tmp_path, caplog):
    caplog.set_level(logging.INFO, "drivers.mqtt")
    with Mosquitto(tmp_path / "broker", users={"table-a": "right"}) as broker, \
            companion(on_broker(broker, username="table-a"), tmp_path, password="wrong") as c:
        assert c.publisher.wait_status(lambda s: s.startswith("refused"), TIMEOUT)
        assert c.publisher.status == "refused: not authorized"
        # Still retried (the broker's log counts the tries), but said only once.
        wait = threading.Event()
        deadline = time.monotonic() + TIMEOUT
        while refusals(broker) < 2:
            assert time.monotonic() < deadline, "no retry after a refusal"
            wait.wait(0.05)  # the broker's log file has no change notification
        said = [w for w in warnings(caplog) if "refused" in w]
        assert len(said) == 1, said
        assert "Not authorized" in said[0] and "COMPANION_MQTT_PASSWORD" in said[0]
        assert "retrying in 1 s (then backing off to 15 s)" in said[0]
        # The table does not care.
        c.runner.call(lambda t: t.start(START))
        c.press("prev").result(TIMEOUT)
        assert c.table.snapshot.match["view"]["points"] == ["15", "0"]


def test_the_right_password_connects(tmp_path):
    with Mosquitto(tmp_path / "broker", users={"table-a": "right"}) as broker, \
            companion(on_broker(broker, username="table-a"), tmp_path, password="right") as c:
        assert c.publisher.wait_status(lambda s: s == "connected", TIMEOUT)


@pytest.fixture(scope="module")
def tls_broker(tmp_path_factory):
    with Mosquitto(tmp_path_factory.mktemp("tls"), tls=True) as broker:
        yield broker


def test_a_broker_certificate_not_signed_by_a_trusted_ca(tls_broker, caplog):
    caplog.set_level(logging.INFO, "drivers.mqtt")
    with publisher(tls_broker.url) as p:  # the system's CAs do not know the test's CA
        assert p.wait_status(lambda s: s.startswith("TLS"), TIMEOUT)
        assert p.status == "TLS: certificate not trusted"
    said = warnings(caplog)
    assert "the broker's certificate is not trusted" in said[0] and "[mqtt] ca_file" in said[0]


def test_the_right_ca_file_connects(tls_broker):
    with publisher(tls_broker.url, ca_file=str(tls_broker.ca_file)) as p:
        assert p.wait_status(lambda s: s == "connected", TIMEOUT)


def test_tls_to_a_plain_port(mosquitto, caplog):
    caplog.set_level(logging.INFO, "drivers.mqtt")
    with publisher(f"mqtts://127.0.0.1:{mosquitto.port}") as p:
        assert p.wait_status(lambda s: s != "connecting", TIMEOUT)
        assert p.status == "TLS: handshake failed"
    assert "is it a TLS port?" in warnings(caplog)[0]


def test_plain_mqtt_to_a_tls_port_is_said(tls_broker, caplog):
    """The broker waits for a TLS hello and closes on the clear CONNECT: no CONNACK ever."""
    caplog.set_level(logging.INFO, "drivers.mqtt")
    with publisher(f"mqtt://127.0.0.1:{tls_broker.port}") as p:
        assert p.wait_status(lambda s: s != "connecting", TIMEOUT)
        assert p.status == "no answer: TLS port?"
    assert "is it a TLS port? (then use mqtts://)" in warnings(caplog)[0]


def test_a_broker_that_stops_answering_is_said_as_such(mosquitto, caplog, monkeypatch):
    """A stopped broker (SIGSTOP: its port still takes connections, it answers nothing):
    the keep-alive runs out, on the connection that was up and on each new one. That
    is said, and never taken for a TLS port spoken to in the clear."""
    monkeypatch.setattr("drivers.mqtt.KEEPALIVE", 1)
    caplog.set_level(logging.INFO, "drivers.mqtt")
    with publisher(mosquitto.url) as p:
        assert p.wait_status(lambda s: s == "connected", TIMEOUT)
        os.kill(mosquitto.pid(), signal.SIGSTOP)
        try:
            assert p.wait_status(lambda s: s == "no answer: timed out", TIMEOUT), p.status
        finally:
            os.kill(mosquitto.pid(), signal.SIGCONT)
        assert p.wait_status(lambda s: s == "connected", 20), p.status
    said = warnings(caplog)
    assert "Keep alive timeout: the broker stopped answering" in said[0], said
    assert (f"127.0.0.1:{mosquitto.port} took the connection but did not answer as a broker "
            "within 1 s (keep-alive timeout)") in said[1], said
    assert not any("TLS" in line for line in said), said


class GarbageBroker:
    """A server on a free port that answers each connection's first bytes with ``answer``
    and closes it; :attr:`connections` counts the connections it took."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.answer = b""
        self.connections = 0
        self.changed = threading.Condition()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return  # closed
            with conn, self.changed:
                self.connections += 1
                self.changed.notify_all()
                conn.settimeout(5)
                with contextlib.suppress(OSError):
                    conn.recv(4096)
                    conn.sendall(self.answer)

    def wait_for(self, connections: int) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.connections >= connections, TIMEOUT)


def test_anything_a_broker_sends_leaves_the_table_publishing():
    """Whatever bytes come back on a connection, the publisher's network thread lives on:
    it drops the connection and tries again (the server sees the next one)."""
    garbage = GarbageBroker()

    @settings(max_examples=12, deadline=None)
    @given(st.binary(min_size=1, max_size=64)
           | st.builds(lambda tail: b"\x20" + tail, st.binary(max_size=32)))
    def answer(data):
        garbage.answer = data
        before = garbage.connections
        with publisher(f"mqtt://127.0.0.1:{garbage.port}"):
            assert garbage.wait_for(before + 2), "the publisher did not try again"

    try:
        answer()
    finally:
        garbage.server.close()


def test_a_user_without_a_password_is_warned(mosquitto, caplog):
    caplog.set_level(logging.INFO, "drivers.mqtt")
    with publisher(mosquitto.url, username="table-a"):
        pass
    assert any("COMPANION_MQTT_PASSWORD is not set" in w for w in warnings(caplog))


def test_nothing_on_the_port(caplog):
    caplog.set_level(logging.INFO, "drivers.mqtt")
    port = free_port()
    with publisher(f"mqtt://127.0.0.1:{port}") as p:
        assert p.wait_status(lambda s: s != "connecting", TIMEOUT)
        assert p.status == "unreachable: port closed"
    assert f"nothing listens on 127.0.0.1:{port} (connection refused); retrying in 1 s" \
        in warnings(caplog)[0]


def test_a_name_that_does_not_resolve():
    with publisher("mqtt://no-such-broker.invalid") as p:
        assert p.wait_status(lambda s: s != "connecting", TIMEOUT)
        assert p.status == "broker name not found"


def test_another_companion_with_the_same_table_id(mosquitto, caplog):
    caplog.set_level(logging.INFO, "drivers.mqtt")
    with publisher(mosquitto.url) as first:
        assert first.wait_status(lambda s: s == "connected", TIMEOUT)
        with publisher(mosquitto.url) as second:
            assert second.wait_status(lambda s: s == "connected", TIMEOUT)
            # Mosquitto 2.0.11 sends no "session taken over" (MQTT 5): the old client
            # sees its connection dropped each time, soon after it was made.
            assert first.wait_status(lambda s: s.startswith("taken over"), TIMEOUT)
            assert first.status in ("taken over by another companion",
                                    "taken over by another companion?")
            # It waits long before taking the id back: the newcomer stays connected.
            assert second.wait_status(lambda s: s == "connected", TIMEOUT)
    said = [w for w in warnings(caplog) if "another client" in w]
    assert "is [mqtt] table set to the same id on two companions?; retrying in 60 s" in said[0]


def test_the_info_screen_shows_the_broker(tmp_path, mosquitto):
    with companion(on_broker(mosquitto), tmp_path) as c:
        shown = threading.Condition()
        c.oled.frames.add(lambda image: (shown.acquire(), shown.notify_all(), shown.release()))

        def showing(status: str) -> bool:
            state = c.panel.state
            frame = c.oled.device.image
            return (state.screen.items == (status,) and frame is not None
                    and frame.tobytes() == render(state, c.ctx).tobytes())

        c.press("next").result(TIMEOUT)  # Info (no match on the table)
        with shown:
            assert shown.wait_for(lambda: showing("connected"), TIMEOUT)
        mosquitto.kill()
        with shown:
            assert shown.wait_for(lambda: showing("unreachable: port closed"), TIMEOUT)


def test_no_broker_no_line_on_the_info_screen(tmp_path):
    with Companion(Config(), sim=True, data=tmp_path) as c:
        c.press("next").result(TIMEOUT)
        assert c.publisher is None and c.panel.state.screen.items == ()
