"""What web/fanout.py, app/connections.py and app/server.py take from waitress's internals,
on a real server.

The fan-out takes a live stream's connection over from waitress (see
web/fanout.py): it finds the channel behind ``waitress.client_disconnected``,
its ``socket`` and ``total_outbufs_len``, and sets ``connected = False`` to
make waitress let go without writing another byte. None of that is public
API, so pyproject.toml pins waitress to the tested range, and this test
fails when a release changes any of it: an upgrade then fails here instead
of on a phone (streams silently holding a worker each, or a stray closing
chunk in the middle of a handed-over stream). The hand-over never waits for
waitress to flush: it takes what waitress has not sent out of the channel's
``outbufs`` (their ``get(-1, True)``) under ``outbuf_lock`` and zeroes
``total_outbufs_len``; the last test checks that those bytes then reach the
client exactly once.
"""

from __future__ import annotations

import io
import queue
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask, Response, request, send_file
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.task import ErrorTask
from waitress.utilities import BadRequest, RequestEntityTooLarge, RequestHeaderFieldsTooLarge

from app.connections import FramingParser, GuardedChannel, JsonErrorTask
from app.server import WebServer
from web.app import MAX_BODY
from web.fanout import Connection, chunk, connection_of

FIRST = b"first message"
OURS = b"written by the fan-out"


class Handover:
    """A stream route that hands its connection over once the client has its first bytes."""

    def __init__(self) -> None:
        self.app = Flask(__name__)
        self.client_has_first = threading.Event()
        self.results: queue.Queue[Any] = queue.Queue()
        self.app.add_url_rule("/stream", view_func=self.stream)

    def stream(self) -> Response:
        environ = request.environ
        return Response(self.body(environ), mimetype="text/event-stream")

    def body(self, environ: dict[str, Any]) -> Iterator[bytes]:
        try:
            yield FIRST
            # The stream's own worker thread, after waitress wrote FIRST.
            if not self.client_has_first.wait(10):
                raise TimeoutError("the client never read the first bytes")
            probe = getattr(environ.get("waitress.client_disconnected"), "__self__", None)
            self.results.put({name: getattr(probe, name, "missing")
                              for name in ("socket", "total_outbufs_len", "connected")})
            # waitress may still be counting the sent bytes down for a moment
            # after the client has them; the broker tries again later, too.
            conn = connection_of(environ)
            settled = threading.Event()
            for _ in range(500):
                if conn is not None:
                    break
                settled.wait(0.01)
                conn = connection_of(environ)
            self.results.put(conn)
            if conn is not None:
                self.results.put(conn.sock.dup())  # as Fanout.adopt keeps it
                conn.release()
        except BaseException as err:
            self.results.put(err)
            raise

    def next_result(self) -> Any:
        result = self.results.get(timeout=10)
        if isinstance(result, BaseException):
            raise result
        return result


@pytest.fixture
def handover():
    h = Handover()
    server = WebServer(h.app, "127.0.0.1", 0, max_streams=1)
    yield h, server.port
    server.close()


def read_until(sock: socket.socket, data: bytes, end: bytes) -> tuple[bytes, bytes]:
    """Read until ``data`` holds ``end``: (up to and including it, the rest read).

    In linear time: a 10 MB answer read 4 KB at a time, copied and searched whole at
    each read, took the seconds the writer's timeout allows on a busy machine."""
    got = bytearray(data)
    at = got.find(end)
    while at < 0:
        more = sock.recv(4096)
        assert more, f"the connection closed before {end!r}; got {bytes(got[-200:])!r}"
        seen = max(0, len(got) - len(end) + 1)  # where a new `end` could begin
        got += more
        at = got.find(end, seen)
    return bytes(got[:at + len(end)]), bytes(got[at + len(end):])


def read_to_end(sock: socket.socket, data: bytes) -> bytes:
    got = bytearray(data)
    while more := sock.recv(4096):
        got += more
    return bytes(got)


@pytest.mark.parametrize("protocol", ["HTTP/1.1", "HTTP/1.0"])
def test_waitress_lets_the_fanout_take_a_stream_over(handover, protocol):
    h, port = handover
    chunked = protocol == "HTTP/1.1"
    first, ours_framed = (chunk(FIRST), chunk(OURS)) if chunked else (FIRST, OURS)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as phone:
        phone.sendall(f"GET /stream {protocol}\r\nHost: 127.0.0.1\r\n\r\n".encode())
        head, rest = read_until(phone, b"", b"\r\n\r\n")
        assert head.startswith(f"{protocol} 200".encode())
        # The fan-out frames its messages as waitress framed the first one.
        assert (b"transfer-encoding: chunked" in head.lower()) == chunked
        got, rest = read_until(phone, rest, first)
        assert got == first and rest == b""
        h.client_has_first.set()

        internals = h.next_result()
        assert isinstance(internals["socket"], socket.socket), internals
        assert isinstance(internals["total_outbufs_len"], int), internals
        assert internals["connected"] is True, internals
        conn = h.next_result()
        assert isinstance(conn, Connection), "waitress no longer hands the connection over"
        assert conn.chunked == chunked
        # It is this phone's connection.
        assert conn.sock.getpeername() == phone.getsockname()

        with h.next_result() as ours:
            ours.sendall(ours_framed)
        # Once released, waitress writes nothing more (not even the closing
        # chunk) and closes its own descriptor: with ours closed too, the
        # phone reads exactly the fan-out's bytes, then the end.
        assert read_to_end(phone, rest) == ours_framed


# --- what app/connections.py takes from waitress's internals ---------------------
#
# The connection guard is waitress's channel_class (a subclass of its
# HTTPChannel) and reads, on waitress's loop thread, the server's
# active_channels and map and each channel's requests, request,
# total_outbufs_len, will_close, connected and addr; its error task reads
# request.error. tests/hostile/test_web_server.py checks the behaviour; this
# checks the assumptions, so an upgrade that breaks one fails here by name.


@pytest.fixture
def guarded():
    app = Flask(__name__)
    serving, release = threading.Event(), threading.Event()

    @app.route("/slow")
    def slow() -> str:
        serving.set()
        release.wait(10)
        return "done"

    server = WebServer(app, "127.0.0.1", 0, max_streams=1)
    yield server._server, serving, release
    release.set()
    server.close()


def wait_for(predicate: Any, what: str) -> Any:
    done = threading.Event()
    for _ in range(500):
        if (found := predicate()) is not None:
            return found
        done.wait(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def test_waitress_keeps_what_the_connection_guard_reads(guarded):
    waitress, serving, release = guarded
    assert waitress.adj.max_request_body_size == MAX_BODY + 1
    # A refused chunked body holds up to one read past the bound: never spooled.
    adj = waitress.adj
    assert adj.inbuf_overflow >= adj.max_request_body_size + adj.recv_bytes
    with socket.create_connection(("127.0.0.1", waitress.effective_port), timeout=10) as sock:
        sock.sendall(b"GET /slow HTTP/1.1\r\n")

        def arriving():
            channels = list(waitress.active_channels.values())
            return next((c for c in channels if c.request is not None), None)

        channel = wait_for(arriving, "a channel with a request arriving")
        assert isinstance(channel, GuardedChannel)
        # The accept made it through channel_class, with the client's address.
        assert channel.addr[:2] == sock.getsockname()
        assert channel.requests == [] and channel.total_outbufs_len == 0
        assert channel.will_close is False and channel.connected is True
        # waitress's map: its connections, its listening socket and its wake-up pipe;
        # it stops accepting once that reaches connection_limit.
        assert channel._map is waitress._map
        assert len(waitress._map) == len(waitress.active_channels) + 2
        assert channel.waiting_since() is not None

        sock.sendall(b"Host: 127.0.0.1\r\n\r\n")
        assert serving.wait(10)
        # Being served: in requests until the answer is written.
        assert channel.request is None and len(channel.requests) == 1
        assert channel.waiting_since() is None
        release.set()
        assert read_until(sock, b"", b"\r\n\r\n")[0].startswith(b"HTTP/1.1 200")
        wait_for(lambda: True if not channel.requests else None, "the request to end")


def test_waitress_errors_go_through_the_channels_error_task():
    for error in (RequestEntityTooLarge, RequestHeaderFieldsTooLarge, BadRequest):
        err = error("why")
        assert isinstance(err.code, int) and isinstance(err.reason, str) and err.body == "why"
    assert GuardedChannel.error_task_class is JsonErrorTask
    assert issubclass(JsonErrorTask, ErrorTask)
    assert HTTPChannel.error_task_class is ErrorTask  # the attribute waitress uses


def test_waitress_parses_requests_with_the_channels_parser_class():
    """app/connections.py FramingParser: waitress makes each request's parser from the
    channel's ``parser_class``, pops TRANSFER_ENCODING into ``chunked`` (keeping
    CONTENT_LENGTH), and its task closes after a request whose CONNECTION is close."""
    assert GuardedChannel.parser_class is FramingParser
    assert issubclass(FramingParser, HTTPChannel.parser_class)
    parser = FramingParser(Adjustments())
    parser.received(b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                    b"Content-Length: 3\r\n\r\n")
    assert parser.chunked and "TRANSFER_ENCODING" not in parser.headers
    assert parser.headers["CONNECTION"] == "close"


def test_bytes_waitress_has_not_sent_are_handed_over_exactly_once():
    """A phone that does not read its first message: the hand-over takes the
    unsent bytes from waitress at once instead of holding the worker."""
    big = bytes(range(256)) * 40960  # 10 MB: more than the socket buffers can hold
    app = Flask(__name__)
    handed: queue.Queue[Any] = queue.Queue()

    def body(environ: dict[str, Any]) -> Iterator[bytes]:
        yield big
        conn = connection_of(environ)
        assert conn is not None
        ours = conn.sock.dup()
        unsent = conn.release()
        handed.put((ours, unsent))

    app.add_url_rule("/big", view_func=lambda: Response(body(request.environ)))
    server = WebServer(app, "127.0.0.1", 0, max_streams=1)
    assert server._server.adj.asyncore_use_poll is True
    try:
        with socket.socket() as phone:
            phone.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # reads slowly
            phone.settimeout(10)
            phone.connect(("127.0.0.1", server.port))
            phone.sendall(b"GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            ours, unsent = handed.get(timeout=10)  # the worker did not wait for the phone
            with ours:
                ours.settimeout(10)  # a duplicate shares waitress's non-blocking mode
                assert 0 < len(unsent) < len(big) + 100  # most of it was still waiting
                writer = threading.Thread(target=ours.sendall, args=(unsent + chunk(OURS),))
                writer.start()
                head, rest = read_until(phone, b"", b"\r\n\r\n")
                assert head.startswith(b"HTTP/1.1 200")
                got, rest = read_until(phone, rest, chunk(OURS))
                writer.join(10)
            assert got == chunk(big) + chunk(OURS) and read_to_end(phone, rest) == b""
    finally:
        server.close()


def test_closing_the_server_closes_a_file_it_was_still_sending():
    """app/server.py's close ends each connection with waitress's ``handle_close``,
    which closes its ``outbufs``: a file answer a client stopped reading is closed
    then, not left open for the collector (``wasyncore.close_all`` alone closes only
    the sockets)."""
    sent = io.BytesIO(bytes(range(256)) * 65536)  # 16 MB: more than the socket buffers
    app = Flask(__name__)
    app.add_url_rule("/file", view_func=lambda: send_file(sent, mimetype="text/plain"))
    server = WebServer(app, "127.0.0.1", 0, max_streams=1)
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(b"GET /file HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            head, body = read_until(sock, b"", b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200")
            while len(body) < 65536:  # the file is being sent from waitress's buffer
                body += sock.recv(65536)
            assert not sent.closed
            server.close()
            assert sent.closed
    finally:
        server.close()
