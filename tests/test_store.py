"""The SQLite store: durability settings, matches, journal, history, bad files."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing

import pytest

from companion.errors import MatchInProgress, StoreDamaged, StoreError
from companion.store import Store

START = {"game": "center-court", "players": ["Ann", "Bob"], "options": {"sets": 1}}


def test_commits_are_durable(store):
    assert store.durability() == {"journal_mode": "wal", "synchronous": "FULL"}
    assert store.integrity_check() == "ok"


def test_a_match_and_its_journal_round_trip(store):
    match_id, v1 = store.begin_match(START)
    v2 = store.record(match_id, "event", {"type": "point", "winner": 0}, status="active",
                      winner=None, summary="0-0")
    v3 = store.record(match_id, "undo", None, status="active", winner=None, summary="0-0")
    assert v1 < v2 < v3 == store.version
    stored = store.load(match_id)
    assert stored.start == START and stored.status == "active"
    assert stored.journal == (("event", {"type": "point", "winner": 0}), ("undo", None))
    assert store.current() == stored


def test_only_one_unfinished_match(store):
    match_id, _ = store.begin_match(START)
    with pytest.raises(MatchInProgress, match="unfinished"):
        store.begin_match(START)
    store.set_status(match_id, "finished", winner=0, summary="6-0")
    second, _ = store.begin_match(START)
    assert second == match_id + 1


def test_an_abandoned_newest_match_leaves_no_current_match(store):
    match_id, _ = store.begin_match(START)
    store.set_status(match_id, "abandoned")
    assert store.current() is None


def test_history_is_newest_first(store):
    first, _ = store.begin_match(START)
    store.set_status(first, "finished", winner=1, summary="0-6")
    second, _ = store.begin_match({**START, "players": ["Cy", "Di"]})
    rows = store.history()
    assert [r.id for r in rows] == [second, first]
    assert rows[1].winner == 1 and rows[1].summary == "0-6" and rows[1].players == ("Ann", "Bob")
    assert rows[0].to_json()["started_at"].endswith("Z")
    assert [r.id for r in store.history(limit=1)] == [second]


def test_idle_reader_connections_are_closed_and_the_reads_go_on(store, memory_store):
    # After a load of readers the table lets go of their connections and page caches.
    first, _ = store.begin_match(START)
    assert [r.id for r in store.history()] == [first]
    assert store.close_idle_readers() == 1
    assert store.close_idle_readers() == 0
    store.set_status(first, "finished", winner=0, summary="6-0")
    assert store.history()[0].winner == 0  # a new reader sees every commit
    assert store.close_idle_readers() == 1
    memory_store.begin_match(START)
    assert memory_store.close_idle_readers() == 0 and len(memory_store.history()) == 1


def test_a_read_under_way_when_the_store_closes_ends_whole(store):
    """Closing the store (the companion stopping) leaves a read under way to finish on
    its own connection, closed after it: one closed under its running statement could
    crash the whole process (a segmentation fault seen once in the suite). No read
    begins after."""
    first, _ = store.begin_match(START)
    store.set_status(first, "finished", winner=0, summary="6-0")
    second, _ = store.begin_match({**START, "players": ["Cy", "Di"]})
    entered, release = threading.Event(), threading.Event()
    read: list[object] = []

    def made(summary):
        entered.set()
        assert release.wait(30)
        return summary.id

    reader = threading.Thread(target=lambda: read.append(store.summaries(0, (), made)))
    reader.start()
    assert entered.wait(30)  # the read is under way, its statement running
    store.close()
    release.set()
    reader.join(30)
    assert read and read[0][1] == [second, first]
    with pytest.raises(StoreError, match="closed"):
        store.history()
    assert store.close_idle_readers() == 0  # the read's connection was closed, not kept


def test_version_and_matches_survive_reopening(tmp_path):
    path = tmp_path / "deep" / "folder" / "companion.db"
    with Store(path) as store:
        match_id, version = store.begin_match(START)
    with Store(path) as store:
        assert store.version == version
        assert store.current().id == match_id


def test_each_database_has_its_own_lasting_epoch(tmp_path):
    with Store(tmp_path / "a.db") as a, Store(tmp_path / "b.db") as b:
        epoch = a.epoch
        assert 0 < epoch < 2**53 and 0 < b.epoch < 2**53 and b.epoch != epoch
    with Store(tmp_path / "a.db") as again:
        assert again.epoch == epoch  # the same database keeps it
    (tmp_path / "a.db").rename(tmp_path / "a.db.old")  # moved aside: a new one starts
    with Store(tmp_path / "a.db") as fresh:
        assert fresh.epoch != epoch and fresh.version == 0


def test_a_database_from_before_epochs_gets_one(tmp_path):
    path = tmp_path / "companion.db"
    with Store(path) as store:
        store.begin_match(START)
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("DELETE FROM meta WHERE key = 'epoch'")
    with Store(path, create=False) as reader:
        assert reader.epoch == 0  # a reading command writes nothing
    with Store(path) as store:
        epoch = store.epoch
        assert epoch > 0 and store.version == 1
    with Store(path) as store:
        assert store.epoch == epoch


def test_unknown_match_is_a_clear_error(store):
    with pytest.raises(StoreError, match="no match 42"):
        store.load(42)
    with pytest.raises(StoreError, match="no match 42"):
        store.set_status(42, "finished")


def test_a_file_that_is_not_a_database(tmp_path):
    path = tmp_path / "companion.db"
    path.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreDamaged, match=f"{path} is damaged: .*not a database"):
        Store(path)


def test_someone_elses_database_is_refused(tmp_path):
    path = tmp_path / "other.db"
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("CREATE TABLE photos (id INTEGER)")
    with pytest.raises(StoreError, match="no companion schema"):
        Store(path)


def test_a_database_from_a_newer_companion_is_refused(tmp_path):
    path = tmp_path / "companion.db"
    Store(path).close()
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="newer companion"):
        Store(path)


def test_an_unwritable_folder_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match=str(blocker)):
        Store(blocker / "companion.db")


def test_close_is_idempotent(tmp_path):
    store = Store(tmp_path / "c.db")
    store.close()
    store.close()


def test_the_log_is_copied_into_the_database_while_the_table_plays(tmp_path):
    """The write-ahead log does not grow without end between starts: past its threshold
    it is checkpointed into the database file (off the writer's commit, see
    companion.store.Checkpointer), and every change is there at the next start."""
    import threading
    import time

    path = tmp_path / "companion.db"
    wal = tmp_path / "companion.db-wal"
    with Store(path) as store:
        match_id, _ = store.begin_match(START)
        empty = path.stat().st_size
        big = {"type": "point", "winner": 0, "note": "x" * 3000}
        for _ in range(1500):  # about 6 MB of log: past the 4 MB threshold
            store.record(match_id, "event", big, status="active", winner=None, summary="0-0")
        deadline = time.monotonic() + 20
        while path.stat().st_size < 2_000_000 and time.monotonic() < deadline:
            store.record(match_id, "event", big, status="active", winner=None, summary="0-0")
            time.sleep(0.05)
        assert path.stat().st_size >= 2_000_000 > empty, "the log was never checkpointed"
        assert wal.stat().st_size < 20_000_000  # bounded even under a flood of changes
        journal = len(store.load(match_id).journal)
    assert not any(t.name == "checkpointer" for t in threading.enumerate())
    with Store(path) as store:
        assert len(store.load(match_id).journal) == journal
        assert store.integrity_check() == "ok"
