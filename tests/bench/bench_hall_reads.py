"""Benchmark: screens and scripts reading the hall's ``/api/tables`` while tables change.

Run: .venv/bin/python -m tests.bench.bench_hall_reads [--tables 500] [--readers 8]
     [--rate 50] [--seconds 10]

One hall board with ``--tables`` cards (each a two-side Center Court summary
with long names, as big as a real one gets), its app served by the web server (app/server.py) as
``companion hall`` serves it, all in this process: the cards are fed
straight to the board (the MQTT client's thread does this in the hall) at
``--rate`` changes a second, each feed timed (what readers take from it is
the interpreter). ``--readers`` keep-alive clients ask as fast as they are
answered: half the whole list with gzip and the ETag they got (a TV's
script polling), half a walk of pages of 50 (``limit``, ``after``).

Printed: what making the whole list once costs now (the board's view and the
answer) and what the old per-request encoding cost; the feed's p50/p99 with
and without the readers; each kind of read's latency, statuses and bytes;
and how many answers the hall held at the end. Prints numbers; asserts
nothing.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import threading
import time

from companion.topics import ONLINE, dumps
from hall.answers import TableAnswers, make_answer
from hall.app import create_hall_app, hall_broker
from hall.cards import Board
from tests.bench.bench_web import percentile

P = "table-companion"


def summary(n: int, point: int) -> bytes:
    """Table ``n``'s summary at its ``point``-th change, names at their longest."""
    long = "W" * 60
    return dumps({"table": {"id": f"t{n:03d}", "name": f"Table {n} " + "N" * 50,
                            "url": f"http://192.0.2.{n % 250}:8080/"},
                  "version": point, "game": "center-court", "title": "Center Court",
                  "status": "playing", "players": f"{long} v {long}",
                  "score": f"6-4 3-{point % 7} ({point % 4 * 15}-30)", "turn": "serving: Ann",
                  "winner": "", "columns": ["Set 1", "Set 2", "Set 3", "Games", "Points"],
                  "sides": [{"name": long, "score": ["6", "3", str(point % 7), "15", "30"],
                             "turn": side == 0, "winner": False} for side in (0, 1)]}).encode()


def feed(board: Board, tables: int, rate: float, seconds: float) -> list[float]:
    """Change one card after another at ``rate`` a second; each feed's time (ms)."""
    times, point, began = [], 0, time.monotonic()
    while (now := time.monotonic()) - began < seconds:
        point += 1
        t0 = time.perf_counter()
        board.receive(f"{P}/t{point % tables:03d}/summary", summary(point % tables, point))
        times.append((time.perf_counter() - t0) * 1000)
        time.sleep(max(0.0, began + point / rate - now))
    return times


class Reader(threading.Thread):
    """One keep-alive client asking, until ``stop``: the whole list (gzip, ETag), or pages."""

    def __init__(self, port: int, pages: bool, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.pages, self.stop = port, pages, stop
        self.times: list[float] = []
        self.statuses: collections.Counter[int] = collections.Counter()
        self.bytes = 0

    def ask(self, conn: http.client.HTTPConnection, path: str, headers: dict) -> tuple[
            http.client.HTTPResponse, bytes]:
        t0 = time.perf_counter()
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        body = response.read()
        self.times.append((time.perf_counter() - t0) * 1000)
        self.statuses[response.status] += 1
        self.bytes += len(body)
        return response, body

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        etag = ""
        while not self.stop.is_set():
            if not self.pages:
                response, _ = self.ask(conn, "/api/tables", {"Accept-Encoding": "gzip",
                                                             "If-None-Match": etag})
                etag = response.headers.get("ETag") or etag
                continue
            path: str | None = "/api/tables?limit=50"
            while path and not self.stop.is_set():
                response, _ = self.ask(conn, path, {})
                link = response.headers.get("Link")
                path = link[1:link.index(">")] if link else None
        conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--readers", type=int, default=8)
    parser.add_argument("--rate", type=float, default=50.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    from app.server import WebServer

    board = Board(P)
    for n in range(args.tables):
        board.receive(f"{P}/t{n:03d}/summary", summary(n, 0))
        board.receive(f"{P}/t{n:03d}/availability", ONLINE.encode())
    print(f"hall: {args.tables} cards, {args.readers} readers, {args.rate:g} changes/s, "
          f"{args.seconds:g} s")

    # Making the whole list once, now and as every request did before (one dumps of it).
    whole = json.loads(board.json_text())
    t0 = time.perf_counter()
    for _ in range(20):
        dumps(whole)
    old = (time.perf_counter() - t0) / 20 * 1000
    made = []
    for n in range(20):
        board.receive(f"{P}/t000/summary", summary(0, 10_000 + n))  # a change: made anew
        t0 = time.perf_counter()
        make_answer(board.view(), None, None)
        made.append((time.perf_counter() - t0) * 1000)
    size = len(board.json_text().encode())
    print(f"whole list: {size / 1024:.0f} KB; made once per change in "
          f"p50 {percentile(made, 50):.2f} ms (view and answer); encoded per request before: "
          f"{old:.2f} ms")

    quiet = feed(board, args.tables, args.rate, min(3.0, args.seconds))
    print(f"feed alone:        p50 {percentile(quiet, 50):6.3f} ms  "
          f"p99 {percentile(quiet, 99):6.3f} ms  (n={len(quiet)})")

    broker = hall_broker(board.first, 8, 15.0, 8)
    answers = TableAnswers(board)
    server = WebServer(create_hall_app(board, broker, answers=answers), "127.0.0.1", 0, 8)
    stop = threading.Event()
    readers = [Reader(server.port, n % 2 == 1, stop) for n in range(args.readers)]
    try:
        for reader in readers:
            reader.start()
        busy = feed(board, args.tables, args.rate, args.seconds)
        stop.set()
        for reader in readers:
            reader.join(30)
    finally:
        server.close()
        broker.close()
    print(f"feed with readers: p50 {percentile(busy, 50):6.3f} ms  "
          f"p99 {percentile(busy, 99):6.3f} ms  (n={len(busy)})")
    for name, group in (("whole list (gzip, ETag)", readers[0::2]),
                        ("pages of 50", readers[1::2])):
        times = [t for r in group for t in r.times]
        if not times:
            continue
        statuses = sum((r.statuses for r in group), collections.Counter())
        megabytes = sum(r.bytes for r in group) / 1e6
        print(f"{name:24s}: {len(times) / args.seconds:7.0f}/s  p50 {percentile(times, 50):6.2f}"
              f" ms  p99 {percentile(times, 99):6.2f} ms  statuses {dict(statuses)}  "
              f"{megabytes:.1f} MB")
    kept, held = answers.held
    print(f"held at the end: {kept} answers, {held / 1e6:.2f} MB (counted twice for gzip)")


if __name__ == "__main__":
    main()
