"""Opening the table at start-up: damaged storage is named and set aside, never hidden.

``companion run`` opens its database here. Before the table resumes, the
database is checked: its write-ahead log (before SQLite reads it,
:mod:`companion.wal`), SQLite's integrity check of the whole file, and the
current match replayed through the rules (:mod:`companion.integrity`). On
any damage the database's files are moved (never deleted) into
``<data>/damaged-<UTC time>/``, and the companion starts on a new, empty
database so the table still works; the returned notice says which file,
what is wrong, where the files went and what to do.

Matches in the history other than the current one are not replayed at
start: that would cost time in proportion to years of play (thousands of
matches on a Pi). SQLite's integrity check covers their pages, and each one
is replayed through the rules when it is exported.

A file that cannot be written (permissions, a read-only SD card) is not
damage: Store raises StoreError saying so, and nothing is moved.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass
from pathlib import Path

from companion.errors import StoreDamaged, StoreError
from companion.store import Store
from companion.table import Table

#: The files SQLite keeps for one database: the file, its log and the log's index.
SUFFIXES = ("", "-wal", "-shm")


@dataclass(frozen=True)
class Opened:
    """The store and table the companion runs on, and what went wrong on the way."""

    store: Store
    table: Table
    #: None when the database was sound; else the message to show and log.
    notice: str | None = None
    #: Where the damaged files were kept, when they were.
    kept: Path | None = None


def open_table(path: Path, rng: random.Random | None = None) -> Opened:
    """The checked table on the database at ``path``; a fresh one if it is damaged.

    Raises StoreError (not damage: e.g. a permission problem, a database from
    a newer companion) with nothing moved, or when the damaged files cannot
    be moved; StoreDamaged only if even a new database cannot be made.
    """
    try:
        return Opened(*_checked(path, rng))
    except StoreDamaged as err:
        damage = err
    try:
        kept = set_aside(path)
    except OSError as err:
        raise StoreError(f"{damage}; it could not be moved aside ({err}): move "
                         f"{path} and its -wal and -shm files away by hand") from None
    store, table = _checked(path, rng)
    notice = (f"DAMAGED MATCH DATABASE: {damage}. The damaged files were moved to {kept} "
              "(nothing was deleted) and the companion started on a new, empty database, "
              "so the table works. To get back the matches still readable, see "
              "\"If the SD card is damaged\" in README.md (companion history/export --data "
              f"on a copy of {kept}); consider replacing the SD card.")
    return Opened(store, table, notice, kept)


def _checked(path: Path, rng: random.Random | None) -> tuple[Store, Table]:
    store = Store(path)  # checks the write-ahead log before SQLite reads it
    try:
        found = store.integrity_check()
        if found != "ok":
            raise StoreDamaged(store.path, "SQLite's integrity check finds: "
                               + " ".join(found.split()))
        return store, Table(store, rng)  # replays the current match through the rules
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
