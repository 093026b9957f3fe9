"""The connection toolkit every MQTT client of the project shares: the table's
publisher (drivers/mqtt.py) and the hall board's listener (hall/listener.py).

What is here: where a broker is (:class:`BrokerAddress`, parsed from
``mqtt://`` or ``mqtts://`` URLs) and its CA file checked; TLS that verifies
the broker's certificate and host name; reconnection's backoff; a client
whose callbacks cannot end its network thread, and one closed for good; and
each failure told in words (a refusal, a name that does not resolve, a TLS
port spoken to in the clear, a broker that took the connection and went
quiet), as a short status and a log line. Nothing here knows a table.
"""

from __future__ import annotations

import logging
import os
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from companion.config import ConfigError, valid_host
from companion.i18n import Text, _

if TYPE_CHECKING:  # paho only in annotations: a table without MQTT never loads it (~3 MB)
    import paho.mqtt.client as mqtt
    from paho.mqtt.reasoncodes import ReasonCode

log = logging.getLogger(__name__)

#: The environment variable that holds the broker's password (never a file or an argument).
MQTT_PASSWORD_ENV = "COMPANION_MQTT_PASSWORD"
#: The port a broker URL without one means, by scheme: plain MQTT and MQTT over TLS.
MQTT_PORTS = {"mqtt": 1883, "mqtts": 8883}
#: Reconnection backoff: the first wait, doubled after each failure up to the last.
#: A broker restarted in the room is found again within 15 s: a table's card must
#: not wait a minute to be current again.
MIN_RETRY, MAX_RETRY = 1, 15
#: MQTT v5 reason codes the status names in its own words.
REFUSED = {
    "Bad user name or password": _("refused: bad user or password"),
    "Not authorized": _("refused: not authorized"),
    "Client identifier not valid": _("refused: client id not valid"),
    "Server unavailable": _("refused: broker unavailable"),
    "Server busy": _("refused: broker busy"),
    "Banned": _("refused: banned"),
}
#: The refusals that are about the user name and password.
CREDENTIAL_REFUSALS = ("Bad user name or password", "Not authorized")


@dataclass(frozen=True)
class BrokerAddress:
    """Where an MQTT broker is: ``mqtt://host[:port]``, or ``mqtts://`` for TLS."""

    host: str
    port: int
    tls: bool

    @classmethod
    def parse(cls, url: str) -> BrokerAddress:
        """The address in ``url``; ConfigError saying what is wrong (the caller names
        where the URL came from)."""
        one, other = "mqtt://broker.local", "mqtts://broker.local:8883"
        if not url.isprintable() or not url.isascii():
            raise ConfigError(_("{url} holds a character a URL cannot hold", url=repr(url)))
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as err:
            why = _("port must be 1-65535") if "port" in str(err).lower() else str(err)
            raise ConfigError(_("{url} is not a broker URL ({why}); e.g. {one} or {other}",
                                url=repr(url), why=why, one=one, other=other)) from None
        if parts.scheme not in MQTT_PORTS:
            raise ConfigError(_("the scheme must be mqtt:// or mqtts:// (TLS), got {url}",
                                url=repr(url)))
        if not parts.hostname or not valid_host(parts.hostname):
            raise ConfigError(_("{url} names no broker host; e.g. {one} or {other}",
                                url=repr(url), one=one, other=other))
        if port is not None and not 1 <= port <= 65535:
            raise ConfigError(_("port must be 1-65535, got {port}", port=port))
        if parts.username is not None or parts.password is not None:
            raise ConfigError(_("no user or password in the URL; set the user name apart, "
                                "and the password in COMPANION_MQTT_PASSWORD"))
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise ConfigError(_("{url}: a broker URL has no path, query or fragment",
                                url=repr(url)))
        return cls(parts.hostname, port or MQTT_PORTS[parts.scheme], parts.scheme == "mqtts")

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'mqtts' if self.tls else 'mqtt'}://{host}:{self.port}"


def ca_file_problem(path: Path) -> str | None:
    """Why ``path`` cannot be the CA file that checks a broker's certificate, or None."""
    if not path.is_file() or not os.access(path, os.R_OK):
        return _("{path} is not a readable file", path=path)
    try:
        ssl.create_default_context(cafile=str(path))
    except (ssl.SSLError, OSError, ValueError) as err:
        return _("{path} holds no CA certificate in PEM form ({reason})", path=path,
                 reason=str(err))
    return None


def no_delay(client: mqtt.Client, userdata: Any, sock: Any) -> None:
    """Send each packet at once (TCP_NODELAY). A change is a few packets written
    one after another (state, summary, event); with Nagle's algorithm each one
    after the first waited for the broker's delayed ACK: 40 ms on Linux, on
    every change (tests/bench/bench_mqtt.py: p50 44 ms, 1.5 ms without)."""
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def never_stopped(client: mqtt.Client) -> None:
    """An exception in one of ``client``'s callbacks is logged, and its network loop goes
    on: by default paho lets it end the loop's thread, and with it every reconnection."""
    client.suppress_exceptions = True

    def said(client: mqtt.Client, userdata: Any, level: int, text: str) -> None:
        # Only the callbacks' exceptions: paho's other ERR lines are routine (a loop
        # turn without a socket is "Client is not connected" at every reconnection).
        if text.startswith("Caught exception in"):
            log.error("MQTT: %s", text)

    client.on_log = said


def stop_client(client: mqtt.Client) -> None:
    """Disconnect ``client``, stop its network thread and close its sockets."""
    client.disconnect()
    client.loop_stop()
    release(client)


def release(client: mqtt.Client) -> None:
    """Close what a stopped paho client still holds. Call once no thread uses it.

    paho keeps the socket pair that wakes its loop open after ``disconnect``
    and ``loop_stop`` until the client is garbage collected (and a client is
    in reference cycles through its callbacks); ``reinitialise`` is its
    public way to close it. The client is left blank: it is not used again.
    """
    client.reinitialise()


class _ClosingSSLSocket(ssl.SSLSocket):
    """A TLS socket that closes itself when its handshake fails: paho drops it
    unclosed then, and each retry would leak a file descriptor until collected."""

    def do_handshake(self, block: bool = False) -> None:
        try:
            super().do_handshake(block)
        except BaseException:
            self.close()
            raise


def tls_context(ca_file: str | None) -> ssl.SSLContext:
    """Verification of the broker's certificate and host name, against ``ca_file``
    (None: the system's CAs)."""
    context = ssl.create_default_context(
        cafile=str(Path(ca_file).expanduser()) if ca_file else None)
    context.sslsocket_class = _ClosingSSLSocket
    return context


def describe(err: BaseException | None, address: BrokerAddress, *,
             ca_hint: str = "[mqtt] ca_file") -> tuple[Text, Text]:
    """A failed connection attempt's error as (short status, log text), each a message
    (the short one is the OLED's info screen's: three lines of 14 letters).

    ``ca_hint`` names where the CA file is set (the config key, or the
    hall's option), for the text on a certificate that is not trusted. The log text is
    a message: the hall's page says it in its reader's language (hall/listener.py).
    """
    host = address.host
    where = f"{host}:{address.port}"
    if isinstance(err, ssl.SSLCertVerificationError):
        if "hostname" in (err.verify_message or "").lower() or "match" in str(err):
            return _("TLS: wrong host in certificate"), \
                _("TLS verification failed: the broker's certificate is not for {host} "
                  "({reason})", host=host, reason=str(err))
        return _("TLS: certificate not trusted"), \
            _("TLS: the broker's certificate is not trusted ({reason}); set {option} to the "
              "CA that signed it", reason=err.verify_message or str(err), option=ca_hint)
    if isinstance(err, ssl.SSLError):
        return _("TLS: handshake failed"), \
            _("TLS handshake with {where} failed ({reason}): is it a TLS port?", where=where,
              reason=err.reason or str(err))
    if address.tls and isinstance(err, (ConnectionResetError, BrokenPipeError)):
        return _("TLS: handshake failed"), \
            _("{where} closed the connection: is it a TLS port?", where=where)
    if isinstance(err, socket.gaierror):
        return _("broker name not found"), _("cannot resolve the broker's name {host}: {reason}",
                                          host=repr(host), reason=err.strerror)
    if isinstance(err, ConnectionRefusedError):
        return _("unreachable: port closed"), \
            _("nothing listens on {where} (connection refused)", where=where)
    if isinstance(err, TimeoutError):
        return _("unreachable: timed out"), _("{where} did not answer (timed out)", where=where)
    if isinstance(err, OSError):
        return _("unreachable"), _("cannot reach {where}: {reason}", where=where,
                                reason=err.strerror or str(err))
    return _("connection failed"), _("cannot connect to {where}: {reason}", where=where,
                                  reason=str(err))


def closed_unanswered(address: BrokerAddress) -> tuple[Text, Text]:
    """(short status, log text) for a server that took the connection and closed it
    without answering as a broker: most often a TLS port spoken to in the clear."""
    where = f"{address.host}:{address.port}"
    if address.tls:
        return _("no answer"), _("{where} closed the connection without answering as a broker",
                              where=where)
    return _("no answer: TLS port?"), _("{where} closed the connection without answering as a "
                                     "broker: is it a TLS port? (then use mqtts://)",
                                     where=where)


def timed_out(reason: ReasonCode | None) -> bool:
    """Whether paho closed the connection because the broker said nothing for a whole
    keep-alive (no CONNACK to our CONNECT, or no PINGRESP to our ping)."""
    return reason is not None and reason.getName() == "Keep alive timeout"


def unanswered(address: BrokerAddress, reason: ReasonCode | None,
               keepalive: float) -> tuple[Text, Text]:
    """(short status, log text) for a connection that ended before the broker answered.

    ``reason`` is paho's reason for the end: a keep-alive timeout is a server
    that took the connection and then said nothing (a broker stopped or
    overloaded, a network that drops the packets), not one that closed it.
    """
    if timed_out(reason):
        return _("no answer: timed out"), _(
            "{where} took the connection but did not answer as a broker within {seconds} s "
            "(keep-alive timeout): is the broker stopped or overloaded, or the network "
            "dropping packets?", where=f"{address.host}:{address.port}",
            seconds=f"{keepalive:g}")
    return closed_unanswered(address)


def lost(reason: ReasonCode | None, keepalive: float) -> Text:
    """The log text of a connection that was up and is gone, from paho's ``reason``."""
    if timed_out(reason):
        return _("connection lost: the broker stopped answering (nothing within the "
                 "{seconds} s keep-alive)", seconds=f"{keepalive:g}")
    return _("connection lost")


def refusal(reason: ReasonCode) -> str:
    """The short status of a broker's refusal (CONNACK ``reason``)."""
    name = reason.getName()
    return REFUSED.get(name) or _("refused: {reason}", reason=name.lower())
