"""Benchmark: ratings of a long history, and GET /api/players with it.

Run: .venv/bin/python -m tests.bench.bench_ratings [--matches N] [--players N] [--requests N]

Budgets on the development machine: the ratings of 10,000 finished matches
(every game and match shape: one against one, teams of two, one against two,
free-for-alls of 2-4 with ties) computed in under 2 s; ``GET /api/players``
answered in under 50 ms with that history once its ratings are made (they
are made again only when a match finishes or a player is renamed, not on
every point). The history is stored as finished matches with their
standings (the ratings read nothing else). Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from companion.ratings import table_ratings
from companion.store import ABANDONED, FINISHED, Store
from companion.table import Table, TableRunner

#: Each shape: game, teams (player indexes) and how the places fall.
SHAPES = [
    ("center-court", [[0], [1]]),
    ("wizard-dodgeball", [[0], [1]]),
    ("alakaslam", [[0], [1]]),
    ("alakaslam", [[0], [1, 2]]),
    ("alakaslam", [[0, 1], [2, 3]]),
    ("alakazoo", [[0], [1]]),
    ("alakazoo", [[0], [1], [2]]),
    ("alakazoo", [[0], [1], [2], [3]]),
]


def history(store: Store, matches: int, players: int, rng: random.Random) -> None:
    """``matches`` finished matches among ``players`` names, a minute apart."""
    names = [f"Player {i:04}" for i in range(players)]
    began = time.time() - matches * 60
    for i in range(matches):
        game, teams = rng.choice(SHAPES)
        seated = rng.sample(names, sum(len(t) for t in teams))
        if game == "alakazoo":  # a free-for-all: places from totals, ties shared
            totals = [rng.randrange(6) for _ in teams]
            places = [sorted(totals, reverse=True).index(t) for t in totals]
        else:
            won = rng.randrange(2)
            places = [0 if side == won else 1 for side in range(2)]
        store.import_match({"game": game, "players": seated, "options": {}}, [],
                           status=FINISHED, winner=places.index(0), summary="",
                           started_at=began + 60 * i,
                           standing={"teams": teams, "places": places})
    # The table then stands empty (its current match is its newest unless abandoned): the
    # records above are the ratings' input, not replayable matches.
    match_id, _ = store.begin_match({"game": "center-court", "players": names[:2],
                                     "options": {}})
    store.set_status(match_id, ABANDONED)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args(argv)
    print("command:", " ".join([sys.executable, "-m", "tests.bench.bench_ratings",
                                *(argv if argv is not None else sys.argv[1:])]))
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "c.db") as store:
        made = time.perf_counter()
        # Only to store the history quickly: every commit is synced otherwise (the table's
        # durability, which this bench does not measure).
        store._db.execute("PRAGMA synchronous = OFF")
        history(store, args.matches, args.players, random.Random(1))
        store._db.execute("PRAGMA synchronous = FULL")
        print(f"history of {args.matches} finished matches, {args.players} players stored "
              f"in {time.perf_counter() - made:.1f} s")
        runs, cpu = [], []
        for _ in range(3):
            began, used = time.perf_counter(), time.process_time()
            ratings = table_ratings(store)
            runs.append(time.perf_counter() - began)
            cpu.append(time.process_time() - used)
        rated = sum(len(board) for board in ratings.games.values())
        # Processor time too: on a machine shared with other work the wall clock says more
        # about the neighbours than about this code.
        print(f"ratings of {args.matches} matches ({rated} player ratings in "
              f"{len(ratings.games)} games): best {min(runs):.2f} s, "
              f"median {statistics.median(runs):.2f} s wall; best {min(cpu):.2f} s "
              f"processor time (budget 2 s; load average now {os.getloadavg()[0]:.1f})")
        bench_http(store, args.requests)


def bench_http(store: Store, requests: int) -> None:
    # Imported here: the web app is only needed for this half.
    from web.app import create_app
    from web.services import Services

    with TableRunner(Table(store, rng=random.Random(2))) as runner:
        services = Services(runner=runner, pin="2468", secret_key=b"k" * 32)
        app = create_app(services)
        try:
            client = app.test_client()
            began = time.perf_counter()
            first = client.get("/api/players")
            cold = time.perf_counter() - began
            assert first.status_code == 200, first.json
            for path in ("/api/players", "/api/players?game=alakazoo&limit=50",
                         "/api/players/Player 0001"):
                samples = []
                for _ in range(requests):
                    began = time.perf_counter()
                    response = client.get(path, headers={"Accept-Encoding": "gzip"})
                    samples.append(time.perf_counter() - began)
                    assert response.status_code == 200
                samples.sort()
                print(f"GET {path}: median {1000 * statistics.median(samples):.1f} ms, "
                      f"p99 {1000 * samples[int(0.99 * (len(samples) - 1))]:.1f} ms "
                      f"({len(response.data)} bytes gzipped; budget 50 ms)")
            print(f"GET /api/players, the first after start (ratings made): "
                  f"{1000 * cold:.0f} ms")
            # A point played: the version moves, the finished matches do not. The answers
            # are made again from the ratings kept (not computed again).
            samples, statuses = [], []
            for i in range(min(requests, 20)):
                runner.call(lambda t, i=i: (t.start({"game": "center-court",
                                                     "players": ["Ann", "Bob"]}) if i == 0
                                            else t.act({"type": "point", "winner": i % 2})))
                began = time.perf_counter()
                response = client.get("/api/players", headers={"Accept-Encoding": "gzip"})
                samples.append(time.perf_counter() - began)
                statuses.append(response.status_code)
            print(f"GET /api/players after each point: median "
                  f"{1000 * statistics.median(samples):.1f} ms, max {1000 * max(samples):.1f} ms"
                  f" (answers {sorted(set(statuses))}: 429 is one reader's budget for new "
                  "answers spent, web/reads.py CostBudget)")
        finally:
            app.extensions["companion.broker"].close()


if __name__ == "__main__":
    main()
