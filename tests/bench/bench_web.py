"""Benchmark: live phone streams on loopback against a real `companion run --sim`.

Run: .venv/bin/python -m tests.bench.bench_web [--streams 50 200] [--changes 100] [--idle 20]
Many phones: .venv/bin/python -m tests.bench.bench_web --streams 200 500 1000 --idle 5

For each stream count it measures, from this process against the companion's
own process: the time from ``POST /api/action`` to every stream receiving the
new version, the same from a tap (``POST /api/sim/button``, which drives the
mock pin through the debouncer), ``GET /api/state`` timed while the streams
run, and the companion's RSS and CPU at rest and under load.

A stream "receives" a version when its bytes land in that client's socket:
the kernel stamps each arrival (``SO_TIMESTAMPNS``, the wall clock, which
both processes share). A phone has its own CPU; this bench reads 200
sockets on one Python thread, so it also prints when its loop got round to
each read, which adds its own queueing on top. Budgets (200 streams): p99 <= 20 ms from the
action, <= 30 ms from the tap, RSS <= 64 MB, idle CPU < 1% of a core,
/api/state < 50 ms; at 1,000 streams: p99 <= 30 ms from the action, RSS <= 80 MB, and
no thread per stream (the companion runs with ``[web] max_streams`` set to the
stream count, and its thread count is printed). Prints numbers; asserts nothing.

On a virtual machine the host may take the CPUs away for milliseconds at a
time ("steal"); the tail percentiles then measure the host, not the
companion. The share stolen during the load is printed with each run, so a
noisy run can be told from a slow companion.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import select
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

PIN = "2468"
START = {"game": "center-court", "players": ["Ann", "Bob"],
         "options": {"sets": 5, "final_set": "advantage"}}
CLK_TCK = os.sysconf("SC_CLK_TCK")
ID = re.compile(rb"id: (\d+)\n")
TIMESPEC = struct.Struct("@ll")
#: Linux's value (asm-generic/socket.h); Python's socket module does not name it.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


def cpu_ticks() -> tuple[int, int]:
    """This machine's CPU time so far, all of it and the part stolen by a hypervisor."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    steal = fields[7] if len(fields) > 7 else 0
    return sum(fields[:8]), steal


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def summary(samples: list[float]) -> str:
    return (f"p50 {percentile(samples, 50):6.2f} ms  p99 {percentile(samples, 99):6.2f} ms  "
            f"max {max(samples):6.2f} ms  (n={len(samples)})")


class Process:
    """The companion under test, and its RSS and CPU from /proc."""

    def __init__(self, data: Path, max_streams: int, extra_config: str = "") -> None:
        """``extra_config``: more TOML for the companion's config (other sections)."""
        config = data / "bench.toml"
        config.write_text(f"[web]\nmax_streams = {max_streams}\n{extra_config}")
        #: The companion's log, kept to say why it stopped if it does (:meth:`rss_mb`).
        self.log = data / "companion.log"
        self.proc = subprocess.Popen(
            [str(Path(sys.executable).parent / "companion"), "run", "--sim", "--data", str(data),
             "--config", str(config), "--port", "0", "--pin", PIN],
            stdout=subprocess.PIPE, stderr=self.log.open("w"), text=True)
        for line in self.proc.stdout:
            found = re.search(r"Spectators: http://127\.0\.0\.1:(\d+)/", line)
            if found:
                self.port = int(found.group(1))
                break

    def rss_mb(self) -> float:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        if self.proc.poll() is not None:
            tail = self.log.read_text(errors="replace").splitlines()[-15:]
            raise RuntimeError(f"the companion stopped (exit {self.proc.returncode}); "
                               "its log ends:\n" + "\n".join(tail))
        return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024

    def threads(self) -> int:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        return int(re.search(r"Threads:\s+(\d+)", status).group(1))

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(20)


class Host:
    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.conn.request("POST", "/api/login", json.dumps({"pin": PIN}),
                          {"Content-Type": "application/json"})
        response = self.conn.getresponse()
        self.csrf = json.loads(response.read())["csrf"]
        self.cookie = response.getheader("Set-Cookie").split(";")[0]

    def post(self, path: str, body: object) -> dict:
        self.conn.request("POST", path, json.dumps(body), {
            "Content-Type": "application/json", "Cookie": self.cookie,
            "X-CSRF-Token": self.csrf})
        return json.loads(self.conn.getresponse().read())


class Streams:
    """``count`` SSE connections read by one epoll loop on its own thread.

    A plain epoll loop over non-blocking sockets instead of a thread (or a
    coroutine) per client keeps the measuring side light, so the numbers are
    the companion's. Arrival times are noted per version from the raw bytes
    (``id: N`` lines), with no JSON parsing: ``arrivals`` holds the kernel's
    receive stamp, ``reads`` when this loop read the bytes (both wall clock).
    """

    def __init__(self, port: int, count: int) -> None:
        self.count = count
        self.arrivals: list[dict[int, float]] = [{} for _ in range(count)]
        self.reads: list[dict[int, float]] = [{} for _ in range(count)]
        self.received: dict[int, int] = {}  # version -> streams that have it
        self.changed = threading.Condition()
        self._ready = threading.Event()
        self._stop = False
        self._socks = []
        request = b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        for i in range(count):
            # A phone each, from its own address (one address may hold only a few streams).
            phone = f"127.0.{1 + i // 250}.{1 + i % 250}"
            sock = socket.create_connection(("127.0.0.1", port), source_address=(phone, 0))
            sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            sock.sendall(request)
            sock.setblocking(False)
            self._socks.append(sock)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        if not self._ready.wait(30):
            raise TimeoutError("the streams did not all open")

    def _run(self) -> None:
        poll = select.epoll()
        index = {s.fileno(): i for i, s in enumerate(self._socks)}
        buffers = [b""] * self.count
        for s in self._socks:
            poll.register(s.fileno(), select.EPOLLIN)
        while not self._stop:
            for fd, _ in poll.poll(0.5):
                i = index[fd]
                try:
                    data, ancillary, _, _ = self._socks[i].recvmsg(65536, 64)
                except BlockingIOError:
                    continue
                now = time.time()
                stamp = now
                for level, kind, value in ancillary:
                    if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                        sec, nsec = TIMESPEC.unpack_from(value)
                        stamp = sec + nsec / 1e9
                if not data:
                    poll.unregister(fd)
                    continue
                buffer = buffers[i] + data
                matches = list(ID.finditer(buffer))
                # Keep the tail: an id line may be cut between two reads.
                buffers[i] = buffer[matches[-1].end():] if matches else buffer[-64:]
                complete = False
                for m in matches:
                    version = int(m.group(1))
                    self.arrivals[i][version] = stamp
                    self.reads[i][version] = now
                    seen = self.received[version] = self.received.get(version, 0) + 1
                    complete = complete or seen == self.count
                if complete:
                    # Wake the waiting side only when the last stream has it.
                    with self.changed:
                        self.changed.notify_all()
                    self._ready.set()
        poll.close()

    def wait_all(self, version: int, timeout: float = 10.0) -> tuple[list[float], list[float]]:
        """Every stream's kernel arrival and loop read time of ``version``."""
        with self.changed:
            ok = self.changed.wait_for(lambda: self.received.get(version, 0) >= self.count,
                                       timeout)
        if not ok:
            raise TimeoutError(f"not every stream got version {version}")
        return [a[version] for a in self.arrivals], [r[version] for r in self.reads]

    def close(self) -> None:
        self._stop = True
        self._thread.join(5)
        for s in self._socks:
            s.close()


def time_state_requests(port: int, stop: threading.Event, out: list[float]) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    while not stop.wait(0.02):
        t0 = time.perf_counter()
        conn.request("GET", "/api/state")
        conn.getresponse().read()
        out.append((time.perf_counter() - t0) * 1000)
    conn.close()


def bench(count: int, changes: int, idle: float = 20.0) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        companion = Process(Path(tmp), max(count, 200))
        try:
            threads_rest = companion.threads()
            host = Host(companion.port)
            host.post("/api/match", START)
            for w in (0, 0, 0, 1, 1, 1):  # deuce: every point changes the score
                host.post("/api/action", {"type": "point", "winner": w})
            pause = threading.Event()
            pause.wait(1.0)
            rss_rest = companion.rss_mb()
            streams = Streams(companion.port, count)
            version = host.post("/api/action", {"type": "point", "winner": 0})["version"]
            streams.wait_all(version)
            state_times: list[float] = []
            stop = threading.Event()
            poller = threading.Thread(target=time_state_requests,
                                      args=(companion.port, stop, state_times))
            poller.start()
            cpu0, wall0 = companion.cpu_seconds(), time.perf_counter()
            ticks0 = cpu_ticks()
            from_action: list[float] = []
            action_read: list[float] = []
            for i in range(changes):
                t0 = time.time()
                version = host.post("/api/action", {"type": "point", "winner": i % 2})["version"]
                arrived, read = streams.wait_all(version)
                from_action += [(t - t0) * 1000 for t in arrived]
                action_read += [(t - t0) * 1000 for t in read]
                pause.wait(0.05)  # 20 changes a second: far busier than any real table
            from_tap: list[float] = []
            tap_read: list[float] = []
            for i in range(changes // 2):
                t0 = time.time()
                # Answered once the press was handled, with the new state.
                version = host.post("/api/sim/button",
                                    {"button": "prev" if i % 2 else "next"})["version"]
                arrived, read = streams.wait_all(version)
                from_tap += [(t - t0) * 1000 for t in arrived]
                tap_read += [(t - t0) * 1000 for t in read]
                pause.wait(0.15)  # the simulated finger lifts and the switch settles
            load_cpu = (companion.cpu_seconds() - cpu0) / (time.perf_counter() - wall0)
            ticks1 = cpu_ticks()
            steal = (ticks1[1] - ticks0[1]) / max(1, ticks1[0] - ticks0[0])
            stop.set()
            poller.join()
            rss_load = companion.rss_mb()
            threads = companion.threads()
            idle_cpu0, idle_wall0 = companion.cpu_seconds(), time.perf_counter()
            pause.wait(idle)
            idle_cpu = (companion.cpu_seconds() - idle_cpu0) / (time.perf_counter() - idle_wall0)
            streams.close()
        finally:
            companion.stop()
    print(f"--- {count} SSE streams on loopback ({threads} threads in the companion, "
          f"{threads_rest} before any stream; "
          f"{100 * steal:.0f}% of the CPU time stolen by the host during the load)")
    print(f"  POST /api/action -> every stream: {summary(from_action)}")
    print(f"      (read by this bench's loop:  {summary(action_read)})")
    print(f"  tap (POST /api/sim/button) -> every stream: {summary(from_tap)}")
    print(f"      (read by this bench's loop:  {summary(tap_read)})")
    print(f"  GET /api/state during the load:   {summary(state_times)}")
    print(f"  RSS at rest {rss_rest:.1f} MB, with {count} streams under load {rss_load:.1f} MB")
    print(f"  CPU under load {100 * load_cpu:.1f}% of a core; idle with {count} streams open "
          f"({idle:g} s) {100 * idle_cpu:.2f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument("--idle", type=float, default=20.0, help="seconds of idle CPU measured")
    args = parser.parse_args()
    for count in args.streams:
        bench(count, args.changes, args.idle)


if __name__ == "__main__":
    main()
