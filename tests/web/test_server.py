"""The real server (app/server.py) on a free port: several live streams, limits, vanished
clients."""

from __future__ import annotations

import http.client
import json
import logging
import socket
import threading
import time
from contextlib import contextmanager
from dataclasses import replace

import pytest

from app.server import WebServer
from tests.web.conftest import PIN, START
from tests.web.sse import SseClient
from web.app import create_app


class HttpHost:
    """The host over real HTTP: cookie and CSRF header."""

    def __init__(self, port: int) -> None:
        self.port = port
        status, headers, body = self.request("POST", "/api/login", {"pin": PIN})
        assert status == 200
        self.cookie = headers["Set-Cookie"].split(";")[0]
        self.csrf = body["csrf"]

    def request(self, method, path, body=None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request(method, path, body=json.dumps(body) if body is not None else None,
                         headers={"Content-Type": "application/json", **(headers or {})})
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), json.loads(response.read())
        finally:
            conn.close()

    def post(self, path, body=None):
        return self.request("POST", path, body or {},
                            {"Cookie": self.cookie, "X-CSRF-Token": self.csrf})


def wait_until(predicate, timeout=5.0):
    done = threading.Event()
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        done.wait(0.02)


def test_every_stream_gets_every_change(server, app):
    host = HttpHost(server.port)
    streams = [SseClient("127.0.0.1", server.port) for _ in range(3)]
    try:
        for s in streams:
            assert s.status == 200 and s.next_state().json()["match"] is None
        status, _, body = host.post("/api/match", START)
        assert status == 200
        for s in streams:
            event = s.next_state()
            assert event.id == body["version"] and event.json() == body
    finally:
        for s in streams:
            s.close()


def test_past_the_limit_a_clear_503(server):
    streams = [SseClient("127.0.0.1", server.port) for _ in range(3)]
    try:
        for s in streams:
            s.next_state()
        refused = SseClient("127.0.0.1", server.port)
        assert refused.status == 503
        assert "too many" in json.loads(refused.response.read())["error"]
        refused.close()
    finally:
        for s in streams:
            s.close()


def test_a_vanished_client_frees_its_stream(server, app):
    broker = app.extensions["companion.broker"]
    gone = SseClient("127.0.0.1", server.port)
    gone.next_state()
    # The phone drops off the network: its socket closes without a goodbye.
    gone.sock.shutdown(socket.SHUT_RDWR)
    gone.close()
    # The next keep-alive write fails and the server ends that stream.
    wait_until(lambda: broker.streams == 0)
    fresh = [SseClient("127.0.0.1", server.port) for _ in range(3)]
    try:
        for s in fresh:
            assert s.status == 200
            s.next_state()
    finally:
        for s in fresh:
            s.close()


def test_keep_alives_and_last_event_id_on_a_real_server(server):
    host = HttpHost(server.port)
    _, _, body = host.post("/api/match", START)
    version = body["version"]
    current = SseClient("127.0.0.1", server.port, last_event_id=version)
    try:
        assert current.next_event(skip_comments=False).comment  # nothing new: a keep-alive
        _, _, body = host.post("/api/action", {"type": "point", "winner": 0})
        assert current.next_state().id == body["version"]
    finally:
        current.close()
    behind = SseClient("127.0.0.1", server.port, last_event_id=version - 1)
    try:
        assert behind.next_state().id == body["version"]
    finally:
        behind.close()


def test_other_requests_are_served_while_streams_are_open(server):
    streams = [SseClient("127.0.0.1", server.port) for _ in range(3)]
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", "/api/state")
        assert conn.getresponse().status == 200
        conn.close()
    finally:
        for s in streams:
            s.close()


@pytest.fixture
def roomy(services):
    """An app allowing 24 streams with a long keep-alive, behind a server sized for 1."""
    app = create_app(replace(services, max_streams=24, streams_per_address=24, keepalive=60))
    s = WebServer(app, "127.0.0.1", 0, max_streams=1)
    yield app, s
    app.extensions["companion.broker"].close()
    s.close()


def test_a_stream_holds_a_worker_only_until_the_fanout_takes_it(roomy, caplog):
    app, server = roomy
    caplog.set_level(logging.INFO, logger="tornado")
    caplog.set_level(logging.INFO, logger="app.server")
    host = HttpHost(server.port)
    # More streams than the server has worker threads.
    streams = [SseClient("127.0.0.1", server.port) for _ in range(20)]
    try:
        for s in streams:
            assert s.status == 200
            s.next_state()
        status, _, body = host.post("/api/match", START)
        assert status == 200
        for s in streams:
            assert s.next_state().id == body["version"]
        assert app.extensions["companion.broker"].streams == 20
    finally:
        for s in streams:
            s.close()
    # Handing a stream over is not a client leaving, nor a fault: nothing for the log.
    assert not [r for r in caplog.records
                if r.name.startswith("tornado") or r.name == "app.server"]


def test_a_page_closed_frees_its_stream_at_once(roomy):
    app, server = roomy
    broker = app.extensions["companion.broker"]
    stream = SseClient("127.0.0.1", server.port)
    stream.next_state()
    assert broker.streams == 1
    stream.close()  # no message or keep-alive is due for a minute
    wait_until(lambda: broker.streams == 0, timeout=5)


@contextmanager
def workers_held(app, holders: int):
    """``app`` served, with every play worker held by a ``POST /hold`` (``holders`` of
    them in all, each from an address of its own: one address may hold only a few
    connections). Yields the server, the holders' connections (a test may add its own,
    closed with them) and the event that lets the holders go."""
    from app.server import SPARE_THREADS

    release = threading.Event()
    entered = threading.Semaphore(0)

    @app.post("/hold")
    def hold():
        entered.release()
        release.wait(300)
        return "held"

    server = WebServer(app, "127.0.0.1", 0, max_streams=200)
    conns: list[http.client.HTTPConnection] = []
    try:
        for i in range(holders):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60,
                                              source_address=(f"127.0.1.{i + 1}", 0))
            conn.request("POST", "/hold", body=b"")
            conns.append(conn)
        for _ in range(SPARE_THREADS):
            assert entered.acquire(timeout=60)
        yield server, conns, release
    finally:
        release.set()
        for conn in conns:
            conn.close()
        server.close()


def test_connections_beyond_the_play_workers_backlog_wait_and_are_all_answered():
    """While the play workers are behind, new connections wait in the kernel's queue
    (app/server.py _Listener) and are taken again as the workers catch up: however many
    arrive at once, every one is answered, none is dropped or left waiting for good."""
    from flask import Flask

    from app.server import BEHIND, SPARE_THREADS

    app = Flask(__name__)

    @app.get("/ping")
    def ping():
        return "pong"

    # Far more than BEHIND changes waiting behind the held workers.
    with workers_held(app, SPARE_THREADS + 6 * BEHIND) as (server, conns, release):
        held = list(conns)
        late = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60,
                                          source_address=("127.0.2.1", 0))
        late.request("GET", "/ping")
        conns.append(late)
        release.set()
        for conn in held:
            response = conn.getresponse()
            assert (response.status, response.read()) == (200, b"held")
        response = late.getresponse()
        assert (response.status, response.read()) == (200, b"pong")


def test_the_state_is_answered_while_every_play_worker_is_held():
    """The state is made by the server's loop (web/reads.py AT_ONCE), not a worker: a
    phone gets it even while every play worker waits on a change (a slow disk), and an
    answer past what the server holds back is written whole, with HEAD as GET."""
    from flask import Flask, Response

    from app.server import HOLD, SPARE_THREADS

    app = Flask(__name__)
    big = json.dumps({"version": 7, "pad": "x" * (3 * HOLD)})

    @app.get("/api/state")
    def state():
        return Response(big, mimetype="application/json")

    with workers_held(app, SPARE_THREADS) as (server, conns, release):
        # A worker would take the state only once a hold ends (300 s): within 30 s is
        # the loop's answer, however busy the machine.
        phone = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        conns.append(phone)
        for _ in range(2):  # twice on one kept connection
            phone.request("GET", "/api/state")
            response = phone.getresponse()
            assert (response.status, response.read().decode()) == (200, big)
        phone.request("HEAD", "/api/state")
        response = phone.getresponse()
        assert response.status == 200 and response.read() == b""
        assert int(response.getheader("Content-Length")) == len(big)
        assert not release.is_set()  # answered while every worker was still held
        release.set()
        for conn in conns[:-1]:
            response = conn.getresponse()
            assert (response.status, response.read()) == (200, b"held")


def test_phones_that_never_read_a_large_answer_hold_no_worker():
    """An answer held in memory (a page of the history, a match's export) is handed to
    the server's loop whole, up to HOLD: the worker does not wait for the phone to
    take it. Sixteen phones that ask for one and never read (one address each) once
    held all sixteen read workers until the answer timeout, and every other phone's
    pages and reads waited."""
    from flask import Flask, Response

    from app.connections import ConnectionLimits
    from app.server import HOLD, SPARE_THREADS

    app = Flask(__name__)
    big = b"x" * HOLD

    @app.get("/big")
    def large():
        return Response(big, mimetype="application/octet-stream")

    @app.get("/small")
    def small():
        return Response(b"small", mimetype="text/plain")

    # The answer timeout far past the phone's patience: a worker held until it would fail.
    server = WebServer(app, "127.0.0.1", 0, max_streams=200,
                       limits=ConnectionLimits(answer_timeout=600.0, idle_timeout=600.0))
    sleepers: list[socket.socket] = []
    try:
        for i in range(2 * SPARE_THREADS):
            sock = socket.socket()
            # A phone on the Wi-Fi: its segments and window small (loopback's would
            # take a large answer into the kernel's buffers at once).
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 1448)
            sock.bind((f"127.0.3.{i + 1}", 0))
            sock.connect(("127.0.0.1", server.port))
            sock.sendall(b"GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            sleepers.append(sock)  # and never read
        phone = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60,
                                           source_address=("127.0.4.1", 0))
        try:
            for _ in range(3):
                phone.request("GET", "/small")
                response = phone.getresponse()
                assert (response.status, response.read()) == (200, b"small")
        finally:
            phone.close()
    finally:
        for sock in sleepers:
            sock.close()
        server.close()
