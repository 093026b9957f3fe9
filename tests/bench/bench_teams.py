"""Benchmark: what reading each stored match's sides (companion/teams.py) adds to the
history's first read, per game, uncached (every match its own options) and cached
(the same options under other names, as a club's matches mostly are).

Run: .venv/bin/python -m tests.bench.bench_teams [--matches 2000]

Prints microseconds per match and what 5,000 stored matches would cost; asserts
nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from companion.match import StartRecord
from companion.teams import _teams, teams
from tests.e2e.browser_support import EACH_GAME
from tests.support import CATALOG


def bench(matches: int) -> None:
    for game, record in EACH_GAME.items():
        start = StartRecord.create(record, random.Random(1), CATALOG)
        options = json.dumps(start.options, sort_keys=True)
        began = time.perf_counter()
        for _ in range(matches):
            _teams.cache_clear()
            _teams(CATALOG, start.game, len(start.players), options)
        uncached = (time.perf_counter() - began) / matches
        began = time.perf_counter()
        for i in range(matches):
            teams(CATALOG, start.game, [f"{p}{i}" for p in start.players], start.options)
        cached = (time.perf_counter() - began) / matches
        print(f"{game:18} uncached {uncached * 1e6:6.0f} us/match ({uncached * 5000:.2f} s for"
              f" 5,000)  cached {cached * 1e6:5.1f} us/match")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000)
    bench(parser.parse_args().matches)


if __name__ == "__main__":
    main()
