"""Damaged storage is named, never hidden: real SQLite files damaged by the test.

Each kind of damage (a flipped bit in a page, a truncated file, a corrupt
write-ahead log, an impossible event written with sqlite3 directly) must
give a clear message naming the file and what is wrong, keep the damaged
files aside (never deleted), and start the companion on a new database so
the table still works; the reading commands say the same, without a
traceback. A torn log tail after a power cut is no damage, and a read-only
file or folder is a permission problem, left as it is.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.config import Config
from app.runtime import DAMAGED_BANNER, Companion, WebOptions
from companion.errors import StoreDamaged, StoreError
from companion.recovery import open_table
from companion.store import Store
from companion.table import Table, TableRunner
from companion.ui.oled import render
from tests.support import CATALOG
from tests.test_salvage import assert_back, journal_pages, journals, statuses
from web.app import create_app
from web.services import Services

COMPANION = str(Path(sys.executable).parent / "companion")
DB = "companion.db"
# Five sets: the alternating points below keep the first game at deuce forever.
START = {"game": "center-court", "players": ["Ann", "Bob"], "options": {"sets": 5}}


def point(winner: int) -> dict:
    return {"type": "point", "winner": winner}


def crash_image(folder: Path, points: int = 60) -> int:
    """``folder`` holding the files of a table that lost power after ``points`` points.

    The files are copied while the store is open (and after the last commit
    returned), so the -wal file holds every change since the database was
    made, as after a power cut. Returns the version the table acknowledged.
    """
    live = folder.with_name(folder.name + "-live")
    with Store(live / DB) as store:
        table = Table(store, CATALOG, random.Random(1))
        table.start(START)
        for i in range(points):
            table.act(point(i % 2))
        folder.mkdir()
        for suffix in ("", "-wal"):
            shutil.copyfile(live / (DB + suffix), folder / (DB + suffix))
        return store.version


def wal_frames(wal: Path) -> tuple[int, int]:
    """(frame size, frame count) of a -wal file, from its header."""
    page_size = struct.unpack(">I", wal.read_bytes()[8:12])[0]
    return page_size + 24, (wal.stat().st_size - 32) // (page_size + 24)


def flip(path: Path, offset: int, mask: int = 0x10) -> bytes:
    """Flip bits of the byte at ``offset``; returns the file's new content."""
    data = bytearray(path.read_bytes())
    data[offset] ^= mask
    path.write_bytes(bytes(data))
    return bytes(data)


def played_database(folder: Path, matches: int = 40) -> Path:
    """A cleanly closed database of abandoned matches and a current one with a point."""
    folder.mkdir(exist_ok=True)
    with Store(folder / DB) as store:
        table = Table(store, CATALOG, random.Random(1))
        for _ in range(matches):
            table.start(START)
            for i in range(30):
                table.act(point(i % 2))
            table.abandon()
        table.start(START)
        table.act(point(0))
    return folder / DB


def garbage_page(db: Path, table: str) -> bytes:
    """Overwrite the root page of ``table`` with garbage; returns the file's new content."""
    with closing(sqlite3.connect(db)) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
                            (table,)).fetchone()[0]
    data = bytearray(db.read_bytes())
    data[(root - 1) * page_size:root * page_size] = b"\x55" * page_size
    db.write_bytes(bytes(data))
    return bytes(data)


def run_sim(data: Path) -> tuple[str, str, int]:
    """Start ``companion run --sim`` on ``data``; once it serves, stop it. (stdout, stderr, rc)."""
    # Standard error to a file: the text stream that read the first line holds the
    # rest of the banner in its buffer, so standard output is read on through it.
    with tempfile.TemporaryFile("w+") as errors:
        proc = subprocess.Popen([COMPANION, "run", "--sim", "--data", str(data), "--port",
                                 "0"], stdout=subprocess.PIPE, stderr=errors, text=True)
        try:
            line = proc.stdout.readline()
            if "running with simulated hardware" in line:
                proc.send_signal(signal.SIGTERM)
            out = proc.stdout.read()
            proc.wait(timeout=20)
        finally:
            proc.kill()
            proc.wait()
            proc.stdout.close()
        errors.seek(0)
        return line + out, errors.read(), proc.returncode


def cli(*args: str, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*prefix, COMPANION, *args], capture_output=True, text=True,
                          timeout=60)


def kept_folder(data: Path) -> Path:
    folders = sorted(data.glob("damaged-*"))
    assert len(folders) == 1, f"expected one damaged-* folder in {data}: {folders}"
    return folders[0]


def assert_started_fresh(data: Path, out: str, err: str, rc: int, file: str) -> Path:
    """The run started on a new database, said why in the log, and kept the damaged files."""
    assert rc == 0, err
    assert "running with simulated hardware" in out and "stopped" in out
    assert "Traceback" not in err
    kept = kept_folder(data)
    assert f"DAMAGED MATCH DATABASE: {data / file} is damaged" in err
    assert f"moved to {kept}" in err and "nothing was deleted" in err
    with Store(data / DB, create=False) as store:
        assert store.history() == []
    return kept


# --- the write-ahead log ---------------------------------------------------------------


def sqlite_alone(data: Path, scratch: Path) -> int:
    """The version SQLite itself reads from a copy of ``data``'s files: it replays the
    log up to its first bad frame, so this is what was committed before the damage."""
    shutil.copytree(data, scratch)
    with closing(sqlite3.connect(scratch / DB)) as conn:
        return conn.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()[0]


def epoch(db: Path) -> int:
    with closing(sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)) as conn:
        return conn.execute("SELECT value FROM meta WHERE key = 'epoch'").fetchone()[0]


def test_a_flipped_bit_in_the_wal_brings_back_every_change_before_it(tmp_path):
    data = tmp_path / "data"
    acknowledged = crash_image(data)
    old_epoch = epoch(data / DB)
    wal = data / (DB + "-wal")
    size, count = wal_frames(wal)
    # A bit in the middle of the log: SQLite alone would keep only the frames
    # before it and silently roll the table back (version 61 to 23 here).
    damaged = flip(wal, 32 + (count // 2) * size + 24 + 100)
    intact = sqlite_alone(data, tmp_path / "probe")
    lost = acknowledged - intact
    assert 0 < intact < acknowledged
    out, err, rc = run_sim(data)
    assert rc == 0, err
    assert "Traceback" not in err
    kept = kept_folder(data)
    assert f"DAMAGED MATCH DATABASE: {wal} is damaged" in err
    assert "fails its checksum" in err and "silently dropped" in err
    assert f"moved to {kept}" in err and "nothing was deleted" in err
    assert (f"brought back (version {intact}) and the table resumes from it; {lost} "
            "acknowledged change(s) after the damage are lost") in err
    # The start-up banner says it too.
    assert f"DAMAGED:    {lost} changes lost; the damaged files are in {kept}" in out
    # Kept exactly as found: nothing was checkpointed or rewritten.
    assert (kept / (DB + "-wal")).read_bytes() == damaged
    assert (kept / DB).exists()
    # The current database holds every change before the damage, the match resumed
    # mid-game, under a new epoch (phones saw versions past it in the old one).
    with Store(data / DB, create=False) as store:
        assert store.version == intact
        match = store.current()
        assert match is not None and match.status == "active"
        assert len(match.journal) == intact - 1   # the start, then one point per change
        assert store.epoch != old_epoch


def test_the_oled_and_the_phones_say_how_many_changes_were_lost(tmp_path):
    data = tmp_path / "data"
    acknowledged = crash_image(data)
    wal = data / (DB + "-wal")
    size, count = wal_frames(wal)
    flip(wal, 32 + (count // 2) * size + 24 + 100)
    intact = sqlite_alone(data, tmp_path / "probe")
    banner = f"Damaged data: {acknowledged - intact} changes lost. Copy kept in "
    with Companion(Config(), sim=True, data=data,
                   web=WebOptions(host="127.0.0.1", port=0, pin="2468")) as c:
        kept = kept_folder(data)
        assert c.lost == acknowledged - intact and c.kept == kept
        assert c.table.snapshot.version == intact
        changed = threading.Condition()
        c.oled.frames.add(lambda image: [changed.acquire(), changed.notify_all(),
                                         changed.release()])

        def shows(message: str) -> bool:
            state, image = c.panel.state, c.oled.device.image
            return (state.ui.message == message and image is not None
                    and image.tobytes() == render(state, c.ctx).tobytes())

        with changed:
            assert changed.wait_for(lambda: shows(banner + kept.name), 5), \
                c.panel.state.ui.message
        for page in ("/", "/host", "/history"):
            conn = http.client.HTTPConnection("127.0.0.1", c.server.port, timeout=10)
            conn.request("GET", page)
            html = conn.getresponse().read().decode()
            conn.close()
            assert 'role="alert"' in html, page
            assert f"{acknowledged - intact} acknowledged change(s) after the damage are lost" \
                in html and str(kept) in html


@pytest.mark.parametrize("offset", [3, 10, 17, 25], ids=["magic", "page-size", "salt",
                                                        "checksum"])
def test_a_damaged_wal_header_is_named_by_the_store(tmp_path, offset):
    data = tmp_path / "data"
    crash_image(data)
    flip(data / (DB + "-wal"), offset)  # SQLite would ignore the whole log
    with pytest.raises(StoreDamaged, match=r"companion\.db-wal is damaged: its header"):
        Store(data / DB)


def test_a_torn_wal_tail_after_a_power_cut_is_no_alarm(tmp_path):
    data = tmp_path / "data"
    version = crash_image(data)
    wal = data / (DB + "-wal")
    size, count = wal_frames(wal)
    # The last transaction half written (cut mid-frame), then sectors of zeros.
    with open(wal, "r+b") as f:
        f.truncate(32 + (count - 1) * size + 100)
        f.seek(0, os.SEEK_END)
        f.write(bytes(2 * size))
    opened = open_table(data / DB, CATALOG)
    with closing(opened.store):
        assert opened.notice is None
        assert opened.store.version == version - 1   # only the torn change is gone
        assert opened.table.match is not None
    assert not list(data.glob("damaged-*"))


def test_a_wal_header_torn_as_the_log_restarted_is_no_alarm(tmp_path):
    # After a checkpoint the next write restarts the log: a new header (salt-1
    # plus one, a new salt-2) over the old frames, which the database already
    # holds. A power cut tearing that header loses nothing.
    live, data = tmp_path / "live", tmp_path / "data"
    with Store(live / DB) as store:
        table = Table(store, CATALOG, random.Random(1))
        table.start(START)
        for i in range(20):
            table.act(point(i % 2))
        with closing(sqlite3.connect(live / DB)) as other:
            assert other.execute("PRAGMA wal_checkpoint(FULL)").fetchone()[0] == 0
        version = store.version
        data.mkdir()
        for suffix in ("", "-wal"):
            shutil.copyfile(live / (DB + suffix), data / (DB + suffix))
    wal = data / (DB + "-wal")
    header = bytearray(wal.read_bytes()[:32])
    salt1, salt2 = struct.unpack(">2I", header[16:24])
    header[16:24] = struct.pack(">2I", (salt1 + 1) & 0xFFFFFFFF, salt2 ^ 0x5A5A5A5A)
    header[24:32] = bytes(8)  # the checksum never written
    with open(wal, "r+b") as f:
        f.write(header)
    with Store(data / DB) as store:
        assert store.version == version


def test_a_bit_flip_in_the_last_frame_is_taken_for_a_torn_write(tmp_path):
    # The documented limit: it loses at most the last change, as a power cut would.
    data = tmp_path / "data"
    version = crash_image(data)
    wal = data / (DB + "-wal")
    size, count = wal_frames(wal)
    flip(wal, 32 + (count - 1) * size + 24 + 100)
    with Store(data / DB) as store:
        assert store.version == version - 1


def test_reading_commands_name_a_damaged_wal_and_leave_it_as_it_is(tmp_path):
    data = tmp_path / "data"
    crash_image(data)
    wal = data / (DB + "-wal")
    size, count = wal_frames(wal)
    damaged = flip(wal, 32 + (count // 2) * size + 24 + 100)
    for args in (("history",), ("export", "1")):
        result = cli(*args, "--data", str(data))
        assert result.returncode == 2, result.stderr
        assert f"companion: {wal} is damaged: frame" in result.stderr
        assert "Traceback" not in result.stderr
    assert wal.read_bytes() == damaged  # not checkpointed away by a reader


# --- the database file ------------------------------------------------------------------


def test_a_damaged_root_page_of_the_journal_loses_only_the_entries_on_it(tmp_path):
    """SQLite reads nothing of a table whose root page is damaged: the journal is read
    page by page, and only the entries the root page held (an index's interior cells are
    rows of their own) and those after them in their match are lost."""
    db = played_database(tmp_path)
    original = Path(shutil.copy(db, tmp_path / "before.db"))
    root = page_of(db, "journal")
    damaged = garbage_page(db, "journal")
    out, err, rc = run_sim(tmp_path)
    assert "malformed" in err
    assert_brought_back(tmp_path, out, err, rc, original, root)
    assert (kept_folder(tmp_path) / DB).read_bytes() == damaged


def test_damage_that_leaves_no_match_to_replay_starts_fresh_and_names_the_remedy(tmp_path):
    db = played_database(tmp_path)
    ruin(db)
    out, err, rc = run_sim(tmp_path)
    kept = assert_started_fresh(tmp_path, out, err, rc, DB)
    assert f"`companion salvage {kept / DB}`" in err and ".recover" not in err


def page_of(db: Path, table: str) -> int:
    """The root page of ``table``."""
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
                            (table,)).fetchone()[0]


def ruin(db: Path) -> None:
    """Every page but the first overwritten with garbage: no journal entry is left."""
    data = bytearray(db.read_bytes())
    size = struct.unpack(">H", bytes(data[16:18]))[0]
    data[size:] = b"\x55" * (len(data) - size)
    db.write_bytes(bytes(data))


def journal_leaf(db: Path, nth: int) -> int:
    """The page number of the ``nth`` leaf page of the journal (SQLite's dbstat)."""
    with closing(sqlite3.connect(db)) as conn:
        leaves = [page for (page,) in conn.execute(
            "SELECT pageno FROM dbstat WHERE name = 'journal' AND pagetype = 'leaf'"
            " ORDER BY pageno")]
    return leaves[nth]


def assert_brought_back(data: Path, out: str, err: str, rc: int, original: Path,
                        page: int | None) -> int:
    """The run kept the damaged files and brought back into a new database every match of
    ``original`` (the file before the damage), each up to its first entry that lay on the
    damaged ``page`` (None: no page was lost whole), never an entry it did not have (the
    oracle, tests/test_salvage.py); the changes said to be lost are the others. Returns
    how many changes were lost."""
    assert rc == 0, err
    assert "Traceback" not in err
    kept = kept_folder(data)
    assert f"DAMAGED MATCH DATABASE: {data / DB} is damaged" in err
    assert f"moved to {kept}" in err and "nothing was deleted" in err
    assert "Its journal was read page by page" in err
    assert f"`companion salvage {kept / DB}`" in err
    size = struct.unpack(">H", original.read_bytes()[16:18])[0]
    raw = original.read_bytes()
    gone = raw[(page - 1) * size:page * size] if page in journal_pages(original) else b""
    with Store(original, create=False) as before, Store(data / DB, create=False) as after:
        acknowledged, version = before.version, after.version
        assert_back(journals(original), statuses(original), after, gone)
        assert after.epoch != before.epoch
    lost = acknowledged - version
    assert f"{lost} acknowledged change(s) could not be brought back" in err
    assert f"DAMAGED:    {lost} changes lost; the damaged files are in {kept}" in out
    return lost


def finished_database(folder: Path, matches: int = 40) -> Path:
    """A cleanly closed database of matches Ann won 6-0 and a current one with a point."""
    with Store(folder / DB) as store:
        table = Table(store, CATALOG, random.Random(1))
        for _ in range(matches):
            table.start(START | {"options": {"sets": 1}})
            for _ in range(24):
                table.act(point(0))
        table.start(START)
        table.act(point(0))
    return folder / DB


def test_a_damaged_journal_page_loses_only_the_entries_on_it(tmp_path):
    db = finished_database(tmp_path)
    original = shutil.copy(db, tmp_path / "before.db")
    page = journal_leaf(db, 3)
    with closing(sqlite3.connect(db)) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(db.read_bytes())
    data[(page - 1) * page_size:page * page_size] = b"\x55" * page_size
    db.write_bytes(bytes(data))
    out, err, rc = run_sim(tmp_path)
    assert "malformed" in err
    # A 4 KiB page holds about 50 entries: those, and the rest of their matches.
    assert 1 <= assert_brought_back(tmp_path, out, err, rc, Path(original), page) <= 4 * 25
    with Store(db, create=False) as store:   # the current match resumes
        current = store.current()
        assert current is not None and current.id == 41 and len(current.journal) == 1


def test_a_flipped_byte_in_a_record_is_found_by_the_integrity_check(tmp_path):
    # The file opens and the current match resumes fine: only the check finds it.
    db = played_database(tmp_path)
    original = shutil.copy(db, tmp_path / "before.db")
    with closing(sqlite3.connect(db)) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    flip(db, (pages * 3 // 4) * page_size + 100, 0xFF)
    out, err, rc = run_sim(tmp_path)
    assert "SQLite's integrity check finds" in err
    # What the flipped byte changed does not read (or replay) as it was: at most the
    # entries of that page are lost, never one brought back wrong.
    assert_brought_back(tmp_path, out, err, rc, Path(original), pages * 3 // 4 + 1)
    assert (kept_folder(tmp_path) / DB).exists()


def test_a_truncated_database_is_named_and_what_its_pages_hold_comes_back(tmp_path):
    db = played_database(tmp_path)
    original = Path(shutil.copy(db, tmp_path / "before.db"))
    with open(db, "r+b") as f:
        f.truncate(db.stat().st_size // 2)
    _out, err, rc = run_sim(tmp_path)
    assert rc == 0 and "Traceback" not in err, err
    assert "Its journal was read page by page" in err
    with Store(original, create=False) as before, Store(db, create=False) as after:
        back = {m.id for m in after.history()}
        assert back and back <= {m.id for m in before.history()}
        for match_id in back:   # never an entry a match did not have
            now, was = after.load(match_id).journal, before.load(match_id).journal
            assert now == was[:len(now)]


def test_reading_commands_name_a_damaged_page_without_a_traceback(tmp_path):
    db = played_database(tmp_path)
    garbage_page(db, "matches")
    for args in (("history",), ("history", "--json"), ("export", "3")):
        result = cli(*args, "--data", str(tmp_path))
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert f"companion: {db} is damaged" in result.stderr
        assert "Traceback" not in result.stderr


# --- what the rules say about the log -----------------------------------------------------


def sql(db: Path, statement: str, *params: object) -> None:
    with closing(sqlite3.connect(db, isolation_level=None)) as conn:
        conn.execute(statement, params)


@pytest.mark.parametrize("entry", [5, 0], ids=["an event", "the start record"])
def test_an_entry_the_rules_refuse_is_named_and_the_entries_before_it_come_back(
        tmp_path, entry):
    db = tmp_path / DB
    with Store(db) as store:
        table = Table(store, CATALOG, random.Random(1))
        table.start(START)
        for i in range(3):
            table.act(point(i % 2))
        table.abandon()
        table.start(START)
        for i in range(12):
            table.act(point(i % 2))
        acknowledged = store.version
    if entry:
        sql(db, "UPDATE journal SET event = ? WHERE match_id = 2 AND seq = ?",
            json.dumps(point(5)), entry)
        lost = 12 - entry + 1
    else:
        sql(db, "UPDATE matches SET start = ? WHERE id = 2", json.dumps({"game": "chess"}))
        lost = 12 + 1
    out, err, rc = run_sim(tmp_path)
    assert rc == 0 and "Traceback" not in err, err
    kept = kept_folder(tmp_path)
    where = f"journal entry {entry}" if entry else "its start record"
    assert f"DAMAGED MATCH DATABASE: {db} is damaged: match 2, {where}" in err
    assert f"{lost} acknowledged change(s) after the damage are lost" in err
    assert f"DAMAGED:    {lost} changes lost; the damaged files are in {kept}" in out
    with Store(db, create=False) as store:
        assert [m.id for m in store.history()] == ([2, 1] if entry else [1])
        assert len(store.load(1).journal) == 3
        current = store.current()
        if entry:
            assert current.status == "active" and len(current.journal) == entry - 1
        else:
            assert current is None   # match 1 was abandoned: the table is free
    with Store(kept / DB, create=False) as store:   # the kept copy still holds it all
        assert store.version == acknowledged and len(store.load(2).journal) == 12


def test_a_stored_event_that_changes_the_result_is_named(tmp_path):
    # A legal event, but not the one the stored result was made from.
    db = tmp_path / DB
    with Store(db) as store:
        table = Table(store, CATALOG, random.Random(1))
        table.start(START | {"options": {"sets": 1}})
        for _ in range(24):
            table.act(point(0))   # 6-0: Ann won
        assert store.load(1).status == "finished"
    sql(db, "UPDATE journal SET event = ? WHERE match_id = 1 AND seq = 24",
        json.dumps(point(1)))
    with Store(db) as store, pytest.raises(StoreDamaged) as err:
        Table(store, CATALOG)
    assert str(err.value) == (
        f"{db} is damaged: match 1, its result: the stored winner is 0, the replay gives "
        "null; the rules cannot replay what is stored")


def test_export_of_an_impossible_history_match_names_it(tmp_path):
    db = played_database(tmp_path)
    sql(db, "UPDATE journal SET event = ? WHERE match_id = 3 AND seq = 4",
        json.dumps({"type": "serve", "card": 9}))
    result = cli("export", "3", "--data", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.startswith(f"companion: {db} is damaged: match 3, journal entry 4")
    assert "Traceback" not in result.stderr
    assert cli("export", "2", "--data", str(tmp_path)).returncode == 0


# --- permissions: not damage --------------------------------------------------------------


def as_unprivileged() -> tuple[str, ...]:
    """A command prefix that runs without root's right to write anything.

    As root, ``unshare -U`` drops every capability (the files stay ours by
    uid, so the venv still runs) and a read-only mode applies as to anyone.
    """
    if os.geteuid() != 0:
        return ()
    if shutil.which("unshare") is None or subprocess.run(
            ["unshare", "-U", "true"], capture_output=True).returncode != 0:
        pytest.skip("running as root without `unshare -U`: root may write read-only files")
    return ("unshare", "-U")


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_database_is_a_permission_problem_left_as_it_is(tmp_path, what):
    prefix = as_unprivileged()
    db = played_database(tmp_path / "data")
    before = db.read_bytes()
    target = db if what == "file" else db.parent
    target.chmod(0o444 if what == "file" else 0o555)
    try:
        proc = subprocess.run([*prefix, COMPANION, "run", "--sim", "--data", str(db.parent),
                               "--port", "0"], capture_output=True, text=True, timeout=30)
        history = cli("history", "--data", str(db.parent), prefix=prefix)
    finally:
        target.chmod(0o644 if what == "file" else 0o755)
    for result in (proc, history):
        assert result.returncode == 2, result.stderr
        assert f"companion: {target} is not writable by user" in result.stderr
        assert "a permission problem, not damage; nothing was changed" in result.stderr
        assert "chown" in result.stderr and "Traceback" not in result.stderr
    assert db.read_bytes() == before
    assert not list(db.parent.glob("damaged-*"))


def test_a_read_only_database_through_the_store_api(tmp_path):
    prefix = as_unprivileged()
    db = played_database(tmp_path)
    db.chmod(0o444)
    code = ("import sys; from companion.store import Store\n"
            "from companion.errors import StoreError\n"
            f"try: Store({str(db)!r})\n"
            "except StoreError as err: print(err); sys.exit(3)\n")
    result = subprocess.run([*prefix, sys.executable, "-c", code], capture_output=True,
                            text=True, timeout=30)
    assert result.returncode == 3, result.stderr
    assert "permission problem" in result.stdout and str(db) in result.stdout
    assert isinstance(StoreDamaged(str(db), "x"), StoreError)  # damage is a StoreError too


# --- seen at the table ----------------------------------------------------------------------


def test_the_oled_says_damaged_data_was_set_aside_until_the_next_press(tmp_path):
    ruin(played_database(tmp_path))
    with Companion(Config(), sim=True, data=tmp_path) as c:
        assert c.notice is not None and str(kept_folder(tmp_path)) in c.notice
        changed = threading.Condition()

        def frame(image) -> None:
            with changed:
                changed.notify_all()

        c.oled.frames.add(frame)

        def shows(message: str | None) -> bool:
            state, image = c.panel.state, c.oled.device.image
            return (state.ui.message == message and image is not None
                    and image.tobytes() == render(state, c.ctx).tobytes())

        with changed:
            assert changed.wait_for(lambda: shows(DAMAGED_BANNER), 5)
        c.press("next")
        with changed:
            assert changed.wait_for(lambda: shows(None), 5)
        assert c.table.snapshot.match is None and c.table.history() == []


def test_the_web_export_of_a_damaged_match_names_the_damage(tmp_path):
    db = played_database(tmp_path)
    sql(db, "UPDATE journal SET event = ? WHERE match_id = 3 AND seq = 4",
        json.dumps({"type": "serve", "card": 9}))
    with Store(db) as store, TableRunner(Table(store, CATALOG)) as runner:
        app = create_app(Services(runner=runner, pin="2468", secret_key=b"k" * 32,
                                  max_streams=3, keepalive=0.2))
        try:
            response = app.test_client().get("/api/matches/3/export")
        finally:
            app.extensions["companion.broker"].close()
    assert response.status_code == 500
    assert response.json["error"].startswith(
        f"{db} is damaged: match 3, journal entry 4")


# --- any bit of the log ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def a_crash_image(tmp_path_factory) -> tuple[Path, int]:
    folder = tmp_path_factory.mktemp("image") / "data"
    return folder, crash_image(folder, points=30)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.floats(0, 1, exclude_max=True), bit=st.integers(0, 7))
def test_any_flipped_bit_in_the_log_loses_only_the_changes_after_it(
        a_crash_image, tmp_path_factory, where, bit):
    image, acknowledged = a_crash_image
    data = tmp_path_factory.mktemp("run") / "data"
    shutil.copytree(image, data)
    wal = data / (DB + "-wal")
    # Past the header (its own test above): anywhere in the frames.
    flip(wal, 32 + int(where * (wal.stat().st_size - 32)), 1 << bit)
    opened = open_table(data / DB, CATALOG, random.Random(1))
    with closing(opened.store) as store:
        if opened.notice is None:
            # Only the last transaction's frames: taken for a write torn by a power cut.
            assert store.version in (acknowledged, acknowledged - 1)
        else:
            # Brought back: every change before the damage, and the count of those after.
            assert opened.lost is not None, opened.notice
            assert store.version + opened.lost == acknowledged, opened.notice
            assert f"{opened.lost} acknowledged change(s)" in opened.notice


def test_the_oled_and_the_phones_say_what_a_damaged_page_lost(tmp_path):
    db = finished_database(tmp_path)
    with Store(db) as store:
        acknowledged = store.version
    page = journal_leaf(db, 3)
    with closing(sqlite3.connect(db)) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    with open(db, "r+b") as f:
        f.seek((page - 1) * page_size)
        f.write(b"\x55" * page_size)
    with Companion(Config(), sim=True, data=tmp_path,
                   web=WebOptions(host="127.0.0.1", port=0, pin="2468")) as c:
        kept = kept_folder(tmp_path)
        lost = acknowledged - c.table.snapshot.version
        assert c.lost == lost and lost >= 1 and c.kept == kept
        assert c.table.snapshot.match is not None   # the current match resumes
        changed = threading.Condition()
        c.oled.frames.add(lambda image: [changed.acquire(), changed.notify_all(),
                                         changed.release()])
        banner = f"Damaged data: {lost} changes lost. Copy kept in {kept.name}"

        def shows(message: str) -> bool:
            state, image = c.panel.state, c.oled.device.image
            return (state.ui.message == message and image is not None
                    and image.tobytes() == render(state, c.ctx).tobytes())

        with changed:
            assert changed.wait_for(lambda: shows(banner), 5), c.panel.state.ui.message
        conn = http.client.HTTPConnection("127.0.0.1", c.server.port, timeout=10)
        conn.request("GET", "/history")
        html = conn.getresponse().read().decode()
        conn.close()
        assert 'role="alert"' in html
        assert f"{lost} acknowledged change(s) could not be brought back" in html
        assert str(kept) in html
