"""A stalled process is not a stopped one: ``kill -STOP``, a wait, ``kill -CONT``, and the table
(and the hall) carry on; only SIGTERM or SIGINT stop them. Real processes, a real notify socket.

A Pi under memory pressure, or an SD card that hangs a write, stalls the
process as ``kill -STOP`` does. The stall is made longer than the main
loop's only timeout (the watchdog's interval, which systemd sets through
``WATCHDOG_USEC`` and a test can make short); the tests wait on what the
process does next (its next watchdog keep-alive, an HTTP answer), never on
how fast it does it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from app.stopping import DEFAULT_EVERY, watchdog_every
from tests.hall.hall_support import HallProcess

COMPANION = str(Path(sys.executable).parent / "companion")
#: How long any one step may take on a busy machine (a start, an answer).
WAIT = 30.0


class Notifications:
    """The socket systemd gives a ``Type=notify`` service (``NOTIFY_SOCKET``), as a test's."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "notify"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.path))

    def next(self, timeout: float = WAIT) -> str:
        """The next message the service sends; TimeoutError after ``timeout``."""
        self.sock.settimeout(timeout)
        return self.sock.recv(4096).decode()

    def wait_for(self, message: str, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while (got := self.next(max(0.01, deadline - time.monotonic()))) != message:
            assert got != "STOPPING=1", f"the service stopped while {message} was awaited"

    def drain(self) -> list[str]:
        """Every message already sent, taken off the socket."""
        self.sock.setblocking(False)
        got = []
        try:
            while True:
                got.append(self.sock.recv(4096).decode())
        except BlockingIOError:
            return got

    def close(self) -> None:
        self.sock.close()


@contextmanager
def table(tmp_path: Path, every: float | None) -> Iterator[tuple[subprocess.Popen, str,
                                                                   Notifications]]:
    """``companion run --sim`` with a notify socket and (``every`` seconds) a watchdog
    interval, once it said READY=1; its first page address."""
    notify = Notifications(tmp_path)
    env = {**os.environ, "NOTIFY_SOCKET": str(notify.path)}
    env.pop("WATCHDOG_PID", None)
    env.pop("WATCHDOG_USEC", None)
    if every is not None:
        env["WATCHDOG_USEC"] = str(int(every * 3e6))  # fed every third of it
    proc = subprocess.Popen([COMPANION, "run", "--sim", "--data", str(tmp_path / "data"),
                             "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        url = None
        for line in proc.stdout:
            if "Spectators:" in line:
                url = line.split("Spectators:")[1].strip()
                break
        assert url is not None, "the companion printed no page address"
        notify.wait_for("READY=1")
        yield proc, url, notify
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(WAIT)
        notify.close()


def answers(url: str) -> int:
    with urllib.request.urlopen(url + "api/state", timeout=WAIT) as response:
        return response.status


def stall(pid: int, seconds: float, notify: Notifications | None = None) -> None:
    """Stop ``pid`` for at least ``seconds``, then let it go on; what it said before the
    stall is taken off ``notify`` while it is stopped."""
    os.kill(pid, signal.SIGSTOP)
    try:
        time.sleep(seconds)  # the stall itself: its length is the point, not a wait
        if notify is not None:
            notify.drain()
    finally:
        os.kill(pid, signal.SIGCONT)


def check_stall_survived(tmp_path: Path, every: float | None, seconds: float, *,
                         again: bool) -> None:
    with table(tmp_path, every) as (proc, url, notify):
        assert answers(url) == 200
        stall(proc.pid, seconds, notify)
        # The next word after the stall is a keep-alive, not STOPPING=1.
        assert notify.next() == "WATCHDOG=1"
        assert answers(url) == 200
        assert proc.poll() is None
        if again:
            # Two stalls in a row, the second before any keep-alive after the first.
            stall(proc.pid, seconds)
            stall(proc.pid, seconds, notify)
            assert notify.next() == "WATCHDOG=1"
            assert answers(url) == 200 and proc.poll() is None
        # Only SIGTERM stops it, and then cleanly.
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=WAIT)
        assert "Table Companion stopped." in out
        assert proc.returncode == 0
        assert "STOPPING=1" in notify.drain()


def test_a_table_stalled_past_its_watchdog_interval_runs_on(tmp_path):
    # Fed every 0.1 s; stopped for ten times that.
    check_stall_survived(tmp_path, every=0.1, seconds=1.0, again=True)


@pytest.mark.slow
def test_a_table_stalled_for_twelve_seconds_runs_on(tmp_path):
    """As the issue found it: the service's own interval (10 s), a 12 s stall."""
    assert watchdog_every({}) == DEFAULT_EVERY < 12
    check_stall_survived(tmp_path, every=None, seconds=12.0, again=False)


def test_a_stalled_hall_runs_on(tmp_path):
    with HallProcess("--mqtt", "mqtt://127.0.0.1:1", "--data", str(tmp_path)) as hall:
        assert hall.url is not None, hall.lines
        with urllib.request.urlopen(hall.url + "api/tables", timeout=WAIT) as response:
            assert response.status == 200
        stall(hall.proc.pid, 1.0)
        with urllib.request.urlopen(hall.url + "api/tables", timeout=WAIT) as response:
            assert response.status == 200
        assert hall.proc.poll() is None
        code, out, _ = hall.stop()
        assert code == 0 and "Table Companion hall stopped." in out


@pytest.mark.parametrize(("environ", "every"), [
    ({}, DEFAULT_EVERY),
    ({"WATCHDOG_USEC": "30000000"}, 10.0),            # the unit's WatchdogSec=30
    ({"WATCHDOG_USEC": "300000", "WATCHDOG_PID": str(os.getpid())}, 0.1),
    ({"WATCHDOG_USEC": "300000", "WATCHDOG_PID": "1"}, DEFAULT_EVERY),  # meant for another
    ({"WATCHDOG_USEC": "soon"}, DEFAULT_EVERY),
    ({"WATCHDOG_USEC": "0"}, DEFAULT_EVERY),
    ({"WATCHDOG_USEC": "-5"}, DEFAULT_EVERY),
])
def test_the_watchdog_is_fed_at_a_third_of_the_interval_systemd_names(environ, every):
    assert watchdog_every(environ) == pytest.approx(every)
