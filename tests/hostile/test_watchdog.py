"""systemd's watchdog: fed while the table's writer makes progress, however slowly; withheld
when one piece of its work is stuck. A real notify socket, a real runner over SQLite."""

from __future__ import annotations

import logging
import random
import socket
import threading
import time

import pytest
import sdnotify

from app.runtime import feed_watchdog
from companion.store import Store
from companion.table import Table, TableRunner
from tests.support import CATALOG


@pytest.fixture
def systemd(tmp_path, monkeypatch):
    """A notify socket as systemd has one, and the notifier the companion would make."""
    path = tmp_path / "notify"
    receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    receiver.bind(str(path))
    receiver.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    notifier = sdnotify.SystemdNotifier(debug=True)
    yield receiver, notifier
    notifier.socket.close()
    receiver.close()


@pytest.fixture
def runner(tmp_path):
    with Store(tmp_path / "companion.db") as store, \
            TableRunner(Table(store, CATALOG, rng=random.Random(1))) as r:
        yield r


def test_a_slow_writer_working_through_its_queue_keeps_the_watchdog_fed(systemd, runner):
    receiver, notifier = systemd
    # 2 s of slow commits queued: more than the limit, though each is quick enough.
    for _ in range(40):
        runner.submit(lambda _: time.sleep(0.05))
    assert feed_watchdog(runner, notifier, limit=1.0)
    assert receiver.recv(100) == b"WATCHDOG=1"
    runner.call(lambda _: None)


def test_a_stuck_writer_is_left_to_the_watchdog(systemd, runner, caplog):
    receiver, notifier = systemd
    started, gate = threading.Event(), threading.Event()
    runner.submit(lambda _: (started.set(), gate.wait(10)))
    try:
        assert started.wait(5)
        threading.Event().wait(0.3)  # stuck for longer than the limit
        with caplog.at_level(logging.ERROR, logger="companion"):
            assert not feed_watchdog(runner, notifier, limit=0.2)
        receiver.settimeout(0.2)
        with pytest.raises(TimeoutError):
            receiver.recv(100)
        assert "stuck" in caplog.text
    finally:
        gate.set()
    runner.call(lambda _: None)
    assert feed_watchdog(runner, notifier, limit=0.2)
    assert receiver.recv(100) == b"WATCHDOG=1"
