"""Server-Sent Events: one broker per feed, many bounded streams.

A :class:`Broker` keeps the newest message of a feed (the table state, or the
simulated OLED's frame counter). Each stream is a generator that waits on the
broker's condition and yields the newest message whenever it is newer than
the one it sent last, so a slow phone skips versions instead of queueing
them. The message bytes are built once per version, not once per phone.

Streams are counted: past ``limit`` a new one is refused (the caller answers
503). A stream ends when its client is gone (the server stops iterating it
after a failed write, at the latest at the next keep-alive) or when the
broker closes.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol


class TooManyStreams(Exception):
    """The broker already serves its limit of streams."""


def event_bytes(version: int, event: str, data: Any) -> bytes:
    """One SSE message: ``id``, ``event`` and the JSON ``data`` on one line."""
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"id: {version}\nevent: {event}\ndata: {body}\n\n".encode()


class Channel(Protocol):
    """What a stream needs of the server's connection to write to it directly.

    waitress's HTTP channel has this method; it takes whole, framed chunks.
    """

    def write_soon(self, data: bytes) -> int: ...


@dataclass(eq=False)
class _Direct:
    """A stream whose messages the fan-out thread writes straight to its connection."""

    channel: Channel
    chunked: bool
    sent: int
    waiter: threading.Lock
    dead: bool = False


def chunk(data: bytes) -> bytes:
    """``data`` framed as one HTTP/1.1 chunk."""
    return b"%X\r\n%s\r\n" % (len(data), data)


class Broker:
    """The newest message of one feed, and the streams that follow it.

    Streams wait parked on a lock each. When the server gives a stream its
    connection (waitress does, see :func:`connection_of`), a single fan-out
    thread writes every new message to all such connections: one thread
    sending to 200 sockets takes about a millisecond, where waking 200 threads
    in turn under the GIL takes tens of them. Streams without a connection
    (another server, the test client) are woken to yield the message
    themselves. Either way each stream's thread stays with its client, so
    keep-alives and disconnects work as for any response.
    """

    def __init__(self, event: str, limit: int, keepalive: float = 15.0,
                 retry_ms: int = 2000) -> None:
        self.event = event
        self.limit = limit
        self.keepalive = keepalive
        self.retry_ms = retry_ms
        self._lock = threading.Lock()
        self._waiters: set[threading.Lock] = set()
        self._direct: set[_Direct] = set()
        self._version = -1
        self._message = b""
        self._streams = 0
        self._closed = False
        self._pending = threading.Condition(self._lock)
        self._fanout = threading.Thread(target=self._fan_out, name=f"sse-{event}", daemon=True)
        self._fanout.start()

    @property
    def streams(self) -> int:
        """How many streams are open now."""
        return self._streams

    def publish(self, version: int, data: Any) -> None:
        """Make ``data`` at ``version`` the newest message and wake the streams. Never blocks."""
        message = event_bytes(version, self.event, data)
        with self._lock:
            if version < self._version:
                return
            self._version, self._message = version, message
            waiters, self._waiters = self._waiters, set()
            self._pending.notify()
        for waiter in waiters:
            waiter.release()

    def close(self) -> None:
        """End every stream (server shutdown). Idempotent."""
        with self._lock:
            self._closed = True
            waiters, self._waiters = self._waiters, set()
            direct = list(self._direct)
            self._pending.notify()
        for waiter in [*waiters, *(d.waiter for d in direct)]:
            _release(waiter)
        self._fanout.join(5)

    def open(self, last_seen: int | None, channel: Channel | None = None,
             chunked: bool = True) -> Iterator[bytes]:
        """A new stream, or TooManyStreams. ``last_seen``: the client's Last-Event-ID.

        The first message is the current one, unless the client has seen
        exactly that version already. ``channel`` (with ``chunked``, whether
        the response is chunked) lets the fan-out thread write to it.
        """
        with self._lock:
            if self._streams >= self.limit:
                raise TooManyStreams(f"{self._streams} streams are open, the limit")
            self._streams += 1
        return self._run(last_seen, channel, chunked)

    def _run(self, last_seen: int | None, channel: Channel | None,
             chunked: bool) -> Iterator[bytes]:
        sent = last_seen if last_seen is not None else -1
        direct: _Direct | None = None
        try:
            # The first yield makes the server send the headers; only then may
            # anything be written to the connection directly.
            yield f"retry: {self.retry_ms}\n\n".encode()
            while True:
                with self._lock:
                    if self._closed or (direct is not None and direct.dead):
                        return
                    version, message = self._version, self._message
                    waiter = None
                    if direct is not None:
                        waiter = direct.waiter
                    elif version == sent or version < 0:
                        waiter = threading.Lock()
                        waiter.acquire()
                        if channel is not None:
                            direct = _Direct(channel, chunked, sent, waiter)
                            self._direct.add(direct)
                        else:
                            self._waiters.add(waiter)
                if waiter is None:
                    sent = version
                    yield message
                elif not waiter.acquire(timeout=self.keepalive):
                    if direct is None:
                        with self._lock:
                            self._waiters.discard(waiter)
                    # Through the server, so a vanished client is noticed here.
                    yield b": keep-alive\n\n"
        finally:
            with self._lock:
                self._streams -= 1
                if direct is not None:
                    self._direct.discard(direct)

    def _fan_out(self) -> None:
        done = -1
        while True:
            with self._lock:
                while not self._closed and self._version == done:
                    self._pending.wait()
                if self._closed:
                    return
                version, message = self._version, self._message
                targets = list(self._direct)
            done = version
            framed = chunk(message)
            for target in targets:
                if target.sent >= version or target.dead:
                    continue
                try:
                    target.channel.write_soon(framed if target.chunked else message)
                    target.sent = version
                except Exception:  # the client is gone: end its stream
                    target.dead = True
                    _release(target.waiter)


def _release(waiter: threading.Lock) -> None:
    if waiter.locked():
        with contextlib.suppress(RuntimeError):
            waiter.release()


def connection_of(environ: dict[str, Any]) -> tuple[Channel | None, bool]:
    """The connection waitress serves this request on, and whether it is chunked.

    waitress puts its channel's ``check_client_disconnected`` in the environ;
    the channel behind it can take writes. Other servers give None.
    """
    check = environ.get("waitress.client_disconnected")
    channel = getattr(check, "__self__", None)
    if channel is None or not callable(getattr(channel, "write_soon", None)):
        return None, True
    return channel, environ.get("SERVER_PROTOCOL") == "HTTP/1.1"
