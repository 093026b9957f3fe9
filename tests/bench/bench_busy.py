"""Benchmark: host changes against a table whose disk syncs are slow. Does every answer tell
the truth?

Run: .venv/bin/python -m tests.bench.bench_busy [--actions 200] [--clients 8] [--sync 0.05]
     [--timeout 0.2]

The real web server (app/server.py) over a real SQLite store whose every commit is made
``--sync`` seconds slower (a slow SD card), ``--clients`` hosts sending
``--actions`` points at once, the server's wait for the writer cut to
``--timeout`` s (10 s in the product) so a short run shows the busy answers.
Two rounds: each change sent once (answers counted against what the table
applied: a 503 must mean not applied), then each change retried with its
Idempotency-Key until it is not 503 (each must be applied exactly once).
Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import http.client
import json
import logging
import random
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import web.api
from app.server import WebServer
from companion.store import Store
from companion.table import Table, TableRunner
from tests.support import CATALOG
from web.app import create_app
from web.services import Services

PIN = "2468"
START = {"game": "center-court", "players": ["Ann", "Bob"],
         "options": {"sets": 5, "final_set": "advantage"}}


class SlowStore(Store):
    delay = 0.0

    def record(self, *args, **kwargs):
        time.sleep(self.delay)
        return super().record(*args, **kwargs)


def request(port, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers={"Content-Type": "application/json", **(headers or {})})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), json.loads(response.read())
    finally:
        conn.close()


def run_round(port, host, actions, clients, keyed, runner):
    statuses: Counter[int] = Counter()

    def one(i):
        headers = {**host, "Idempotency-Key": f"{keyed}-{i}"} if keyed else host
        while True:
            status, _, _ = request(port, "POST", "/api/action",
                                   {"type": "point", "winner": i % 2}, headers)
            statuses[status] += 1
            if status != 503 or not keyed:
                return

    before = request(port, "GET", "/api/state")[2]["version"]
    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(one, range(actions)))
    took = time.perf_counter() - started
    runner.call(lambda _: None, timeout=120)  # what is still queued has run (or was withdrawn)
    return statuses, request(port, "GET", "/api/state")[2]["version"] - before, took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--sync", type=float, default=0.05)
    parser.add_argument("--timeout", type=float, default=0.2)
    args = parser.parse_args()
    web.api.WRITE_TIMEOUT = args.timeout
    logging.getLogger("web.api").setLevel(logging.ERROR)  # "still being applied", by the hundred
    print(f"$ .venv/bin/python -m tests.bench.bench_busy --actions {args.actions} "
          f"--clients {args.clients} --sync {args.sync} --timeout {args.timeout}")
    with tempfile.TemporaryDirectory() as tmp, \
            SlowStore(Path(tmp) / "companion.db") as store, \
            TableRunner(Table(store, CATALOG, rng=random.Random(1))) as runner:
        app = create_app(Services(runner=runner, pin=PIN, secret_key=b"k" * 32))
        server = WebServer(app, "127.0.0.1", 0, max_streams=args.clients)
        try:
            _, headers, body = request(server.port, "POST", "/api/login", {"pin": PIN})
            host = {"Cookie": headers["Set-Cookie"].split(";")[0], "X-CSRF-Token": body["csrf"]}
            for keyed in ("", "key"):
                store.delay = 0.0
                runner.call(lambda table: table.match and not table.match.is_over
                            and table.abandon())
                request(server.port, "POST", "/api/match", START, host)
                store.delay = args.sync
                statuses, applied, took = run_round(server.port, host, args.actions,
                                                    args.clients, keyed, runner)
                ok = statuses[200]
                label = "retried with Idempotency-Key" if keyed else "sent once"
                print(f"{label:30} answers {dict(sorted(statuses.items()))}  applied {applied}"
                      f"  ({'truthful' if applied == ok else 'NOT truthful'}: {ok} answered"
                      f" 200)  {took:.1f} s")
        finally:
            app.extensions["companion.broker"].close()
            server.close()


if __name__ == "__main__":
    main()
