"""The hall's MQTT client: its own thread, connecting again and again with backoff.

It subscribes to every table's ``summary`` and ``availability``
(:meth:`Topics.every`) and hands each message to the board as it comes: no
polling, the thread sleeps in the socket's select until the broker sends.
It publishes nothing. Why a connection failed (no broker there, refused
credentials, a certificate not trusted) is said in :attr:`Listener.status`
and the log, once per change, and the client tries again after 1, 2, 4...
up to :data:`MAX_DELAY` seconds.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import socket
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode

from companion.errors import CompanionError
from companion.topics import AVAILABILITY, SUMMARY, Topics

log = logging.getLogger(__name__)

MIN_DELAY, MAX_DELAY = 1.0, 30.0
#: Seconds between MQTT pings while nothing else is said.
KEEPALIVE = 30
#: How long one turn of the network loop may wait for the socket (close() wakes it sooner).
LOOP_WAIT = 1.0
DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}
#: The refusals that mean the credentials: "Bad user name or password" and "Not
#: authorized" (paho gives MQTT 3.1.1's CONNACK codes 4 and 5 as these MQTT 5 codes).
BAD_CREDENTIALS = (0x86, 0x87)


class BrokerUrlError(CompanionError):
    """A broker address that cannot be used; the text says why and what is expected."""


@dataclass(frozen=True)
class BrokerAddress:
    """Where the broker is: ``mqtt://host[:port]`` or ``mqtts://host[:port]`` (TLS)."""

    host: str
    port: int
    tls: bool

    @classmethod
    def parse(cls, url: str) -> BrokerAddress:
        """The address in ``url``; BrokerUrlError naming what is wrong."""
        expected = "expected mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"
        try:
            parts = urlsplit(url.strip())
            port = parts.port
        except ValueError as err:
            raise BrokerUrlError(f"broker URL {url!r}: {err}; {expected}") from None
        scheme = parts.scheme.lower()
        if scheme not in DEFAULT_PORTS:
            raise BrokerUrlError(f"broker URL {url!r}: the scheme must be mqtt or mqtts; "
                                 f"{expected}")
        if not parts.hostname:
            raise BrokerUrlError(f"broker URL {url!r} names no host; {expected}")
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise BrokerUrlError(f"broker URL {url!r}: a broker address has no path; "
                                 f"{expected}")
        if port == 0:
            raise BrokerUrlError(f"broker URL {url!r}: port 0 is no broker's; {expected}")
        return cls(parts.hostname, port or DEFAULT_PORTS[scheme], scheme == "mqtts")

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'mqtts' if self.tls else 'mqtt'}://{host}:{self.port}"


def why_not(err: Exception, address: BrokerAddress) -> str:
    """A connection error as the short status a person can act on."""
    if isinstance(err, ssl.SSLCertVerificationError):
        return f"TLS: certificate not trusted ({err.verify_message}); see --ca-file"
    if isinstance(err, ssl.SSLError):
        return f"TLS failed ({err.reason or err}); is the broker serving mqtts on this port?"
    if isinstance(err, socket.gaierror):
        return f"cannot find the broker's host {address.host!r}"
    if isinstance(err, ConnectionRefusedError):
        return f"no broker at {address.host}:{address.port} (connection refused)"
    if isinstance(err, TimeoutError):
        return f"no answer from {address.host}:{address.port}"
    if isinstance(err, OSError):
        return f"cannot reach {address.host}:{address.port}: {err.strerror or err}"
    return f"cannot connect: {err}"


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
                 ca_file: Path | None = None) -> None:
        self.address, self.prefix = address, prefix
        self._on_message, self._on_status = on_message, on_status
        self.status = "connecting"
        self.connected = False
        self._stop = threading.Event()
        self._refused: str | None = None
        # Its own id: two halls (a TV and a laptop) must not push each other off.
        client = mqtt.Client(CallbackAPIVersion.VERSION2,
                             client_id=f"table-companion-hall-{secrets.token_hex(4)}",
                             reconnect_on_failure=False)
        if username is not None:
            client.username_pw_set(username, password)
        if address.tls:
            # None: the system's CAs. The broker's name is checked against its certificate.
            client.tls_set(ca_certs=str(ca_file) if ca_file is not None else None)
        client.on_connect = self._connected
        client.on_message = lambda _c, _u, message: self._on_message(message.topic,
                                                                     message.payload)
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

    def _connected(self, client: mqtt.Client, userdata: object, flags: object,
                   reason: mqtt.ReasonCode, properties: object) -> None:
        if reason.is_failure:
            self._refused = (f"refused: bad user or password ({reason})"
                             if reason.value in BAD_CREDENTIALS else f"refused: {reason}")
            client.disconnect()
            return
        client.subscribe([(Topics.every(self.prefix, SUMMARY), 0),
                          (Topics.every(self.prefix, AVAILABILITY), 0)])
        self._say(True, "connected")

    def _run(self) -> None:
        delay = MIN_DELAY
        while not self._stop.is_set():
            self._refused = None
            try:
                self._client.connect(self.address.host, self.address.port, KEEPALIVE)
            except (OSError, ValueError) as err:
                why = why_not(err, self.address)
            else:
                rc = MQTTErrorCode.MQTT_ERR_SUCCESS
                while rc == MQTTErrorCode.MQTT_ERR_SUCCESS and not self._stop.is_set():
                    rc = self._client.loop(LOOP_WAIT)
                if self.connected:
                    delay = MIN_DELAY  # it was up: the next try comes soon
                why = self._refused or "connection lost"
                with contextlib.suppress(OSError):  # already gone
                    self._client.disconnect()
            if self._stop.is_set():
                break
            self._say(False, f"{why}; retry in {delay:g} s")
            self._stop.wait(delay)
            delay = min(delay * 2, MAX_DELAY)
        self.connected, self.status = False, "stopped"
        log.info("broker %s: stopped", self.address)

    def close(self) -> None:
        """Disconnect and end the thread. Idempotent."""
        self._stop.set()
        with contextlib.suppress(OSError):  # already gone
            self._client.disconnect()  # wakes the loop's select
        self._thread.join(10)
        if not self._thread.is_alive():
            release(self._client)


def release(client: mqtt.Client) -> None:
    """Close what a stopped paho client still holds.

    paho-mqtt 2.1 keeps the socket pair that wakes its loop (made by
    ``connect`` and ``loop_start``) open after ``disconnect`` and
    ``loop_stop``; ``reinitialise`` is its public way to close it. Call only
    once no thread uses the client any more.
    """
    client.reinitialise()

