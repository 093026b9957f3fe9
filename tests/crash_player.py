"""A table that plays forever until it is killed: the crash test's child.

``python -m tests.crash_player DATA_DIR SEED`` resumes the match stored in
DATA_DIR (or starts one) and plays scripted random actions. Its first line,
``ready``, comes once Python is up and before the store is opened, so the
parent's delays count from there whatever the machine's load. After every
change the table acknowledged (committed, then published) it prints one JSON
line: ``{"match": id, "seq": n, "op": ..., "event": ...}``, where ``seq`` is
the entry's place in that match's journal. The parent kills it with SIGKILL
and checks that every acknowledged entry survived.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from companion.errors import CompanionError
from companion.store import Store
from companion.table import Table


def main(data: Path, seed: int) -> None:
    print("ready", flush=True)
    rng = random.Random(seed)
    store = Store(data / "companion.db")
    table = Table(store, rng=random.Random(seed + 1))
    seq = len(store.load(table.match_id).journal) if table.match_id else 0
    out = sys.stdout

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
    main(Path(sys.argv[1]), int(sys.argv[2]))
