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
gives no such line between what is intact and what is not: the damaged file's
journal is read page by page (a damaged page loses only what lies on it, a
root page or page 1 included) and every match it replays through the rules,
as far as it does, is brought into a new database (:func:`_rescue`,
companion/salvage.py); the changes it could not bring back are counted as
lost. If none replays, the companion starts on a new, empty database so the
table still works; ``companion salvage COPY`` reads the kept copy again. Either way the returned
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
import os
import random
import shutil
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from companion import wal
from companion.catalog import Catalog
from companion.errors import StoreDamaged, StoreError
from companion.i18n import Text, _, message
from companion.integrity import replay_stored
from companion.salvage import Report, salvage
from companion.store import ACTIVE, FINISHED, Store, new_epoch
from companion.table import Table

#: The files SQLite keeps for one database: the file, its log and the log's index.
SUFFIXES = ("", "-wal", "-shm")

#: The OLED's word on damaged storage found at start, when nothing could be brought
#: back (the log says the rest).
DAMAGED_BANNER = _("Damaged data set aside. New database: see the log")


@dataclass(frozen=True)
class Opened:
    """The store and table the companion runs on, and what went wrong on the way."""

    store: Store
    table: Table
    #: None when the database was sound; else the message to show and log (a marked
    #: message: said in English in the log, in a reader's language where shown).
    notice: Text | None = None
    #: Where the damaged files were kept, when they were.
    kept: Path | None = None
    #: The notice in the few words the OLED has room for (None when sound).
    banner: Text | None = None
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
        raise StoreError(_("{damage}; it could not be moved aside ({reason}): move {path} "
                           "and its -wal and -shm files away by hand",
                           damage=message(damage), reason=str(err), path=path)) from None
    salvaged = _salvage(path, kept, damage, catalog, rng)
    if salvaged is not None:
        store, table, lost = salvaged
        notice = _("DAMAGED MATCH DATABASE: {damage}. The damaged files were moved to "
                   "{kept} (nothing was deleted). Everything committed before the damage "
                   "was brought back (version {version}) and the table resumes from it; "
                   "{lost} acknowledged change(s) after the damage are lost. Copy {kept} "
                   "somewhere safe; consider replacing the SD card.",
                   damage=message(damage), kept=kept, version=store.version, lost=lost)
        return Opened(store, table, notice, kept,
                      banner=_("Damaged data: {count} changes lost. Copy kept in {folder}",
                               count=lost, folder=kept.name),
                      lost=lost)
    rescued = _rescue(path, kept / path.name, catalog, rng)
    again = f"companion salvage {kept / path.name}"  # i18n: not said
    if rescued is not None:
        store, table, report = rescued
        count = _("an unknown number of") if report.lost is None else str(report.lost)
        said = report.lines()[:-1][:8]
        notice = _("DAMAGED MATCH DATABASE: {damage}. The damaged files were moved to "
                   "{kept} (nothing was deleted). Its journal was read page by page: the "
                   "{back} match(es) it replays through the rules were brought back into a "
                   "new database (version {version}) and the table resumes from it; "
                   "{count} acknowledged change(s) could not be brought back{details}. To "
                   "read the copy again: `{again}`. Copy {kept} somewhere safe; consider "
                   "replacing the SD card.",
                   damage=message(damage), kept=kept, back=len(report.back),
                   version=store.version, count=count, again=again,
                   details=_(" ({lines})", lines=_list(said)) if said else "")
        return Opened(store, table, notice, kept,
                      banner=_("Damaged data: {count} changes lost. Copy kept in {folder}",
                               count=count, folder=kept.name),
                      lost=report.lost)
    store, table = _checked(path, catalog, rng)
    notice = _("DAMAGED MATCH DATABASE: {damage}. The damaged files were moved to {kept} "
               "(nothing was deleted) and the companion started on a new, empty database, "
               "so the table works: its journal replays no match. To try again, on a copy "
               "of {kept}: `{again}`; consider replacing the SD card.",
               damage=message(damage), kept=kept, again=again)
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
            ) -> tuple[Store, Table, Report] | None:
    """A new database at ``path`` holding every match the journal of the damaged database
    file ``damaged`` replays through the rules, as far as it does (companion/salvage.py:
    read page by page, so a damaged page, a root page or page 1 included, loses only what
    lies on it); with the salvage's report. None when no match could be brought back
    (nothing is left at ``path`` then).
    """
    try:
        with Store(path) as store:  # the schema, with a new epoch: phones read a new database
            report = salvage(damaged, store, catalog)
        if not report.back:
            raise StoreError("no match could be brought back")  # i18n: not said
        store, table = _checked(path, catalog, rng)
    except (OSError, sqlite3.Error, StoreError):
        for suffix in SUFFIXES:  # only the copies made here; the kept files stay
            with contextlib.suppress(FileNotFoundError):
                path.with_name(path.name + suffix).unlink()
        return None
    return store, table, report


def _checked(path: Path, catalog: Catalog, rng: random.Random | None
             ) -> tuple[Store, Table]:
    store = Store(path, catalog=catalog)  # checks the write-ahead log before SQLite reads it
    try:
        found = store.integrity_check()
        if found != "ok":
            raise StoreDamaged(store.path, _("SQLite's integrity check finds: {found}",
                                             found=" ".join(found.split())))
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
    lost = db.execute("DELETE FROM journal WHERE match_id = ? AND seq >= ? AND op != 'end'",
                      (m, max(entry or 0, 1))).rowcount
    db.execute("DELETE FROM journal WHERE match_id = ? AND seq >= ?", (m, max(entry or 0, 1)))
    if not entry:  # its start (and the journal's copy of it) goes too
        db.execute("DELETE FROM journal WHERE match_id = ?", (m,))
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


def _list(lines: list[Text]) -> Text:
    """Lines of a salvage's report as one, ``; `` between them."""
    joined = lines[0]
    for line in lines[1:]:
        joined = _("{first}; {second}", first=joined, second=line)
    return joined
