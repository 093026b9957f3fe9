"""Power-cut safety: SIGKILL a playing table at random moments, then check.

Each run resumes the database the previous run left, plays, and is killed
after a random delay (before start-up finishes, mid-commit, between
commits). After each kill: SQLite's integrity check passes, every entry the
table acknowledged is stored exactly, and resuming gives the same state as
replaying the exported match file through the rules.

Reproducible: the delays and the play come from CRASH_SEED (default below);
``CRASH_RUNS`` changes the number of runs.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import select
import signal
import time
from pathlib import Path

import pytest

from companion import matchfile
from companion.match import Match, StartRecord
from companion.store import Store
from companion.table import Table
from tests import crash_player
from tests.support import CATALOG, NoDice

ROOT = Path(__file__).resolve().parent.parent
SEED = int(os.environ.get("CRASH_SEED", "20261122"))
RUNS = int(os.environ.get("CRASH_RUNS", "200"))


#: The players are forked from a server that imported tests.crash_player once: a run
#: costs a fork, not an interpreter start-up and the project's imports (a fifth of
#: a second of CPU each, 200 times). The store is opened only after the fork.
PLAYERS = multiprocessing.get_context("forkserver")


def run_and_kill(data: Path, seed: int, delay: float) -> list[dict]:
    """Start the player, SIGKILL it ``delay`` seconds after it is ready, return its acks.

    The delay counts from the player's ``ready`` line (its process running, store
    not yet opened), not from the start of the process: on a busy machine the
    start-up alone can take longer than the longest delay, and the kills would
    then all land before the player touched the store.
    """
    reader, writer = PLAYERS.Pipe(duplex=False)
    err = data.parent / "player-stderr.txt"
    proc = PLAYERS.Process(target=crash_player.play, args=(data, seed, writer, err))
    try:
        proc.start()
        writer.close()  # the player holds the only sending end: its death ends the pipe
        first = _first_line(reader.fileno())
        assert first == b"ready\n", f"the player did not start: {first!r} {_text(err)}"
        proc.join(timeout=delay)
        if proc.exitcode is None:
            proc.kill()
        out = _read_to_end(reader.fileno(), timeout=30)
        proc.join(timeout=30)
    finally:
        if proc.exitcode is None and proc.pid is not None:
            proc.kill()
            proc.join(timeout=30)
        reader.close()
    # Killed by us is the only acceptable ending; a crash of its own is a bug.
    assert proc.exitcode == -signal.SIGKILL, f"player died by itself: {_text(err)}"
    acks = []
    for line in out.decode().splitlines():
        try:
            acks.append(json.loads(line))
        except json.JSONDecodeError:
            break  # the kill cut the last line short: it was never acknowledged
    return acks


def _first_line(fd: int, timeout: float = 60) -> bytes:
    """The child's first line, read a byte at a time from the pipe itself, so
    nothing after it is read before the delay starts."""
    line = b""
    while not line.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], timeout)
        byte = os.read(fd, 1) if ready else b""
        if not byte:
            break
        line += byte
    return line


def _read_to_end(fd: int, timeout: float) -> bytes:
    """Everything the pipe still holds until its sending end is closed (the player died)."""
    chunks = []
    deadline = time.monotonic() + timeout
    while True:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"the player's pipe stayed open {timeout} s after the kill"
        chunk = os.read(fd, 65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _text(path: Path) -> str:
    return path.read_text(errors="replace") if path.exists() else ""


def check_store(data: Path, acks: list[dict]) -> None:
    with Store(data / "companion.db") as store:
        assert store.integrity_check() == "ok"
        journals: dict[int, list] = {}  # each match loaded once, not once per ack
        for ack in acks:
            if ack["op"] == "start":
                continue
            if ack["match"] not in journals:
                journals[ack["match"]] = store.load(ack["match"]).journal
            journal = journals[ack["match"]]
            assert len(journal) >= ack["seq"], f"acknowledged entry lost: {ack}"
            assert journal[ack["seq"] - 1] == (ack["op"], ack["event"])
        stored = store.current()
        table = Table(store, CATALOG)
    if stored is None:
        return
    match = Match(StartRecord.create(stored.start, NoDice(), CATALOG), CATALOG)
    match.replay(stored.journal)
    text = matchfile.dump(match.start, match.events)
    replayed = matchfile.replay(text.splitlines(), NoDice(), CATALOG)
    assert table.match.state == replayed.state
    assert table.snapshot.match["view"] == replayed.view()


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_no_acknowledged_event(tmp_path):
    PLAYERS.set_forkserver_preload(["tests.crash_player"])
    data = tmp_path / "data"
    data.mkdir()
    rng = random.Random(SEED)
    acknowledged = 0
    for run in range(RUNS):
        delay = rng.uniform(0.0, 0.4)
        acks = run_and_kill(data, rng.randrange(2**31), delay)
        acknowledged += len(acks)
        try:
            check_store(data, acks)
        except AssertionError as err:
            where = f"run {run} (CRASH_SEED={SEED}, delay {delay:.3f}s)"
            raise AssertionError(f"{where}: {err}") from err
    # The runs must have done real work, not died before the first commit.
    assert acknowledged > RUNS
