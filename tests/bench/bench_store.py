"""Benchmark: apply-and-commit time per event, resume time of a long match, start-up checks.

Run: .venv/bin/python -m tests.bench.bench_store [--events N] [--resume-events N]
     [--history-matches N]

Budgets on the development machine: p99 commit <= 10 ms, resume of a
10,000-event match <= 1 s. The start-up check (SQLite's integrity check of
the whole file and the current match replayed through the rules) is
measured on a history of N finished matches, against a plain open and
resume. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.data_folder import DB_NAME
from companion.recovery import open_table
from companion.store import Store
from companion.table import Table
from tests.support import CATALOG

COMPANION = str(Path(sys.executable).parent / "companion")
START = {"game": "center-court", "players": ["Ann", "Bob"],
         "options": {"sets": 5, "final_set": "advantage"}}


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def endless_actions(rng: random.Random):
    """Legal actions forever: serves, returns and points, with deuce games that never end."""
    # Three points each reach deuce; alternating points after that keep the
    # game at deuce/advantage, so the match never finishes.
    yield from ({"type": "point", "winner": w} for w in (0, 0, 0, 1, 1, 1))
    winner = 0
    while True:
        yield {"type": "serve", "card": rng.choice([3, 4])}
        yield {"type": "return", "card": rng.randint(1, 6)}
        yield {"type": "point", "winner": winner}
        winner = 1 - winner


def bench_commit(folder: Path, events: int) -> None:
    rng = random.Random(1)
    with Store(folder / "commit.db") as store:
        table = Table(store, CATALOG, rng=random.Random(2))
        table.start(START)
        actions = endless_actions(rng)
        samples = []
        for _ in range(events):
            action = next(actions)
            t0 = time.perf_counter()
            table.act(action)
            samples.append((time.perf_counter() - t0) * 1000)
        durability = store.durability()
    print(f"apply+commit per event ({events} events, {durability['journal_mode']}, "
          f"synchronous={durability['synchronous']}):")
    print(f"  p50 {percentile(samples, 50):.2f} ms   p99 {percentile(samples, 99):.2f} ms   "
          f"max {max(samples):.2f} ms   mean {statistics.fmean(samples):.2f} ms   "
          f"(budget p99 <= 10 ms)")


def bench_resume(folder: Path, events: int) -> None:
    rng = random.Random(3)
    path = folder / "resume.db"
    with Store(path) as store, Store(":memory:") as memory:
        # Resolve through a table without a store round trip per event, then
        # store the journal in one go: only the resume is being measured.
        scratch = Table(memory, CATALOG, rng=random.Random(4))
        scratch.start(START)
        actions = endless_actions(rng)
        for _ in range(events):
            scratch.match.push(*scratch.match.resolve(next(actions), random.Random(5)))
        store.import_match(START | {"options": dict(scratch.match.start.options)},
                           list(scratch.match.events), status="active", winner=None,
                           summary=scratch.match.game.summary(scratch.match.state))
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        with Store(path) as store:
            table = Table(store, CATALOG)
        times.append(time.perf_counter() - t0)
        assert table.match is not None and len(table.match.events) == events
    print(f"resume of a {events}-event match (open store, replay journal; 5 runs):")
    print(f"  best {min(times) * 1000:.0f} ms   median {statistics.median(times) * 1000:.0f} ms"
          f"   worst {max(times) * 1000:.0f} ms   (budget <= 1000 ms)")


def finished_match(rng: random.Random) -> tuple[dict, list[dict], object, str]:
    """A one-set match played to its end with random serves, returns and points."""
    with Store(":memory:") as memory:
        table = Table(memory, CATALOG, rng=random.Random(6))
        table.start(START | {"options": {"sets": 3}})
        match = table.match
        while not match.is_over:
            kind = rng.random()
            action = ({"type": "point", "winner": rng.randint(0, 1)} if kind < 0.5 else
                      {"type": "serve", "card": rng.choice([3, 4])} if kind < 0.8 else
                      {"type": "return", "card": rng.randint(1, 6)})
            try:
                match.push(*match.resolve(action, random.Random(5)))
            except ValueError:  # not allowed now: the next one
                continue
        return (match.start.to_json(), list(match.events), match.game.winner(match.state),
                match.game.summary(match.state))


def bench_start(folder: Path, matches: int) -> None:
    path = folder / DB_NAME
    start, events, winner, summary = finished_match(random.Random(7))
    with Store(path) as store:
        for _ in range(matches):
            store.import_match(start, events, status="finished", winner=winner,
                               summary=summary)
    size = path.stat().st_size / 1e6
    plain, checked = [], []
    for _ in range(3):
        t0 = time.perf_counter()
        with Store(path) as store:
            Table(store, CATALOG)
        plain.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        opened = open_table(path, CATALOG)
        checked.append(time.perf_counter() - t0)
        opened.store.close()
        assert opened.notice is None
    print(f"start-up on a history of {matches} finished matches of {len(events)} events "
          f"({size:.1f} MB; 3 runs, median):")
    print(f"  plain open+resume {statistics.median(plain) * 1000:.0f} ms   "
          f"checked (integrity check + rules replay) {statistics.median(checked) * 1000:.0f} ms")
    empty = folder / "empty"
    empty.mkdir()
    full, bare = ([run_until_serving(where) for _ in range(3)] for where in (folder, empty))
    print(f"  `companion run --sim` until it serves: {statistics.median(full) * 1000:.0f} ms "
          f"(an empty data folder: {statistics.median(bare) * 1000:.0f} ms)")


def run_until_serving(data: Path) -> float:
    """Seconds from starting ``companion run --sim --data DATA`` to its first line."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([COMPANION, "run", "--sim", "--data", str(data), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        elapsed = time.perf_counter() - t0
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
    finally:
        proc.kill()
        proc.wait()
    assert "running" in line, line
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--resume-events", type=int, default=10_000)
    parser.add_argument("--history-matches", type=int, default=3000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        bench_commit(Path(tmp), args.events)
        bench_resume(Path(tmp), args.resume_events)
        bench_start(Path(tmp), args.history_matches)


if __name__ == "__main__":
    main()
