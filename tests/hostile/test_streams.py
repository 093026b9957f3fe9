"""Live streams against phones that misbehave, on the real server and real sockets.

A phone that stops reading, a reconnect from a database that was moved
aside, a body the server never reads, hundreds of phones at once, descriptor
numbers past select()'s 1024: each once kept a stream's place for good, froze
a phone, or stopped the web server.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import os
import random
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from flask import Flask

from app.server import WebServer
from companion.store import Store
from companion.table import Table, TableRunner
from tests.support import CATALOG
from tests.web.conftest import PIN, START
from tests.web.sse import SseClient
from tests.web.test_server import HttpHost, wait_until
from web.app import create_app
from web.services import Services
from web.stream import Broker

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Served:
    app: Flask
    server: WebServer
    store: Store

    @property
    def port(self) -> int:
        return int(self.server.port)

    @property
    def broker(self) -> Broker:
        return self.app.extensions["companion.broker"]

    def phone(self, last_event_id: int | None = None, query: str = "",
              timeout: float = 5.0, source: str | None = None) -> SseClient:
        return SseClient("127.0.0.1", self.port, last_event_id, path="/api/events" + query,
                         timeout=timeout, source=source)


@contextlib.contextmanager
def served(db: Path, max_streams: int = 3, keepalive: float = 0.3,
           per_address: int = 8) -> Iterator[Served]:
    """The companion's web app over the database ``db``, on a free loopback port."""
    with Store(db) as store, TableRunner(Table(store, CATALOG, rng=random.Random(5))) as runner:
        app = create_app(Services(runner=runner, pin=PIN, secret_key=b"k" * 32,
                                  max_streams=max_streams, keepalive=keepalive,
                                  streams_per_address=per_address))
        server = WebServer(app, "127.0.0.1", 0, max_streams)
        try:
            yield Served(app, server, store)
        finally:
            app.extensions["companion.broker"].close()
            server.close()


def play(port: int, points: int) -> dict:
    """Start a match and score ``points``; the last state."""
    host = HttpHost(port)
    status, _, state = host.post("/api/match", START)
    assert status == 200
    for i in range(points):
        status, _, state = host.post("/api/action", {"type": "point", "winner": i % 2})
        assert status == 200
    return state


# --- item 4: a phone ahead of the table --------------------------------------------


def test_a_phone_from_a_moved_aside_database_gets_the_new_state_at_once(tmp_path):
    """The phone followed the old database to version 6; the new one is at 2. It
    once got no state at all, not even after later changes, while showing online."""
    db = tmp_path / "companion.db"
    with served(db) as old:
        state = play(old.port, 5)
    old_epoch, old_version = state["epoch"], state["version"]
    db.rename(tmp_path / "companion.db.aside")  # as the companion's own message advises
    with served(db) as new:
        state = play(new.port, 1)
        assert state["version"] < old_version and state["epoch"] != old_epoch
        phone = new.phone(old_version, f"?epoch={old_epoch}", timeout=3)
        try:
            first = phone.next_state()
            assert first.id == state["version"] and first.json() == state
            _, _, later = HttpHost(new.port).post("/api/action", {"type": "point", "winner": 0})
            assert phone.next_state().json() == later
        finally:
            phone.close()


def test_a_phone_ahead_of_the_table_without_an_epoch_gets_the_state(tmp_path):
    """Any SSE client (no epoch in its address) whose Last-Event-ID is above the version."""
    with served(tmp_path / "companion.db") as s:
        state = play(s.port, 1)
        phone = s.phone(state["version"] + 100, timeout=3)
        try:
            assert phone.next_state().json() == state
        finally:
            phone.close()


def test_a_new_database_at_the_phones_version_number_sends_its_state(tmp_path):
    """Same version number, another database: the epoch tells them apart."""
    db = tmp_path / "companion.db"
    with served(db) as old:
        state = play(old.port, 2)
    db.rename(tmp_path / "companion.db.aside")
    with served(db) as new:
        fresh = play(new.port, 2)
        assert fresh["version"] == state["version"] and fresh["epoch"] != state["epoch"]
        phone = new.phone(state["version"], f"?epoch={state['epoch']}", timeout=3)
        try:
            assert phone.next_state().json() == fresh
        finally:
            phone.close()
        # A phone of this very database at this version: nothing to repeat.
        current = new.phone(fresh["version"], f"?epoch={fresh['epoch']}", timeout=3)
        try:
            assert current.next_event(skip_comments=False).comment
        finally:
            current.close()


# --- item 3: places that are never given back --------------------------------------


def test_a_head_request_gives_its_stream_place_back(tmp_path):
    with served(tmp_path / "companion.db") as s:
        for _ in range(5):
            conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=5)
            conn.request("HEAD", "/api/events")
            assert conn.getresponse().status == 200
            conn.close()
        wait_until(lambda: s.broker.streams == 0)
        phones = [s.phone() for _ in range(3)]
        try:
            assert [p.status for p in phones] == [200, 200, 200]
        finally:
            for p in phones:
                p.close()


def test_a_phone_that_stops_reading_loses_its_place(tmp_path):
    """It once held its place for good: its socket just filled up, and a busy
    stream got no keep-alive that could fail."""
    with served(tmp_path / "companion.db", max_streams=1) as s:
        host = HttpHost(s.port)
        host.post("/api/match", START)
        stuck = socket.socket()
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stuck.connect(("127.0.0.1", s.port))
        try:
            stuck.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            wait_until(lambda: s.broker.streams == 1)
            for i in range(600):  # it reads nothing of these
                host.post("/api/action", {"type": "point", "winner": i % 2})
                if s.broker.streams == 0:
                    break
            wait_until(lambda: s.broker.streams == 0, timeout=5)
            fresh = s.phone()
            try:
                assert fresh.status == 200 and fresh.next_state().id is not None
            finally:
                fresh.close()
        finally:
            stuck.close()


# --- item 9: more phones than the server once held ---------------------------------


def server_workers() -> int:
    return sum(t.name.startswith("web-") for t in threading.enumerate())


def test_hundreds_of_phones_need_no_thread_each(tmp_path):
    count = 300
    before = server_workers()
    with served(tmp_path / "companion.db", max_streams=count, keepalive=15) as s:
        phones = []
        try:
            for i in range(count):
                # A phone each, as on the Wi-Fi (one address may hold only a few). The
                # timeout bounds a server that never answers, not its speed: at a load
                # average of 30 on two cores one phone waited more than 10 s.
                phones.append(s.phone(timeout=30, source=f"127.0.{1 + i // 250}.{1 + i % 250}"))
                phones[-1].next_state()
            assert server_workers() - before <= 32  # a small pool, whatever max_streams
            state = play(s.port, 0)
            for phone in phones:
                assert phone.next_state().json() == state
            assert s.broker.streams == count and s.server.healthy()
            refused = s.phone()
            assert refused.status == 503
            refused.close()
        finally:
            for phone in phones:
                phone.close()


def test_one_address_cannot_take_every_stream_place(tmp_path):
    """A stranger's 200 streams, all read, once took every place: each new phone got 503."""
    with served(tmp_path / "companion.db", max_streams=10, per_address=3) as s:
        hog = [s.phone(source="127.0.0.2") for _ in range(3)]
        try:
            assert [h.status for h in hog] == [200] * 3
            refused = s.phone(source="127.0.0.2")
            with contextlib.closing(refused):
                assert refused.status == 503 and refused.response.getheader("Retry-After")
                message = json.loads(refused.response.read())["error"]
                assert "127.0.0.2" in message and "close a page" in message
            phone = s.phone(source="127.0.0.3")
            with contextlib.closing(phone):
                assert phone.status == 200 and phone.next_state().json()["version"] == 0
            hog.pop().close()  # the address's page closed: its place is its own again
            wait_until(lambda: s.broker.streams == 2)
            hog.append(s.phone(source="127.0.0.2"))
            assert hog[-1].status == 200
        finally:
            for h in hog:
                h.close()


def test_descriptors_past_1024_are_served(tmp_path):
    """waitress's select() loop once raised "filedescriptor out of range" for these:
    its thread ended and every request hung while the process stayed up."""
    fillers = []
    try:
        while not fillers or fillers[-1] < 1100:
            fillers.append(os.open(os.devnull, os.O_RDONLY))
        with served(tmp_path / "companion.db") as s:
            phone = s.phone(timeout=5)
            try:
                assert phone.next_state().json()["version"] == 0
                conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=5)
                conn.request("GET", "/api/state")
                assert conn.getresponse().status == 200
                conn.close()
                assert s.server.healthy()
            finally:
                phone.close()
    finally:
        for fd in fillers:
            os.close(fd)


def test_a_dead_web_server_is_not_healthy(tmp_path, caplog):
    with served(tmp_path / "companion.db") as s:
        assert s.server.healthy()
        caplog.set_level(logging.ERROR, logger="app.server")
        loop = s.server._loop
        loop.call_soon_threadsafe(loop.stop)  # the injected fault: the serving loop ends
        wait_until(lambda: not s.server.healthy())
        assert "the web server's loop failed" in caplog.text


def test_a_stuck_web_server_is_not_healthy(tmp_path, monkeypatch):
    """A loop that stops turning (a request's work run on it by mistake, a hung call)
    serves nobody although its thread is alive: the watchdog must hear of it."""
    import app.server

    monkeypatch.setattr(app.server, "STUCK_AFTER", 1.0)
    with served(tmp_path / "companion.db") as s:
        assert s.server.healthy()
        unstick = threading.Event()
        s.server._loop.call_soon_threadsafe(unstick.wait, 20)  # the injected fault
        try:
            wait_until(lambda: not s.server.healthy(), timeout=10)
        finally:
            unstick.set()
        wait_until(s.server.healthy, timeout=10)


def limited_start(soft: int, hard: int, max_streams: int) -> subprocess.CompletedProcess:
    code = (
        "import resource, sys\n"
        f"resource.setrlimit(resource.RLIMIT_NOFILE, ({soft}, {hard}))\n"
        "from flask import Flask\n"
        "from app.server import WebServer\n"
        f"s = WebServer(Flask('x'), '127.0.0.1', 0, {max_streams})\n"
        "print(resource.getrlimit(resource.RLIMIT_NOFILE)[0])\n"
        "s.close()\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


def test_max_streams_is_checked_against_the_open_file_limit():
    raised = limited_start(256, 4096, 1000)
    assert raised.returncode == 0, raised.stderr
    assert 2000 <= int(raised.stdout) <= 4096
    refused = limited_start(256, 512, 1000)
    assert refused.returncode != 0
    assert "[web] max_streams = 1000" in refused.stderr and "512" in refused.stderr


def test_every_phone_follows_while_a_stuck_one_is_dropped(tmp_path):
    """One phone that stops reading does not delay or stop the others."""
    with served(tmp_path / "companion.db", max_streams=4) as s:
        host = HttpHost(s.port)
        host.post("/api/match", START)
        stuck = socket.socket()
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stuck.connect(("127.0.0.1", s.port))
        phones = [s.phone() for _ in range(3)]
        try:
            stuck.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            for p in phones:
                p.next_state()
            wait_until(lambda: s.broker.streams == 4)
            for i in range(600):
                _, _, state = host.post("/api/action", {"type": "point", "winner": i % 2})
                for p in phones:
                    assert p.next_state().json() == state
                if s.broker.streams == 3:
                    break
            assert s.broker.streams == 3
        finally:
            stuck.close()
            for p in phones:
                p.close()
