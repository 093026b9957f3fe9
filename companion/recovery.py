"""Opening the table at start-up: damaged storage is named and set aside, never hidden.

``companion run`` opens its database here. Before the table resumes, the
database is checked: its write-ahead log (before SQLite reads it,
:mod:`companion.wal`), SQLite's integrity check of the whole file, and the
current match replayed through the rules (:mod:`companion.integrity`). On
any damage the database's files are moved (never deleted) into
``<data>/damaged-<UTC time>/``. What is intact is brought back: damage in
the write-ahead log leaves every transaction committed before it whole, so a
copy of the database with the log cut at the last good commit becomes the
current database (with a new epoch: phones that saw the lost versions read
it as a new database), checked like any other; so does an entry of the
current match the rules refuse. Other damage (a page, a truncated file)
gives no such line between what is intact and what is not: every match of
the damaged file that reads cleanly, is whole and replays to its stored
result is copied into a new database, and the changes of the others are
counted as lost (:func:`_rescue`); if none reads, the companion starts on a
new, empty database so the table still works. Either way the returned
notice says which file, what is wrong, how many changes were lost, where
the files went and what to do.

Matches in the history other than the current one are not replayed at
start: that would cost time in proportion to years of play (thousands of
matches on a Pi). SQLite's integrity check covers their pages, and each one
is replayed through the rules when it is exported.

A file that cannot be written (permissions, a read-only SD card) is not
damage: Store raises StoreError saying so, and nothing is moved.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import wal
from companion.catalog import Catalog
from companion.errors import StoreDamaged, StoreError
from companion.integrity import replay_stored
from companion.store import ABANDONED, ACTIVE, FINISHED, Store, StoredMatch, new_epoch
from companion.table import Table

#: The files SQLite keeps for one database: the file, its log and the log's index.
SUFFIXES = ("", "-wal", "-shm")

#: The OLED's word on damaged storage found at start, when nothing could be brought
#: back (the log says the rest).
DAMAGED_BANNER = "Damaged data set aside. New database: see the log"


@dataclass(frozen=True)
class Opened:
    """The store and table the companion runs on, and what went wrong on the way."""

    store: Store
    table: Table
    #: None when the database was sound; else the message to show and log.
    notice: str | None = None
    #: Where the damaged files were kept, when they were.
    kept: Path | None = None
    #: The notice in the few words the OLED has room for (None when sound).
    banner: str | None = None
    #: How many acknowledged changes were lost (None: not known, or nothing damaged).
    lost: int | None = None


def open_table(path: Path, catalog: Catalog, rng: random.Random | None = None) -> Opened:
    """The checked table of ``catalog``'s games on the database at ``path``; if it is
    damaged, on what of it is intact (see :func:`_salvage`), else on a fresh one. The
    damaged files are kept aside.

    Raises StoreError (not damage: e.g. a permission problem, a database from
    a newer companion) with nothing moved, or when the damaged files cannot
    be moved; StoreDamaged only if even a new database cannot be made.
    """
    try:
        return Opened(*_checked(path, catalog, rng))
    except StoreDamaged as err:
        damage = err
    try:
        kept = set_aside(path)
    except OSError as err:
        raise StoreError(f"{damage}; it could not be moved aside ({err}): move "
                         f"{path} and its -wal and -shm files away by hand") from None
    salvaged = _salvage(path, kept, damage, catalog, rng)
    if salvaged is not None:
        store, table, lost = salvaged
        notice = (f"DAMAGED MATCH DATABASE: {damage}. The damaged files were moved to {kept} "
                  "(nothing was deleted). Everything committed before the damage was brought "
                  f"back (version {store.version}) and the table resumes from it; {lost} "
                  f"acknowledged change(s) after the damage are lost. Copy {kept} somewhere "
                  "safe; consider replacing the SD card.")
        return Opened(store, table, notice, kept,
                      banner=f"Damaged data: {lost} changes lost. Copy kept in {kept.name}",
                      lost=lost)
    rescued = _rescue(path, kept / path.name, catalog, rng)
    if rescued is not None:
        store, table, matches, lost = rescued
        count = "an unknown number of" if lost is None else str(lost)
        notice = (f"DAMAGED MATCH DATABASE: {damage}. The damaged files were moved to {kept} "
                  f"(nothing was deleted). The {len(matches)} match(es) that read cleanly and "
                  "replay through the rules were brought back into a new database (version "
                  f"{store.version}) and the table resumes from it; {count} acknowledged "
                  "change(s) in the matches that could not be read are lost. Copy "
                  f"{kept} somewhere safe; consider replacing the SD card.")
        return Opened(store, table, notice, kept,
                      banner=f"Damaged data: {count} changes lost. Copy kept in {kept.name}",
                      lost=lost)
    store, table = _checked(path, catalog, rng)
    notice = (f"DAMAGED MATCH DATABASE: {damage}. The damaged files were moved to {kept} "
              "(nothing was deleted) and the companion started on a new, empty database, "
              "so the table works: no match in them could be read. To try further, see "
              "\"If the SD card is damaged\" in README.md (sqlite3 .recover on a copy of "
              f"{kept}); consider replacing the SD card.")
    return Opened(store, table, notice, kept, banner=DAMAGED_BANNER)


def _salvage(path: Path, kept: Path, damage: StoreDamaged, catalog: Catalog,
             rng: random.Random | None) -> tuple[Store, Table, int] | None:
    """The database rebuilt at ``path`` from the files in ``kept`` up to the damage, checked;
    with the number of changes lost. None when no line between intact and damaged is known
    (a damaged page, a stored result that differs from its replay), or the copy cannot be
    made or is damaged too (nothing is left at ``path`` then).

    Two kinds of damage draw that line. In the log: SQLite does the bringing
    back, from the log cut at the last intact commit (one it reads whole;
    closing the connection folds it into the file). An entry of the current
    match the rules cannot replay: the entries before it are intact, the
    match is stored again without it and those after it (without the match,
    if its start record is the damage), its result as their replay gives it.
    """
    log = kept / (path.name + "-wal")
    found = wal.find(log, wal.db_page_size(kept / path.name))
    if found is None and (damage.match_id is None or damage.entry is None):
        return None
    if (found is not None and found.intact <= wal.HEADER
            and wal.schema_in_log(kept / path.name)):
        # The damage took the log's first transaction, the one that made the
        # database: nothing is intact, and every other commit was a change.
        return (*_checked(path, catalog, rng), found.lost - 1)
    try:
        shutil.copyfile(kept / path.name, path)
        if log.exists():
            with open(log, "rb") as src, \
                    open(path.with_name(path.name + "-wal"), "wb") as dst:
                dst.write(src.read() if found is None else src.read(found.intact))
                dst.flush()
                os.fsync(dst.fileno())
        with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
            db.execute("PRAGMA synchronous = FULL")
            db.execute("BEGIN IMMEDIATE")
            lost = _cut(db, damage) if found is None else found.lost
            # The versions after the damage were shown to phones; here they count again
            # from before it, so this is a new database to them.
            db.execute("UPDATE meta SET value = ? WHERE key = 'epoch'", (new_epoch(),))
            db.execute("COMMIT")
        if found is None:
            with Store(path) as store:
                _restate(store, damage, catalog)
        return (*_checked(path, catalog, rng), lost)
    except (OSError, sqlite3.Error, StoreError):
        for suffix in SUFFIXES:  # only the copies made here; the kept files stay
            with contextlib.suppress(FileNotFoundError):
                path.with_name(path.name + suffix).unlink()
        return None


def _rescue(path: Path, damaged: Path, catalog: Catalog, rng: random.Random | None
            ) -> tuple[Store, Table, list[int], int | None] | None:
    """A new database at ``path`` holding every match of the damaged database file
    ``damaged`` that reads cleanly and replays through the rules; with the ids brought
    back and the number of acknowledged changes lost (None: not known). None when no
    match could be read (nothing is left at ``path`` then).

    For damage with no line between intact and damaged (a page, a truncated
    file): each match is read on its own, its row and its journal, and kept
    only if every entry reads, the entries number 1, 2, 3... and the rules
    give the stored result; ids, times, undos and redos are kept as stored.
    The changes lost are the acknowledged version (as the damaged file still
    says it) less the changes the kept matches were made of (a start, each
    entry, an abandonment each); a match imported from a file was one change
    and counts as more, so the count errs towards too few.
    """
    rows, acknowledged = _readable(damaged, catalog)
    if not rows:
        return None
    made = sum(1 + len(journal) + (match[3] == ABANDONED) for match, journal in rows)
    try:
        Store(path).close()   # the schema, with a new epoch: phones read a new database
        with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
            db.execute("PRAGMA synchronous = FULL")
            db.execute("BEGIN IMMEDIATE")
            for match, journal in rows:
                db.execute("INSERT INTO matches (id, game, start, status, winner, summary,"
                           " started_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", match)
                db.executemany("INSERT INTO journal (match_id, seq, op, event, at)"
                               " VALUES (?, ?, ?, ?, ?)",
                               [(match[0], *entry) for entry in journal])
            db.execute("UPDATE meta SET value = ? WHERE key = 'version'", (made,))
            db.execute("COMMIT")
        store, table = _checked(path, catalog, rng)
    except (OSError, sqlite3.Error, StoreError):
        for suffix in SUFFIXES:  # only the copies made here; the kept files stay
            with contextlib.suppress(FileNotFoundError):
                path.with_name(path.name + suffix).unlink()
        return None
    lost = None if acknowledged is None or acknowledged < made else acknowledged - made
    return store, table, [match[0] for match, _journal in rows], lost


#: A match's row as stored, and its journal's (seq, op, event, at) rows.
_Rows = tuple[tuple[Any, ...], list[tuple[Any, ...]]]


def _readable(damaged: Path, catalog: Catalog) -> tuple[list[_Rows], int | None]:
    """The rows of each match of the database file ``damaged`` that reads cleanly and
    replays through the rules, oldest first; and the version it says was acknowledged
    (None if that cannot be read). Reads only: the file is opened immutable."""
    good: list[_Rows] = []
    try:
        db = sqlite3.connect(f"{damaged.as_uri()}?immutable=1", uri=True)
    except sqlite3.Error:
        return good, None
    with contextlib.closing(db):
        try:
            acknowledged = db.execute(
                "SELECT value FROM meta WHERE key = 'version'").fetchone()[0]
        except (sqlite3.Error, TypeError):
            acknowledged = None
        # A damaged page ends a scan where it lies: each table is scanned as far as it
        # reads, so a match is found from its row or from its journal.
        ids = _scanned(db, "SELECT id FROM matches ORDER BY id")
        ids |= _scanned(db, "SELECT DISTINCT match_id FROM journal")
        journal_damaged = _journal_damaged(db)
        for match_id in sorted(i for i in ids if isinstance(i, int)):
            try:
                good.append(_intact(db, damaged, match_id, journal_damaged, catalog))
            except Exception:  # whatever a damaged record makes of it: not intact
                continue
    return good, acknowledged if isinstance(acknowledged, int) else None


def _scanned(db: sqlite3.Connection, query: str) -> set[Any]:
    found: set[Any] = set()
    with contextlib.suppress(sqlite3.Error):
        for (value,) in db.execute(query):
            found.add(value)
    return found


def _journal_damaged(db: sqlite3.Connection) -> bool:
    """Whether SQLite's integrity check names a page of the journal (or cannot say which
    pages are damaged): reading past a damaged cell, SQLite may end a match's entries
    early without an error."""
    try:
        found = [row[0] for row in db.execute("PRAGMA integrity_check")]
        pages = {int(n) for line in found for n in re.findall(r"page (\d+)", line)}
        if not pages:
            return found != ["ok"]
        names = {row[0] for row in db.execute(
            f"SELECT DISTINCT name FROM dbstat WHERE pageno IN ({','.join('?' * len(pages))})",
            sorted(pages))}
    except sqlite3.Error:
        return True
    # Pages dbstat cannot name (a damaged tree it cannot walk) may be the journal's.
    return not names or bool(names - {"matches", "meta", "sqlite_autoindex_meta_1",
                                      "one_active_match", "sqlite_schema"})


def _intact(db: sqlite3.Connection, damaged: Path, match_id: int, journal_damaged: bool,
            catalog: Catalog) -> _Rows:
    """One match's rows, if they read cleanly and replay to the stored result; else raises.

    A journal's last entry is stored with its match's last change (the same
    time), unless the match was abandoned after it: with the journal damaged,
    an abandoned match cannot be shown whole and is not brought back."""
    match = db.execute("SELECT id, game, start, status, winner, summary, started_at,"
                       " updated_at FROM matches WHERE id = ?", (match_id,)).fetchone()
    journal = db.execute("SELECT seq, op, event, at FROM journal WHERE match_id = ?"
                         " ORDER BY seq", (match_id,)).fetchall()
    if match is None or [row[0] for row in journal] != list(range(1, len(journal) + 1)):
        raise StoreError(f"match {match_id} is not whole")
    stored = StoredMatch(
        match_id, json.loads(match[2]), match[3],
        tuple((op, None if event is None else json.loads(event))
              for _seq, op, event, _at in journal),
        match[6], winner=None if match[4] is None else json.loads(match[4]),
        summary=match[5], database=str(damaged))
    last = journal[-1][3] if journal else match[6]
    if journal_damaged if match[3] == ABANDONED else last != match[7]:
        raise StoreError(f"match {match_id}: its journal may not be whole")
    if stored.start.get("game") != match[1]:
        raise StoreError(f"match {match_id}: its game is not its start record's")
    replay_stored(stored, catalog)   # StoreDamaged unless the rules give what is stored
    return match, journal


def _checked(path: Path, catalog: Catalog, rng: random.Random | None
             ) -> tuple[Store, Table]:
    store = Store(path)  # checks the write-ahead log before SQLite reads it
    try:
        found = store.integrity_check()
        if found != "ok":
            raise StoreDamaged(store.path, "SQLite's integrity check finds: "
                               + " ".join(found.split()))
        return store, Table(store, catalog, rng)  # replays the current match through the rules
    except BaseException:
        # Closing lets SQLite fold the log's committed frames into the file
        # (it has checked them), so the kept copy is one self-contained file.
        store.close()
        raise


def set_aside(path: Path) -> Path:
    """Move the database's files into a new ``damaged-<UTC time>`` folder beside it; return it.

    A rename in the same folder: nothing is copied, so it works on a full
    card, and nothing is deleted.
    """
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    folder = path.parent / f"damaged-{stamp}"
    n = 1
    while folder.exists():
        n += 1
        folder = path.parent / f"damaged-{stamp}-{n}"
    folder.mkdir()
    for suffix in SUFFIXES:
        src = path.with_name(path.name + suffix)
        if src.exists():
            os.replace(src, folder / src.name)
    return folder


def _cut(db: sqlite3.Connection, damage: StoreDamaged) -> int:
    """Delete the damaged entry of ``damage``'s match and those after it (the whole match
    for its start record); return how many changes that is."""
    m, entry = damage.match_id, damage.entry
    lost = db.execute("DELETE FROM journal WHERE match_id = ? AND seq >= ?",
                      (m, max(entry or 0, 1))).rowcount
    if not entry:
        lost += db.execute("DELETE FROM matches WHERE id = ?", (m,)).rowcount
    return lost


def _restate(store: Store, damage: StoreDamaged, catalog: Catalog) -> None:
    """Store the result of the cut match as the replay of its intact entries gives it."""
    if not damage.entry:
        return  # the whole match went
    assert damage.match_id is not None
    match = replay_stored(store.load(damage.match_id), catalog, check_result=False)
    winner = match.game.winner(match.state)
    store.set_status(damage.match_id, ACTIVE if winner is None else FINISHED,
                     winner=winner, summary=match.game.summary(match.state))
