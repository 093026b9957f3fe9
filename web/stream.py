"""Server-Sent Events: one broker per feed, many bounded streams.

A :class:`Broker` keeps the newest message of a feed (the table state, or the
simulated OLED's frame counter). Each stream is a generator that parks on a
lock of its own and yields the newest message whenever it is newer than the
one it sent last, so a slow phone skips versions instead of queueing them.
The message bytes are built once per version, not once per phone.

With a fan-out (:mod:`web.fanout`) and a server that gives up the stream's
connection, the stream hands it over once its headers are out: the fan-out's
single thread writes every later message, and the server's worker is free.
Streams are counted, handed over or not: past ``limit`` a new one is refused
(the caller answers 503). A stream ends when its client is gone (it closed
the connection, or a write fails, at the latest at the next keep-alive) or
when the broker closes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

from web.fanout import Connection, Fanout


class TooManyStreams(Exception):
    """The broker already serves its limit of streams."""


def event_bytes(version: int, event: str, json_text: str) -> bytes:
    """One SSE message: ``id``, ``event`` and the JSON text as ``data`` (one line)."""
    return f"id: {version}\nevent: {event}\ndata: {json_text}\n\n".encode()


class Broker:
    """The newest message of one feed, and the streams that follow it.

    Each waiting stream parks on a lock of its own, and a publish releases
    them one by one: with a shared condition all streams would wake together
    and queue again for its lock, a convoy of milliseconds with 200 phones.
    """

    def __init__(self, event: str, limit: int, keepalive: float = 15.0,
                 retry_ms: int = 2000, fanout: Fanout | None = None) -> None:
        self.event = event
        self.fanout = fanout
        self.limit = limit
        self.keepalive = keepalive
        self.retry_ms = retry_ms
        self._lock = threading.Lock()
        self._waiters: set[threading.Lock] = set()
        self._version = -1
        self._message = b""
        self._streams = 0
        self._closed = False

    @property
    def streams(self) -> int:
        """How many streams are open now."""
        return self._streams

    def publish(self, version: int, json_text: str) -> None:
        """Make ``json_text`` at ``version`` the newest message and wake the streams.

        Never blocks: handed-over streams get the message written into their
        sockets before this returns (see :meth:`Fanout.publish`), the others
        are woken. ``json_text`` must be one line of JSON.
        """
        message = event_bytes(version, self.event, json_text)
        with self._lock:
            if version < self._version:
                return
            self._version, self._message = version, message
            waiters, self._waiters = self._waiters, set()
        for waiter in waiters:
            waiter.release()
        if self.fanout is not None:
            self.fanout.publish(version, message)

    def close(self) -> None:
        """End every stream (server shutdown). Idempotent."""
        with self._lock:
            self._closed = True
            waiters, self._waiters = self._waiters, set()
        for waiter in waiters:
            waiter.release()
        if self.fanout is not None:
            self.fanout.close()

    def open(self, last_seen: int | None,
             connection: Callable[[], Connection | None] | None = None) -> Iterator[bytes]:
        """A new stream, or TooManyStreams. ``last_seen``: the client's Last-Event-ID.

        The first message is the current one, unless the client has seen
        exactly that version already. ``connection()`` gives the stream's
        connection once what was yielded is on the wire (None: not possible),
        so the fan-out thread can take over writing to it; the iterator then
        ends, and the stream counts until the fan-out drops it.
        """
        with self._lock:
            if self._streams >= self.limit:
                raise TooManyStreams(f"{self._streams} streams are open, the limit")
            self._streams += 1
        return self._run(last_seen, connection)

    def _ended(self) -> None:
        with self._lock:
            self._streams -= 1

    def _run(self, last_seen: int | None,
             connection: Callable[[], Connection | None] | None) -> Iterator[bytes]:
        sent = last_seen if last_seen is not None else -1
        handed_over = False
        try:
            yield f"retry: {self.retry_ms}\n\n".encode()
            while True:
                if self.fanout is not None and connection is not None and sent >= 0:
                    conn = connection()
                    if conn is not None:
                        # From here the fan-out thread writes; the stream
                        # counts until it reports the client gone.
                        self.fanout.adopt(conn.sock, conn.chunked, sent, self._ended)
                        handed_over = True
                        conn.release()
                        return
                with self._lock:
                    if self._closed:
                        return
                    version, message = self._version, self._message
                    waiter = None
                    if version == sent or version < 0:
                        waiter = threading.Lock()
                        waiter.acquire()
                        self._waiters.add(waiter)
                if waiter is None:
                    sent = version
                    yield message
                elif not waiter.acquire(timeout=self.keepalive):
                    with self._lock:
                        self._waiters.discard(waiter)
                    # Written through the server, so a vanished client is noticed here.
                    yield b": keep-alive\n\n"
        finally:
            if not handed_over:
                self._ended()
