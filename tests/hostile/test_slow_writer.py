"""A slow writer (slow disk syncs, a database lock held elsewhere): every answer tells the truth.

A 503 means nothing was applied; a change the writer had begun is answered
with its real outcome; and where nothing can be promised, a retry with the
same Idempotency-Key learns what became of the first attempt instead of
applying it twice. The real server, real SQLite, real HTTP.
"""

from __future__ import annotations

import logging
import random
import sqlite3
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

import web.api
from app.server import WebServer
from companion.store import Store
from companion.table import Table, TableRunner
from tests.support import CATALOG
from tests.web.conftest import PIN, START
from tests.web.test_server import HttpHost
from web.app import create_app
from web.services import Services


class SlowStore(Store):
    """A store on a slow disk: every commit of an action takes ``delay`` longer."""

    delay = 0.0

    def record(self, *args, **kwargs):
        time.sleep(self.delay)  # the hostile behaviour itself: a slow sync
        return super().record(*args, **kwargs)


@pytest.fixture
def table(tmp_path):
    with SlowStore(tmp_path / "companion.db") as store, \
            TableRunner(Table(store, CATALOG, rng=random.Random(5))) as runner:
        app = create_app(Services(runner=runner, pin=PIN, secret_key=b"k" * 32))
        server = WebServer(app, "127.0.0.1", 0, max_streams=3)
        try:
            host = HttpHost(server.port)
            assert host.post("/api/match", START)[0] == 200
            yield store, runner, host
        finally:
            app.extensions["companion.broker"].close()
            server.close()


def keyed(host: HttpHost, path: str, body: dict, key: str):
    return host.request("POST", path, body, {"Cookie": host.cookie, "X-CSRF-Token": host.csrf,
                                             "Idempotency-Key": key})


def state(host: HttpHost) -> dict:
    return host.request("GET", "/api/state")[2]


@pytest.fixture
def quick_timeouts(monkeypatch):
    monkeypatch.setattr(web.api, "WRITE_TIMEOUT", 0.3)
    monkeypatch.setattr(web.api, "COMMIT_WAIT", 0.5, raising=False)


class Logged(logging.Handler):
    """Sets an event when a record containing ``text`` is logged (from any thread)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text, self.seen = text, threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if self.text in record.getMessage():
            self.seen.set()


@pytest.fixture
def logged():
    handler = Logged("still being applied")
    logging.getLogger("web.api").addHandler(handler)
    yield handler
    logging.getLogger("web.api").removeHandler(handler)


def locked(store_path):
    """Another connection holding the database's write lock (the writer's commit waits)."""
    other = sqlite3.connect(store_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    return other


def test_a_503_means_nothing_was_applied(table, quick_timeouts):
    _store, runner, host = table
    before = state(host)
    gate = threading.Event()
    runner.submit(lambda _: gate.wait(10))  # the writer is busy with something long
    try:
        status, _, body = host.post("/api/action", {"type": "point", "winner": 0})
    finally:
        gate.set()
    runner.call(lambda _: None)  # everything queued has run (or was skipped)
    assert state(host) == before
    assert status == 503 and "nothing was applied" in body["error"]


def test_a_change_already_committing_is_answered_with_its_outcome(table, quick_timeouts,
                                                                  logged, tmp_path):
    _store, _runner, host = table
    other = locked(tmp_path / "companion.db")
    with ThreadPoolExecutor(1) as pool:
        try:
            answer = pool.submit(host.post, "/api/action", {"type": "point", "winner": 0})
            # The writer took the action up and waits for the lock past WRITE_TIMEOUT.
            assert logged.seen.wait(5)
        finally:
            other.rollback()
            other.close()
        status, _, body = answer.result(10)
    assert status == 200, body
    assert body["match"]["view"]["points"] == ["15", "0"] and body == state(host)


def test_a_retry_with_the_same_key_gets_the_first_answer_not_a_second_point(
        table, quick_timeouts, logged, tmp_path):
    _store, _runner, host = table
    before = state(host)
    key = str(uuid.uuid4())
    other = locked(tmp_path / "companion.db")
    try:
        # Committing for longer than WRITE_TIMEOUT + COMMIT_WAIT: nothing can be promised.
        status, _, body = keyed(host, "/api/action", {"type": "point", "winner": 0}, key)
    finally:
        other.rollback()
        other.close()
    assert status == 503 and "may yet be applied" in body["error"]
    assert "Idempotency-Key" in body["error"]
    status, headers, first = keyed(host, "/api/action", {"type": "point", "winner": 0}, key)
    assert status == 200 and headers["Idempotent-Replayed"] == "true"
    assert first["version"] == before["version"] + 1
    assert first["match"]["view"]["points"] == ["15", "0"]
    # Once more, later: still the first answer, still one point.
    assert keyed(host, "/api/action", {"type": "point", "winner": 0}, key)[2] == first
    assert state(host)["match"]["view"]["points"] == ["15", "0"]
    # The same key for another request is refused, not answered with the wrong outcome.
    status, _, body = keyed(host, "/api/action", {"type": "point", "winner": 1}, key)
    assert status == 422 and "another request" in body["error"]
    # A refusal is remembered too; a new key is a new change.
    assert keyed(host, "/api/redo", {}, "k1")[0] == 409
    assert keyed(host, "/api/redo", {}, "k1")[1]["Idempotent-Replayed"] == "true"
    assert keyed(host, "/api/action", {"type": "point", "winner": 1}, "k2")[0] == 200


@pytest.mark.parametrize("key", ["", "a b", "é", "x" * 256])
def test_a_malformed_idempotency_key_is_400(table, key):
    _, _, host = table
    before = state(host)
    status, _, body = host.request("POST", "/api/undo", {}, {
        "Cookie": host.cookie, "X-CSRF-Token": host.csrf,
        "Idempotency-Key": key.encode().decode("latin-1")})
    assert status == 400 and "Idempotency-Key" in body["error"]
    assert state(host) == before


def test_many_hosts_on_a_slow_disk_each_change_applied_exactly_once(table, quick_timeouts):
    """The issue's run: slow syncs, many concurrent changes. Every 200 was applied, every
    503 was not, and clients retrying with their key end with each change applied once."""
    store, _runner, host = table
    store.delay = 0.08
    before = state(host)["version"]
    answers: list[tuple[int, dict]] = []

    def one_change(i: int) -> None:
        key = f"change-{i}"
        for _ in range(100):
            status, _, body = keyed(host, "/api/action", {"type": "point", "winner": i % 2}, key)
            answers.append((status, body))
            if status != 503:
                return

    with ThreadPoolExecutor(8) as pool:
        for done in [pool.submit(one_change, i) for i in range(30)]:
            done.result(60)
    assert state(host)["version"] == before + 30
    busy = [body["error"] for status, body in answers if status == 503]
    assert busy  # the disk was slow enough to make clients retry
    assert all("nothing was applied" in e or "may yet" in e for e in busy), busy
    assert sum(status == 200 for status, _ in answers) == 30
