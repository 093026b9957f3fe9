"""Benchmark: where the companion's memory goes per action, and that it stops growing.

Run: .venv/bin/python -m tests.bench.bench_rss [--actions N] [--warmup N] [--cache-kib K]

Plays short matches (one-set Center Court, random points) on a real file
database, the way an evening at the table does, and prints the process's
RSS every N/8 actions: the bytes per action since the warm-up, and the
SQLite page cache's size. A long match is also measured on its own, with
tracemalloc, to show what the current match keeps for undo.

What it shows (issue 22's "RSS creeps ~100 B per action"): the writer's
SQLite connection caches database pages up to ``PRAGMA cache_size`` (SQLite's
default, 2,000 KiB per connection). As the database grows by a journal row
per action, the cache fills with its pages: RSS rises by some tens of bytes
per action until the cache is full, then stays flat. With ``--cache-kib
200`` it is flat from the start. Within one match the match itself grows,
by design: every state since its start is kept so that any action can be
undone, a few hundred bytes each, freed when the next match starts.
Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import random
import tempfile
import tracemalloc
from pathlib import Path

from companion.store import Store
from companion.table import Table
from tests.support import CATALOG

START = {"game": "center-court", "players": ["Ann", "Bob"], "options": {"sets": 1}}


def rss() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def evening(actions: int, warmup: int, cache_kib: int | None) -> None:
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "companion.db") as store:
        if cache_kib is not None:
            store._db.execute(f"PRAGMA cache_size = -{cache_kib}")  # the bench's only knob
        table, rng = Table(store, CATALOG, random.Random(1)), random.Random(2)
        done = 0

        def play(n: int) -> None:
            nonlocal done
            for _ in range(n):
                if table.match is None or table.match.is_over:
                    table.start(START)
                table.act({"type": "point", "winner": rng.randrange(2)})
                done += 1

        play(warmup)
        gc.collect()
        base, base_done = rss(), done
        cache = store._db.execute("PRAGMA cache_size").fetchone()[0]
        size = f"{-cache} KiB" if cache < 0 else f"{cache} pages"
        print(f"short matches, the writer's SQLite page cache at most {size}:")
        for _ in range(8):
            play(actions // 8)
            gc.collect()
            now = rss()
            print(f"  {done:7d} actions: RSS {now / 2**20:6.1f} MiB, "
                  f"{(now - base) / (done - base_done):5.0f} B/action since {base_done}")


def one_long_match(actions: int) -> None:
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "companion.db") as store:
        table = Table(store, CATALOG, random.Random(1))
        table.start(START | {"options": {"sets": 5}})
        for i in range(200):  # alternating points: deuce for ever, the match never ends
            table.act({"type": "point", "winner": i % 2})
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        for i in range(actions):
            table.act({"type": "point", "winner": i % 2})
        gc.collect()
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
        print(f"one match of {len(table.match.events)} actions (all undoable): "
              f"{grown / actions:.0f} B/action held by Python objects (tracemalloc)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=80_000)
    parser.add_argument("--warmup", type=int, default=2000,
                        help="actions played before the first measure")
    parser.add_argument("--cache-kib", type=int, default=None,
                        help="PRAGMA cache_size for the writer (default: SQLite's)")
    args = parser.parse_args()
    print(f"command: python -m tests.bench.bench_rss --actions {args.actions} --warmup "
          f"{args.warmup}"
          + (f" --cache-kib {args.cache_kib}" if args.cache_kib is not None else ""))
    evening(args.actions, args.warmup, args.cache_kib)
    one_long_match(min(args.actions, 4000))


if __name__ == "__main__":
    main()
