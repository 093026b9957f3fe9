"""A table that plays forever until it is killed: the crash test's child.

``play(data, seed, out)`` resumes the match stored in ``data`` (or starts
one) and plays scripted random actions, writing to ``out``, the sending end
of a pipe. Its first line, ``ready``, comes once the process runs and before
the store is opened, so the parent's delays count from there whatever the
machine's load. After every change the table acknowledged (committed, then
published) it writes one JSON line: ``{"match": id, "seq": n, "op": ...,
"event": ...}``, where ``seq`` is the entry's place in that match's journal.
The parent kills it with SIGKILL and checks that every acknowledged entry
survived.

The crash test runs it in processes forked from a server that has imported
this module once (multiprocessing's forkserver), so each of its runs costs a
fork rather than an interpreter start-up and the imports: the store is
opened, written and killed in the child exactly as in a fresh process.
``python -m tests.crash_player DATA_DIR SEED`` plays on stdout by hand.
"""

from __future__ import annotations

import json
import os
import random
import sys
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TextIO

from companion.errors import CompanionError
from companion.store import Store
from companion.table import Table
from tests.support import CATALOG


def play(data: Path, seed: int, out: Connection | int, err_path: Path | None = None) -> None:
    """Play on ``data`` forever, writing ``ready`` and the acks as text lines to
    ``out`` (a pipe's connection, or a file descriptor); with ``err_path``,
    stderr goes to that file first, so a player that dies by itself says why."""
    if err_path is not None:
        with open(err_path, "wb") as err:
            os.dup2(err.fileno(), 2)
    fd = out if isinstance(out, int) else os.dup(out.fileno())
    with open(fd, "w") as text:
        text.write("ready\n")
        text.flush()
        _play(data, seed, text)


def _play(data: Path, seed: int, out: TextIO) -> None:
    rng = random.Random(seed)
    store = Store(data / "companion.db")
    table = Table(store, CATALOG, rng=random.Random(seed + 1))
    seq = len(store.load(table.match_id).journal) if table.match_id else 0

    def ack(op: str, event: object) -> None:
        out.write(json.dumps({"match": table.match_id, "seq": seq, "op": op,
                              "event": event}) + "\n")
        out.flush()

    while True:
        if table.match is None or table.match.is_over:
            table.start({"game": "center-court", "players": ["Ann", "Bob"],
                         "options": {"sets": rng.choice([1, 3]), "first_server": "coin"}})
            seq = 0
            ack("start", None)
        roll = rng.random()
        try:
            if roll < 0.05:
                table.undo()
                op, event = "undo", None
            elif roll < 0.10:
                table.redo()
                op, event = "redo", None
            else:
                if roll < 0.35:
                    action = {"type": "serve", "card": rng.randint(1, 6)}
                elif roll < 0.40:
                    action = {"type": "return", "card": rng.randint(1, 6)}
                else:
                    action = {"type": "point", "winner": rng.randint(0, 1)}
                table.act(action)
                op, event = "event", table.match.events[-1]
        except CompanionError:
            continue
        seq += 1
        ack(op, event)


if __name__ == "__main__":
    play(Path(sys.argv[1]), int(sys.argv[2]), os.dup(sys.stdout.fileno()))
