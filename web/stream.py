"""Server-Sent Events: one broker per feed, many bounded streams.

A :class:`Broker` keeps the newest message of a feed (the table state, or the
simulated OLED's frame counter). Each stream is a generator that parks on a
lock of its own and yields the newest message whenever it is newer than the
one it sent last, so a slow phone skips versions instead of queueing them.
The message bytes are built once per version, not once per phone.

With a fan-out (:mod:`web.fanout`) and a server that gives up the stream's
connection, the stream hands it over right after its first message (with
whatever of it the server has not sent yet): the fan-out's single thread
writes every later message, and the server's worker is free at once.
Streams are counted from :meth:`Broker.open` until they end, handed over or
not, iterated or not. Places are shared out by address, so that a few
addresses (one stranger, or one phone with many tabs) cannot take them all
and keep a new phone out:

- one address holds at most ``per_client`` streams; one more from it is
  refused (the caller answers 503);
- when all ``limit`` places are held, a new stream takes the place of the
  oldest stream of the address that holds the most, if that address still
  holds at least as many as the newcomer's address then does (a fair share
  is never taken from an address to give another more). Only when every
  address holds as few as the newcomer's would is the new stream refused:
  ``limit`` different phones really are watching.

A shed stream ends as if the server had closed it; its page reconnects and,
the places being shared out, is refused until one comes free (it retries).
A stream also ends when its client is gone (it closed the connection, a
write fails, or it could not take a message in time: see web/fanout.py),
when the server closes it without reading it (a ``HEAD``), or when the
broker closes.

Versions rise within one database. A feed may name its database with an
``epoch`` (Store.epoch): a client that reconnects with a ``Last-Event-ID``
equal to the current version skips the first message only if it also
names the same epoch (or none); a client that is ahead of the feed (its
version is from another database) always gets the current message first.

A feed whose messages are changes of one part (the hall board: one table's
card each) gives the broker a ``first`` message instead: every new stream
starts with it (the whole list, at the version it is current for) and then
follows the changes after that version.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from companion.i18n import _
from web.fanout import Connection, Fanout, Handover


class TooManyStreams(Exception):
    """The broker already serves its limit of streams (in all, or for this client).

    Its text is for the client: what is full and what to do.
    """


class Stream:
    """A stream's bytes for the server: a WSGI body that gives its slot back on close.

    A generator that was never started runs no ``finally`` when closed, so a
    server that answers without reading the body (werkzeug does so for
    ``HEAD``) would keep the slot for good. Here the slot is freed once,
    whichever way the stream ends: its body ends or is closed, or, once the
    fan-out took the connection over, when the fan-out drops it.
    """

    def __init__(self, ended: Callable[[], None]) -> None:
        self.body: Iterator[bytes] = iter(())
        self._ended: Callable[[], None] | None = ended
        self._lock = threading.Lock()

    def __iter__(self) -> Stream:
        return self

    def __next__(self) -> bytes:
        return next(self.body)

    def hand_over(self) -> Callable[[], None]:
        """The slot's release, from now on owed by whoever took the stream over."""
        with self._lock:
            ended, self._ended = self._ended, None
        return ended or (lambda: None)

    def close(self) -> None:
        """The server is done with the body: end it, and free the slot unless handed over."""
        close = getattr(self.body, "close", None)
        if close is not None:
            close()
        self.hand_over()()


@dataclass(eq=False, slots=True)
class _Place:
    """One stream's place in a broker, from :meth:`Broker.open` until it is given back
    (one per live phone, so slots: see web/fanout.py Handover)."""

    client: str | None
    #: Given back already (ended, or shed): the stream's own end then gives back nothing.
    freed: bool = False
    #: Shed for a newcomer: the stream ends at its next step.
    shed: bool = False
    #: The lock the stream is parked on, if it is waiting for a message.
    waiter: threading.Lock | None = None
    #: Its connection in the fan-out, once handed over.
    handover: Handover | None = field(default=None, repr=False)


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
                 retry_ms: int = 2000, fanout: Fanout | None = None,
                 per_client: int | None = None,
                 first: Callable[[], tuple[int, bytes]] | None = None) -> None:
        """``limit`` streams at once, at most ``per_client`` of them (None: no bound) per client.

        ``first`` (None: the newest message) gives the first message of every
        new stream and the version it brings the client to: ``(version,
        message bytes)``, e.g. :func:`event_bytes` of a whole list whose
        changes the feed publishes.
        """
        self.event = event
        self.first = first
        self.fanout = fanout
        self.limit = limit
        self.per_client = per_client
        self.keepalive = keepalive
        self.retry_ms = retry_ms
        self._lock = threading.Lock()
        self._waiters: set[threading.Lock] = set()
        self._version = -1
        self._epoch: int | None = None
        self._message = b""
        self._streams = 0
        #: Open streams' places per client that has any, oldest first (a client's entry
        #: goes with its last stream).
        #: Each address's places, oldest first (a list: most addresses hold one or two).
        self._by_client: dict[str | None, list[_Place]] = {}
        self._closed = False

    @property
    def streams(self) -> int:
        """How many streams are open now."""
        return self._streams

    def holders(self) -> dict[str | None, int]:
        """How many streams each client address that has any holds now."""
        with self._lock:
            return {client: len(places) for client, places in self._by_client.items()}

    def publish(self, version: int, json_text: str, epoch: int | None = None,
                event: str | None = None) -> None:
        """Make ``json_text`` at ``version`` the newest message and wake the streams.

        Never blocks: handed-over streams get the message written into their
        sockets before this returns (see :meth:`Fanout.publish`), the others
        are woken. ``json_text`` must be one line of JSON. ``epoch`` names the
        database the versions count in; it stays the same for a broker.
        ``event`` names the message's SSE event (default: the broker's).
        """
        message = event_bytes(version, event or self.event, json_text)
        with self._lock:
            if version < self._version:
                return
            self._version, self._message, self._epoch = version, message, epoch
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
             connection: Callable[[], Connection | None] | None = None,
             epoch: int | None = None, client: str | None = None) -> Stream:
        """A new stream, or TooManyStreams. ``last_seen``: the client's Last-Event-ID.

        ``client`` (its address) counts against ``per_client``; None: not counted.

        The first message is the current one, unless the client has seen
        exactly that version of the same ``epoch`` already (a client that
        names no epoch is taken to mean this one). ``connection()`` gives the
        stream's connection once its first message was handed to the server
        (None: not possible), so the fan-out thread can take over writing to
        it; the iterator then ends, and the stream counts until the fan-out
        drops it. The caller must ``close()`` the stream it got (a WSGI
        server does).
        """
        victim: _Place | None = None
        with self._lock:
            mine = len(self._by_client.get(client, ()))
            if self.per_client is not None and client is not None and mine >= self.per_client:
                raise TooManyStreams(_(
                    "{client} already has {n} live streams open, the most one address may "
                    "hold; close a page that follows the table, then try again",
                    client=client, n=mine))
            if self._streams >= self.limit:
                victim = self._to_shed(mine)
                if victim is None:
                    raise TooManyStreams(_(
                        "too many live viewers right now: all {n} places are taken, and no "
                        "address holds more than this one; try again shortly", n=self.limit))
                self._free(victim)
                victim.shed = True
            place = _Place(client)
            self._streams += 1
            self._by_client.setdefault(client, []).append(place)
            seen = (last_seen is not None and last_seen == self._version >= 0
                    and epoch in (None, self._epoch))
        if victim is not None:
            self._stop(victim)
        stream = Stream(functools.partial(self._ended, place))
        stream.body = self._run(last_seen if seen and last_seen is not None else -1,
                                connection, stream, place)
        return stream

    def _to_shed(self, mine: int) -> _Place | None:
        """The place a newcomer whose address holds ``mine`` streams takes when all are
        taken: the oldest of the address holding the most, if it keeps at least
        ``mine + 1`` (as many as the newcomer's address will hold); else None."""
        most = max(self._by_client.values(), key=len, default=None)
        if most is None or len(most) - 1 < mine + 1:
            return None
        return most[0]

    def _free(self, place: _Place) -> None:
        """Give ``place`` back (with the lock held). Idempotent."""
        if place.freed:
            return
        place.freed = True
        self._streams -= 1
        places = self._by_client[place.client]
        places.remove(place)
        if not places:
            del self._by_client[place.client]

    def _stop(self, place: _Place) -> None:
        """End a shed stream: wake it where it waits, or have the fan-out drop it."""
        with self._lock:
            waiter, handover = place.waiter, place.handover
            place.waiter = None
            self._waiters.discard(waiter)
        if handover is not None and self.fanout is not None:
            self.fanout.shed(handover)
        elif waiter is not None:
            waiter.release()

    def _ended(self, place: _Place) -> None:
        with self._lock:
            self._free(place)

    def _run(self, sent: int, connection: Callable[[], Connection | None] | None,
             stream: Stream, place: _Place) -> Iterator[bytes]:
        """``sent``: the version the client has (-1: none, send the current one first)."""
        try:
            yield f"retry: {self.retry_ms}\n\n".encode()
            if self.first is not None and sent < 0:
                sent, message = self.first()
                yield message
            while True:
                if self.fanout is not None and connection is not None and sent >= 0:
                    conn = connection()
                    if conn is not None:
                        # From here the fan-out thread writes (what the server
                        # had not sent yet first); the stream counts until it
                        # reports the client gone. The worker is free at once.
                        handover = self.fanout.adopt(conn.sock, conn.chunked, sent,
                                                     stream.hand_over(), release=conn.release)
                        with self._lock:
                            place.handover, shed = handover, place.shed
                        if shed:  # shed while it was being handed over
                            self.fanout.shed(handover)
                        return
                with self._lock:
                    if self._closed or place.shed:
                        return
                    version, message = self._version, self._message
                    waiter = None
                    # Behind the client too: its first message was newer.
                    if version <= sent or version < 0:
                        waiter = place.waiter = threading.Lock()
                        waiter.acquire()
                        self._waiters.add(waiter)
                if waiter is None:
                    sent = version
                    yield message
                elif not waiter.acquire(timeout=self.keepalive):
                    with self._lock:
                        self._waiters.discard(waiter)
                        place.waiter = None
                    # Written through the server, so a vanished client is noticed here.
                    yield b": keep-alive\n\n"
                else:
                    with self._lock:
                        place.waiter = None
        finally:
            stream.hand_over()()  # the slot, unless the fan-out has it now
