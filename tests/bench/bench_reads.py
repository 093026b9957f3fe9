"""Benchmark: readers hammering a table with many stored matches, while the host plays.

Run: .venv/bin/python -m tests.bench.bench_reads [--matches 5000] [--addresses 8]
     [--connections 16] [--seconds 20] [--settle 30] [--seeded FILE] [--readers-nice N]
     [--bare]

A real ``companion run --sim``, with the environment systemd/companion.service
gives it on a table (``--bare``: without), over a database of ``--matches`` stored
matches (Center Court, a few score lines each imported many times under
other names) and a serial pad on a loopback socket. ``--addresses`` reading
addresses (127.0.0.11, 127.0.0.12, ...; all loopback), each with
``--connections`` keep-alive connections, ask as fast as they are answered,
in turn: the whole history (as an old client does), a page of it, a search,
the rematch, the table's timeline and a stored match's timeline, board and
export, the state, and a live stream opened and closed again. Half of them
accept gzip and send back the ETag they got. They do not honour
``Retry-After``: a stranger's script would not.

Timing begins once every reading address has had an answer (a run whose
readers got nothing says NOT LOADED rather than print quiet figures as
loaded ones). Meanwhile, and one after the other so each is measured alone: the host
sends a point (``POST /api/action``, timed to its answer), then the pad
sends ``TAP next``/``TAP prev`` (timed to the new frame's message on
``/api/sim/events``); a phone at 127.0.0.200 follows ``/api/events`` (timed
from the action to the new version's arrival) and polls ``/api/state``.
Printed against the budgets (issue 22): host action p99 <= 50 ms, press to
OLED frame p99 <= 50 ms, the phones' state p99 <= 100 ms; the companion's
RSS at rest, at its highest under the load, and after it: watched until it is
back within 10% of its rest or ``--settle`` seconds have passed, and the
time it took; what the readers got (statuses, megabytes). Prints numbers;
asserts nothing.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import multiprocessing
import os
import queue
import random
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

from companion.data_folder import DB_NAME
from companion.match import Match, StartRecord
from companion.store import Store
from tests.bench.bench_web import PIN, START, Process, percentile
from tests.support import CATALOG
from tests.web.sse import SseClient

#: The budgets of issue 22, in milliseconds.
BUDGETS = {"host action": 50.0, "press to OLED frame": 50.0, "phone's state (stream)": 100.0,
           "phone's GET /api/state": 100.0}
PHONE = "127.0.0.200"
#: RSS after the load, as a share of its rest, that the budget allows.
RSS_BACK = 1.10
#: The unit the companion runs under on a table: its environment is the bench's too.
UNIT = Path(__file__).resolve().parents[2] / "systemd" / "companion.service"


def unit_environment(unit: Path = UNIT) -> dict[str, str]:
    """What the unit's ``Environment=`` lines set (glibc's malloc tunables)."""
    found: dict[str, str] = {}
    for text in unit.read_text().splitlines():
        if text.startswith("Environment="):
            name, _, value = text.removeprefix("Environment=").partition("=")
            found[name] = value
    return found


def seed(path: Path, count: int) -> None:
    """``count`` stored Center Court matches, a few score lines imported under many names."""
    rng = random.Random(22)
    templates = []
    for sets in (1, 3):
        for _ in range(4):
            start = {"game": "center-court", "players": ["A", "B"], "options": {"sets": sets}}
            match = Match(StartRecord.create(start, rng, CATALOG), CATALOG)
            while match.game.winner(match.state) is None:
                match.push(*match.resolve({"type": "point", "winner": int(rng.random() < 0.45)},
                                          rng))
            templates.append((match.start.to_json(), [e for e in match.events],
                              match.game.winner(match.state),
                              match.game.summary(match.state)))
    with Store(path) as store:
        for i in range(count):
            start, events, winner, summary = templates[i % len(templates)]
            start = {**start, "players": [f"Player {i}", f"Rival {i % 97}"]}
            store.import_match(start, events, status="finished", winner=winner,
                               summary=summary, started_at=1.7e9 + 3600 * i)


class Readers:
    """``per_address`` threads for each of ``addresses``, asking in turn, never pausing.

    Each address is a process of its own, as each is a device of its own: a
    hundred reading threads in the bench's process would hold its
    interpreter lock, and the host's, the pad's and the phone's timings
    measured here would count the bench's waits for it, not the companion's.
    """

    def __init__(self, port: int, addresses: list[str], per_address: int, matches: int,
                 niceness: int = 0, languages: tuple[str, ...] = ("en",)) -> None:
        self.statuses: collections.Counter[int | str] = collections.Counter()
        self.bytes = 0
        self.addresses = addresses
        context = multiprocessing.get_context("spawn")
        self._stop = context.Event()
        self._results = context.Queue()
        #: Answers (any HTTP status) each address has had so far.
        self.answered = context.Array("i", len(addresses))
        self._processes = [
            context.Process(target=_read_from, daemon=True,
                            args=(port, address, per_address, matches, niceness,
                                  self._stop, self._results, self.answered, n, languages))
            for n, address in enumerate(addresses)]
        for p in self._processes:
            p.start()

    def ready(self, timeout: float) -> list[str]:
        """Wait (up to ``timeout`` s) until every address has had an answer; the
        addresses that had none by then."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not all(self.answered[:]):
            time.sleep(0.05)
        return [a for a, n in zip(self.addresses, self.answered[:], strict=True) if not n]

    def close(self) -> None:
        """Stop every reader and add up what they got (once; later calls do nothing)."""
        if self._stop.is_set():
            return
        self._stop.set()
        for _ in self._processes:
            try:
                statuses, got = self._results.get(timeout=90)
            except queue.Empty:
                break
            self.statuses.update(statuses)
            self.bytes += got
        for p in self._processes:
            p.join(10)
            if p.is_alive():
                p.kill()


def _paths(rng: random.Random, matches: int) -> list[str]:
    some = lambda: rng.randrange(1, matches + 1)  # noqa: E731
    return ["/api/history", "/api/history?limit=50", "/api/history?q=rival+7&limit=50",
            f"/api/history?before={some()}&limit=50", "/api/rematch", "/api/timeline",
            f"/api/matches/{some()}/timeline", f"/api/matches/{some()}",
            f"/api/matches/{some()}/export", "/api/state", "/api/events"]


def _read_from(port: int, address: str, per_address: int, matches: int, niceness: int,
               stop, results, answered, slot: int, languages: tuple[str, ...] = ("en",)
               ) -> None:
    """One reading address (a process): its threads ask until ``stop``, then report."""
    os.nice(niceness)
    statuses: collections.Counter[int | str] = collections.Counter()
    got_bytes = [0]
    lock = threading.Lock()

    def run(index: int) -> None:
        rng = random.Random(f"{address}/{index}")
        gzip = index % 2 == 0
        # Each connection a phone of one language, in turn: answers with words are made
        # and kept per language (web/reads.py).
        spoken = languages[index % len(languages)]
        etags: dict[str, str] = {}
        conn = None
        while not stop.is_set():
            for path in _paths(rng, matches):
                if stop.is_set():
                    break
                try:
                    if conn is None:
                        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                                          source_address=(address, 0))
                    headers = {"Accept-Encoding": "gzip"} if gzip else {}
                    headers["Accept-Language"] = spoken
                    if gzip and path in etags:
                        headers["If-None-Match"] = etags[path]
                    conn.request("GET", path, headers=headers)
                    response = conn.getresponse()
                    if path == "/api/events":
                        response.fp.readline()  # its first line: then the stream is dropped
                        conn.close()
                        conn, got = None, 0
                    else:
                        got = len(response.read())
                        if response.getheader("ETag"):
                            etags[path] = response.getheader("ETag")
                    status: int | str = response.status
                    with answered.get_lock():
                        answered[slot] += 1
                except (OSError, http.client.HTTPException) as err:
                    status, got = type(err).__name__, 0
                    if conn is not None:
                        conn.close()
                    conn = None
                with lock:
                    statuses[status] += 1
                    got_bytes[0] += got
        if conn is not None:
            conn.close()

    threads = [threading.Thread(target=run, args=(i,), daemon=True)
               for i in range(per_address)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    results.put((dict(statuses), got_bytes[0]))


class Pad:
    """The serial pad's other end: the companion connects to it (``socket://``)."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sock: socket.socket | None = None
        self._connected = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        self.sock, _ = self.listener.accept()
        self._connected.set()
        while True:  # the companion's STATE lines, read so it never waits on them
            try:
                if not self.sock.recv(65536):
                    return
            except OSError:
                return

    def tap(self, button: str) -> None:
        if not self._connected.wait(30):
            raise TimeoutError("the companion did not connect to the serial pad")
        assert self.sock is not None
        self.sock.sendall(f"TAP {button}\n".encode())

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.listener.close()


class Host:
    """The host on a keep-alive connection (opened again if the server closes it)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: http.client.HTTPConnection | None = None
        _, response, body = self.request("POST", "/api/login", {"pin": PIN}, {})
        self.headers = {"Cookie": response.getheader("Set-Cookie").split(";")[0],
                        "X-CSRF-Token": body["csrf"]}

    def request(self, method: str, path: str, body: object, headers: dict):
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                self.conn.request(method, path, json.dumps(body),
                                  {"Content-Type": "application/json", **headers})
                response = self.conn.getresponse()
                return response.status, response, json.loads(response.read())
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def post(self, path: str, body: object) -> tuple[int, dict]:
        status, _, answer = self.request("POST", path, body, self.headers)
        return status, answer


class Phone:
    """A phone following the table's stream: when each version arrived."""

    def __init__(self, port: int) -> None:
        self.arrived: dict[int, float] = {}
        self.client = SseClient("127.0.0.1", port, timeout=60, source=PHONE)
        self.client.next_state()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        try:
            while True:
                event = self.client.next_state()
                self.arrived[int(event.id)] = time.monotonic()
        except (OSError, ValueError, http.client.HTTPException):
            return


def line(name: str, samples: list[float], budget: float | None) -> str:
    if not samples:
        return f"  {name:28} no samples"
    p99 = percentile(samples, 99)
    verdict = "" if budget is None else (f"  (budget {budget:g} ms: "
                                         f"{'met' if p99 <= budget else 'MISSED'})")
    return (f"  {name:28} p50 {percentile(samples, 50):8.1f} ms  p99 {p99:8.1f} ms  "
            f"max {max(samples):8.1f} ms  (n={len(samples)}){verdict}")


def bench(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        t0 = time.monotonic()
        if args.seeded is not None and args.seeded.exists():
            shutil.copyfile(args.seeded, data / DB_NAME)
            print(f"  {args.seeded} copied (its stored matches, not --matches)", flush=True)
        else:
            seed(data / DB_NAME, args.matches)
            print(f"  seeded {args.matches} stored matches in {time.monotonic() - t0:.0f} s",
                  flush=True)
            if args.seeded is not None:
                shutil.copyfile(data / DB_NAME, args.seeded)
        pad = Pad()
        if not args.bare:  # run as systemd runs it on a table (the children inherit it)
            os.environ.update(unit_environment())
        companion = Process(data, 200, f'[serial]\nurl = "socket://127.0.0.1:{pad.port}"\n')
        readers = None
        try:
            host = Host(companion.port)
            status, _ = host.post("/api/match", START)
            assert status == 200, status
            for w in (0, 0, 0, 1, 1, 1):  # deuce: every point changes the score
                host.post("/api/action", {"type": "point", "winner": w})
            frames = SseClient("127.0.0.1", companion.port, path="/api/sim/events",
                               timeout=10, source="127.0.0.201")
            frames.next_event()
            phone = Phone(companion.port)
            rss_rest = companion.rss_mb()
            state_times: list[float] = []
            stop = threading.Event()

            def poll_state() -> None:
                conn = http.client.HTTPConnection("127.0.0.1", companion.port, timeout=60,
                                                  source_address=(PHONE, 0))
                while not stop.wait(0.1):
                    t = time.monotonic()
                    try:
                        conn.request("GET", "/api/state")
                        conn.getresponse().read()
                    except (OSError, http.client.HTTPException):
                        conn.close()
                        continue
                    state_times.append((time.monotonic() - t) * 1000)
                conn.close()

            addresses = [f"127.0.0.{11 + i}" for i in range(args.addresses)]
            readers = Readers(companion.port, addresses, args.connections, args.matches,
                              args.readers_nice, tuple(args.languages.split(",")))
            # Timed only once every reader is reading: a run whose readers got nothing
            # would otherwise print quiet figures as loaded ones.
            t_ready = time.monotonic()
            unanswered = readers.ready(120)
            ready_after = time.monotonic() - t_ready
            poller = threading.Thread(target=poll_state, daemon=True)
            poller.start()
            actions: list[float] = []
            presses: list[float] = []
            sent: dict[int, float] = {}
            failures: collections.Counter[str] = collections.Counter()
            rss_high = companion.rss_mb()
            end = time.monotonic() + args.seconds
            i = 0
            while time.monotonic() < end:
                i += 1
                t = time.monotonic()
                try:
                    status, body = host.post("/api/action", {"type": "point", "winner": i % 2})
                except (OSError, http.client.HTTPException) as err:
                    # Counted with the time it took: a timeout is a very late answer.
                    actions.append((time.monotonic() - t) * 1000)
                    failures[f"action {type(err).__name__}"] += 1
                    continue
                actions.append((time.monotonic() - t) * 1000)
                if status != 200:
                    failures[f"action HTTP {status}"] += 1
                    continue
                sent[body["version"]] = t
                try:
                    frames.next_event()  # the action's own frame
                    t = time.monotonic()
                    pad.tap("next" if i % 2 else "prev")
                    frames.next_event()
                    presses.append((time.monotonic() - t) * 1000)
                except (OSError, http.client.HTTPException) as err:
                    failures[f"press {type(err).__name__}"] += 1
                rss_high = max(rss_high, companion.rss_mb())
                stop.wait(0.05)
            stop.set()
            poller.join(60)
            readers.close()
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not set(sent) <= set(phone.arrived):
                time.sleep(0.05)
            phone_times = [(phone.arrived[v] - t) * 1000 for v, t in sent.items()
                           if v in phone.arrived]
            missing = len(sent) - len(phone_times)
            threads = companion.threads()
            # What the load took is given back: RSS watched once the readers are gone,
            # until it is within the budget of its rest or --settle seconds have passed.
            t_after = time.monotonic()
            rss_after = companion.rss_mb()
            while rss_after > rss_rest * RSS_BACK and time.monotonic() - t_after < args.settle:
                time.sleep(0.5)
                rss_after = companion.rss_mb()
            settled_after = time.monotonic() - t_after
        finally:
            if readers is not None:
                readers.close()
            companion.stop()
            pad.close()
    print(f"--- {args.matches} stored matches; {args.addresses} reading addresses x "
          f"{args.connections} connections for {args.seconds:g} s; readers' languages "
          f"{args.languages}; the companion's environment "
          + ("as this shell's (--bare)" if args.bare else
             f"as systemd/companion.service sets it: {unit_environment()}"))
    if unanswered:
        print(f"  NOT LOADED: {len(unanswered)} of {args.addresses} reading addresses had no "
              f"answer in {ready_after:.0f} s ({', '.join(unanswered)}); the figures below "
              "are not under the full load")
    else:
        print(f"  every reading address answered {ready_after:.1f} s after it began; timed "
              "from then")
    print(line("host action", actions, BUDGETS["host action"]))
    print(line("press to OLED frame", presses, BUDGETS["press to OLED frame"]))
    print(line("phone's state (stream)", phone_times, BUDGETS["phone's state (stream)"])
          + (f"; {missing} versions never arrived" if missing else ""))
    print(line("phone's GET /api/state", state_times, BUDGETS["phone's GET /api/state"]))
    if failures:
        print(f"  failures: {dict(failures)}")
    total = sum(readers.statuses.values())
    statuses = dict(sorted(readers.statuses.items(), key=str))
    print(f"  readers: {total} answers ({total / args.seconds:.0f}/s), "
          f"{readers.bytes / 1e6:.1f} MB; by status {statuses}")
    if not readers.bytes:
        print("  NOT LOADED: the readers got nothing; these are not loaded figures")
    back = 100 * (rss_after / rss_rest - 1)
    print(f"  RSS at rest {rss_rest:.1f} MB, highest under load {rss_high:.1f} MB, "
          f"{settled_after:.0f} s after it {rss_after:.1f} MB ({back:+.0f}% of rest; budget "
          f"+{100 * (RSS_BACK - 1):.0f}% within {args.settle:g} s: "
          f"{'met' if rss_after <= rss_rest * RSS_BACK else 'MISSED'}); {threads} threads")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=5000)
    parser.add_argument("--addresses", type=int, default=8)
    parser.add_argument("--connections", type=int, default=16, help="per address")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--settle", type=float, default=30.0, metavar="S",
                        help="seconds to wait after the load for the companion's RSS to come "
                        "back within 10%% of its rest (it lets go of what it kept after "
                        "web/reads.py's FORGET_AFTER seconds without a read)")
    parser.add_argument("--seeded", type=Path, default=None,
                        help="a database file to start from, made by this bench if missing "
                        "(seeding 5,000 matches takes most of a minute)")
    parser.add_argument("--readers-nice", type=int, default=0, metavar="N",
                        help="the reading processes' niceness raised by N: on a machine busy "
                        "with other work, run the bench under `nice -n -20` with "
                        "--readers-nice 20 so that the companion and the timed clients are "
                        "served first and only the readers share the processors with the "
                        "rest (they then ask less often than on an idle machine: compare "
                        "their answers per second)")
    parser.add_argument("--languages", default="en", metavar="LIST",
                        help="the readers' Accept-Language, one per connection in turn "
                        "(en,de: half the phones German): answers with words are kept per "
                        "language")
    parser.add_argument("--bare", action="store_true",
                        help="run the companion without the environment "
                        "systemd/companion.service gives it (glibc's malloc tunables)")
    args = parser.parse_args()
    print("command:", " ".join([Path(sys.executable).name, "-m", "tests.bench.bench_reads",
                                *sys.argv[1:]]), flush=True)
    bench(args)


if __name__ == "__main__":
    main()
