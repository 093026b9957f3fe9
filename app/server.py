"""Serving the web app (Flask, as WSGI) with Tornado, and the addresses to print.

Tornado (its documented ``add_accept_handler``, ``HTTP1ServerConnection`` and
``HTTPMessageDelegate``) parses every request on one asyncio loop thread and
keeps each connection within app/connections.py's bounds; the Flask app runs
on two small pools of worker threads, one for play (every change, the
phones' state and streams: :func:`plays_first`) and one for the reads that
can wait, so no queue of readers is ever ahead of the host's point. The
state, made from memory and waiting on nothing, is answered by the loop
itself (:func:`answered_at_once`): handing it to a worker and back cost more
than making it. A live stream's connection leaves the server once its first
message is written: the fan-out (web/fanout.py) writes every later message
to its socket.

What the server adds to the WSGI environ is its own (PEP 3333 allows a
server's keys): ``companion.connection``, a live stream's connection ready
for the fan-out (:func:`web.fanout.connection_of`), and ``companion.rest``,
which leaves the connection's next request unanswered for a while after a
429 or 503 with ``Retry-After`` (web/reads.py).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import email.utils
import errno
import fcntl
import ipaddress
import json
import logging
import os
import re
import resource
import socket
import struct
import threading
import time
from collections.abc import Callable, Coroutine, Iterable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any, TypeVar

from flask import Flask
from tornado import gen, httputil, iostream, netutil
from tornado.http1connection import HTTP1ConnectionParameters, HTTP1ServerConnection
from tornado.netutil import bind_sockets
from tornado.wsgi import WSGIContainer

from app.connections import DEFAULT_LIMITS, Book, Client, ConnectionLimits
from companion.config import ConfigError
from companion.errors import CompanionError
from companion.i18n import ENGLISH, Text, _, language, translate
from web.fanout import Connection
from web.guard import SECURITY_HEADERS
from web.i18n import of_environ
from web.reads import answered_at_once, plays_first

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Worker threads for play (twice as many for the reads that can wait). A live
#: stream holds one only while it writes its first message.
SPARE_THREADS = 8
#: Descriptors the process needs besides connections: the database and its
#: WAL, pipes, selectors, GPIO, the serial pad, logs.
OTHER_FILES = 64
#: The serving loop turns at least every second while it is alive; longer than
#: this means it is stuck.
STUCK_AFTER = 10.0
SIOCGIFADDR = 0x8915
#: Bytes of a chunked body read past the limit before the connection is dropped:
#: the 413 is sent as soon as the body grows past ``max_body``, and Tornado
#: reads (and throws away) at most this much more before it closes.
BODY_SLACK = 64 * 1024
#: Request headers Tornado reads, in multiples of ``max_headers``: those past the
#: bound are answered 431 with a message; past this many times it, the connection
#: is closed without a word (Tornado's own refusal).
HEADER_SLACK = 4
#: Requests waiting for a worker at which new connections are left in the kernel's
#: listen queue, and at which they are accepted again (see _Listener).
BEHIND = 4 * SPARE_THREADS
CAUGHT_UP = SPARE_THREADS
#: Bytes of an answer held back before they are written (see _Exchange._run_app). The
#: answer's last piece goes to the loop without the worker waiting; a piece before it
#: waits until the client took it. More than any answer the reads make (a history page,
#: a match's export: bytes kept in memory, held here by reference), so that a phone that
#: never reads holds no worker: sixteen such once held every read worker for the
#: answer timeout, and every other phone's pages waited.
HOLD = 1024 * 1024
#: The fields Tornado takes in a query string (its ParseUrlEncodedConfig.max_arguments):
#: a request with more is refused 400.
MOST_QUERY_FIELDS = 1000
#: A Host header missing (HTTP/1.1), given twice, or not a name and port (RFC 9112 3.2).
MALFORMED_HOST = _("malformed Host header: send the server's name or address, and a port "
                   "as digits")
#: A request target as RFC 3986 allows it: printable ASCII.
_URI = re.compile(r"[!-~]+")
#: Tornado's own time limits, as multiples of ours: a backstop only, ours strike first
#: and answer 408 (see _Exchanges).
BACKSTOP = 2
#: Linux's TCP_INFO (netinet/tcp.h), and where its ``tcpi_bytes_received`` (a u64,
#: Linux 4.1 on) lies in the ``struct tcp_info`` it gives.
TCP_INFO = getattr(socket, "TCP_INFO", 11)
_BYTES_RECEIVED = struct.Struct("=Q")
_BYTES_RECEIVED_AT = 128


class ServeError(CompanionError):
    """The web server cannot listen where it was told to; the message names the address."""


class WebServer:
    """The app served on its own thread, sized so ``max_streams`` SSE streams fit.

    A live stream holds a worker only while it writes its first message:
    then the fan-out takes its connection over (web/fanout.py), so the pools
    are small and constant. The process's open-file limit is checked against
    ``max_streams`` at start (ConfigError when it cannot be raised far enough).

    What each client may hold (request sizes, connections per address, time
    to send a request) is bounded by ``limits``: see app/connections.py.
    """

    def __init__(self, app: Flask, host: str, port: int, max_streams: int,
                 limits: ConnectionLimits = DEFAULT_LIMITS) -> None:
        """Listen on ``host``:``port`` and serve; ServeError naming the address if it cannot."""
        capacity = max_streams + 4 * SPARE_THREADS
        # Each stream keeps one descriptor in the fan-out; the server holds up
        # to ``capacity`` more (a stream being handed over has both).
        ensure_open_files(max_streams + capacity + OTHER_FILES, max_streams)
        try:
            sockets = bind_sockets(port, host or None, backlog=1024)
        except OSError as err:
            raise ServeError(_cannot_serve(host, port, err)) from None
        self.port = int(sockets[0].getsockname()[1])
        self.host = host
        self._app = app
        self._limits = limits
        self._book = Book(limits, capacity)
        self._play = ThreadPoolExecutor(SPARE_THREADS, thread_name_prefix="web-play")
        # As many as waitress's whole pool had before Tornado: web/reads.py's ReadGate
        # keeps one answering and up to ten waiting, and refuses the rest with 503.
        self._reads = ThreadPoolExecutor(2 * SPARE_THREADS, thread_name_prefix="web-read")
        self._container = WSGIContainer(app, executor=self._play)
        self._turned = time.monotonic()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._ready = threading.Event()
        self._stopped = False
        self._thread = threading.Thread(target=self._run, args=(sockets,), name="web-server",
                                        daemon=True)
        self._thread.start()
        self._ready.wait(30)

    # --- the loop thread -------------------------------------------------------------

    def _run(self, sockets: list[socket.socket]) -> None:
        try:
            asyncio.run(self._serve(sockets))
        except Exception:
            # Nothing can be served any more: say so, and let healthy() tell the watchdog.
            log.exception("the web server's loop failed; no request is served")
        finally:
            self._ready.set()
            for sock in sockets:
                sock.close()

    async def _serve(self, sockets: list[socket.socket]) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        limits = self._limits
        params = HTTP1ConnectionParameters(
            # Tornado reads up to HEADER_SLACK times the bound, so that headers past it
            # are answered 431 (headers_received); past that it closes the connection.
            max_header_size=HEADER_SLACK * limits.max_headers,
            # Our own timers answer 408 first (_Exchanges). The headers' time is ours
            # alone: a connection reads headers only while its timer is set, and
            # Tornado's own limit costs every request a timeout and a turn of the loop.
            # The body's is Tornado's too, as a backstop: after a 413 Tornado reads
            # what is left of the body (up to BODY_SLACK), and a client trickling it
            # would otherwise hold the connection; Tornado closes it without a word.
            body_timeout=BACKSTOP * limits.request_timeout,
            max_body_size=limits.max_body + BODY_SLACK,
        )
        server = _Listener(self, params, HEADER_SLACK * limits.max_headers + limits.max_body
                           + BODY_SLACK + 65536, sockets)
        self._ready.set()
        while not self._stopping.is_set():
            self._turned = time.monotonic()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), 1.0)
        server.stop()
        await server.close_all()
        self._play.shutdown(wait=False, cancel_futures=True)
        self._reads.shutdown(wait=False, cancel_futures=True)

    @property
    def language(self) -> str | None:
        """The app's own language (web/i18n.py ``setup``: the hall's ``--language``), said
        to a request that names none; None for a table's app (its phones speak their own)."""
        return language(self._app.config.get("COMPANION_LANGUAGE"))  # i18n: not said

    def healthy(self) -> bool:
        """Whether the server is serving: its thread alive and its loop turning."""
        return (self._thread.is_alive() and not self._stopped
                and time.monotonic() - self._turned < STUCK_AFTER)

    def close(self) -> None:
        """Stop accepting, close every connection, end the loop. Idempotent."""
        if self._stopped:
            return
        self._stopped = True
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None:
            with contextlib.suppress(RuntimeError):  # the loop has ended already
                loop.call_soon_threadsafe(stopping.set)
        self._thread.join(10)
        # A worker still in the app (a read waiting its turn) ends on its own; its
        # answer has nowhere to go.
        self._play.shutdown(wait=False, cancel_futures=True)
        self._reads.shutdown(wait=False, cancel_futures=True)


class _Listener:
    """The listening sockets: each connection admitted by the book and served as HTTP/1.1.

    Connections are accepted with Tornado's documented ``add_accept_handler``
    and each made an ``IOStream`` as its ``TCPServer`` does, but accepting
    pauses while the play workers are behind: while ``BEHIND`` requests or
    more wait for one (a live stream's start is play), new connections wait
    in the kernel's listen queue (1,024 long), where they cost the process
    nothing, and are accepted again once the workers have caught up to
    ``CAUGHT_UP``. A thousand phones
    opening their streams at once are then taken a few hundred at a time,
    not all together: each connection waiting for a worker holds Tornado's
    objects (its stream, connection, coroutines and parsed request, about 8
    KB), and what a burst of them made stays with the process after it as
    1 MB arenas of Python's kept by the streams made among them (measured:
    +9.4 MB of RSS for 1,000 streams opened at once, +1.4 MB for the same
    opened 50 at a time; docs/design.md, "The web edge"). Only the server's
    own backlog pauses it, never a client: a connection waiting for its
    client's request counts for nothing, so a stranger holding connections
    open cannot stop others being accepted.
    """

    def __init__(self, owner: WebServer, params: HTTP1ConnectionParameters,
                 max_buffer_size: int, sockets: list[socket.socket]) -> None:
        self.owner = owner
        self.params = params
        self.max_buffer_size = max_buffer_size
        self.connections: set[HTTP1ServerConnection] = set()
        self._sockets = sockets
        self._loop = asyncio.get_running_loop()
        #: Removes each socket's accept handler (none while paused or stopped).
        self._removers: list[Callable[[], None]] = []
        self._stopped = False
        #: Requests handed to the pools, and begun by a worker; under ``_lock``, as is
        #: ``_paused`` (a worker resumes what the loop paused).
        self._lock = threading.Lock()
        self._queued = 0
        self._begun = 0
        self._paused = False
        self._listen()

    def _listen(self) -> None:
        """Accept on every socket (loop thread); nothing if accepting already or stopped."""
        if self._stopped or self._removers:
            return
        self._removers = [netutil.add_accept_handler(sock, self._accepted)
                          for sock in self._sockets]

    def _pause(self) -> None:
        for remove in self._removers:
            remove()
        self._removers = []

    def stop(self) -> None:
        """Accept no more connections (the sockets are closed by the server's thread)."""
        self._stopped = True
        self._pause()

    def _accepted(self, sock: socket.socket, address: Any) -> None:
        # Reads of 8 KB, as a request is ~1 KB: a thousand phones connecting at once
        # each had a 64 KB buffer (Tornado's default) in RSS that stayed.
        stream = iostream.IOStream(sock, max_buffer_size=self.max_buffer_size,
                                   read_chunk_size=8192)
        try:
            self.handle_stream(stream, address)
        except Exception:  # one connection's failure never stops the accepting
            log.exception("a new connection from %s could not be served", address)
            stream.close()

    def queued(self) -> None:
        """A request was handed to the play pool (loop thread): accepting pauses if the
        workers are ``BEHIND``. The reads' pool is not counted: a burst of readers is
        bounded per address and by web/reads.py's gate, and a host's new connection
        must not wait for the reads queued before it."""
        with self._lock:
            self._queued += 1
            pause = not self._paused and self._queued - self._begun >= BEHIND
            if pause:
                self._paused = True
        if pause:
            self._pause()

    def begun(self) -> None:
        """A play worker began a request (worker thread): accept again if the workers have
        caught up since accepting paused."""
        with self._lock:
            self._begun += 1
            resume = self._paused and self._queued - self._begun <= CAUGHT_UP
            if resume:
                self._paused = False
        if resume:
            with contextlib.suppress(RuntimeError):  # the loop has ended: nothing to accept
                self._loop.call_soon_threadsafe(self._listen)

    def handle_stream(self, stream: iostream.IOStream, address: Any) -> None:
        host = address[0] if isinstance(address, tuple) else str(address)
        client = Client(host, close=stream.close)
        if not self.owner._book.admit(client):
            stream.close()  # every connection of its address is being answered
            return
        connection = HTTP1ServerConnection(stream, self.params, client)
        self.connections.add(connection)
        exchanges = _Exchanges(self.owner, client, connection, self, stream)
        connection.start_serving(exchanges)
        exchanges.expect_request()

    async def close_all(self) -> None:
        for connection in list(self.connections):
            await connection.close()


class _Exchanges(httputil.HTTPServerConnectionDelegate):
    """One connection's requests, one after another, each within its time.

    A request's headers must all arrive within ``idle_timeout`` of the
    connection's opening or its last answer, and its body within
    ``request_timeout`` of its headers. One that does not is answered ``408
    Request Timeout`` (JSON, as every refusal) and its connection closed: a
    client whose request was cut short (HTTP/0.9, a line ended by a bare LF
    where CRLF must be, a body shorter than its length) hears why. A
    connection on which nothing of a next request arrived is closed without
    a word: a keep-alive connection left idle is not an error, and an answer
    there would be read as the answer to the request a client sends next.
    """

    def __init__(self, owner: WebServer, client: Client, connection: HTTP1ServerConnection,
                 listener: _Listener, stream: iostream.IOStream) -> None:
        self.owner, self.client = owner, client
        self.connection, self.listener, self.stream = connection, listener, stream
        self._loop = listener._loop
        #: When the client's time is up (the loop's clock; None: the server's turn), and
        #: whether it is a body's time. One timer rings for it (see _expect).
        self._due: float | None = None
        self._body = False
        self._timer: asyncio.TimerHandle | None = None
        #: Bytes received on the connection up to the end of its last whole request.
        self._received = 0

    def start_request(self, server_conn: object,
                      request_conn: httputil.HTTPConnection) -> httputil.HTTPMessageDelegate:
        return _Exchange(self.owner, self, request_conn)

    def on_close(self, server_conn: object) -> None:
        self.end_timer()
        self.listener.connections.discard(self.connection)
        self.owner._book.gone(self.client)

    # --- the request's time (loop thread) ---------------------------------------------

    def expect_request(self) -> None:
        """The client's turn: its next request's headers are due within ``idle_timeout``."""
        self.client.since = time.monotonic()
        self._expect(self.owner._limits.idle_timeout, body=False)

    def complete(self) -> None:
        """A request arrived whole: its bytes are all in, the next one's begin after them."""
        self.stop_timer()
        self._received = bytes_received(self.stream) or 0

    def expect_body(self, rest: float) -> None:
        """The headers are in: the body is due ``request_timeout`` after them (and after
        ``rest``, the time the server makes the request wait)."""
        self._expect(rest + self.owner._limits.request_timeout, body=True)

    def stop_timer(self) -> None:
        """The request is complete (or refused): the server's turn. The timer stays set
        and finds nothing due when it rings, unless a next request is due by then."""
        self._due = None

    def end_timer(self) -> None:
        """The connection is gone or handed over: nothing is due on it any more."""
        self._due = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _expect(self, seconds: float, body: bool) -> None:
        # Requests come and go far faster than their time runs out, so the timer is
        # not set again for each: it rings at the earliest time that was due, and is
        # set again then for the time due now (one timer per connection's 15 s, not
        # two for each request, on the loop that parses every request).
        loop = self._loop
        due = loop.time() + seconds
        self._due, self._body = due, body
        timer = self._timer
        if timer is not None:
            if timer.when() <= due:
                return
            timer.cancel()
        self._timer = loop.call_at(due, self._ring)

    def _ring(self) -> None:
        self._timer = None
        due = self._due
        if due is None:
            return  # the server's turn: the next request sets the timer again
        if self._loop.time() < due:
            self._timer = self._loop.call_at(due, self._ring)
            return
        self._due = None
        self._too_late(self._body)

    def _too_late(self, body: bool) -> None:
        stream = self.stream
        if stream.closed():
            return
        received = bytes_received(stream)
        if not body and received is not None and received <= self._received:
            stream.close()  # idle: nothing of a next request came
            return
        # Part of a request came (or this system cannot tell: say why rather than not).
        limits = self.owner._limits
        # No headers came whole to say a language by: the app's own (the hall's
        # --language), else English, as every refusal's order ends (web/i18n.py). A
        # table's app has none: its phones speak their own, not the OLED's.
        said = _("the request's body did not all arrive within {seconds} s; send the whole "
                 "request at once", seconds=f"{limits.request_timeout:g}") if body \
            else _("the request's request line and headers did not all arrive within "
                   "{seconds} s; send the whole request at once",
                   seconds=f"{limits.idle_timeout:g}")
        answer = refusal_bytes(408, translate(said, self.owner.language or ENGLISH))
        try:
            written = stream.write(answer)
        except iostream.StreamClosedError:
            return
        # Closed once the answer is out, or at answer_timeout if the client never takes it.
        dropping = asyncio.get_running_loop().call_later(limits.answer_timeout, stream.close)

        def out(_: object) -> None:
            dropping.cancel()
            stream.close()
        written.add_done_callback(out)


class _Exchange(httputil.HTTPMessageDelegate):
    """One request: its bounds checked as it arrives, then the app's answer written.

    The app runs on a worker thread; each piece of its answer is written by
    the loop. For a piece before the last (a large answer) the worker waits
    until the client has taken it; the last is handed to the loop and the
    worker is free (one crossing per answer). Either way a client that stops
    reading holds its answer at most ``answer_timeout``, then loses its
    connection.
    """

    def __init__(self, owner: WebServer, exchanges: _Exchanges,
                 conn: httputil.HTTPConnection) -> None:
        self.owner, self.exchanges, self.conn = owner, exchanges, conn
        self.client = exchanges.client
        self.start_line: httputil.RequestStartLine | None = None
        self.headers: httputil.HTTPHeaders | None = None
        self.body: list[bytes] = []
        self.size = 0
        #: Answered by the server itself (a refusal): the app never sees the request.
        self.refused = False
        self.gone = False
        self.handed_over = False
        #: The connection closes once the answer is out (a request refused as malformed).
        self._close_after = False
        #: Answered by the loop itself (web/reads.py answered_at_once), not a worker.
        self._at_once = False
        #: Counted among the requests waiting for a play worker (see _Listener).
        self._counted = False
        #: The app's status and headers (None once sent), and the pieces of its body
        #: held back (see _run_app): the worker's.
        self._answer_of: list[Any] = []
        self._held: list[bytes] = []
        self._held_size = 0

    # --- the request arriving (loop thread) -------------------------------------------

    def headers_received(self, start_line: httputil.RequestStartLine | httputil.ResponseStartLine,
                         headers: httputil.HTTPHeaders) -> Any:
        assert isinstance(start_line, httputil.RequestStartLine)
        self.start_line, self.headers = start_line, headers
        self.client.since = None  # being answered: the server's turn, not the client's
        limits = self.owner._limits
        size = len(start_line.method) + len(start_line.path) + len(start_line.version) + 4 \
            + sum(len(name) + len(value) + 4 for name, value in headers.get_all())
        if size > limits.max_headers:
            return self._refuse_now(431, _("request headers too large: send at most "
                                           "{most} bytes of request line and headers",
                                           most=limits.max_headers))
        if not _URI.fullmatch(start_line.path):
            # Tornado reads the request line as Latin-1: a byte past ASCII would reach
            # the app as text no URL decodes (RFC 3986: a URI is printable ASCII).
            return self._refuse_now(400, _("the request target is not a URI: send only "
                                           "printable ASCII, percent-encoding the rest"))
        coding = headers.get("Transfer-Encoding")  # i18n: not said (a header)
        if coding is not None and coding.strip().lower() != "chunked":
            return self._refuse_now(400, _("unsupported Transfer-Encoding: send the body "
                                           "with a Content-Length or as "
                                           "Transfer-Encoding: chunked"))
        if coding is not None and ("Content-Length" in headers  # i18n: not said (a header)
                                   or start_line.version != "HTTP/1.1"):
            # Framed two ways, or chunked in HTTP/1.0: what follows on this connection
            # could be a smuggled request (RFC 9112 6.1); Tornado refuses such a body.
            return self._refuse_now(400, _("a request may have a Content-Length or "
                                           "Transfer-Encoding: chunked, not both"))
        length = headers.get("Content-Length")  # i18n: not said (a header)
        if length is not None:
            digits = length.strip()
            if not digits.isdigit():
                return self._refuse_now(400, _("Content-Length must be a whole number of "
                                               "bytes"))
            # More digits than the limit has is more than the limit (and int() refuses a
            # number of thousands of digits).
            if len(digits.lstrip("0")) > len(str(limits.max_body)) \
                    or int(digits) > limits.max_body:
                # Never 100 Continue: the answer comes before any of the body.
                return self._refuse_now(413, _("request body too large: send at most {most} "
                                               "bytes", most=limits.max_body))
        rest = self.client.rest_left()
        if coding is not None or (length is not None and int(length) > 0):
            self.exchanges.expect_body(rest)
        else:
            self.exchanges.stop_timer()
        if rest > 0:
            return asyncio.sleep(rest)
        return None

    def data_received(self, chunk: bytes) -> None:
        if self.refused:
            return
        self.size += len(chunk)
        if self.size > self.owner._limits.max_body:
            # Tornado reads what is left (up to BODY_SLACK more) and then closes.
            self.refused = True
            self.body = []
            self._write_refusal(413, _("request body too large: send at most {most} bytes",
                                       most=self.owner._limits.max_body))
            return
        self.body.append(chunk)

    def finish(self) -> None:
        if self.refused:
            return
        assert self.start_line is not None and self.headers is not None
        self.exchanges.complete()
        line = self.start_line
        path = line.path.partition("?")[0]
        if answered_at_once(line.method, path):
            self._at_once = True
            self._work(asyncio.get_running_loop())
            return
        pool = self.owner._play if plays_first(line.method, path) else self.owner._reads
        # The worker makes the request and its environ: a burst of a thousand phones
        # opening their streams at once queues only what was parsed (the request line
        # and headers), and the loop, which parses for every connection, does no more.
        if pool is self.owner._play:  # counted before a worker may begin it
            self._counted = True
            self.exchanges.listener.queued()
        try:
            pool.submit(self._work, asyncio.get_running_loop())
        except RuntimeError:  # the server is closing
            self._close()

    def on_connection_close(self) -> None:
        self.gone = True

    # --- refusals by the server itself (loop thread) ----------------------------------

    def _write_refusal(self, status: int, message: str) -> None:
        """``message`` in the language the request's headers ask (its ``?lang``, the
        language cookie, the app's own, ``Accept-Language``: web/i18n.py's order)."""
        self.exchanges.stop_timer()
        body = json.dumps({"error": translate(message, self._language())}).encode()
        headers = httputil.HTTPHeaders(dict(refusal_fields(body)))
        self.conn.write_headers(httputil.ResponseStartLine("HTTP/1.1", status,
                                                           httputil.responses[status]),
                                headers, body)
        self.conn.finish()

    def _language(self) -> str:
        """The language the request's headers ask for (English before they came)."""
        headers, line = self.headers, self.start_line
        if headers is None or line is None:
            return ENGLISH
        # A target that is no URI (bytes past ASCII) has no query to read a language from.
        query = line.path.partition("?")[2] if _URI.fullmatch(line.path) else ""
        environ = {"QUERY_STRING": query,
                   "HTTP_COOKIE": headers.get("Cookie", ""),  # i18n: not said
                   "HTTP_ACCEPT_LANGUAGE": headers.get("Accept-Language", "")}  # i18n: not said
        return of_environ(environ, self.owner.language)

    def _refuse_now(self, status: int, message: str) -> None:
        """Answer from the headers alone and close, reading none of the body."""
        self.refused = True
        self._write_refusal(status, message)
        # Tornado would go on to read (or refuse again) the body: the connection is
        # taken from it instead (detach, documented for use here) and closed once the
        # answer is out.
        stream = self.conn.detach()  # type: ignore[attr-defined]
        self.owner._book.gone(self.client)
        try:
            flushed = stream.write(b"")  # done once everything written before is out
        except iostream.StreamClosedError:
            return  # the client left already
        flushed.add_done_callback(lambda _: stream.close())

    # --- the app's answer ---------------------------------------------------------------

    def _work(self, loop: asyncio.AbstractEventLoop) -> None:
        """On a worker thread: the app's answer to the request, written through the loop.

        The answer's last piece goes to the loop without waiting for it (one
        crossing from worker to loop per answer, the worker free at once);
        the loop then waits for the client to take it, at most
        ``answer_timeout``. An answer made at once (web/reads.py
        ``answered_at_once``) is made here on the loop itself and written whole.
        """
        if self._counted:
            self.exchanges.listener.begun()
        assert self.start_line is not None and self.headers is not None
        try:
            request = httputil.HTTPServerRequest(
                connection=self.conn, start_line=self.start_line, headers=self.headers,
                body=b"".join(self.body))
        except httputil.HTTPInputError:
            # Tornado checks the Host (one, well formed: RFC 9112 3.2) and the query here.
            request = None
        self.body = []
        try:
            if request is None:
                self._refuse_here(loop, self._input_problem())
                return
            self._answer(request, loop)
        except iostream.StreamClosedError:
            return  # the client left, or the server is closing
        except Exception:
            log.exception("answering %s %s failed", self.start_line.method,
                          self.start_line.path)
            with contextlib.suppress(RuntimeError):  # the loop has ended already
                loop.call_soon_threadsafe(self._close)

    def _input_problem(self) -> Text:
        """What is wrong with a request Tornado would not make: its query's fields past
        Tornado's limit, else its Host (none, several, or not a name and port)."""
        assert isinstance(self.start_line, httputil.RequestStartLine)
        if self.start_line.path.partition("?")[2].count("&") >= MOST_QUERY_FIELDS:
            return _("malformed query string: send at most {most} name=value pairs",
                     most=MOST_QUERY_FIELDS)
        return MALFORMED_HOST

    def _refuse_here(self, loop: asyncio.AbstractEventLoop, message: Text) -> None:
        """On the request's thread: answer 400 naming ``message``, and close."""
        body = json.dumps({"error": translate(message, self._language())}).encode()
        self._answer_of = ["400 Bad Request", refusal_fields(body)]  # i18n: not said
        self._held = [body]
        self._close_after = True  # its "Connection: close" is said, not done, by Tornado
        self._send_last(loop)

    def _answer(self, request: httputil.HTTPServerRequest,
                loop: asyncio.AbstractEventLoop) -> None:
        try:
            environ = self.owner._container.environ(request)
        except ValueError:  # a Host header with a port that is no number
            self._refuse_here(loop, MALFORMED_HOST)
            return
        client = self.client
        environ["companion.connection"] = self._no_stream if self._at_once \
            else lambda: self._hand_over_from(loop)
        environ["companion.rest"] = \
            lambda seconds: loop.call_soon_threadsafe(client.rest, seconds)
        self._run_app(environ, loop)

    def _run_app(self, environ: dict[str, Any], loop: asyncio.AbstractEventLoop) -> None:
        """On a worker thread (or the loop, for an answer made at once): call the app and
        write its answer through the loop.

        Pieces of the answer are held back up to HOLD bytes and written together, so
        that an answer (one piece, or a few) and a stream's start (its retry line and first
        message, written as it is handed over) take one turn of the loop, and the worker
        is free once it has made them.
        """
        answer = self._answer_of = []

        def start_response(status: str, headers: list[tuple[str, str]],
                           exc_info: Any = None) -> Callable[[bytes], None]:
            if exc_info is not None and answer and answer[0] is None:
                raise exc_info[1].with_traceback(exc_info[2])
            answer[:] = [status, headers]

            def write(data: bytes) -> None:
                self._held.append(data)
                if not self._at_once:  # the loop cannot wait for itself: all goes at the end
                    self._send(loop)
            return write

        body: Iterable[bytes] = self.owner._app(environ, start_response)
        try:
            for data in body:
                if self.handed_over:
                    break
                if data:
                    self._held.append(data)
                    self._held_size += len(data)
                    if self._held_size > HOLD and not self._at_once:
                        self._send(loop)
            if not self.handed_over:
                self._send_last(loop)
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()

    def _take(self) -> tuple[Any, bytes]:
        """The headers (None once sent) and the pieces held back, to write now."""
        start: Any = None
        answer = self._answer_of
        if answer and answer[0] is not None:
            status, headers = answer
            code, _, reason = status.partition(" ")
            fields = httputil.HTTPHeaders(headers)
            # RFC 9110 6.6.1: a server with a clock sends one.
            if "Date" not in fields:  # i18n: not said
                fields["Date"] = http_date()  # i18n: not said
            start = (httputil.ResponseStartLine("HTTP/1.1", int(code), reason), fields)
            answer[0] = None  # sent
        data = b"".join(self._held)
        self._held, self._held_size = [], 0
        return start, data

    def _send(self, loop: asyncio.AbstractEventLoop) -> None:
        """Write what is held back (with the headers first), waiting until the client
        took it."""
        start, data = self._take()
        self._on_loop(loop, lambda: self._write(start, data))

    def _send_last(self, loop: asyncio.AbstractEventLoop) -> None:
        """Hand the answer's last piece to the loop, and the worker is done."""
        start, data = self._take()
        if self.owner._stopped:
            raise iostream.StreamClosedError()
        if self._at_once:
            self._write_last(start, data)
            return
        try:
            loop.call_soon_threadsafe(self._write_last, start, data)
        except RuntimeError:  # the loop has ended: nowhere to answer
            raise iostream.StreamClosedError() from None

    def _write_last(self, start: Any, data: bytes) -> None:
        """On the loop: the answer's last piece; the client's turn once it has taken it."""
        if self.gone:
            return
        try:
            written = self._write_now(start, data)
            self.conn.finish()
        except iostream.StreamClosedError:
            self._close()
            return
        if written is None or written.done():
            self._taken(written)
            return
        dropping = asyncio.get_running_loop().call_later(
            self.owner._limits.answer_timeout, self._close)

        def out(done: asyncio.Future[None]) -> None:
            dropping.cancel()
            self._taken(done)
        written.add_done_callback(out)

    def _taken(self, written: asyncio.Future[None] | None) -> None:
        """The answer is out (or could not be): wait for the next request, or close."""
        if written is not None and (written.cancelled() or written.exception() is not None):
            self._close()  # the client left before taking it all
        elif self._close_after:
            self._close()
        elif not self.gone and not self.exchanges.stream.closed():
            self.exchanges.expect_request()

    def _write_now(self, start: Any, data: bytes) -> asyncio.Future[None] | None:
        if start is not None:
            line, fields = start
            return self.conn.write_headers(line, fields, data or None)
        if data:
            return self.conn.write(data)
        return None

    async def _write(self, start: Any, data: bytes) -> None:
        if self.gone:
            raise iostream.StreamClosedError()
        written = self._write_now(start, data)
        if written is None:
            return
        try:
            await gen.with_timeout(timedelta(seconds=self.owner._limits.answer_timeout),
                                   written, quiet_exceptions=iostream.StreamClosedError)
        except TimeoutError:
            # The client stopped taking its answer: drop it and the connection.
            self._close()
            raise iostream.StreamClosedError() from None

    def _close(self) -> None:
        self.gone = True
        self.exchanges.end_timer()
        self.client.since = None
        self.owner._book.gone(self.client)
        self.client.close()

    # --- a live stream leaving the server ---------------------------------------------

    def _no_stream(self) -> Connection | None:
        raise RuntimeError("a request answered at once (web/reads.py AT_ONCE) cannot start "
                           "a stream: it is made on the server's loop")

    def _hand_over_from(self, loop: asyncio.AbstractEventLoop) -> Connection | None:
        """On the worker thread: the stream's connection, taken from Tornado for the
        fan-out once what was written is out (None: the client left meanwhile)."""
        start, data = self._take()  # the stream's start: headers, retry, first message
        return self._on_loop(loop, lambda: self._hand_over(start, data))

    def _on_loop(self, loop: asyncio.AbstractEventLoop,
                 make: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """On a worker thread: run ``make()`` on the loop and wait for its result;
        StreamClosedError once the server is closing (nowhere to answer)."""
        if self.owner._stopped or loop.is_closed():
            raise iostream.StreamClosedError()
        work = make()
        try:
            done = asyncio.run_coroutine_threadsafe(work, loop)
        except RuntimeError:  # the loop closed meanwhile
            work.close()
            raise iostream.StreamClosedError() from None
        try:
            # Every write ends within answer_timeout; a loop that stopped never answers.
            return done.result(timeout=self.owner._limits.answer_timeout + STUCK_AFTER)
        except (concurrent.futures.TimeoutError, concurrent.futures.CancelledError):
            raise iostream.StreamClosedError() from None

    async def _hand_over(self, start: Any, data: bytes) -> Connection | None:
        assert self.start_line is not None
        if start is not None or data:
            await self._write(start, data)
        chunked = self.start_line.version == "HTTP/1.1"
        # detach() is Tornado's documented way to take a connection from HTTP (as its
        # websockets do): from here the fan-out writes the response's next chunks.
        stream = self.conn.detach()  # type: ignore[attr-defined]
        self.handed_over = True
        self.exchanges.end_timer()
        self.owner._book.gone(self.client)
        held = None if stream is None or stream.closed() else stream.fileno()
        try:
            # An IOStream's fileno() is its socket object itself.
            sock = held.dup() if isinstance(held, socket.socket) \
                else socket.socket(fileno=os.dup(int(held)))  # type: ignore[arg-type]
        except (OSError, TypeError):
            # The client left meanwhile: a closed socket, which the fan-out finds
            # closed and ends the stream with (its place is free at once).
            sock = socket.socket()
            sock.close()
        if stream is not None:
            stream.close()  # its descriptor only: the duplicate keeps the connection

        def release() -> bytes:
            sock.close()
            return b""

        return Connection(sock, chunked, release)


def refusal_fields(body: bytes) -> list[tuple[str, str]]:
    """The headers of a refusal whose JSON is ``body``, the security headers every answer
    carries among them: the connection closes after it."""
    return [("Content-Type", "application/json"),  # i18n: not said
            ("Content-Length", str(len(body))), ("Connection", "close"),  # i18n: not said
            ("Date", http_date()), *SECURITY_HEADERS]  # i18n: not said


def refusal_bytes(status: int, message: str) -> bytes:
    """A whole answer refusing a request, as bytes: JSON naming ``message``, and the
    connection closes after it."""
    body = json.dumps({"error": message}).encode()
    head = f"HTTP/1.1 {status} {httputil.responses[status]}\r\n" + "".join(
        f"{name}: {value}\r\n" for name, value in refusal_fields(body)) + "\r\n"
    return head.encode("ascii") + body


def bytes_received(stream: iostream.IOStream) -> int | None:
    """Bytes the kernel has received on ``stream``'s connection so far (Linux's TCP_INFO);
    None where the system does not say (not Linux, or before 4.1)."""
    try:
        info = stream.socket.getsockopt(socket.IPPROTO_TCP, TCP_INFO, 256)
    except (OSError, AttributeError):
        return None
    if len(info) < _BYTES_RECEIVED_AT + _BYTES_RECEIVED.size:
        return None
    return int(_BYTES_RECEIVED.unpack_from(info, _BYTES_RECEIVED_AT)[0])


_date: tuple[int, str] = (0, "")


def http_date() -> str:
    """Now as an HTTP date (RFC 9110 5.6.7), made once a second."""
    global _date
    now = int(time.time())
    if _date[0] != now:
        _date = (now, email.utils.formatdate(now, usegmt=True))
    return _date[1]


def _cannot_serve(host: str, port: int, err: OSError) -> Text:
    """Why the server could not listen, and what to change, as one line (said in the
    language of whoever reads it: the command line's, app/terminal.py)."""
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    where = _("--host or [web] host; 0.0.0.0 serves on every address")
    if isinstance(err, socket.gaierror):
        return _("cannot serve on {address}: {host} is not an address of this machine "
                 "({reason}); use one of its addresses or names ({where})", address=address,
                 host=repr(host), reason=err.strerror or str(err), where=where)
    if err.errno == errno.EADDRINUSE:
        return _("cannot serve on {address}: the port is already in use (another companion "
                 "running?); stop that program or choose another port (--port or [web] port)",
                 address=address)
    if err.errno == errno.EADDRNOTAVAIL:
        return _("cannot serve on {address}: {host} is not an address of this machine; use "
                 "one of its addresses ({where})", address=address, host=host, where=where)
    if err.errno == errno.EACCES and 0 < port < 1024:
        return _("cannot serve on {address}: ports below 1024 need root; choose a port from "
                 "1024 up (--port or [web] port)", address=address)
    return _("cannot serve on {address}: {reason}", address=address,
             reason=err.strerror or str(err))


def ensure_open_files(needed: int, max_streams: int) -> None:
    """Raise the soft open-file limit to ``needed`` if it is lower, within the hard limit.

    ConfigError naming ``[web] max_streams`` when the hard limit is too low.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return
    if hard != resource.RLIM_INFINITY and hard < needed:
        raise ConfigError(_(
            "[web] max_streams = {streams} needs about {needed} open files, but this process "
            "may open at most {most} (RLIMIT_NOFILE); lower [web] max_streams to {fits} or "
            "raise the limit (LimitNOFILE= in the systemd unit, ulimit -n)",
            streams=max_streams, needed=needed, most=hard,
            fits=max(1, (hard - OTHER_FILES - 4 * SPARE_THREADS) // 2)))
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    log.info("open-file limit raised from %d to %d for [web] max_streams = %d",
             soft, needed, max_streams)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (Linux interface list)."""
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR,
                                     struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue  # the interface has no IPv4 address
            address = socket.inet_ntoa(packed[20:24])
            if not ipaddress.ip_address(address).is_loopback:
                found.append(address)
    return found


def page_urls(host: str, port: int) -> list[str]:
    """Base URLs a phone can use: the bound address, or every LAN address and the .local name."""
    if host in ("0.0.0.0", "::", ""):
        hosts = [*lan_addresses(), f"{socket.gethostname()}.local"]
    else:
        hosts = [f"[{host}]" if ":" in host else host]
    return [f"http://{h}:{port}/" for h in hosts]
