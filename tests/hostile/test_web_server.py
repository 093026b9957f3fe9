"""A hostile phone on the Wi-Fi against the real server (app/server.py, app/connections.py).

Oversize bodies and headers are refused before they are buffered; slow and
idle connections, from one address or from many, never lock out the host,
a phone's stream or a new phone. Other phones are other loopback addresses
(all of 127/8 is loopback on Linux).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import os
import socket
import tempfile
import threading
import time
from pathlib import Path

import pytest

from app.connections import ConnectionLimits
from app.server import WebServer
from tests.web.conftest import START, app, clock, runner, services  # noqa: F401 (fixtures)
from tests.web.sse import SseClient
from tests.web.test_server import HttpHost

LIMITS = ConnectionLimits(per_address=4, request_timeout=1.0, idle_timeout=2.0)
#: Timeouts that never strike within a test: only the connection bounds act.
PATIENT = ConnectionLimits(per_address=4, request_timeout=60.0, idle_timeout=60.0)
#: The attacker's address; the host and the phones use 127.0.0.1.
ATTACKER = "127.0.0.9"


def serve(app, limits: ConnectionLimits):  # noqa: F811 (the fixture imported above)
    # max_streams=3: the server holds 35 connections at most.
    s = WebServer(app, "127.0.0.1", 0, max_streams=3, limits=limits)
    yield s
    app.extensions["companion.broker"].close()
    s.close()


@pytest.fixture
def server(app):  # noqa: F811
    yield from serve(app, LIMITS)


@pytest.fixture
def patient_server(app):  # noqa: F811
    yield from serve(app, PATIENT)


def connect(port: int, source: str = "127.0.0.1", timeout: float = 5.0) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                    source_address=(source, 0))


def answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """The server's answer on ``sock``: status, headers (lower-case names), body."""
    response = http.client.HTTPResponse(sock)
    try:
        response.begin()
        return (response.status, {k.lower(): v for k, v in response.getheaders()},
                response.read())
    finally:
        response.close()


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed ``sock`` (the end read, or a reset) within its timeout."""
    try:
        while sock.recv(4096):
            pass
    except ConnectionResetError:
        pass
    except TimeoutError:
        return False
    return True


def json_error(status: int, headers: dict[str, str], body: bytes) -> str:
    assert headers["content-type"] == "application/json", (status, headers, body)
    return json.loads(body)["error"]


def spooled(folder: Path) -> list[str]:
    """This process's open files in ``folder`` (a spooled body would be one)."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(folder)):
            found.append(target)
    return found


@pytest.fixture
def spool(tmp_path, monkeypatch):
    """Where temporary files go during the test (a server spooling bodies puts them there)."""
    folder = tmp_path / "spool"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


# --- item 1: bodies and headers ---------------------------------------------------


def test_an_oversize_content_length_is_refused_before_its_body(server):
    with connect(server.port) as sock:
        sock.sendall(b"POST /api/action HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 100000000\r\n\r\n")
        # Not one byte of the body sent: the answer comes from the headers alone.
        status, headers, body = answer(sock)
    assert status == 413
    assert "at most 16384 bytes" in json_error(status, headers, body)


def test_an_oversize_chunked_body_is_refused_as_it_arrives(patient_server, spool):
    # The patient server: the body arrives at once but is read a piece a turn of the loop,
    # and under load those turns can be more than LIMITS' 1 s request time apart;
    # that timeout would then close the connection unanswered. The bound under test
    # is the size.
    with connect(patient_server.port) as sock:
        sock.sendall(b"POST /api/action HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        sock.sendall(b"%X\r\n%s\r\n" % (20_000, b"x" * 20_000))  # no last chunk: more to come
        status, headers, body = answer(sock)
    assert status == 413
    assert "at most 16384 bytes" in json_error(status, headers, body)
    assert spooled(spool) == []


def test_a_body_at_the_limit_still_reaches_the_app(server):
    host = HttpHost(server.port)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    try:
        conn.request("POST", "/api/match", body=b" " * 16384,
                     headers={"Content-Type": "application/json", "Cookie": host.cookie,
                              "X-CSRF-Token": host.csrf})
        response = conn.getresponse()
        status, body = response.status, json.loads(response.read())
    finally:
        conn.close()
    # The app's own answer (16 KB of blanks is no start record), not the server's 413.
    assert status == 400 and "error" in body


def test_held_uploads_leave_nothing_behind(server, spool):
    host = HttpHost(server.port)
    uploads = [connect(server.port, f"127.0.0.{10 + i}") for i in range(5)]
    try:
        for sock in uploads:
            sock.sendall(b"POST /api/action HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 100000000\r\n\r\n")
        for sock in uploads:
            status, _, body = answer(sock)
            assert status == 413, (status, body)
            # The server is done with this client: what it sends now goes nowhere.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                sock.sendall(b"x" * 1_000_000)
            assert closed_by_server(sock)
        assert spooled(spool) == []
        status, _, _ = host.post("/api/match", START)
        assert status == 200
    finally:
        for sock in uploads:
            sock.close()


def test_oversize_headers_get_a_json_431(server):
    with connect(server.port) as sock:
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: "
                     + b"a" * 20_000 + b"\r\n\r\n")
        status, headers, body = answer(sock)
    assert status == 431
    assert "at most 16384 bytes" in json_error(status, headers, body)


def test_a_request_the_server_cannot_parse_gets_a_400_and_is_closed(server):
    """Tornado answers a header line it cannot parse itself: 400, with no message
    (its own refusal; docs/design.md, The web edge), and closes the connection."""
    with connect(server.port) as sock:
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n")
        status, _, _ = answer(sock)
        assert status == 400
        assert closed_by_server(sock)


def test_headers_far_past_the_bound_end_the_connection(server):
    """Headers of more than four times the bound are not read: the connection ends."""
    with connect(server.port) as sock:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: "
                         + b"a" * 80_000 + b"\r\n\r\n")
        assert closed_by_server(sock)


def test_an_unknown_transfer_encoding_is_a_json_400(server):
    """waitress once answered 501 (a 5xx, as if the server failed) to a client's odd framing."""
    with connect(server.port) as sock:
        sock.sendall(b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Transfer-Encoding: xchunked\r\nContent-Length: 2\r\n\r\n{}")
        status, headers, body = answer(sock)
    assert status == 400
    assert "chunked" in json_error(status, headers, body)


def test_a_pin_guesser_is_logged_by_address(server, caplog):
    """Wrong PINs from a stranger once locked it out without a word in the log."""
    caplog.set_level(logging.WARNING, logger="web.door")  # the login's door (table and hall)
    statuses = []
    for _ in range(7):
        with connect(server.port, ATTACKER) as sock:
            body = b'{"pin": "0000"}'
            sock.sendall(b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nConnection: close\r\n"
                         b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
            statuses.append(answer(sock)[0])
    assert statuses == [401] * 4 + [429] * 3  # the 5th wrong PIN starts the lockout
    warnings = [r.getMessage() for r in caplog.records if r.name == "web.door"]
    assert len(warnings) == 1 and ATTACKER in warnings[0] and "wrong PIN" in warnings[0]


# --- item 2: slow and idle connections ----------------------------------------------


class Crowd:
    """``count`` connections from ``addresses`` that send a request a byte at a time.

    Connections the server closes are opened again at the next round, as an
    attacker would. ``idle``: send nothing at all instead.
    """

    def __init__(self, port: int, addresses: list[str], count: int, idle: bool = False,
                 pause: float = 0.2) -> None:
        self.port, self.addresses, self.idle, self.pause = port, addresses, idle, pause
        self.socks: list[socket.socket | None] = [None] * count
        self.opened = 0
        self._stop = threading.Event()
        self._round()
        self._thread = threading.Thread(target=self._run, name="crowd", daemon=True)
        self._thread.start()

    def _round(self) -> None:
        for i, sock in enumerate(self.socks):
            try:
                if sock is None:
                    address = self.addresses[i % len(self.addresses)]
                    sock = self.socks[i] = connect(self.port, address)
                    self.opened += 1
                    if not self.idle:
                        sock.sendall(b"GET /api/state HTTP/1.1\r\n")
                elif not self.idle:
                    sock.sendall(b"X")  # one more byte of a header that never ends
            except OSError:
                if sock is not None:
                    sock.close()
                self.socks[i] = None

    def _run(self) -> None:
        while not self._stop.wait(self.pause):  # the pause is the hostile behaviour
            self._round()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(10)
        for sock in self.socks:
            if sock is not None:
                sock.close()


@pytest.fixture
def crowds():
    made: list[Crowd] = []
    yield made
    for c in made:
        c.close()


#: A request waiting for the crowd to be let go would wait PATIENT's 60 s timeouts; served
#: ahead of them is well within this, however busy the machine.
SERVED = 30.0


def served_within(seconds: float, call):
    """``call()``'s result, failing if it took longer than ``seconds``."""
    started = time.monotonic()
    result = call()
    assert time.monotonic() - started < seconds, f"took {time.monotonic() - started:.1f} s"
    return result


@pytest.mark.parametrize("idle", [False, True], ids=["slow-headers", "idle"])
def test_one_address_cannot_lock_the_others_out(patient_server, crowds, idle):
    server = patient_server
    host = HttpHost(server.port)
    phone = SseClient("127.0.0.1", server.port)
    try:
        phone.next_state()
        # More connections than the server holds at all (35).
        crowds.append(Crowd(server.port, [ATTACKER], 60, idle=idle))
        status, _, body = served_within(SERVED, lambda: host.post("/api/match", START))
        assert status == 200
        assert phone.next_state().id == body["version"]
        newcomer = served_within(SERVED, lambda: SseClient("127.0.0.1", server.port))
        try:
            assert newcomer.status == 200 and newcomer.next_state().id == body["version"]
        finally:
            newcomer.close()
        status, _, page = served_within(SERVED, lambda: host.request("GET", "/api/state"))
        assert status == 200 and page["version"] == body["version"]
    finally:
        phone.close()


@pytest.mark.parametrize("idle", [False, True], ids=["slow-headers", "idle"])
def test_many_addresses_cannot_lock_the_host_out(patient_server, crowds, idle):
    server = patient_server
    host = HttpHost(server.port)
    # 12 addresses x 4: more than the server holds, each address within its own bound.
    crowds.append(Crowd(server.port, [f"127.0.0.{20 + i}" for i in range(12)], 48, idle=idle))
    for _ in range(3):
        status, _, _ = served_within(SERVED, lambda: host.request("GET", "/api/state"))
        assert status == 200
    status, _, _ = served_within(SERVED, lambda: host.post("/api/match", START))
    assert status == 200


def test_a_request_that_trickles_in_is_cut_off(server):
    with connect(server.port, ATTACKER, timeout=0.2) as sock:
        sock.sendall(b"GET /api/state HTTP/1.1\r\n")
        started = time.monotonic()
        cut = False
        while not cut and time.monotonic() - started < 60:
            try:
                sock.sendall(b"X")  # a byte every 0.2 s: never idle, never done
            except (BrokenPipeError, ConnectionResetError):
                cut = True
                break
            cut = closed_by_server(sock)
        assert cut, "the trickling request was never cut off"
        # request_timeout is 1 s: not before it (after it, as soon as the busy machine can)
        assert time.monotonic() - started > 0.8


def test_an_idle_connection_is_closed(server):
    with connect(server.port, ATTACKER, timeout=60) as sock:
        started = time.monotonic()
        assert sock.recv(4096) == b""  # closed, and nothing said: no request came
        assert time.monotonic() - started > 1.8  # idle_timeout is 2 s: not before it


def test_a_phone_at_its_bound_still_gets_its_answers(server):
    # A browser keeping idle keep-alive connections (more than the bound of 4):
    # a new one closes its own oldest idle one, and every request is answered.
    kept = []
    try:
        for _ in range(8):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
            kept.append(conn)
            conn.request("GET", "/api/state")
            response = conn.getresponse()
            assert response.status == 200
            response.read()
    finally:
        for conn in kept:
            conn.close()


def test_one_address_holds_at_most_its_bound(patient_server):
    socks = [connect(patient_server.port, ATTACKER, timeout=3) for _ in range(7)]
    try:
        # Each connection past the bound of 4 closed that address's oldest one.
        assert [closed_by_server(s) for s in socks[:3]] == [True] * 3
        for sock in socks[3:]:
            sock.settimeout(0.3)
        assert [closed_by_server(s) for s in socks[3:]] == [False] * 4
    finally:
        for sock in socks:
            sock.close()


def test_an_answer_the_client_never_takes_is_dropped(app):  # noqa: F811
    """A client that asks for a large answer and stops reading held it (in
    memory, or a temporary file past 1 MB) for waitress's 120 s once."""
    size = 8 * 1024 * 1024  # more than the kernel's socket buffers take

    @app.get("/big")
    def big():
        return b"x" * size

    served = serve(app, ConnectionLimits(answer_timeout=1.0))
    server = next(served)
    try:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(10)
        sock.connect(("127.0.0.1", server.port))
        with sock:
            sock.sendall(b"GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            time.sleep(3)  # the hostile part: not reading
            got = 0
            with contextlib.suppress(ConnectionResetError):
                while chunk := sock.recv(65536):
                    got += len(chunk)
        assert got < size, "the whole answer was kept for a client that stopped reading"
    finally:
        next(served, None)


def test_a_connection_being_answered_is_never_closed_for_a_newcomer(app):  # noqa: F811
    # A browser's request is being answered on one connection (here a slow one) just as
    # another of its connections arrives past the bound: the oldest idle one goes, and
    # the request still gets its answer.
    release, entered = threading.Event(), threading.Event()

    @app.post("/slow")
    def slow():
        entered.set()
        release.wait(20)
        return {"ok": True}

    served = serve(app, PATIENT)
    server = next(served)
    port = server.port
    busy = connect(port, ATTACKER, timeout=10)
    idle: list[socket.socket] = []
    newcomer = None
    try:
        busy.sendall(b"POST /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
        assert entered.wait(10)
        for _ in range(3):
            idle.append(connect(port, ATTACKER, timeout=3))
        deadline = time.monotonic() + 10
        while len(server._book) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(server._book) == 4
        newcomer = connect(port, ATTACKER, timeout=3)
        assert closed_by_server(idle[0])
        release.set()
        status, _, _ = answer(busy)
        assert status == 200
        for sock in (*idle[1:], newcomer):
            sock.settimeout(0.3)
            assert not closed_by_server(sock)
    finally:
        release.set()
        for sock in (busy, *idle, *([newcomer] if newcomer else [])):
            sock.close()
        next(served, None)
