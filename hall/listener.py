"""The hall's MQTT client: its own thread, connecting again and again with backoff.

It subscribes to every table's ``summary`` and ``availability``
(:meth:`Topics.every`) and hands each message to the board as it comes: no
polling, the thread sleeps in the socket's select until the broker sends.
It publishes only what the hall hands it (the club night's offers, hall/night.py:
retained, QoS 1, on the hall's own topics), and calls ``on_connected`` at each
connection so that what the hall holds is published again. Why a connection
failed (no broker there, refused credentials, a certificate not trusted) is
said in :attr:`Listener.status` and the log, once per change, and the client
tries again after 1, 2, 4... up to :data:`MAX_DELAY` seconds.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode

from companion.topics import AVAILABILITY, RESULTS, SUMMARY, Topics
from drivers.broker import (
    CREDENTIAL_REFUSALS,
    BrokerAddress,
    describe,
    lost,
    never_stopped,
    refusal,
    release,
    tls_context,
    unanswered,
)
from hall.cards import Complaints

log = logging.getLogger(__name__)

MIN_DELAY, MAX_DELAY = 1.0, 15.0
#: Seconds between MQTT pings while nothing else is said.
KEEPALIVE = 30
#: How long one turn of the network loop may wait for the socket (close() wakes it sooner).
LOOP_WAIT = 1.0
class Listener:
    """Subscribes to every table under ``prefix`` and calls ``on_message(topic, payload)``
    for each message, on its own thread, until :meth:`close`.

    ``on_status(connected, text)`` is called on that thread whenever the
    connection's state changes; :attr:`status` is the newest text
    ("connecting", "connected", "no broker at ... (connection refused); retry
    in 4 s", "refused: bad user or password", "TLS: certificate not trusted").
    """

    def __init__(self, address: BrokerAddress, prefix: str,
                 on_message: Callable[[str, bytes], None],
                 on_status: Callable[[bool, str], None] | None = None, *,
                 username: str | None = None, password: str | None = None,
                 ca_file: Path | None = None,
                 on_connected: Callable[[Listener], None] | None = None) -> None:
        self.address, self.prefix = address, prefix
        self._on_connected = on_connected
        self._on_message, self._on_status = on_message, on_status
        self.status = "connecting"
        self.connected = False
        self._stop = threading.Event()
        self._refused: str | None = None
        self._dropped: mqtt.ReasonCode | None = None  # why paho closed the last connection
        self._complain = Complaints()
        # Its own id: two halls (a TV and a laptop) must not push each other off.
        client = mqtt.Client(CallbackAPIVersion.VERSION2,
                             client_id=f"table-companion-hall-{secrets.token_hex(4)}",
                             reconnect_on_failure=False)
        if username is not None:
            client.username_pw_set(username, password)
        if address.tls:
            client.tls_set_context(tls_context(str(ca_file) if ca_file is not None else None))
        client.on_connect = self._connected
        client.on_disconnect = self._disconnected
        client.on_message = self._message
        never_stopped(client)
        self._client = client
        self._thread = threading.Thread(target=self._run, name="hall-mqtt", daemon=True)
        self._thread.start()

    def _say(self, connected: bool, status: str) -> None:
        if (connected, status) == (self.connected, self.status):
            return
        self.connected, self.status = connected, status
        (log.info if connected else log.warning)("broker %s: %s", self.address, status)
        if self._on_status is not None:
            self._on_status(connected, status)

    def _message(self, client: mqtt.Client, userdata: object,
                 message: mqtt.MQTTMessage) -> None:
        """One message, whatever it holds: nothing a client publishes may end this thread
        (a retained one would end it again at every start)."""
        try:
            topic = message.topic
        except UnicodeDecodeError:  # a broker that let a topic not in UTF-8 through
            self._complain("a topic that is not UTF-8")
            return
        try:
            self._on_message(topic, message.payload)
        except Exception as err:  # said and dropped: the thread goes on
            self._complain("%s on %r: %s", type(err).__name__, topic[:200], err)

    def _disconnected(self, client: mqtt.Client, userdata: object, flags: object,
                      reason: mqtt.ReasonCode, properties: object) -> None:
        self._dropped = reason

    def _connected(self, client: mqtt.Client, userdata: object, flags: object,
                   reason: mqtt.ReasonCode, properties: object) -> None:
        if reason.is_failure:
            self._refused = refusal(reason)
            if reason.getName() in CREDENTIAL_REFUSALS:
                self._refused += " (check --user and COMPANION_MQTT_PASSWORD)"
            client.disconnect()
            return
        client.subscribe([(Topics.every(self.prefix, SUMMARY), 0),
                          (Topics.every(self.prefix, AVAILABILITY), 0),
                          # QoS 1: every finished match reaches the club leaderboard.
                          (Topics.every(self.prefix, RESULTS), 1)])
        if self._on_connected is not None:
            try:
                self._on_connected(self)  # self: called before the constructor returns
            except Exception:  # said; the connection stays
                log.exception("broker %s: publishing at connection failed", self.address)
        # Said once what the hall holds is queued again: a director who sees the hall
        # connected and opens an event is not followed by this connection's republish.
        self._say(True, "connected")

    def _run(self) -> None:
        delay = MIN_DELAY
        while not self._stop.is_set():
            self._refused, self._dropped = None, None
            try:
                self._client.connect(self.address.host, self.address.port, KEEPALIVE)
            except Exception as err:  # OSError, ValueError, or anything: said, tried again
                why = describe(err, self.address, ca_hint="--ca-file")[1]
            else:
                rc = MQTTErrorCode.MQTT_ERR_SUCCESS
                try:
                    while rc == MQTTErrorCode.MQTT_ERR_SUCCESS and not self._stop.is_set():
                        rc = self._client.loop(LOOP_WAIT)
                except Exception:  # the hall keeps trying, whatever it was
                    log.exception("broker %s: the MQTT client failed", self.address)
                if self.connected:
                    delay = MIN_DELAY  # it was up: the next try comes soon
                    why = lost(self._dropped, KEEPALIVE)
                else:
                    why = self._refused or unanswered(self.address, self._dropped,
                                                      KEEPALIVE)[1]
                with contextlib.suppress(OSError):  # already gone
                    self._client.disconnect()
            if self._stop.is_set():
                break
            self._say(False, f"{why}; retry in {delay:g} s")
            self._stop.wait(delay)
            delay = min(delay * 2, MAX_DELAY)
        self.connected, self.status = False, "stopped"
        log.info("broker %s: stopped", self.address)

    def publish(self, topic: str, payload: bytes) -> None:
        """Publish ``payload`` retained with QoS 1 (paho queues it while the connection is
        down; :meth:`__init__`'s ``on_connected`` publishes what is held again anyway)."""
        self._client.publish(topic, payload, qos=1, retain=True)

    def close(self) -> None:
        """Disconnect and end the thread. Idempotent."""
        self._stop.set()
        with contextlib.suppress(OSError):  # already gone
            self._client.disconnect()  # wakes the loop's select
        self._thread.join(10)
        if not self._thread.is_alive():
            release(self._client)
