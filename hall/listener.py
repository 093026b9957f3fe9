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

It speaks MQTT v5 so that a publish the broker refuses is heard: Mosquitto
answers a QoS 1 publish its ACL refuses with a PUBACK whose reason code is
"Not authorized" (under 3.1.1 it acks and drops it). Every acknowledgement
of the hall's publishes goes to :attr:`Listener.refusals`
(drivers/refusals.py); a refusal is logged once per episode with the ACL
line the hall's user needs, said in :attr:`Listener.status` while connected,
and the refused message (its topic's newest) is published again every
``retry`` seconds until the broker takes it, or a newer one replaces it.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode

from companion.i18n import C_, _
from companion.topics import AVAILABILITY, RESULTS, SUMMARY, Topics
from drivers.broker import (
    CREDENTIAL_REFUSALS,
    MQTT_PASSWORD_ENV,
    BrokerAddress,
    describe,
    lost,
    never_stopped,
    refusal,
    release,
    tls_context,
    unanswered,
)
from drivers.refusals import Change, HallRefusals, Pending
from hall.cards import CONNECTED, CONNECTING, Complaints

log = logging.getLogger(__name__)

MIN_DELAY, MAX_DELAY = 1.0, 15.0
#: Seconds between MQTT pings while nothing else is said.
KEEPALIVE = 30
#: How long one turn of the network loop may wait for the socket (close() wakes it sooner).
LOOP_WAIT = 1.0
#: Seconds between tries of a publish the broker refused: an ACL put right (and the broker
#: reloaded) is found within this, without a restart of the hall.
REFUSED_RETRY = 30.0


class Listener:
    """Subscribes to every table under ``prefix`` and calls ``on_message(topic, payload)``
    for each message, on its own thread, until :meth:`close`.

    ``on_status(connected, text)`` is called on that thread whenever the
    connection's state changes; :attr:`status` is the newest text
    ("connecting", "connected", "no broker at ... (connection refused); retry
    in 4 s", "refused: bad user or password", "TLS: certificate not trusted"), and
    while connected what the broker refuses the hall's publishes ("offers refused: not
    authorized (give user 'hall' `topic write P/_hall/#` in the broker's ACL)"); ``retry``
    the seconds between tries of a refused publish (default :data:`REFUSED_RETRY`).
    """

    def __init__(self, address: BrokerAddress, prefix: str,
                 on_message: Callable[[str, bytes], None],
                 on_status: Callable[[bool, str], None] | None = None, *,
                 username: str | None = None, password: str | None = None,
                 ca_file: Path | None = None,
                 on_connected: Callable[[Listener], None] | None = None,
                 retry: float | None = None) -> None:
        self.address, self.prefix = address, prefix
        #: What the broker refuses the hall's publishes, by the ACL line that grants them.
        self.refusals = HallRefusals(prefix, username)
        self._retry = REFUSED_RETRY if retry is None else retry
        self._acks = threading.Lock()
        #: Held across each publish and each retry's: a retry never publishes an older
        #: message after a newer one on its topic (the broker would retain the older).
        self._publishing = threading.RLock()
        #: Each QoS 1 publish not yet acknowledged, by message id: its topic and payload
        #: (bounded: a broker that never answers cannot make the hall hold every offer).
        self._unacked: Pending[tuple[str, bytes]] = Pending("offers")
        #: Acknowledgements that came before :meth:`publish` noted their message id.
        self._early: Pending[str | None] = Pending("early acknowledgements")  # i18n: not said
        #: The newest payload of each topic whose latest publish was refused (tried again).
        self._refused_out: dict[str, bytes] = {}
        self._retry_at: float | None = None
        self._on_connected = on_connected
        self._on_message, self._on_status = on_message, on_status
        # The status is the log's words (English), and a message the hall's pages say in
        # their reader's language (hall/cards.py BoardView: one stream for every screen).
        self.status: str = CONNECTING
        self.connected = False
        self._stop = threading.Event()
        self._refused: str | None = None
        self._dropped: mqtt.ReasonCode | None = None  # why paho closed the last connection
        #: A connection accepted whose greeting (on_connected, then the status) is due.
        self._greet = False
        self._complain = Complaints()
        # Its own id: two halls (a TV and a laptop) must not push each other off.
        client = mqtt.Client(CallbackAPIVersion.VERSION2,
                             client_id=f"table-companion-hall-{secrets.token_hex(4)}",
                             reconnect_on_failure=False, protocol=mqtt.MQTTv5)
        if username is not None:
            client.username_pw_set(username, password)
        if address.tls:
            client.tls_set_context(tls_context(str(ca_file) if ca_file is not None else None))
        client.on_connect = self._connected
        client.on_disconnect = self._disconnected
        client.on_message = self._message
        client.on_publish = self._published
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
            self._complain("a topic that is not UTF-8")  # i18n: not said
            return
        try:
            # bytes as paho hands it over (no copy); typed bytes | bytearray.
            self._on_message(topic, bytes(message.payload))
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
                self._refused = _("{refusal} (check --user and {variable})",
                                  refusal=self._refused, variable=MQTT_PASSWORD_ENV)
            client.disconnect()
            return
        client.subscribe([(Topics.every(self.prefix, SUMMARY), 0),
                          (Topics.every(self.prefix, AVAILABILITY), 0),
                          # QoS 1: every finished match reaches the club leaderboard.
                          (Topics.every(self.prefix, RESULTS), 1)])
        # Greeted once paho's loop has returned (_run), not here: paho holds its callback
        # lock while it calls this, and on_connected takes the club night's lock, under
        # which a director's change publishes; a publish that meets a broken socket calls
        # on_disconnect, which wants paho's callback lock. Each thread waited for the
        # other's, and a hall hung in CI.
        self._greet = True

    def _greeted(self) -> None:
        """On this listener's thread, outside paho's callbacks: publish what the hall holds
        again (on_connected), then say the connection is up."""
        if self._on_connected is not None:
            try:
                self._on_connected(self)  # self: called before the constructor returns
            except Exception:  # said; the connection stays
                log.exception("broker %s: publishing at connection failed", self.address)
        # Said once what the hall holds is queued again: a director who sees the hall
        # connected and opens an event is not followed by this connection's republish.
        self._say(True, self._connected_status())

    def _connected_status(self) -> str:
        return self.refusals.status() or CONNECTED

    def _published(self, client: mqtt.Client, userdata: object, mid: int,
                   reason: mqtt.ReasonCode, properties: object) -> None:
        """A QoS 1 publish acknowledged (paho's thread): taken, or refused and why."""
        why = reason.getName() if reason.is_failure else None
        with self._acks:
            sent = self._unacked.pop(mid, None)
            if sent is None:  # acknowledged before publish() noted it
                self._early.put(mid, why)
                return
        self._heard(sent, why)

    def _heard(self, sent: tuple[str, bytes], why: str | None) -> None:
        """One acknowledgement read: kept, the refused message kept to be tried again, and
        an episode that began or ended said and shown."""
        topic, payload = sent
        with self._acks:
            if why is not None:
                self._refused_out[topic] = payload
                if self._retry_at is None:
                    self._retry_at = time.monotonic() + self._retry
            else:
                self._refused_out.pop(topic, None)
        change: Change | None = self.refusals.answer(topic, why)
        if change is None:
            return
        if change.reason is not None:
            log.warning("broker %s: %s", self.address,
                        self.refusals.began(change, self._retry))
        else:
            log.info("broker %s: %s", self.address, self.refusals.ended(change))
        if self.connected:
            self._say(True, self._connected_status())

    def _try_refused(self) -> None:
        """Publish again, once ``retry`` seconds have passed, what the broker refused."""
        with self._publishing:
            with self._acks:
                if self._retry_at is None or time.monotonic() < self._retry_at:
                    return
                again = list(self._refused_out.items())
                self._retry_at = time.monotonic() + self._retry if again else None
            for topic, payload in again:
                self.publish(topic, payload)

    def _run(self) -> None:
        delay = MIN_DELAY
        while not self._stop.is_set():
            self._refused, self._dropped, self._greet = None, None, False
            try:
                self._client.connect(self.address.host, self.address.port, KEEPALIVE)
            except Exception as err:  # OSError, ValueError, or anything: said, tried again
                why = describe(err, self.address, ca_hint="--ca-file")[1]
            else:
                rc = MQTTErrorCode.MQTT_ERR_SUCCESS
                try:
                    while rc == MQTTErrorCode.MQTT_ERR_SUCCESS and not self._stop.is_set():
                        rc = self._client.loop(min(LOOP_WAIT, self._retry))
                        if self._greet:
                            self._greet = False
                            self._greeted()
                        if self.connected:
                            self._try_refused()
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
            self._say(False, _("{why}; retry in {seconds} s", why=why, seconds=f"{delay:g}"))
            self._stop.wait(delay)
            delay = min(delay * 2, MAX_DELAY)
        self.connected, self.status = False, C_("broker", "stopped")
        log.info("broker %s: stopped", self.address)

    def publish(self, topic: str, payload: bytes) -> None:
        """Publish ``payload`` retained with QoS 1 (paho queues it while the connection is
        down; :meth:`__init__`'s ``on_connected`` publishes what is held again anyway).
        Its acknowledgement is read: a refusal keeps it to be published again."""
        with self._publishing:
            with self._acks:
                # A newer message on a refused topic replaces the one to try again.
                if topic in self._refused_out:
                    self._refused_out[topic] = payload
            info = self._client.publish(topic, payload, qos=1, retain=True)
            if info.rc not in (MQTTErrorCode.MQTT_ERR_SUCCESS, MQTTErrorCode.MQTT_ERR_NO_CONN):
                log.warning("broker %s: %s not queued: %s", self.address, topic,
                            mqtt.error_string(info.rc))
                return
            with self._acks:
                if info.mid not in self._early:
                    self._unacked.put(info.mid, (topic, payload))
                    return
                why = self._early.pop(info.mid)
            self._heard((topic, payload), why)

    def close(self) -> None:
        """Disconnect and end the thread. Idempotent."""
        self._stop.set()
        with contextlib.suppress(OSError):  # already gone
            self._client.disconnect()  # wakes the loop's select
        self._thread.join(10)
        if not self._thread.is_alive():
            release(self._client)
