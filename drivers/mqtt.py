"""The table on an MQTT broker: publishing, never in the way, and the hall's offers.

A :class:`TablePublisher` is a subscriber of the table (:meth:`show`): the
writer thread only hands it each new snapshot, under a short lock, and goes
on. Its own thread ("mqtt-publish") turns the newest snapshot into the
retained ``state`` and ``summary`` and each committed change into one
``events`` message (companion/topics.py has the layout and the payloads);
paho-mqtt's network thread talks to the broker, connects, and reconnects
with a backoff of 1 s doubling to 15 s. A dead broker never slows a press.

On every (re)connection, in this order: ``online`` on the availability
topic (whose last will is a retained ``offline``), the newest ``state`` and
``summary`` (retained), Home Assistant's discovery configs (retained, if
on), the topics of a previous identity cleared (see below), then the events
that waited. A restarted broker that lost every retained message
gets them all back this way.

Bounds: while the broker is away the state and summary coalesce to the
newest (one pair in flight at most); events wait in a queue of
:data:`EVENT_QUEUE`, the oldest dropped past it (counted in
:attr:`TablePublisher.dropped` and logged); paho's own queue of QoS 1
messages is capped at :data:`PAHO_QUEUE`. An event in flight when the
connection broke is sent again by paho after the reconnection (QoS 1: at
least once); consumers order events by their ``version``.

Renames: the identity last published (table id, prefix, discovery prefix,
name, discovery on or off) is kept in the data folder (:data:`RECORD`). A
start under another id or prefix clears the old discovery configs and
then the old retained ``state``, ``summary`` and ``availability`` with empty
retained messages (:func:`~companion.topics.retired_topics`), once the
broker has the new ones; a new name is simply published again.

The hall's offers: given an :class:`~companion.offers.Offers`, the publisher
subscribes (QoS 1) to the table's offer topic (``P/_hall/offers/T``) on
every connection and hands each message to it on paho's thread; the broker
sends the retained offer again at each connection, so a lost connection
forgets the offer until then (it may have been withdrawn meanwhile). An
offer is only kept and shown: nothing received changes the table. A broker
that refuses the subscription (no ``topic read`` line for the table in its
ACL) is logged once.

Connection problems (refused credentials, not authorized, TLS verification,
an unreachable host or port, a name that does not resolve, another client
that took this table's id) are logged once per change, with the next retry
delay, and shown as :attr:`TablePublisher.status`, short enough for the
info screen.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from companion.catalog import Catalog
from companion.config import ConfigError, Section
from companion.games.base import JSON
from companion.i18n import ENGLISH, _, message
from companion.offers import Offers
from companion.table import Snapshot
from companion.topics import (
    DEFAULT_PREFIX,
    DISCOVERY_PREFIX,
    OFFLINE,
    ONLINE,
    RESULTS,
    TableInfo,
    Topics,
    discovery,
    event_payload,
    prefix_problem,
    results_payload,
    retired_topics,
    summary_payload,
    valid_table_id,
)
from drivers.broker import (
    CREDENTIAL_REFUSALS,
    MAX_RETRY,
    MIN_RETRY,
    BrokerAddress,
    ca_file_problem,
    describe,
    never_stopped,
    no_delay,
    refusal,
    stop_client,
    timed_out,
    tls_context,
    unanswered,
)
from drivers.refusals import Change, Pending, Refusals

if TYPE_CHECKING:  # loaded by the publisher only: a table without MQTT never loads paho (~3 MB)
    import paho.mqtt.client as mqtt
    from paho.mqtt.reasoncodes import ReasonCode

log = logging.getLogger(__name__)

#: Events waiting for the broker at most; older ones are dropped past it.
EVENT_QUEUE = 1000
#: QoS 1 messages paho holds (in flight, or kept across a reconnection) at most.
PAHO_QUEUE = 100
#: The wait between tries while another client seems to hold this table's id.
TAKEN_OVER_RETRY = 60
#: Seconds between keep-alive pings: a broker that vanished is noticed within 1.5x this.
KEEPALIVE = 30
#: How long close() waits for ``offline`` to reach the broker.
CLOSE_WAIT = 3.0
#: How long the publisher waits for the broker to confirm the clearing of old topics.
ACK_WAIT = 5.0
#: The file in the data folder that remembers the identity last published.
RECORD = "mqtt_published.json"
#: Seconds between tries of what the broker refused that it keeps (the retained topics, a
#: rename's clearing): an ACL put right is found within this, without a restart.
REFUSED_RETRY = 60.0
SESSION_TAKEN_OVER = 142
#: A connection the broker drops this soon, twice in a row, was probably taken over.
BRIEF = 10.0


# --- the [mqtt] section of the config file ----------------------------------------

#: Longest display name of a table (the hall's card and Home Assistant show it).
MAX_TABLE_NAME = 64


@dataclass(frozen=True)
class MqttConfig:
    """An optional MQTT broker the table publishes itself to (none by default).

    The password is never here: it comes from ``COMPANION_MQTT_PASSWORD``.
    """

    url: str | None = None
    ca_file: str | None = None
    username: str | None = None
    table: str | None = None
    name: str | None = None
    prefix: str = DEFAULT_PREFIX
    discovery: bool = True
    discovery_prefix: str = DISCOVERY_PREFIX
    page: str | None = None

    @property
    def tls(self) -> bool:
        """Whether the broker is spoken to over TLS (``mqtts://``)."""
        return self.url is not None and self.url.startswith("mqtts://")

    @property
    def address(self) -> BrokerAddress:
        """The broker's host, port and TLS (the url must be set and checked)."""
        return BrokerAddress.parse(self.url or "")

    @property
    def display_name(self) -> str:
        """The table's name in the room: ``name``, else the table id."""
        return self.name or self.table or ""


def _check_mqtt(m: MqttConfig) -> None:
    """The broker's address, the table's identity and the topic prefixes."""
    if m.url is None:
        for key in ("ca_file", "username", "table", "name", "page"):
            if getattr(m, key) is not None:
                where = f"[mqtt] {key}"
                raise ConfigError(_("{key}: set url too (or leave [mqtt] out: no broker)",
                                    key=where))
        return
    try:
        BrokerAddress.parse(m.url)
    except ConfigError as err:
        raise ConfigError(_("{key}: {problem}", key="[mqtt] url",
                            problem=message(err))) from None
    if m.ca_file is not None:
        if not m.tls:
            raise ConfigError(_("{key}: only with an mqtts:// url (TLS)",
                                key="[mqtt] ca_file"))
        if (problem := ca_file_problem(Path(m.ca_file).expanduser())) is not None:
            raise ConfigError(_("{key}: {problem}", key="[mqtt] ca_file", problem=problem))
    if m.username is not None and (not m.username or not m.username.isprintable()):
        raise ConfigError(_("{key}: must be printable text, not empty",
                            key="[mqtt] username"))
    if m.table is None:
        raise ConfigError(_("{key}: required with url: the table's id, e.g. {example}",
                            key="[mqtt] table", example='table = "table-3"'))
    if not valid_table_id(m.table):
        raise ConfigError(_("{key}: {value} is not a table id: 1-32 of a-z, 0-9, - and _, "
                            "a letter or digit at each end", key="[mqtt] table",
                            value=repr(m.table)))
    if m.name is not None and (not m.name.strip() or len(m.name) > MAX_TABLE_NAME
                               or not m.name.isprintable()):
        raise ConfigError(_("{key}: {value} is not a name of 1-{most} printable "
                            "characters", key="[mqtt] name", value=repr(m.name),
                            most=MAX_TABLE_NAME))
    for key in ("prefix", "discovery_prefix"):
        if (problem := prefix_problem(getattr(m, key))) is not None:
            raise ConfigError(_("{key}: {value} {problem}", key=f"[mqtt] {key}",
                                value=repr(getattr(m, key)), problem=problem))
    if m.page is not None:
        page = urlsplit(m.page) if m.page.isprintable() else None
        if page is None or page.scheme not in ("http", "https") or not page.hostname:
            raise ConfigError(_("{key}: {value} is not an http:// or https:// address",
                                key="[mqtt] page", value=repr(m.page)))


MQTT = Section("mqtt", MqttConfig, check=_check_mqtt)


@dataclass(frozen=True)
class _Event:
    """A committed change waiting for the broker: only what its ``events`` message
    needs, so a thousand waiting do not hold a thousand copies of the match."""

    state: JSON  # {"version", "epoch", "match": {"game"} | None}
    change: JSON
    at: float  # when it was committed, not when the broker got it

    @classmethod
    def of(cls, snapshot: Snapshot) -> _Event:
        match = snapshot.match
        return cls({"version": snapshot.version, "epoch": snapshot.epoch,
                    "match": {"game": match["game"]} if match else None},
                   snapshot.change or {}, time.time())


class TablePublisher:
    """Publishes one table to the broker in ``cfg``; see the module docstring.

    ``catalog`` holds the table's games (the summary is their card).
    ``password`` is the broker password (from ``COMPANION_MQTT_PASSWORD``,
    sent with ``cfg.username``); ``data`` the folder that remembers the
    identity last published (None: nothing remembered, nothing cleared).
    ``on_status(text)`` is called on paho's thread whenever :attr:`status`
    changes; it must only hand the text on. ``offers`` (None: none read) is
    given every message of the table's offer topic. ``language()`` (None: English)
    is the table's language when its Home Assistant sensors are published (at each
    connection): their names are what a club reads in Home Assistant. Call
    :meth:`close` (idempotent) to publish ``offline`` and disconnect.
    """

    def __init__(self, cfg: MqttConfig, info: TableInfo, catalog: Catalog, *,
                 password: str | None, data: Path | None,
                 on_status: Callable[[str], None] | None = None,
                 offers: Offers | None = None,
                 language: Callable[[], str] | None = None) -> None:
        if cfg.url is None:
            raise ValueError("no broker URL in the [mqtt] config")
        self.cfg, self.info = cfg, info
        #: The table's games, whose cards the summary shows.
        self.catalog = catalog
        self.topics = Topics(cfg.prefix, info.id)
        self.url = cfg.url
        #: Short text for the info screen: "connecting", "connected", or what is wrong.
        self.status: str = _("connecting")
        #: Events dropped because the queue was full while the broker was away.
        self.dropped = 0
        #: Events handed to the broker (QoS 1).
        self.sent = 0
        self._on_status = on_status
        self._offers = offers
        self._language = language or (lambda: ENGLISH)
        #: What the broker refuses this table, by the ACL line that would grant it.
        self.refusals = Refusals(self.topics, cfg.discovery_prefix if cfg.discovery else None,
                                 cfg.username)
        self._cond = threading.Condition()
        #: The reason code of each refused acknowledgement, by message id (paho's thread
        #: writes it before it marks the message published).
        self._refused_mids: Pending[str] = Pending("refusals")
        #: QoS 1 messages handed to paho whose acknowledgement is still to be read, with
        #: their topics (the publisher thread's own).
        self._watched: list[tuple[mqtt.MQTTMessageInfo, str]] = []
        self._acks = False  # an acknowledgement came since they were last read
        self._retry_at: float | None = None  # when what was refused is tried again
        self._newest: Snapshot | None = None
        self._events: deque[_Event] = deque()
        self._connected = False
        self._connection = 0  # counts successful connections
        self._greeted = 0  # the connection whose connect-time messages are out
        self._sent_state: Snapshot | None = None
        #: The results (Snapshot.results) last handed to paho on this connection.
        self._sent_results: tuple[Any, ...] | None = None
        self._pending_state: mqtt.MQTTMessageInfo | None = None
        self._paho_full = False
        self._dropped_logged = 0
        self._closing = False
        self._wait: int | None = None  # paho's current backoff, mirrored for the log
        self._min_wait = MIN_RETRY
        self._connected_at = 0.0
        self._brief = 0  # connections in a row the broker dropped soon after they were made
        self._answered = False  # the broker answered the connection attempt under way
        self._record = data / RECORD if data is not None else None
        #: Identities published before (RECORD), whose retained topics may need clearing.
        self._known = self._read_record()
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"table-companion-{info.id}",
                             protocol=mqtt.MQTTv5)
        if cfg.username is not None:
            client.username_pw_set(cfg.username, password)
        elif password:
            log.warning("COMPANION_MQTT_PASSWORD is set but [mqtt] username is not: "
                        "connecting without credentials")
        if cfg.username is not None and not password:
            log.warning("MQTT: [mqtt] username is %r but COMPANION_MQTT_PASSWORD is not set: "
                        "connecting without a password", cfg.username)
        if cfg.tls:
            client.tls_set_context(tls_context(cfg.ca_file))
        client.will_set(self.topics.availability, OFFLINE, qos=1, retain=True)
        client.reconnect_delay_set(MIN_RETRY, MAX_RETRY)
        client.max_queued_messages_set(PAHO_QUEUE)
        client.on_connect = self._connected_cb
        client.on_connect_fail = self._connect_failed_cb
        client.on_disconnect = self._disconnected_cb
        client.on_publish = self._published_cb
        if offers is not None:
            client.message_callback_add(self.topics.offer, self._offer_cb)
            client.on_subscribe = self._subscribed_cb
        client.on_socket_open = no_delay
        never_stopped(client)
        self._client = client
        self._thread = threading.Thread(target=self._run, name="mqtt-publish", daemon=True)
        self._thread.start()
        address = cfg.address
        client.connect_async(address.host, address.port, keepalive=KEEPALIVE)
        client.loop_start()

    # --- the table's side: enqueue only ----------------------------------------------

    def show(self, snapshot: Snapshot) -> None:
        """Queue ``snapshot`` (and its change, if any, as an event). Never blocks or raises."""
        try:
            with self._cond:
                if self._closing:
                    return
                self._newest = snapshot
                if snapshot.change is not None:
                    if len(self._events) >= EVENT_QUEUE:
                        self._events.popleft()
                        self.dropped += 1
                    self._events.append(_Event.of(snapshot))
                self._cond.notify_all()
        except Exception:  # a broken output never stops the table
            log.exception("the MQTT publisher could not queue a change")

    def wait_status(self, check: Callable[[str], bool], timeout: float) -> bool:
        """Wait until ``check(status)`` holds; whether it did within ``timeout`` seconds."""
        with self._cond:
            return self._cond.wait_for(lambda: check(self.status), timeout)

    @property
    def queued(self) -> int:
        """Events waiting for the broker."""
        with self._cond:
            return len(self._events)

    # --- the publisher thread ----------------------------------------------------------

    def _due(self) -> bool:
        """Whether there is something to publish now, or acknowledgements to read (under
        the lock)."""
        if self._acks:
            return True
        if not self._connected:
            return False
        if self._greeted != self._connection or self._retry_due():
            return True
        newest_due = self._newest is not None and self._newest is not self._sent_state
        state_free = self._pending_state is None or _settled(self._pending_state)
        return (newest_due and state_free) or (bool(self._events) and not self._paho_full)

    def _retry_due(self) -> bool:
        return self._retry_at is not None and time.monotonic() >= self._retry_at

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._closing and not self._due():
                    # A retry waits for its time; while disconnected, for the connection.
                    wait = None if self._retry_at is None or not self._connected else max(
                        0.0, self._retry_at - time.monotonic())
                    self._cond.wait(wait)
                # Closing: what the table did last goes out before `offline` (a
                # connection made too late to be greeted is greeted now: else the broker
                # would keep no state of a table stopped just after it connected).
                final = self._closing
                if final and not self._connected:
                    break
                self._acks = False
                connection = self._connection
                # A retry of what was refused is a greeting again: everything retained,
                # and the clearing of an old id.
                greet = self._connected and (self._greeted != connection or self._retry_due())
                self._greeted = connection
                if greet:
                    self._retry_at = None
                    self._sent_state, self._pending_state, self._paho_full = None, None, False
                    self._sent_results = None
            try:
                self._read_acks()
                if greet:
                    self._greet()
                else:
                    self._publish_newest()
                    self._publish_events()
            except Exception:
                log.exception("publishing to the MQTT broker failed")
            if final:
                break

    def _greet(self) -> None:
        """What a fresh connection gets: online, state, discovery, clearing, then events.

        The old identity's topics are cleared last, configs first: Home
        Assistant has the new sensors reading a summary before the old ones go,
        and removes the old ones before their summary is emptied (a sensor that
        read an empty summary would log a template error).
        """
        stale = self._stale_topics()  # the record holds this identity before it is published
        if self._offers is not None and self.refusals.refuses([self.topics.offer]):
            self._client.subscribe(self.topics.offer, qos=1)  # refused before: asked again
        online = self._publish(self.topics.availability, ONLINE, qos=1, retain=True)
        self._publish_newest()
        configs = []
        if self.cfg.discovery:
            configs = [(topic, self._publish(topic, payload, qos=1, retain=True))
                       for topic, payload in discovery(self.info, self.topics,
                                                       self.cfg.discovery_prefix,
                                                       self._language())]
        with self._cond:
            lost, self._dropped_logged = self.dropped - self._dropped_logged, self.dropped
        if lost:
            log.warning("MQTT: %d events were dropped while the broker was away (at most "
                        "%d wait); the retained state is complete", lost, EVENT_QUEUE)
        self._publish_events()
        # The old identity is cleared only once the broker took the new one: a table whose
        # new topics are refused keeps its old card rather than none.
        new = [(self.topics.availability, online), *configs]
        if not self._acked([info for _, info in new]) \
                or self.refusals.refuses([topic for topic, _ in new]):
            return
        clears = [self._publish(topic, b"", qos=1, retain=True) for topic in stale]
        # Counted done only when every clearing was taken; else kept in the record, and
        # tried again (REFUSED_RETRY, each connection, each start).
        if self._acked(clears) and not self.refusals.refuses(stale):
            self._cleared()

    def _publish(self, topic: str, payload: str | bytes, *, qos: int,
                 retain: bool = False) -> mqtt.MQTTMessageInfo:
        """paho's publish; a QoS 1 message's acknowledgement is read later (_read_acks)."""
        from paho.mqtt.enums import MQTTErrorCode  # loaded with the client already

        info = self._client.publish(topic, payload, qos=qos, retain=retain)
        if qos and info.rc != MQTTErrorCode.MQTT_ERR_QUEUE_SIZE:
            self._watched.append((info, topic))
        return info

    def _read_acks(self) -> None:
        """Read the acknowledgements that came: each refusal or acceptance goes to
        :attr:`refusals`, and an episode that begins or ends is said (publisher thread)."""
        waiting = []
        for info, topic in self._watched:
            try:
                done = info.is_published()
            except (ValueError, RuntimeError):  # never sent: nothing to read
                continue
            if not done:
                waiting.append((info, topic))
                continue
            with self._cond:
                reason = self._refused_mids.pop(info.mid, None)
            self._heard(self.refusals.answer(topic, reason))
        self._watched = waiting

    def _heard(self, change: Change | None) -> None:
        """Say a refusal's episode that began or ended; show it, and publish it in the
        summary (the hall's card says it); try again later what the broker keeps."""
        if change is not None:
            if change.reason is not None:
                log.warning("MQTT: %s", self.refusals.began(change, self.info.id,
                                                             REFUSED_RETRY))
            else:
                log.info("MQTT: %s", self.refusals.ended(change))
        with self._cond:
            if change is not None:
                self._sent_state = None  # the summary again, with what is refused now
                self._cond.notify_all()
            if not self.refusals.retained:
                self._retry_at = None
            elif self._retry_at is None:
                self._retry_at = time.monotonic() + REFUSED_RETRY
            connected = self._connected
        if change is not None and connected:
            self._set_status(self._connected_status(), None, logging.INFO)

    def _connected_status(self) -> str:
        """The status while connected: what the broker refuses, if anything."""
        return self.refusals.status() or _("connected")

    def _publish_newest(self) -> None:
        with self._cond:
            snapshot = self._newest
            if snapshot is None or snapshot is self._sent_state:
                return
            self._sent_state = snapshot
        # QoS 0: a retained state lost with a broken connection is published again
        # on the next one, and paho never sends an old one after a newer (QoS 1
        # messages in flight are sent again after a reconnection).
        self._client.publish(self.topics.state, snapshot.json_text, qos=0, retain=True)
        info = self._client.publish(self.topics.summary,
                                    summary_payload(snapshot.to_json(), self.info,
                                                    self.catalog, self.refusals.to_json()),
                                    qos=0, retain=True)
        if snapshot.results is not self._sent_results:
            # QoS 1: the hall's leaderboard must get every finished match (it counts each
            # once, however often it comes).
            self._sent_results = snapshot.results
            self._publish(self.topics.leaf(RESULTS),
                          results_payload(self.info.id, snapshot.epoch,
                                          list(snapshot.results), snapshot.rulings),
                          qos=1, retain=True)
        with self._cond:
            self._pending_state = info

    def _publish_events(self) -> None:
        from paho.mqtt.enums import MQTTErrorCode  # loaded with the client already

        while True:
            with self._cond:
                if not self._events or not self._connected:
                    return
                event = self._events.popleft()
            payload = event_payload(event.state, event.change, event.at)
            info = self._publish(self.topics.events, payload, qos=1)
            if info.rc == MQTTErrorCode.MQTT_ERR_QUEUE_SIZE:
                with self._cond:  # paho is full: wait for an acknowledgement
                    self._events.appendleft(event)
                    self._paho_full = True
                return
            # Sent, or (NO_CONN: the connection broke meanwhile) kept by paho for the next.
            self.sent += 1

    def _acked(self, infos: list[mqtt.MQTTMessageInfo]) -> bool:
        """Whether the broker acknowledged every message in ``infos`` within ACK_WAIT
        (False at once when the connection broke); the acknowledgements are then read
        (:attr:`refusals` knows which refused)."""
        deadline = time.monotonic() + ACK_WAIT
        for info in infos:
            while not _published(info):
                with self._cond:
                    # Closing too waits (ACK_WAIT at most): then the record is right.
                    if not self._connected or time.monotonic() > deadline:
                        return False
                    # on_publish notifies: no polling of the network.
                    self._cond.wait(0.5)
        self._read_acks()
        return True

    # --- renames ---------------------------------------------------------------------

    def _identity(self) -> dict[str, Any]:
        cfg = self.cfg
        return {"table": self.info.id, "prefix": cfg.prefix, "name": self.info.name,
                "discovery": cfg.discovery, "discovery_prefix": cfg.discovery_prefix}

    def _stale_topics(self) -> list[str]:
        """Retained topics of identities published before that this one does not cover.

        The record is written first (this identity added), so a stop before the
        broker confirmed the clearing leaves them to clear at the next start.
        """
        if self._record is None:
            return []
        current = self._identity()
        self._write_record([*self._known, current])
        # Every retained topic this identity publishes (its results too: cleared, the
        # finished matches would never reach a hall that subscribes after this).
        ours = set(retired_topics(self.topics, self.cfg.discovery_prefix
                                  if self.cfg.discovery else None))
        stale: list[str] = []
        for old in self._known:
            stale += retired_topics(Topics(old["prefix"], old["table"]),
                                    old["discovery_prefix"] if old["discovery"] else None)
        # Every identity's configs before any identity's summary.
        stale.sort(key=lambda topic: not topic.endswith("/config"))
        return [t for t in dict.fromkeys(stale) if t not in ours]

    def _cleared(self) -> None:
        """The broker confirmed the clearing: only this identity is left to remember."""
        if self._record is None:
            return
        cleared = [(old["table"], old["prefix"]) for old in self._known
                   if (old["table"], old["prefix"]) != (self.info.id, self.cfg.prefix)]
        self._known = [self._identity()]
        self._write_record(self._known)
        if cleared:
            log.info("MQTT: cleared the retained topics of %s",
                     ", ".join(f"table {t!r} under {p!r}" for t, p in cleared))

    def _read_record(self) -> list[dict[str, Any]]:
        """The identities that may still have retained topics on the broker."""
        if self._record is None:
            return []
        try:
            known = json.loads(self._record.read_text(encoding="utf-8"))
            for old in known:
                if not all(isinstance(old[k], str) for k in ("table", "prefix",
                                                              "discovery_prefix")):
                    raise ValueError("not text")
                # Only topics a config could have named are ever cleared.
                if (not valid_table_id(old["table"]) or prefix_problem(old["prefix"])
                        or prefix_problem(old["discovery_prefix"])):
                    raise ValueError(f"not a table id and prefixes: {old}")
                old["discovery"] = bool(old["discovery"])
            return list(known)
        except FileNotFoundError:
            return []
        except (OSError, ValueError, KeyError, TypeError) as err:
            log.warning("MQTT: %s is unreadable (%s): topics of an earlier table id are not "
                        "cleared", self._record, err)
            return []

    def _write_record(self, known: list[dict[str, Any]]) -> None:
        assert self._record is not None
        unique = list({json.dumps(k, sort_keys=True): k for k in known}.values())
        tmp = self._record.with_suffix(".tmp")
        try:
            tmp.write_text(json.dumps(unique), encoding="utf-8")
            os.replace(tmp, self._record)
        except OSError as err:
            log.warning("MQTT: cannot write %s: %s", self._record, err)

    # --- paho's callbacks (its network thread) -----------------------------------------

    def _connected_cb(self, client: mqtt.Client, userdata: Any, flags: Any,
                      reason: ReasonCode, properties: Any) -> None:
        self._answered = True
        if reason.is_failure:
            name = reason.getName()
            hint = ""
            if name in CREDENTIAL_REFUSALS:
                hint = (" (check [mqtt] username and COMPANION_MQTT_PASSWORD)"
                        if self.cfg.username else " (the broker wants a user: set [mqtt] "
                        "username, and COMPANION_MQTT_PASSWORD)")
            self._problem(refusal(reason),
                          f"the broker refused the connection: {name}{hint}")
            return
        if self._min_wait != MIN_RETRY:
            self._min_wait = MIN_RETRY
            client.reconnect_delay_set(MIN_RETRY, MAX_RETRY)
        if self._offers is not None:
            # On every connection (again into a session the broker kept: harmless): the
            # broker sends the retained offer, if any, right after.
            client.subscribe(self.topics.offer, qos=1)
        with self._cond:
            self._connected = True
            self._connected_at = time.monotonic()
            self._connection += 1
            self._wait = None
            self._cond.notify_all()
        self._set_status(self._connected_status(),
                         f"connected to {self.url} as table {self.info.id!r}", logging.INFO)

    def _connect_failed_cb(self, client: mqtt.Client, userdata: Any) -> None:
        # paho calls this inside its ``except OSError``: the error is the one handled.
        err = sys.exc_info()[1]
        short, detail = describe(err, self.cfg.address)
        self._problem(short, detail)

    def _disconnected_cb(self, client: mqtt.Client, userdata: Any, flags: Any,
                         reason: ReasonCode, properties: Any) -> None:
        with self._cond:
            was, self._connected = self._connected, False
            closing = self._closing
            self._cond.notify_all()
        answered, self._answered = self._answered, False
        if self._offers is not None:
            self._offers.forget()  # said again by the broker at the next connection
        if closing:
            return
        brief = was and time.monotonic() - self._connected_at < BRIEF
        self._brief = self._brief + 1 if brief else 0
        if reason == SESSION_TAKEN_OVER or self._brief >= 2:
            # Another client connected with this table's id (MQTT 5 says so; an older
            # broker only drops one connection after the other, each soon after it
            # was made): do not fight it every second.
            self._min_wait = TAKEN_OVER_RETRY
            client.reconnect_delay_set(TAKEN_OVER_RETRY, TAKEN_OVER_RETRY)
            self._wait = None
            sure = reason == SESSION_TAKEN_OVER
            how = ("" if sure else f"the broker dropped the connection {self._brief} times "
                   f"within {BRIEF:g} s of connecting: probably ")
            self._problem(_("taken over by another companion") if sure
                          else _("taken over by another companion?"),
                          f"{how}another client connected as table {self.info.id!r} "
                          f"(client id table-companion-{self.info.id}); is [mqtt] table "
                          "set to the same id on two companions?")
        elif was:
            self._problem(_("connection lost"), f"lost the connection to {self.url} ({reason}"
                          + (": the broker stopped answering)" if timed_out(reason) else ")"))
        elif not answered:  # a refusal was said when it came
            self._problem(*unanswered(self.cfg.address, reason, KEEPALIVE))

    def _offer_cb(self, client: mqtt.Client, userdata: Any,
                  message: mqtt.MQTTMessage) -> None:
        assert self._offers is not None
        self._offers.receive(bytes(message.payload))

    def _subscribed_cb(self, client: mqtt.Client, userdata: Any, mid: int,
                       reasons: list[ReasonCode], properties: Any) -> None:
        refused = [r for r in reasons if r.is_failure]
        self._heard(self.refusals.answer(self.topics.offer,
                                         refused[0].getName() if refused else None))

    def _published_cb(self, client: mqtt.Client, userdata: Any, mid: int,
                      reason: ReasonCode, properties: Any) -> None:
        # Called before paho marks the message published: its reason is here by the time
        # the publisher thread sees it published.
        with self._cond:
            if reason.is_failure:
                self._refused_mids.put(mid, reason.getName())
            self._paho_full = False
            self._acks = True
            self._cond.notify_all()

    def _problem(self, short: str, detail: str) -> None:
        """A failed or lost connection: paho waits before the next try (mirrored here)."""
        longest = max(MAX_RETRY, self._min_wait)
        self._wait = self._min_wait if self._wait is None else min(self._wait * 2, longest)
        self._set_status(short, f"{detail}; retrying in {self._wait} s (then backing off "
                                f"to {longest} s)", logging.WARNING)

    def _set_status(self, status: str, detail: str | None, level: int) -> None:
        """Log (``detail``, unless None: said already) and report a change of status; the
        same status again is not repeated."""
        with self._cond:
            if status == self.status:
                return
            self.status = status
            self._cond.notify_all()
        if detail is not None:
            log.log(level, "MQTT: %s", detail)
        if self._on_status is not None:
            try:
                self._on_status(status)
            except Exception:
                log.exception("the MQTT status could not be shown")

    # --- the end -------------------------------------------------------------------------

    def close(self) -> None:
        """Publish ``offline`` (if connected), disconnect and stop both threads. Idempotent."""
        with self._cond:
            if self._closing:
                return
            self._closing = True
            connected = self._connected
            self._cond.notify_all()
        self._thread.join(ACK_WAIT + CLOSE_WAIT)
        client = self._client
        if connected:
            info = client.publish(self.topics.availability, OFFLINE, qos=1, retain=True)
            with contextlib.suppress(ValueError, RuntimeError):
                info.wait_for_publish(CLOSE_WAIT)
        stop_client(client)

    def __enter__(self) -> TablePublisher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _published(info: mqtt.MQTTMessageInfo) -> bool:
    """Whether paho has sent ``info``'s message (QoS 1: the broker acknowledged it)."""
    try:
        return info.is_published()
    except (ValueError, RuntimeError):  # not queued, or the connection was gone
        return False


def _settled(info: mqtt.MQTTMessageInfo) -> bool:
    """Whether ``info``'s message is no longer waiting to be sent (sent, or given up)."""
    try:
        return info.is_published()
    except (ValueError, RuntimeError):
        return True
