"""Benchmark: ratings of a long history, kept up to date, and GET /api/players with it.

Run: .venv/bin/python -m tests.bench.bench_ratings [--matches N] [--players N] [--requests N]

Budgets on the development machine: the ratings of 10,000 finished matches
(every game and match shape: one against one, teams of two, one against two,
free-for-alls of 2-4 with ties) computed in under 2 s; ``GET /api/players``
and ``/players`` answered in under 50 ms with that history, also the first
after a match finished (the ratings kept are updated by that match alone:
companion/ratings.py KeptRatings). Measured too: the update for one more
match, the recomputation after an undo of the newest result (from the last
checkpoint) and after a rename (all of it, in slices), and how long the
table's writer takes for a point while a reader recomputes everything. The
history is stored as finished matches with their standings (the ratings read
nothing else). Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.ratings import KeptRatings, finished_mark, kept_table_ratings, table_ratings
from companion.store import ABANDONED, FINISHED, Store
from companion.table import Table, TableRunner
from tests.players_support import alakaslam
from tests.support import CATALOG

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
            ratings = table_ratings(store, CATALOG)
            runs.append(time.perf_counter() - began)
            cpu.append(time.process_time() - used)
        rated = sum(len(board) for board in ratings.games.values())
        # Processor time too: on a machine shared with other work the wall clock says more
        # about the neighbours than about this code.
        print(f"ratings of {args.matches} matches ({rated} player ratings in "
              f"{len(ratings.games)} games), fresh: best {min(runs):.2f} s, "
              f"median {statistics.median(runs):.2f} s wall; best {min(cpu):.2f} s "
              f"processor time (budget 2 s; load average now {os.getloadavg()[0]:.1f})")
        bench_kept(store)
        bench_http(store, args.requests)


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """Seconds of wall clock and of this process's processor time that ``work()`` took."""
    began, used = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - began, time.process_time() - used


def bench_kept(store: Store) -> None:
    """KeptRatings: the whole history in slices, one more match, an undone newest one (the
    history's marks given, as the table's reads keep them: their making not timed)."""
    kept = KeptRatings()
    marks = [finished_mark(m) for m in store.finished()]
    context = (store.epoch, store.roster)
    wall, cpu = timed(lambda: kept_table_ratings(kept, store, CATALOG, marks, context))
    print(f"kept ratings, first computation (in slices of {kept.slice}, the interpreter left "
          f"between them): {wall:.2f} s wall, {cpu:.2f} s processor time")
    # After the history's last match (a minute ago), before the matches the reads below
    # finish (now): each is played after the others.
    began = time.time() - 30

    def finish(i: int) -> int:
        seated = [f"Player {(7 * i + j) % 60:04}" for j in range(4)]
        return store.import_match(
            {"game": "alakaslam", "players": seated, "options": {}}, [], status=FINISHED,
            winner=[0, 1], summary="", started_at=began + i / 100,
            standing={"teams": [[0, 1], [2, 3]], "places": [0, 1]})

    # Half a slice more first: an undone result is rated again from the checkpoint before.
    for i in range(kept.slice // 2):
        finish(i)
    marks = [finished_mark(m) for m in store.finished()]
    kept_table_ratings(kept, store, CATALOG, marks, context)
    appended, undone = [], []
    for i in range(kept.slice // 2, kept.slice // 2 + 20):
        match_id = finish(i)
        grown = [*marks, *map(finished_mark, store.finished(after=marks[-1][:2]))]
        appended.append(timed(lambda g=grown: kept_table_ratings(kept, store, CATALOG, g, context)))
        assert kept.rated == 1
        # The newest result undone: its match no longer finished, from the last checkpoint.
        store.set_status(match_id, ABANDONED)
        undone.append(timed(lambda: kept_table_ratings(kept, store, CATALOG, marks, context)))
        assert kept.rated == len(marks) % kept.slice
    for name, samples in (("one more finished match", appended),
                          (f"the newest result undone ({len(marks) % kept.slice} matches "
                           "rated again from the checkpoint)", undone)):
        walls, cpus = (sorted(x) for x in zip(*samples, strict=True))
        print(f"kept ratings, {name}: median {1000 * statistics.median(walls):.1f} ms wall, "
              f"{1000 * statistics.median(cpus):.1f} ms processor time; max "
              f"{1000 * walls[-1]:.1f} ms wall")


def percentiles(samples: list[Any]) -> str:
    """Median, p99 and max of seconds, or of (wall, processor) pairs: both then."""
    if samples and isinstance(samples[0], tuple):
        walls, cpus = zip(*samples, strict=True)
        return f"{percentiles(list(walls))} wall; processor time {percentiles(list(cpus))}"
    samples = sorted(samples)
    return (f"median {1000 * statistics.median(samples):.1f} ms, "
            f"p99 {1000 * samples[int(0.99 * (len(samples) - 1))]:.1f} ms, "
            f"max {1000 * samples[-1]:.1f} ms")


def bench_http(store: Store, requests: int) -> None:
    # Imported here: the web app is only needed for this half.
    from web.app import create_app
    from web.services import Services

    with TableRunner(Table(store, CATALOG, rng=random.Random(2))) as runner:
        services = Services(runner=runner, pin="2468", secret_key=b"k" * 32)
        app = create_app(services)
        # One client asking again and again: this times the answers, not the readers' budget
        # (web/reads.py CostBudget, measured by bench_reads), which would refuse it with 429.
        from web.reads import CostBudget
        app.extensions["companion.reads"].budget = CostBudget(share=1.0, per_address=1.0)
        try:
            client = app.test_client()

            def get(path: str) -> tuple[float, float]:
                # Processor time too (the writer is idle meanwhile): on a machine shared
                # with other work the wall clock says more about the neighbours.
                began, used = time.perf_counter(), time.process_time()
                response = client.get(path, headers={"Accept-Encoding": "gzip"})
                took = time.perf_counter() - began, time.process_time() - used
                assert response.status_code == 200, (path, response.status_code)
                return took

            cold = get("/api/players")[0]
            for path in ("/api/players", "/players", "/api/players?game=alakazoo&limit=50",
                         "/api/players/Player 0001"):
                samples = [get(path) for _ in range(requests)]
                print(f"GET {path}: {percentiles(samples)} (budget 50 ms)")
            print(f"GET /api/players, the first after start (all ratings made): "
                  f"{1000 * cold:.0f} ms")
            # A match finished: the first reads after it (the ratings updated by it alone).
            api, page = [], []
            for i in range(min(requests, 40)):
                seated = [f"Player {(5 * i + j) % 60:04}" for j in range(4)]
                runner.call(lambda t, s=seated, i=i: alakaslam(t, s, i % 2))
                api.append(get("/api/players"))
                page.append(get("/players"))
            print(f"GET /api/players, the first after a match finished: {percentiles(api)}")
            print(f"GET /players, after a match finished: {percentiles(page)}")
            # A point played: the version moves, the finished matches do not.
            runner.call(lambda t: t.start({"game": "center-court",
                                           "players": ["Ann", "Bob"]}))
            points = []
            for i in range(min(requests, 40)):
                runner.call(lambda t, i=i: t.act({"type": "point", "winner": i % 2}))
                points.append(get("/api/players"))
            print(f"GET /api/players after each point: {percentiles(points)}")
            bench_writer(runner, client)
        finally:
            app.extensions["companion.broker"].close()


def bench_writer(runner: TableRunner, client: Any) -> None:
    """A point's round trip through the writer, idle and while a reader rates everything
    again (after a rename: the past rewritten)."""
    def point(i: int) -> float:
        began = time.perf_counter()
        runner.call(lambda t: t.act({"type": "point", "winner": i % 2}))
        return time.perf_counter() - began

    idle = [point(i) for i in range(40)]
    runner.call(lambda t: t.rename_player("Player 0001", "Player One"))
    done = threading.Event()
    took: list[float] = []

    def read() -> None:
        began = time.perf_counter()
        client.get("/api/players")
        took.append(time.perf_counter() - began)
        done.set()

    reader = threading.Thread(target=read)
    reader.start()
    busy = []
    while not done.is_set():
        busy.append(point(len(busy)))
    reader.join()
    print(f"a point through the writer, idle: {percentiles(idle)}")
    print(f"a point through the writer while a reader rates all again after a rename "
          f"({1000 * took[0]:.0f} ms, {len(busy)} points meanwhile): {percentiles(busy)}")


if __name__ == "__main__":
    main()
