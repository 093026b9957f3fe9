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
import os
import random
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion import matchfile
from companion.match import Match, StartRecord
from companion.store import Store
from companion.table import Table
from tests.support import NoDice

ROOT = Path(__file__).resolve().parent.parent
SEED = int(os.environ.get("CRASH_SEED", "20261122"))
RUNS = int(os.environ.get("CRASH_RUNS", "200"))


def run_and_kill(data: Path, seed: int, delay: float) -> list[dict]:
    """Start the player, SIGKILL it ``delay`` seconds after it is ready, return its acks.

    The delay counts from the player's ``ready`` line (Python up, store not yet
    opened), not from the start of the process: on a busy machine the
    interpreter's start-up alone can take longer than the longest delay, and
    the kills would then all land before the player touched the store.
    """
    proc = subprocess.Popen([sys.executable, "-m", "tests.crash_player", str(data), str(seed)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert _first_line(proc) == b"ready\n", f"the player did not start: {proc.stderr.read()}"
    try:
        proc.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
    out, err = proc.communicate(timeout=30)
    # Killed by us is the only acceptable ending; a crash of its own is a bug.
    assert proc.returncode == -signal.SIGKILL, f"player died by itself: {err}"
    acks = []
    for line in out.splitlines():
        try:
            acks.append(json.loads(line))
        except json.JSONDecodeError:
            break  # the kill cut the last line short: it was never acknowledged
    return acks


def _first_line(proc: subprocess.Popen, timeout: float = 60) -> bytes:
    """The child's first line, read a byte at a time from the pipe itself, so
    nothing after it is buffered where ``communicate`` would not see it."""
    line = b""
    while not line.endswith(b"\n"):
        ready, _, _ = select.select([proc.stdout], [], [], timeout)
        byte = os.read(proc.stdout.fileno(), 1) if ready else b""
        if not byte:
            break
        line += byte
    return line


def check_store(data: Path, acks: list[dict]) -> None:
    with Store(data / "companion.db") as store:
        assert store.integrity_check() == "ok"
        for ack in acks:
            if ack["op"] == "start":
                continue
            journal = store.load(ack["match"]).journal
            assert len(journal) >= ack["seq"], f"acknowledged entry lost: {ack}"
            assert journal[ack["seq"] - 1] == (ack["op"], ack["event"])
        stored = store.current()
        table = Table(store)
    if stored is None:
        return
    match = Match(StartRecord.create(stored.start, NoDice()))
    match.replay(stored.journal)
    text = matchfile.dump(match.start, match.events)
    replayed = matchfile.replay(text.splitlines(), NoDice())
    assert table.match.state == replayed.state
    assert table.snapshot.match["view"] == replayed.view()


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_no_acknowledged_event(tmp_path):
    rng = random.Random(SEED)
    acknowledged = 0
    for run in range(RUNS):
        delay = rng.uniform(0.0, 0.4)
        acks = run_and_kill(tmp_path, rng.randrange(2**31), delay)
        acknowledged += len(acks)
        try:
            check_store(tmp_path, acks)
        except AssertionError as err:
            where = f"run {run} (CRASH_SEED={SEED}, delay {delay:.3f}s)"
            raise AssertionError(f"{where}: {err}") from err
    # The runs must have done real work, not died before the first commit.
    assert acknowledged > RUNS
