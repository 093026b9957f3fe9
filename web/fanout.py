"""One thread that writes every new message to every live stream's socket.

With waitress each live stream holds a worker thread, and a message sent
through those threads costs 50-100 us per stream under the GIL: 200 phones
would wait 10-20 ms and more for the last one. So once a stream's response
headers and first message have gone out through waitress, the stream hands a
duplicate of its connection's socket to this :class:`Fanout`, whose single
selector thread writes each new message to all of them (about 5 us each)
and sends the keep-alives. The stream's own thread stays parked with its
request until the fan-out reports the client gone or the server stops; then
the response ends through waitress as usual.

While a stream is handed over, waitress writes nothing to that connection
(its worker is parked inside the response), so the two never interleave.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any

KEEPALIVE = b": keep-alive\n\n"


def chunk(data: bytes) -> bytes:
    """``data`` framed as one HTTP/1.1 chunk."""
    return b"%X\r\n%s\r\n" % (len(data), data)


def framings(data: bytes) -> tuple[bytes, bytes]:
    """``data`` as sent on a plain and on a chunked stream: index by ``Handover.chunked``."""
    return data, chunk(data)


@dataclass(eq=False)
class Handover:
    """A stream's connection, now written by the fan-out thread."""

    sock: socket.socket
    chunked: bool
    sent: int
    #: Bytes of a message already begun on the wire.
    pending: bytes = b""
    #: The newest whole message waiting behind them; an older one is dropped.
    queued: bytes = b""
    gone: threading.Event = field(default_factory=threading.Event)
    #: Registered with the selector, waiting for room to write.
    waiting: bool = False


def socket_of(environ: dict[str, Any]) -> tuple[socket.socket | None, bool]:
    """The connection's socket behind a waitress request, and whether it is chunked.

    waitress puts its channel's ``check_client_disconnected`` in the environ;
    the channel keeps its socket as ``socket``. Any other server: None, and
    the stream keeps sending through the server.
    """
    channel = getattr(environ.get("waitress.client_disconnected"), "__self__", None)
    sock = getattr(channel, "socket", None)
    if not isinstance(sock, socket.socket) or getattr(channel, "total_outbufs_len", 1):
        return None, True
    return sock, environ.get("SERVER_PROTOCOL") == "HTTP/1.1"


class Fanout:
    """The selector thread that owns handed-over stream sockets."""

    def __init__(self, keepalive: float = 15.0) -> None:
        self.keepalive = keepalive
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._selector.register(self._wake_r, selectors.EVENT_READ)
        self._lock = threading.Lock()
        self._streams: set[Handover] = set()
        self._joining: list[Handover] = []
        self._message: tuple[int, bytes] | None = None
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="sse-fanout", daemon=True)
        self._thread.start()

    def adopt(self, sock: socket.socket, chunked: bool, sent: int) -> Handover:
        """Take over writing to ``sock`` (duplicated: the server keeps its own)."""
        mine = sock.dup()
        mine.setblocking(False)
        handover = Handover(mine, chunked, sent)
        with self._lock:
            if self._closed:
                mine.close()
                handover.gone.set()
                return handover
            self._joining.append(handover)
        self._wake()
        return handover

    def publish(self, version: int, message: bytes) -> None:
        """Send ``message`` (a whole SSE message) to every stream behind ``version``."""
        with self._lock:
            self._message = (version, message)
        self._wake()

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._wake()
        self._thread.join(5)

    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError):  # the pipe is full: a wake is pending
            os.write(self._wake_w, b"x")

    def _run(self) -> None:
        next_keepalive = time.monotonic() + self.keepalive
        done = -1
        while True:
            timeout = max(0.0, next_keepalive - time.monotonic())
            for key, events in self._selector.select(timeout):
                if key.fileobj == self._wake_r:
                    with contextlib.suppress(BlockingIOError):
                        while os.read(self._wake_r, 4096):
                            pass
                elif events & selectors.EVENT_WRITE and key.data in self._streams:
                    self._flush(key.data)
            with self._lock:
                closed = self._closed
                joining, self._joining = self._joining, []
                message = self._message
            for handover in joining:
                self._streams.add(handover)
            if closed:
                for handover in list(self._streams):
                    self._drop(handover)
                self._selector.close()
                os.close(self._wake_r)
                os.close(self._wake_w)
                return
            if message is not None and (message[0] != done or joining):
                done = message[0]
                framed = framings(message[1])
                for handover in list(self._streams):
                    if handover.sent < message[0]:
                        handover.sent = message[0]
                        self._send(handover, framed[handover.chunked])
            if time.monotonic() >= next_keepalive:
                next_keepalive = time.monotonic() + self.keepalive
                framed = framings(KEEPALIVE)
                for handover in list(self._streams):
                    if not handover.pending:  # a busy connection needs no keep-alive
                        self._send(handover, framed[handover.chunked])

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
                self._register(handover)  # go on when the socket can take more
                return
            handover.pending, handover.queued = handover.queued, b""
        self._unregister(handover)

    # The selector is only asked when the flag changes: its KeyError for an
    # unknown socket formats the socket's repr, two syscalls per stream.
    def _register(self, handover: Handover) -> None:
        if not handover.waiting:
            self._selector.register(handover.sock, selectors.EVENT_WRITE, handover)
            handover.waiting = True

    def _unregister(self, handover: Handover) -> None:
        if handover.waiting:
            self._selector.unregister(handover.sock)
            handover.waiting = False

    def _drop(self, handover: Handover) -> None:
        """Forget a stream whose client is gone, and let its request end."""
        self._streams.discard(handover)
        self._unregister(handover)
        handover.sock.close()
        handover.gone.set()
