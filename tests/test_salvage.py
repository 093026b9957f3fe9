"""A damaged page anywhere brings back every match the journal can replay (issue #34 item 5).

Real SQLite files of matches of every game (finished, ended, one unfinished, undos and
redos, a renamed player), each page overwritten in turn, each frame of a log in turn:
what comes back is checked against the file before the damage. The oracle is the
file itself: a journal entry is lost only when the page (or frame) damaged held it
(its time, 8 bytes no other entry has, lies there), and what comes back of a match
is its entries up to the first one lost, never an entry it did not have.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import struct
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from companion.recovery import open_table
from companion.salvage import salvage
from companion.store import SCHEMA_VERSION, Store
from companion.table import Table
from companion.ui.controls import offers
from tests.hostile.test_any_json import STARTS
from tests.support import CATALOG

COMPANION = str(Path(sys.executable).parent / "companion")
DB = "companion.db"


def play(table: Table, rng: random.Random, steps: int) -> None:
    """``steps`` of what the rules offer, with an undo and a redo now and then."""
    for _ in range(steps):
        match = table.snapshot.match
        if match is None or match["status"] != "active":
            return
        roll = rng.random()
        if roll < 0.05 and match["can_undo"]:
            table.undo()
        elif roll < 0.08 and match["can_redo"]:
            table.redo()
        else:
            offered = offers(match["legal"])
            if not offered:
                return
            try:
                table.act(rng.choice(offered))
            except ValueError:
                continue  # an offer the rules refuse at resolve (a cast out of reach)


def realistic(folder: Path, matches: int = 14, seed: int = 3) -> Path:
    """A database as a club evening leaves it: matches of each game, most played to the
    end or ended, the last one unfinished; a player renamed."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    with Store(folder / DB) as store:
        table = Table(store, CATALOG, random.Random(seed))
        for n in range(matches):
            game = list(CATALOG.games)[n % len(CATALOG.games)]
            start = [s for s in STARTS[game] if "event" not in s][n % 3]
            table.start(start)
            play(table, rng, 400 if n % 3 else rng.randrange(5, 40))
            if n < matches - 1 and table.snapshot.match["status"] == "active":
                table.abandon()
        table.rename_player("Ann", "Łukasz")
    return folder / DB


def journals(db: Path) -> dict[int, list[tuple[str, str | None, float]]]:
    """Every match's journal as stored (start, entries, end), by match id."""
    with closing(sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)) as conn:
        out: dict[int, list] = {}
        for match_id, op, event, at in conn.execute(
                "SELECT match_id, op, event, at FROM journal ORDER BY match_id, seq"):
            out.setdefault(match_id, []).append((op, event, at))
        return out


def statuses(db: Path) -> dict[int, str]:
    with closing(sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)) as conn:
        return dict(conn.execute("SELECT id, status FROM matches"))


def journal_pages(db: Path) -> set[int]:
    """The pages of the journal (SQLite's dbstat): an entry's time is only looked for on
    them (a match's row holds the time of its last change too)."""
    with closing(sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)) as conn:
        return {n for (n,) in conn.execute("SELECT pageno FROM dbstat WHERE name = 'journal'")}


def page_size(db: Path) -> int:
    return struct.unpack(">H", db.read_bytes()[16:18])[0]


def held(entry_at: float, where: bytes) -> bool:
    return struct.pack(">d", entry_at) in where


def assert_back(before: dict[int, list], before_status: dict[int, str], store: Store,
                gone: bytes) -> None:
    """What ``store`` holds is what ``before`` held, each match up to its first entry
    whose bytes lay in ``gone`` (the damaged page's content before the damage): never
    less, and never an entry the match did not have."""
    back = {m.id: m for m in store.history()}
    for match_id, journal in before.items():
        plays = [e for e in journal if e[0] in ("event", "undo", "redo")]
        if held(journal[0][2], gone) and match_id not in back:
            # Its start record's journal copy was on the page: the match's row keeps it,
            # unless that too is gone (never: the row is on another table's page).
            pytest.fail(f"match {match_id} is lost, its row was not damaged")
        assert match_id in back, f"match {match_id} did not come back"
        stored = store.load(match_id)
        kept = [(op, None if ev is None else json.loads(ev)) for op, ev, _ in plays]
        first_gone = next((i for i, e in enumerate(plays) if held(e[2], gone)), len(plays))
        assert list(stored.journal) == kept[:len(stored.journal)], \
            f"match {match_id}: an entry it did not have"
        assert len(stored.journal) >= first_gone, \
            f"match {match_id}: {len(stored.journal)} of {first_gone} entries came back"
        if len(stored.journal) == len(kept) and not any(held(e[2], gone) for e in journal):
            assert stored.status == before_status[match_id], match_id


@pytest.fixture(scope="module")
def evening(tmp_path_factory) -> Path:
    return realistic(tmp_path_factory.mktemp("evening"))


def test_the_evening_fills_pages_of_every_table(evening):
    with closing(sqlite3.connect(evening)) as conn:
        names = {n for (n,) in conn.execute("SELECT DISTINCT name FROM dbstat")}
        leaves = conn.execute("SELECT count(*) FROM dbstat WHERE name = 'journal'"
                              " AND pagetype = 'leaf'").fetchone()[0]
    assert {"journal", "matches", "meta", "players", "sqlite_schema"} <= names
    assert leaves >= 4   # a journal with a root of its own, above its leaves
    assert {op for j in journals(evening).values() for op, _, _ in j} == {
        "start", "event", "undo", "redo", "end"}


def test_every_page_damaged_in_turn_loses_only_what_lay_on_it(evening, tmp_path):
    before, status = journals(evening), statuses(evening)
    size = page_size(evening)
    data = evening.read_bytes()
    journal = journal_pages(evening)
    for page in range(1, len(data) // size + 1):
        damaged = tmp_path / f"page-{page}" / DB
        damaged.parent.mkdir()
        # Another table's page: every entry comes back.
        gone = data[(page - 1) * size:page * size] if page in journal else b""
        damaged.write_bytes(data[:(page - 1) * size] + b"\x55" * size + data[page * size:])
        with Store(tmp_path / f"page-{page}" / "new" / DB) as store:
            report = salvage(damaged, store, CATALOG)
            assert report.lines(), page
            assert_back(before, status, store, gone)


def test_the_root_page_of_matches_damaged_at_rest_loses_nothing(tmp_path):
    """The issue's damage: page 4, the root (and only page) of ``matches``, at rest. The
    table restarted empty; now every match comes back at the start, from the journal."""
    data = tmp_path / "data"
    data.mkdir()
    start = {"game": "center-court", "players": ["Ann", "Bob"], "options": {"sets": 5}}
    with Store(data / DB) as store:
        table = Table(store, CATALOG, random.Random(1))
        table.start(start)
        for i in range(74):
            table.act({"type": "point", "winner": i % 2})
        table.abandon()
        table.start(start)
        for i in range(74):
            table.act({"type": "point", "winner": i % 2})
        acknowledged = store.version
    before, status = journals(data / DB), statuses(data / DB)
    with closing(sqlite3.connect(data / DB)) as conn:
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'matches'"
                            ).fetchone()[0]
    assert root == 4
    size = page_size(data / DB)
    raw = bytearray((data / DB).read_bytes())
    raw[(root - 1) * size:root * size] = b"\x55" * size
    (data / DB).write_bytes(bytes(raw))
    opened = open_table(data / DB, CATALOG)
    try:
        assert opened.lost == 0 and "0 acknowledged change(s) could not be brought back" \
            in opened.notice, opened.notice
        assert "companion salvage " in opened.notice and ".recover" not in opened.notice
        assert opened.store.version == acknowledged
        assert_back(before, status, opened.store, b"")
        assert opened.table.snapshot.match["id"] == 2   # the unfinished one resumes
        assert len(opened.table.snapshot.match["view"]["points"]) == 2
    finally:
        opened.store.close()


def test_companion_salvage_brings_back_what_the_start_could_not_and_never_twice(
        evening, tmp_path):
    """The remedy the companion prints is its own command: it reads a kept copy into the
    live database (each match once, however often it is run) and says what it did."""
    size = page_size(evening)
    data = evening.read_bytes()
    kept = tmp_path / "damaged-20261129T000000Z"
    kept.mkdir()
    (kept / DB).write_bytes(b"\x55" * size + data[size:])   # page 1: no schema, no header
    live = tmp_path / "live"
    run = [COMPANION, "salvage", str(kept), "--data", str(live)]
    first = subprocess.run(run, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    count = len(journals(evening))
    assert f"{count} match(es) brought back" in first.stdout, first.stdout
    assert "0 acknowledged change(s) are lost" in first.stdout  # page 1: the schema
    with Store(live / DB, create=False) as store:
        assert_back(journals(evening), statuses(evening), store, b"")
        version = store.version
    again = subprocess.run(run, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and f"{count} match(es) were in the database already" \
        in again.stdout and "0 match(es) brought back" in again.stdout, again.stdout
    with Store(live / DB, create=False) as store:
        assert store.version == version and len(store.history()) == count
    assert (kept / DB).read_bytes()[size:] == data[size:]   # the copy is only read
    wrong = subprocess.run([COMPANION, "salvage", str(tmp_path / "nothing"), "--data",
                            str(live)], capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 2 and "no such file" in wrong.stderr
    assert "Traceback" not in wrong.stderr


def test_every_frame_of_the_log_damaged_in_turn_loses_only_what_it_alone_held(tmp_path):
    """A table that lost power (its log holds every change since the database was made):
    each frame overwritten in turn. The frames after a damaged one still check out, each
    against the one before it, and give back what they hold."""
    live = tmp_path / "live"
    live.mkdir()
    with Store(live / DB) as store:
        table = Table(store, CATALOG, random.Random(2))
        rng = random.Random(2)
        for n in range(3):
            table.start([s for s in STARTS["alakaslam"] if "event" not in s][n])
            play(table, rng, 60)
            if table.snapshot.match["status"] == "active":
                table.abandon()
        copy = tmp_path / "copy"
        copy.mkdir()
        for suffix in ("", "-wal"):
            shutil.copyfile(live / (DB + suffix), copy / (DB + suffix))
    # The journals as the log says them: SQLite reads the copy of the copy whole.
    whole = tmp_path / "whole"
    shutil.copytree(copy, whole)
    before, status = journals(whole / DB), statuses(whole / DB)
    log = (copy / (DB + "-wal")).read_bytes()
    size = struct.unpack(">I", log[8:12])[0]
    frame = 24 + size
    frames = (len(log) - 32) // frame
    assert frames >= 20
    journal = journal_pages(whole / DB)
    file = (copy / DB).read_bytes()

    def journal_images(skip: int) -> bytes:
        """The journal's pages in the file and in every frame but ``skip``."""
        out = [file[(n - 1) * size:n * size] for n in journal if n * size <= len(file)]
        for j in range(frames):
            at = 32 + j * frame
            if j != skip and struct.unpack(">I", log[at:at + 4])[0] in journal:
                out.append(log[at + 24:at + frame])
        return b"".join(out)
    for i in range(frames):
        at = 32 + i * frame
        case = tmp_path / f"frame-{i}"
        case.mkdir()
        shutil.copyfile(copy / DB, case / DB)
        (case / (DB + "-wal")).write_bytes(log[:at + 24] + b"\x55" * size + log[at + frame:])
        rest = journal_images(i)
        with Store(case / "new" / DB) as store:
            salvage(case / DB, store, CATALOG)
            # An entry is lost only if no other frame, nor the file, holds it.
            gone = b"".join(struct.pack(">d", e[2]) for j in before.values() for e in j
                            if not held(e[2], rest))
            assert_back(before, status, store, gone)


def test_a_database_of_schema_2_gets_its_journal_whole(tmp_path):
    """An older database is upgraded once: each match's start record and ending are
    written into its journal, so that its matches are safe from then on."""
    db = realistic(tmp_path / "old", matches=5)
    with closing(sqlite3.connect(db, isolation_level=None)) as conn:
        conn.execute("DELETE FROM journal WHERE op IN ('start', 'end')")
        conn.execute("PRAGMA user_version = 2")
    with Store(db) as store:
        history = store.history()
    upgraded = journals(db)
    with closing(sqlite3.connect(db)) as conn:
        rows = dict(conn.execute("SELECT id, start FROM matches"))
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    for m in history:
        journal = upgraded[m.id]
        assert journal[0][0] == "start" and json.loads(journal[0][1]) == json.loads(rows[m.id])
        assert (journal[-1][0] == "end") == (m.status == "abandoned")
