"""Every live stream's socket, written in one pass for each new message.

Sending each message through the server, from each stream's own worker
thread or as a coroutine on its loop, costs 50-100 us per stream under the
GIL: 200 phones would wait 10-20 ms and more for the last one. So once a
stream's response headers and first message have gone out through the
server (app/server.py), the stream hands a duplicate of its connection's
socket to this :class:`Fanout`.

:meth:`Fanout.publish` writes a new message to every stream at once, on the
publishing thread (the table's writer), before the OLED, the host's HTTP
answer or anything else runs: a non-blocking send per phone, about 10 us
each. Handing the message to another thread first cost a wake-up and then
a share of the GIL with all that other work, 2-3 ms at 200 phones (measured
with tests/bench/bench_web.py). What a full socket cannot take at once
waits for the fan-out's own selector thread, which also sends the
keep-alives, takes in new streams and notices closed ones.

Then the stream lets the server go of the connection (:class:`Connection`):
the server has taken it from HTTP (Tornado's ``detach``) and closes its own
descriptor, while the fan-out's duplicate keeps the connection open. The
worker thread is free again, and the server no longer counts 200 idle
connections against its bounds. The fan-out watches each socket for reading
too, so a phone that closes its page frees its stream at once.

A stream's place must come back even from a phone that stops reading or
vanishes without a word (out of range, battery gone): a stream that cannot
take a whole message (or keep-alive) within ``send_timeout`` is dropped (the
page reconnects and gets the current state), and the kernel gives up on a
connection whose sent bytes stay unacknowledged that long
(``TCP_USER_TIMEOUT``; otherwise retransmissions go on for about 15
minutes). Each socket's send buffer is bounded (``SNDBUF``), so a phone
that stops reading is found after a few messages and cannot hold megabytes
of kernel memory.
"""

from __future__ import annotations

import contextlib
import logging
import os
import selectors
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

KEEPALIVE = b": keep-alive\n\n"
#: A handed-over socket's send buffer: several state messages, not megabytes.
SNDBUF = 64 * 1024
#: Linux's TCP_USER_TIMEOUT (netinet/tcp.h), should Python's module not name it.
TCP_USER_TIMEOUT = getattr(socket, "TCP_USER_TIMEOUT", 18)


def chunk(data: bytes) -> bytes:
    """``data`` framed as one HTTP/1.1 chunk."""
    return b"%X\r\n%s\r\n" % (len(data), data)


def framings(data: bytes) -> tuple[bytes, bytes]:
    """``data`` as sent on a plain and on a chunked stream: index by ``Handover.chunked``."""
    return data, chunk(data)


KEEPALIVES = framings(KEEPALIVE)


#: Guards every Handover's ``gone`` event while it is made or set (rare: on asking, at the end).
_GONE_LOCK = threading.Lock()


@dataclass(eq=False, slots=True)
class Handover:
    """A stream's connection, now written by the fan-out thread.

    Kept per live phone for as long as it follows, so it holds no more than
    it needs (slots, no lock of its own): these are made among everything a
    burst of phones opening their streams makes, and any one of them keeps
    the 1 MB arena of Python's it lies in from going back to the system
    (docs/design.md, "The web edge").
    """

    sock: socket.socket
    chunked: bool
    sent: int
    #: Bytes of a message already begun on the wire.
    pending: bytes = b""
    #: The newest whole message waiting behind them; an older one is dropped.
    queued: bytes = b""
    #: Called once, on the fan-out thread, when the stream has ended.
    on_gone: Callable[[], None] | None = field(default=None, kw_only=True)
    #: The stream has ended (the fan-out dropped it); see :attr:`gone` to wait for it.
    ended: bool = False
    #: Waiting for room to write (the selector watches for it).
    waiting: bool = False
    #: When the socket last refused bytes of the message now pending (monotonic).
    stalled_at: float | None = None
    _gone: threading.Event | None = field(default=None, repr=False)

    @property
    def gone(self) -> threading.Event:
        """Set once the stream has ended: made when first asked for (a test or a caller
        that waits), not for every phone."""
        with _GONE_LOCK:
            if self._gone is None:
                self._gone = threading.Event()
                if self.ended:
                    self._gone.set()
            return self._gone

    def end(self) -> bool:
        """Mark the stream ended; whether it was still live (False: ended before)."""
        with _GONE_LOCK:
            if self.ended:
                return False
            self.ended = True
            if self._gone is not None:
                self._gone.set()
            return True


@dataclass(frozen=True)
class Connection:
    """A live stream's connection as the server holds it, ready to hand over."""

    sock: socket.socket
    #: HTTP/1.1 chunked framing (else the raw bytes, for HTTP/1.0).
    chunked: bool
    #: Makes the server let go of the connection without writing to it again;
    #: returns the bytes it had not sent yet (they go first).
    release: Callable[[], bytes]


def connection_of(environ: dict[str, Any]) -> Connection | None:
    """The connection behind a request, ready to hand over at once; from the worker thread
    that answers it, once the stream's first message is written.

    The server (app/server.py) puts ``companion.connection`` in the environ:
    it takes the connection from HTTP once what was written is out, and gives
    its socket. None under any other server, or when the client left: the
    stream then keeps sending through the server.
    """
    take = environ.get("companion.connection")
    return take() if callable(take) else None


class Fanout:
    """The handed-over stream sockets, and the selector thread that tends them.

    One lock covers the streams and their sockets, so a publish and the
    selector thread never write to the same socket at once.
    """

    def __init__(self, keepalive: float = 15.0, send_timeout: float | None = None) -> None:
        self.keepalive = keepalive
        #: How long a stream may take to accept a message; default: ``keepalive``.
        self.send_timeout = keepalive if send_timeout is None else send_timeout
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._selector.register(self._wake_r, selectors.EVENT_READ)
        self._lock = threading.Lock()
        self._streams: set[Handover] = set()
        self._joining: list[Handover] = []
        #: Streams to end for a newcomer's place (web/stream.py), on the fan-out thread.
        self._shedding: list[Handover] = []
        #: Streams whose socket is full: each is dropped at its stalled_at + send_timeout.
        self._stalled: set[Handover] = set()
        #: The newest version and its message, framed both ways (see framings).
        self._message: tuple[int, tuple[bytes, bytes]] | None = None
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="sse-fanout", daemon=True)
        self._thread.start()

    def adopt(self, sock: socket.socket, chunked: bool, sent: int,
              on_gone: Callable[[], None] | None = None, *,
              release: Callable[[], bytes] | None = None) -> Handover:
        """Take over writing to ``sock`` (a duplicate: the server may close its own).

        ``sent``: the version the client already has. ``on_gone`` is called
        once when the stream ends (client gone, or the fan-out closed).
        ``release`` (see :class:`Connection`) is called once the duplicate is
        made; the bytes it returns are sent before anything else. Never
        blocks and never waits for the client.
        """
        try:
            mine = sock.dup()
        except OSError:  # the server closed it already: the client left meanwhile
            mine = None
        unsent = release() if release is not None else b""
        if mine is None:
            handover = Handover(sock, chunked, sent, on_gone=on_gone)
            self._gone(handover)
            return handover
        mine.setblocking(False)
        with contextlib.suppress(OSError):  # not TCP (a test's socket pair)
            mine.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SNDBUF)
            mine.setsockopt(socket.IPPROTO_TCP, TCP_USER_TIMEOUT,
                            max(1, round(self.send_timeout * 1000)))
        handover = Handover(mine, chunked, sent, pending=unsent, on_gone=on_gone)
        with self._lock:
            closed = self._closed
            if not closed:
                self._joining.append(handover)
                self._wake()
        if closed:
            self._drop(handover)
        return handover

    def publish(self, version: int, message: bytes) -> None:
        """Write ``message`` (a whole SSE message) to every stream behind ``version``.

        The writes happen now, on the caller's thread, so the phones do not
        wait for a thread hand-over. They never block: what a full socket
        cannot take waits for the fan-out thread. About 10 us per stream.
        An older ``version`` than the last one published is ignored.
        """
        with self._lock:
            if self._closed or (self._message is not None and version < self._message[0]):
                return
            self._message = (version, framed := framings(message))
            for handover in list(self._streams):
                self._catch_up(handover, version, framed)

    def _catch_up(self, handover: Handover, version: int, framed: tuple[bytes, bytes]) -> None:
        if handover.sent < version:
            handover.sent = version
            self._send(handover, framed[handover.chunked])

    def shed(self, handover: Handover) -> None:
        """End ``handover``'s stream so its place goes to another (web/stream.py): on the
        fan-out thread, a chunked response with its last chunk, as at shutdown, so the
        page reconnects at its retry time. Never blocks."""
        with self._lock:
            if not self._closed:
                self._shedding.append(handover)
                self._wake()

    def close(self) -> None:
        """End every stream (a chunked one with its last chunk) and stop the thread. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._wake()
        self._thread.join(5)
        if self._thread.is_alive():
            log.warning("the fan-out thread did not stop; its wake pipe stays open")
            return
        # Closed only once the thread is gone: a descriptor closed while
        # another thread may still use it can be reused by a new file or
        # socket, which would then get (or lose) that thread's bytes.
        os.close(self._wake_r)
        os.close(self._wake_w)

    def _wake(self) -> None:
        """Wake the fan-out thread. Call with the lock held, so close() has not happened."""
        with contextlib.suppress(BlockingIOError):  # the pipe is full: a wake is pending
            os.write(self._wake_w, b"x")

    def _run(self) -> None:
        next_keepalive = time.monotonic() + self.keepalive
        while True:
            with self._lock:
                due = min((h.stalled_at for h in self._stalled if h.stalled_at is not None),
                          default=next_keepalive) + self.send_timeout
            timeout = max(0.0, min(next_keepalive, due) - time.monotonic())
            ready = self._selector.select(timeout)
            with self._lock:
                for key, events in ready:
                    if key.fileobj == self._wake_r:
                        with contextlib.suppress(BlockingIOError):
                            while os.read(self._wake_r, 4096):
                                pass
                        continue
                    if events & selectors.EVENT_READ and key.data in self._streams:
                        self._read(key.data)
                    if events & selectors.EVENT_WRITE and key.data in self._streams:
                        self._flush(key.data)
                joining, self._joining = self._joining, []
                for handover in joining:
                    self._streams.add(handover)
                    self._selector.register(handover.sock, selectors.EVENT_READ, handover)
                    if handover.pending:  # what the server had not sent yet
                        self._flush(handover)
                    if self._message is not None:
                        self._catch_up(handover, *self._message)
                shedding, self._shedding = self._shedding, []
                for handover in shedding:
                    self._end(handover)
                if self._closed:
                    for handover in list(self._streams):
                        self._end(handover)
                    self._selector.close()
                    return
                now = time.monotonic()
                for handover in list(self._stalled):
                    if handover.stalled_at is not None and \
                            now - handover.stalled_at >= self.send_timeout:
                        # It cannot take a message: its place goes to a phone
                        # that can (this one reconnects and catches up).
                        self._drop(handover)
                if time.monotonic() >= next_keepalive:
                    next_keepalive = time.monotonic() + self.keepalive
                    for handover in list(self._streams):
                        if not handover.pending:  # a busy connection needs no keep-alive
                            self._send(handover, KEEPALIVES[handover.chunked])

    def _end(self, handover: Handover) -> None:
        """End a live stream's response properly, as the server would have (the page
        then reconnects at its retry time), and drop it."""
        if handover.ended:
            return
        if handover.chunked and not handover.pending:
            with contextlib.suppress(OSError):
                handover.sock.send(b"0\r\n\r\n")
        self._drop(handover)

    def _send(self, handover: Handover, data: bytes) -> None:
        """Send ``data`` now, or keep it as the newest message for a busy socket."""
        if handover not in self._streams:
            return
        if handover.pending:
            # A slow phone skips versions instead of queueing them.
            handover.queued = data
            return
        handover.pending = data
        self._flush(handover)

    def _flush(self, handover: Handover) -> None:
        while handover.pending:
            try:
                sent = handover.sock.send(handover.pending)
            except BlockingIOError:
                sent = 0
            except OSError:  # reset, broken pipe: the phone is gone
                self._drop(handover)
                return
            handover.pending = handover.pending[sent:]
            if handover.pending:
                self._wait_for_room(handover)  # go on when the socket can take more
                return
            handover.stalled_at = None  # a whole message went: the next has its own time
            handover.pending, handover.queued = handover.queued, b""
        self._stop_waiting(handover)

    def _read(self, handover: Handover) -> None:
        """The client spoke: an SSE client only ever closes, anything else is ignored."""
        try:
            data = handover.sock.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the page was closed or the phone reset the connection
            self._drop(handover)

    # The selector is only asked when the flag changes (a few times per slow
    # phone), not once per message and stream.
    def _wait_for_room(self, handover: Handover) -> None:
        if handover.stalled_at is None:
            handover.stalled_at = time.monotonic()
        if not handover.waiting:
            self._selector.modify(handover.sock, selectors.EVENT_READ | selectors.EVENT_WRITE,
                                  handover)
            handover.waiting = True
            self._stalled.add(handover)
            self._wake()  # the fan-out thread's next deadline may be this one's

    def _stop_waiting(self, handover: Handover) -> None:
        handover.stalled_at = None
        if handover.waiting:
            self._selector.modify(handover.sock, selectors.EVENT_READ, handover)
            handover.waiting = False
            self._stalled.discard(handover)

    def _drop(self, handover: Handover) -> None:
        """Forget a stream whose client is gone (or every stream, on close). Idempotent."""
        if handover.ended:
            return
        if handover in self._streams:
            self._streams.discard(handover)
            self._stalled.discard(handover)
            self._selector.unregister(handover.sock)
        handover.sock.close()
        self._gone(handover)

    @staticmethod
    def _gone(handover: Handover) -> None:
        if not handover.end():
            return
        if handover.on_gone is not None:
            try:
                handover.on_gone()
            except Exception:
                log.exception("stream end callback %r failed", handover.on_gone)
