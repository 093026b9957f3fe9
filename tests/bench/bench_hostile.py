"""Benchmark: a hostile phone on the Wi-Fi against a real `companion run --sim`.

Run: .venv/bin/python -m tests.bench.bench_hostile [--slow 50 230 1000] [--addresses 20 40]
     [--uploads 5] [--upload-mb 20] [--partial 225]

Each attack runs from this process while the host, from another address
(127.0.0.1; the attackers use 127.0.0.9 and 127.0.1.x, all loopback), logs
in and sends actions, each on a new connection, as a phone does after a
pause. Printed for every attack: the slowest of those host actions (and
"refused"/"timeout" if one failed), whether a phone's live stream got every
change, and the companion's RSS and spooled temporary files.

- ``--slow N``: N connections from one address that send their request
  headers a byte a second and never finish (slowloris); a connection the
  server closes is opened again at once, as an attacker would. Also with
  idle connections (connect, send nothing). Then the same spread over
  ``--addresses A`` addresses, 16 each (a NAT, or an attacker with many).
- ``--uploads U``: U uploads that declare 100 MB and send ``--upload-mb``
  before holding; ``--partial P``: P connections from P addresses holding
  490 KB of a 500 KB body (each held by the server until it is whole).

The issue's question, "how many slow connections from one address delay a
host action by more than 1 s", is printed at the end (goal: not reachable).
Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

from tests.bench.bench_web import PIN, START, Process
from tests.web.sse import SseClient

ATTACKER = "127.0.0.9"
#: How long a host action may take before it counts as delayed.
DELAYED = 1.0


class Attack:
    """``count`` connections from ``addresses`` kept open (re-opened when closed) by one thread."""

    def __init__(self, port: int, addresses: list[str], count: int, idle: bool,
                 pause: float = 1.0) -> None:
        self.port, self.addresses, self.idle, self.pause = port, addresses, idle, pause
        self.socks: list[socket.socket | None] = [None] * count
        #: Connections opened so far (the first ones included).
        self.opened = 0
        self.rounds = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            started = time.monotonic()
            for i, sock in enumerate(self.socks):
                if self._stop.is_set():
                    return
                self.socks[i] = self._tend(sock, self.addresses[i % len(self.addresses)])
            self.rounds += 1
            self._stop.wait(max(0.0, self.pause - (time.monotonic() - started)))

    def _tend(self, sock: socket.socket | None, address: str) -> socket.socket | None:
        try:
            if sock is not None:
                with contextlib.suppress(BlockingIOError):
                    if sock.recv(1, socket.MSG_DONTWAIT | socket.MSG_PEEK) == b"":
                        raise ConnectionResetError  # closed by the server
                if not self.idle:
                    sock.send(b"X")  # one more byte of a header line that never ends
                return sock
            sock = socket.socket()
            sock.settimeout(0.5)
            sock.bind((address, 0))
            sock.connect(("127.0.0.1", self.port))
            sock.setblocking(False)  # a peek or a byte never waits
            self.opened += 1
            if not self.idle:
                sock.send(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            return sock
        except OSError:
            if sock is not None:
                sock.close()
            return None

    def close(self) -> None:
        self._stop.set()
        self._thread.join(30)
        for sock in self.socks:
            if sock is not None:
                sock.close()


class Host:
    """The host: a login, then every action on a new connection."""

    def __init__(self, port: int) -> None:
        self.port = port
        _, response, body = self.request("POST", "/api/login", {"pin": PIN})
        self.cookie = response.getheader("Set-Cookie").split(";")[0]
        self.csrf = body["csrf"]
        self.point = 0

    def request(self, method: str, path: str, body: object, headers: dict | None = None,
                timeout: float = 10.0):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request(method, path, json.dumps(body),
                         {"Content-Type": "application/json", **(headers or {})})
            response = conn.getresponse()
            return response.status, response, json.loads(response.read())
        finally:
            conn.close()

    def action(self) -> tuple[float, str]:
        """Seconds one point took to be answered, and what went wrong if anything."""
        self.point ^= 1
        started = time.monotonic()
        try:
            status, _, _ = self.request(
                "POST", "/api/action", {"type": "point", "winner": self.point},
                {"Cookie": self.cookie, "X-CSRF-Token": self.csrf})
            problem = "" if status == 200 else f"HTTP {status}"
        except TimeoutError:
            problem = "timeout"
        except OSError as err:
            problem = type(err).__name__
        return time.monotonic() - started, problem


def sockets(pid: int) -> int:
    """The companion's open sockets (the server's connections, streams, its listener)."""
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            count += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
    return count


def spooled_mb(pid: int) -> float:
    """Megabytes in the companion's open unnamed temporary files (bodies spooled to
    disk: the server keeps bodies in memory, so 0 is expected)."""
    total = 0
    tmp = tempfile.gettempdir()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if target.startswith(tmp) and target.endswith(" (deleted)"):
                total += os.stat(f"/proc/{pid}/fd/{fd}").st_size
    return total / 1e6


def host_under(proc: Process, host: Host, actions: int = 5) -> tuple[str, float, bool]:
    """A line on ``actions`` host actions and a live stream; the slowest; whether one failed."""
    phone = None
    with contextlib.suppress(OSError):
        phone = SseClient("127.0.0.1", proc.port, timeout=10)
        phone.next_state()
    times, problems = [], []
    for _ in range(actions):
        seconds, problem = host.action()
        times.append(seconds)
        if problem:
            problems.append(problem)
    stream = "no stream"
    if phone is not None:
        try:
            for _ in range(actions):
                phone.next_state()
            stream = "stream kept up"
        except OSError as err:
            stream = f"stream lost ({type(err).__name__})"
        finally:
            phone.close()
    worst = max(times)
    note = f" ({', '.join(problems)})" if problems else ""
    return (f"slowest host action {worst * 1000:8.1f} ms{note}; {stream}", worst,
            bool(problems))


def run_attack(proc: Process, host: Host, label: str, addresses: list[str], count: int,
               idle: bool) -> float:
    before = sockets(proc.proc.pid)
    attack = Attack(proc.port, addresses, count, idle)
    try:
        # Let the attacker get its connections in (and the server close some).
        deadline = time.monotonic() + 20
        while attack.rounds < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        rss, held = proc.rss_mb(), sockets(proc.proc.pid)
        line, worst, failed = host_under(proc, host)
        print(f"  {label:42} {line}; attacker opened {attack.opened:5}, companion "
              f"sockets {held:4}; RSS {rss:5.1f} MB", flush=True)
    finally:
        attack.close()
    # The next measure starts once the server has closed the attacker's connections
    # (its sockets back to their count before the attack), at most 10 s later; if it
    # has not by then, the output says so: the next measure is not of its attack alone.
    deadline = time.monotonic() + 10
    while (left := sockets(proc.proc.pid) - before) > 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    if left > 0:
        print(f"  (the server still held {left} of the attacker's connections 10 s after "
              "it left)", flush=True)
    return float("inf") if failed else worst


def uploads(proc: Process, host: Host, count: int, megabytes: int) -> None:
    rss = proc.rss_mb()
    socks = []
    body = b"x" * (1 << 20)
    try:
        for i in range(count):
            sock = socket.create_connection(("127.0.0.1", proc.port), timeout=10,
                                            source_address=(f"127.0.1.{i + 1}", 0))
            socks.append(sock)
            sock.sendall(b"POST /api/action HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                         b"application/json\r\nContent-Length: 100000000\r\n\r\n")
            with contextlib.suppress(OSError):
                for _ in range(megabytes):
                    sock.sendall(body)
        time.sleep(1)
        line, _, _ = host_under(proc, host)
        print(f"  {count} held uploads of 100 MB, {megabytes} MB sent each: {line}; "
              f"spooled {spooled_mb(proc.proc.pid):6.1f} MB; RSS +{proc.rss_mb() - rss:5.1f} MB",
              flush=True)
    finally:
        for sock in socks:
            sock.close()


def partial_bodies(proc: Process, host: Host, count: int) -> None:
    rss = proc.rss_mb()
    socks = []
    try:
        for i in range(count):
            with contextlib.suppress(OSError):
                sock = socket.create_connection(
                    ("127.0.0.1", proc.port), timeout=10,
                    source_address=(f"127.0.{2 + i // 250}.{1 + i % 250}", 0))
                socks.append(sock)
                sock.sendall(b"POST /api/action HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                             b"application/json\r\nContent-Length: 500000\r\n\r\n")
                sock.sendall(b" " * 490_000)
        time.sleep(1)
        grown = proc.rss_mb() - rss
        line, _, _ = host_under(proc, host)
        print(f"  {count} held partial bodies (490 of 500 KB), {count} addresses: {line}; "
              f"RSS +{grown:5.1f} MB", flush=True)
    finally:
        for sock in socks:
            sock.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", type=int, nargs="+", default=[50, 230, 500, 1000])
    parser.add_argument("--addresses", type=int, nargs="+", default=[20, 40])
    parser.add_argument("--uploads", type=int, default=5)
    parser.add_argument("--upload-mb", type=int, default=20)
    parser.add_argument("--partial", type=int, default=225)
    args = parser.parse_args()
    print("command:", " ".join([Path(sys.executable).name, "-m", "tests.bench.bench_hostile",
                                *sys.argv[1:]]))
    with tempfile.TemporaryDirectory() as data:
        proc = Process(Path(data), 200)
        try:
            host = Host(proc.port)
            host.request("POST", "/api/match", START,
                         {"Cookie": host.cookie, "X-CSRF-Token": host.csrf})
            line, _, _ = host_under(proc, host)
            print(f"  {'no attack':42} {line}; RSS {proc.rss_mb():5.1f} MB", flush=True)
            delayed: dict[str, int | None] = {}
            for idle in (False, True):
                kind = "idle" if idle else "slow-header"
                delayed[kind] = None
                for count in args.slow:
                    worst = run_attack(proc, host, f"{count} {kind} connections, 1 address",
                                       [ATTACKER], count, idle)
                    if worst > DELAYED and delayed[kind] is None:
                        delayed[kind] = count
            for count in args.addresses:
                run_attack(proc, host, f"{count * 16} slow-header, {count} addresses x 16",
                           [f"127.0.1.{i + 1}" for i in range(count)], count * 16, False)
            uploads(proc, host, args.uploads, args.upload_mb)
            partial_bodies(proc, host, args.partial)
            for kind, count in delayed.items():
                found = (f"{count}" if count is not None
                         else f"not reached (tried up to {max(args.slow)})")
                print(f"{kind} connections from one address that delay a host action "
                      f"by more than {DELAYED:.0f} s: {found}")
        finally:
            proc.stop()


if __name__ == "__main__":
    main()
