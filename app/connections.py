"""What one client may hold of the web server: request sizes, connections, time.

A phone on the Wi-Fi is not trusted. Without bounds, waitress (as
configured out of the box) lets one client lock everyone else out:

- it reads a request body of up to 1 GB, spooling it to a temporary file,
  before the app's own 16 KB limit can answer 413, so a few held uploads
  fill a small disk (and then the match store fails);
- it closes a connection only after 120 s without a byte, so a client that
  trickles its request headers a byte at a time keeps its connection for
  ever; once ``connection_limit`` connections are held, waitress stops
  accepting and every other phone (and the host) waits in the kernel's
  accept queue until one of them goes.

:class:`ConnectionLimits` bounds each of these. Its :meth:`adjustments` make
waitress refuse a body or headers over the limit as soon as the
``Content-Length`` or the received bytes say so (413 or 431, never spooled:
the buffer that would overflow to a file is larger than the largest body
accepted and the one read past it that refuses a chunked body).
:class:`GuardedChannel`, installed as the server's ``channel_class``,
enforces the rest on waitress's own loop thread:

- **Per address.** One client address holds at most ``per_address``
  waitress connections. A new one past that closes the oldest of that
  address's connections that is not being served (an idle keep-alive, a
  request still arriving; never one whose next request has arrived and
  waits to be read); if every one of them is being served, the new
  connection is closed at once. One address can only ever crowd itself.
- **Globally.** Several addresses (a NAT, or one attacker with many
  addresses) can still fill waitress's ``connection_limit``. Rather than
  stop accepting, as waitress does, a new connection then closes the
  connection that has waited longest for its client: a slow request or an
  idle keep-alive. A real request arrives within milliseconds of its
  connection and is then being served, so the host is not crowded out.
- **In time.** A request (headers and body) must arrive within
  ``request_timeout`` seconds of its first byte, however steadily it
  trickles; a connection with nothing in progress is closed after
  ``idle_timeout`` seconds (the browser opens a new one when it needs to);
  an answer none of which the client takes for ``answer_timeout`` seconds
  (it stopped reading) is dropped with its connection, rather than held in
  memory or a temporary file for waitress's 120 s.

The live streams are not counted: once handed over to the fan-out
(web/fanout.py) they leave waitress's connections.

Everything here relies on waitress internals (``channel_class``, ``parser_class``,
``active_channels``, a channel's ``requests``, ``request``,
``total_outbufs_len``, ``will_close``, ``addr``; ``ErrorTask`` and its
error classes): pinned in pyproject.toml and checked by
tests/web/test_waitress_contract.py and tests/hostile/test_web_server.py.
"""

from __future__ import annotations

import contextlib
import functools
import json
import socket
import time
from dataclasses import dataclass
from typing import Any

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.task import ErrorTask
from waitress.utilities import (
    RequestEntityTooLarge,
    RequestHeaderFieldsTooLarge,
    ServerNotImplemented,
)

from web.app import MAX_BODY

#: Bytes waitress reads from a connection at a time (its default, stated here because
#: inbuf_overflow depends on it).
RECV_BYTES = 8192


@dataclass(frozen=True)
class ConnectionLimits:
    """Bounds on what one client can make the web server hold. Defaults for a table's Wi-Fi."""

    #: Largest request body accepted (bytes); the app's own limit by default.
    max_body: int = MAX_BODY
    #: Largest request line plus headers accepted (bytes). A phone sends ~1 KB.
    max_headers: int = 16 * 1024
    #: Waitress connections one client address may hold at once. A browser
    #: opens at most 6 per server; a stream leaves waitress once handed over.
    per_address: int = 16
    #: Seconds for a request's headers and body to arrive, from its first byte.
    request_timeout: float = 10.0
    #: Seconds a connection may sit with no request in progress.
    idle_timeout: float = 15.0
    #: Seconds an answer may wait with none of it taken by the client (it
    #: stopped reading): the answer is dropped and the connection closed.
    answer_timeout: float = 30.0

    def adjustments(self) -> dict[str, Any]:
        """waitress settings that refuse oversize requests before buffering them."""
        return {
            # waitress refuses a body of this size or more (Content-Length at
            # once, a chunked one as it arrives, framing included).
            "max_request_body_size": self.max_body + 1,
            "max_request_header_size": self.max_headers + 1,
            # A body is spooled to a temporary file from this size: never. A
            # chunked body is checked against its bound only after each read's
            # bytes are in the buffer, so a refused one holds up to one read
            # (recv_bytes) more than the largest body accepted.
            "recv_bytes": RECV_BYTES,
            "inbuf_overflow": self.max_body + 1 + RECV_BYTES,
        }


#: The bounds ``companion run`` serves with.
DEFAULT_LIMITS = ConnectionLimits()


def guard_connections(server: Any, limits: ConnectionLimits) -> None:
    """Make a waitress ``server`` (before it serves) keep its connections to ``limits``.

    Pass ``limits.adjustments()`` to waitress's ``create_server`` as well.
    """
    server.channel_class = functools.partial(GuardedChannel, limits=limits)


class JsonErrorTask(ErrorTask):
    """waitress's own error answers (413, 431, 400...) as ``{"error": text}``, like the app's.

    waitress answers a ``Transfer-Encoding`` other than ``chunked`` with 501;
    that is the client's malformed request, so it is a 400 here (a 5xx says
    the server failed).
    """

    def execute(self) -> None:
        err = self.request.error
        adj = self.channel.adj
        code, reason = err.code, err.reason
        if isinstance(err, ServerNotImplemented):
            code, reason = 400, "Bad Request"
            message = ("unsupported Transfer-Encoding: send the body with a Content-Length "
                       "or as Transfer-Encoding: chunked")
        elif isinstance(err, RequestEntityTooLarge):
            message = (f"request body too large: send at most "
                       f"{adj.max_request_body_size - 1} bytes")
        elif isinstance(err, RequestHeaderFieldsTooLarge):
            message = (f"request headers too large: send at most "
                       f"{adj.max_request_header_size - 1} bytes of request line and headers")
        else:
            message = f"{err.reason.lower()}: {err.body}"
        body = json.dumps({"error": message}).encode()
        self.status = f"{code} {reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


#: What a channel with nothing in progress is timed as (see GuardedChannel._overdue).
_IDLE = object()


class FramingParser(HTTPRequestParser):
    """waitress's request parser, closing the connection after an ambiguously framed request.

    A request with both ``Transfer-Encoding`` and ``Content-Length`` is how
    requests are smuggled past a proxy that reads the other header. waitress
    reads its body by the Transfer-Encoding alone, as RFC 9112 (6.1) says,
    but kept the connection open, where the RFC says the server MUST close
    it after answering: what follows on it cannot be trusted to start a
    request. A Transfer-Encoding in an HTTP/1.0 request (which waitress
    ignores, reading Content-Length) is faulty framing the same way. Such a
    request is marked ``Connection: close`` (waitress's task honours it).
    """

    def parse_header(self, header_plus: bytes) -> None:
        super().parse_header(header_plus)
        # waitress pops TRANSFER_ENCODING for HTTP/1.1 (then ``chunked`` is set).
        ambiguous = (self.chunked and "CONTENT_LENGTH" in self.headers) \
            or "TRANSFER_ENCODING" in self.headers
        if ambiguous:
            self.headers["CONNECTION"] = "close"


#: A connection refused again and again rests at most 2**this times the Retry-After.
MAX_REST_DOUBLINGS = 3


class GuardedChannel(HTTPChannel):
    """A waitress connection that keeps to :class:`ConnectionLimits`.

    Runs on waitress's loop thread only (``__init__`` from the accept,
    ``writable`` from every turn of the loop), as waitress's own channel
    bookkeeping does.
    """

    error_task_class = JsonErrorTask
    parser_class = FramingParser

    def __init__(self, server: Any, sock: socket.socket, addr: Any, adj: Any,
                 map: dict[int, Any] | None = None, *, limits: ConnectionLimits) -> None:
        self.limits = limits
        self._timed: object | None = _IDLE
        self._since = time.monotonic()
        #: Bytes of answer waitress held at the last look, and since when.
        self._unsent, self._unsent_since = 0, self._since
        super().__init__(server, sock, addr, adj, map=map)
        self._make_room()

    #: waitress's own flag: the connection closes once what it holds is sent.
    will_close: bool
    #: Until when (monotonic) the next request on this connection is left unread.
    _rest_until = 0.0
    #: How many times in a row the connection was refused as soon as a rest ended.
    _rests = 0

    def rest(self, seconds: float) -> None:
        """Leave this connection's next request unread for ``seconds``; from any thread.

        For a client just told to come back later (429 or 503 with
        ``Retry-After``): one that asks again at once anyway waits in its own
        socket's buffer, costing the server nothing, rather than being
        refused again and again as fast as it can ask. A connection refused
        again within ``seconds`` of its last rest ending rests twice as long
        each time, up to ``MAX_REST_DOUBLINGS`` doublings: however many
        connections ask, refusing them costs the server less and less.
        """
        now = time.monotonic()
        self._rests = min(self._rests + 1, MAX_REST_DOUBLINGS) \
            if now - self._rest_until < seconds else 0
        self._rest_until = now + seconds * 2 ** self._rests

    def readable(self) -> bool:
        # The loop polls at least every second (asyncore_loop_timeout), so a rest ends
        # within a second of its time.
        return super().readable() and time.monotonic() >= self._rest_until

    def writable(self) -> bool:
        if not self.will_close and self._overdue(time.monotonic()):
            self.will_close = True
            # Also wakes the loop for a socket that could not take a byte.
            with contextlib.suppress(OSError):
                self.socket.shutdown(socket.SHUT_RDWR)
        return super().writable()

    def _overdue(self, now: float) -> bool:
        """Whether the client took too long: for its request, to send one at all, or
        to take its answer."""
        unsent = self.total_outbufs_len
        if unsent:
            # An answer waiting in waitress's buffers (a temporary file past
            # 1 MB) for a client that may never read it: it must keep taking bytes.
            if unsent != self._unsent:
                self._unsent, self._unsent_since = unsent, now
            self._timed = None
            return now - self._unsent_since > self.limits.answer_timeout
        self._unsent = 0
        if self.requests:
            timed = None  # being served or answered: the server's turn, not the client's
        elif self.request is not None:
            timed = self.request  # a request still arriving
        else:
            timed = _IDLE
        if timed is not self._timed:
            self._timed, self._since = timed, now
        if timed is None:
            return False
        if timed is _IDLE:
            # Its next request may have come since the loop last read: not idle then.
            return now - self._since > self.limits.idle_timeout \
                and not _bytes_waiting(self.socket)
        return now - self._since > self.limits.request_timeout

    def waiting_since(self) -> float | None:
        """When this connection began waiting for its client; None while it is being served.

        A connection that looks idle but whose client has already sent its next
        request (its bytes wait in the socket for the loop to read them, or for
        a rest to end) is the server's turn, not the client's: closing it would
        reset a request the client rightly expects an answer to (a browser
        retries such a request only on a connection it had used before).
        """
        if self.requests or self.will_close:
            return None
        if self.request is None and _bytes_waiting(self.socket):
            return None
        return self._since

    def _make_room(self) -> None:
        """Keep this address, and all addresses together, within bounds. Refuse self if needed."""
        channels = [c for c in self.server.active_channels.values()
                    if c is not self and not c.will_close and c.connected]
        mine = [c for c in channels if _address(c) == _address(self)]
        if len(mine) >= self.limits.per_address and not _close_longest_waiting(mine):
            self.handle_close()  # all of this address's connections are being served
            return
        # waitress stops accepting once its map (connections, listener and
        # wake-up pipe) reaches connection_limit: make room before it does.
        if len(self._map) >= self.adj.connection_limit:
            _close_longest_waiting(channels)


def _bytes_waiting(sock: socket.socket) -> bool:
    """Whether ``sock`` has received bytes not read yet (without reading them)."""
    try:
        return bool(sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT))
    except OSError:  # nothing waiting (BlockingIOError), or a connection already broken
        return False


def _address(channel: HTTPChannel) -> Any:
    addr = channel.addr
    return addr[0] if isinstance(addr, tuple) else addr


def _close_longest_waiting(channels: list[Any]) -> bool:
    """Close the connection among ``channels`` that waited longest for its client."""
    waiting = [(since, c) for c in channels
               if isinstance(c, GuardedChannel) and (since := c.waiting_since()) is not None]
    if not waiting:
        return False
    min(waiting, key=lambda pair: pair[0])[1].handle_close()
    return True
