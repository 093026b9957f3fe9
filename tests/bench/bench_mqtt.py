"""Benchmark: many tables on one Mosquitto and one hall board, from an action to the hall page.

Run: .venv/bin/python -m tests.bench.bench_mqtt [--tables 20 50 200 500] [--actions 20] [--rate 2]

For each table count: one Mosquitto (tests/mqtt_support.Mosquitto, loopback,
its default config), one hall board (``companion hall`` as its own process,
so its RSS and CPU are its own) and that many tables in worker processes of
:data:`TABLES_PER_WORKER`, each a real Table on its own SQLite file with its
real MQTT client (drivers/mqtt.TablePublisher, subscribed to the table as
``companion run`` subscribes it). Each worker plays Center Court points on
its tables in turn, each table ``--rate`` actions a second (all tables
together: tables x rate), ``--actions`` per table. A reader on the hall's
stream (``GET /api/hall/events``, a plain HTTP client) notes when each card
arrives; a gap in the ids (it read too slowly) opens the stream again, as
the page does.

Before the clock starts every table must be on the board (60 s at most):
the time from the first table's start to the last card is printed. The
latency of an action is from ``table.act`` returning (committed, handed to
the publisher) to the first card on the hall's stream that is that table at
that version or newer (a publisher coalesces to the newest state, so a
faster one may stand for it). ``time.perf_counter`` is CLOCK_MONOTONIC: one
clock for the workers and this process. Also printed: the broker's and the
hall's RSS (/proc/<pid>/status VmRSS) and CPU time (/proc/<pid>/stat
utime+stime) over the run, actions whose card never came (within 10 s of
the last one), and the gaps on the hall's stream.

Budget (printed next to the result): p99 <= 50 ms at 50 tables. Prints
numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from multiprocessing.connection import Connection
from pathlib import Path

from companion.store import Store
from companion.table import Table
from companion.topics import TableInfo
from drivers.mqtt import MqttConfig, TablePublisher
from tests.bench.bench_web import percentile
from tests.mqtt_support import Mosquitto
from tests.support import CATALOG
from tests.web.sse import SseClient

START = {"game": "center-court", "players": ["Ann", "Bob"],
         "options": {"sets": 5, "final_set": "advantage"}}
CLK_TCK = os.sysconf("SC_CLK_TCK")
#: The budget of issue #15: p99 from an action to the hall page, at 50 tables.
BUDGET_MS, BUDGET_TABLES = 50.0, 50
#: How long the last cards may take to come before they count as never arrived.
SETTLE = 10.0
#: Tables per worker process (each table: a socket and a socket pair of paho's, SQLite files).
TABLES_PER_WORKER = 100


def rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


@contextmanager
def hall_process(url: str) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """``companion hall`` on a free loopback port; yields the process and its port.

    Its log goes to /dev/null: over a long run a pipe nobody reads would fill
    and stall it (tests/hall/hall_support.HallProcess reads its pipe at the end).
    """
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "companion"), "hall", "--mqtt", url,
         "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = None
        for line in proc.stdout:
            found = re.search(r"Hall: http://127\.0\.0\.1:(\d+)/", line)
            if found:
                port = int(found.group(1))
                break
        if port is None:
            raise RuntimeError(f"companion hall did not start (exit {proc.wait(10)})")
        yield proc, port
    finally:
        proc.terminate()
        proc.wait(20)


class HallStream:
    """The hall's SSE stream read on its own thread: when each table's versions came.

    ``arrivals[table]`` lists ``(version, time)`` in the order the cards came;
    ``skipped`` counts the gaps in the stream's ids (messages a slow reader lost:
    it opens the stream again then, and the whole list that comes first counts as
    the cards' arrival).
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.client = SseClient("127.0.0.1", port, path="/api/hall/events", timeout=60)
        self.arrivals: dict[str, list[tuple[int, float]]] = {}
        self.skipped = 0
        self.changed = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        last_id = None
        try:
            while not self._closed:
                event = self.client.next_event()
                now = time.perf_counter()
                if last_id is not None and event.id is not None and event.id != last_id + 1 \
                        and event.event != "tables":
                    # A message skipped (this reader was slow): start again from the
                    # whole list, as the page does.
                    self.skipped += 1
                    self.client.close()
                    self.client = SseClient("127.0.0.1", self.port, path="/api/hall/events",
                                            timeout=60)
                    last_id = None
                    continue
                last_id = event.id if event.id is not None else last_id
                cards = (event.json()["tables"] if event.event == "tables"
                         else [event.json()] if event.event == "table" else [])
                with self.changed:
                    for card in cards:
                        if card.get("version") is not None:
                            self.arrivals.setdefault(card["id"], []).append(
                                (card["version"], now))
                    self.changed.notify_all()
        except (OSError, ValueError):
            if not self._closed:
                raise

    def first_at(self, table: str, version: int) -> float | None:
        """When the first card of ``table`` at ``version`` or newer came (None: not yet)."""
        with self.changed:
            for seen, at in self.arrivals.get(table, ()):
                if seen >= version:
                    return at
        return None

    def wait_for(self, wanted: dict[str, int], timeout: float) -> bool:
        """Wait until every table in ``wanted`` showed its version (or a newer one)."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                if all(any(v >= version for v, _ in self.arrivals.get(t, ()))
                       for t, version in wanted.items()):
                    return True
                left = deadline - time.monotonic()
                if left <= 0 or not self.changed.wait(left):
                    return False

    def close(self) -> None:
        self._closed = True
        # End the stream under the reader (it sees the end), then close it.
        self.client.sock.shutdown(socket.SHUT_RDWR)
        self._thread.join(10)
        self.client.close()


def play_tables(conn: Connection, url: str, folder: str, first: int, count: int,
                actions: int, rate: float) -> None:
    """One worker process: tables ``first+1 .. first+count``, each a real Table on its own
    SQLite file with its own TablePublisher, started; then their share of the actions.

    Talks to the bench over ``conn``: sends ``{table: version}`` once every table
    started, receives the start time (``time.perf_counter``: CLOCK_MONOTONIC, one
    clock for every process on the machine), sends ``[(table, version, time)]`` of
    every action done, and closes everything when told.
    """
    with ExitStack() as stack:
        tables: dict[str, Table] = {}
        for i in range(first, first + count):
            table_id = f"table-{i + 1:02d}"
            store = stack.enter_context(Store(Path(folder) / f"{table_id}.db"))
            table = Table(store, CATALOG, rng=random.Random(i))
            publisher = TablePublisher(
                MqttConfig(url=url, table=table_id, name=f"Table {i + 1}"),
                TableInfo(table_id, f"Table {i + 1}", None), CATALOG, password=None, data=None)
            stack.callback(publisher.close)
            table.subscribe(publisher.show)
            table.start(START)
            tables[table_id] = table
        conn.send({t: table.version for t, table in tables.items()})
        start = conn.recv()
        done: list[tuple[str, int, float]] = []
        tick = threading.Event()
        interval = 1 / (rate * count)
        next_at = start
        for n in range(actions):
            for table_id, table in tables.items():
                # An even pace: this worker's tables x rate actions a second, in turn.
                next_at += interval
                tick.wait(max(0.0, next_at - time.perf_counter()))
                snapshot = table.act({"type": "point", "winner": n % 2})
                done.append((table_id, snapshot.version, time.perf_counter()))
        conn.send(done)
        conn.recv()  # the bench has read the stream: stop


def bench(count: int, actions: int, rate: float) -> None:
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        broker = stack.enter_context(Mosquitto(Path(tmp) / "broker"))
        hall, port = stack.enter_context(hall_process(broker.url))
        stream = HallStream(port)
        stack.callback(stream.close)
        # Tables in worker processes of TABLES_PER_WORKER: one process of 200 MQTT
        # clients passes the 1024 file descriptors select() can watch (paho's loop uses
        # select) and its last clients never connect. A real table is a process of its own.
        spawn = multiprocessing.get_context("spawn")
        workers = []
        started = time.perf_counter()
        for first in range(0, count, TABLES_PER_WORKER):
            ours, theirs = spawn.Pipe()
            process = spawn.Process(target=play_tables, daemon=True, args=(
                theirs, broker.url, tmp, first, min(TABLES_PER_WORKER, count - first),
                actions, rate))
            process.start()
            stack.callback(process.join, 30)
            workers.append(ours)
        versions: dict[str, int] = {}
        for conn in workers:
            versions.update(conn.recv())
        # Every table on the board before the clock starts.
        if not stream.wait_for(versions, 60):
            missing = [t for t, v in versions.items() if stream.first_at(t, v) is None]
            raise RuntimeError(f"{len(missing)} of {count} tables did not reach the hall "
                               f"board within 60 s: {missing[:10]}")
        boarded = time.perf_counter() - started
        pids = {"broker": broker.pid(), "hall": hall.pid}
        rss0 = {name: rss_mb(pid) for name, pid in pids.items()}
        cpu0 = {name: cpu_seconds(pid) for name, pid in pids.items()}
        wall0 = time.perf_counter()
        for conn in workers:
            conn.send(wall0 + 0.2)
        done: list[tuple[str, int, float]] = []
        for conn in workers:
            done += conn.recv()
        last = dict(versions)
        for table_id, version, _ in done:
            last[table_id] = max(last[table_id], version)
        stream.wait_for(last, SETTLE)
        for conn in workers:
            conn.send("stop")
        wall = time.perf_counter() - wall0
        cpu = {name: (cpu_seconds(pid) - cpu0[name]) / wall for name, pid in pids.items()}
        rss = {name: rss_mb(pid) for name, pid in pids.items()}
        latencies, missing = [], 0
        for table_id, version, at in done:
            came = stream.first_at(table_id, version)
            if came is None:
                missing += 1
            else:
                latencies.append((came - at) * 1000)
        on_board = sum(1 for t in versions if stream.first_at(t, 1) is not None)
    p50, p99 = percentile(latencies, 50), percentile(latencies, 99)
    budget = ""
    if count >= BUDGET_TABLES:
        verdict = "within" if p99 <= BUDGET_MS else "OVER"
        budget = f"  [budget at {BUDGET_TABLES} tables: p99 <= {BUDGET_MS:g} ms: {verdict}]"
    print(f"--- {count} tables, {len(done)} actions ({count * rate:g} a second together) "
          f"over {wall:.1f} s")
    print(f"  table.act -> hall SSE card: p50 {p50:6.2f} ms  p99 {p99:6.2f} ms  "
          f"max {max(latencies):6.2f} ms  (n={len(latencies)}){budget}")
    print(f"  every table on the board {boarded:.1f} s after the first started "
          f"({len(workers)} worker processes); on the board at the end: {on_board} of {count}")
    print(f"  never came: {missing}; hall stream gaps: {stream.skipped}")
    for name in pids:
        print(f"  {name:6}: RSS {rss0[name]:5.1f} MB before, {rss[name]:5.1f} MB after; "
              f"CPU {100 * cpu[name]:5.1f}% of a core during the run")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[20, 50, 200, 500])
    parser.add_argument("--actions", type=int, default=20, help="actions per table")
    parser.add_argument("--rate", type=float, default=2.0,
                        help="actions a second per table")
    args = parser.parse_args()
    for count in args.tables:
        bench(count, args.actions, args.rate)


if __name__ == "__main__":
    main()
