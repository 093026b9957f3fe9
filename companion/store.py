"""The match database: SQLite, one file, every change committed to disk.

Each match is a row in ``matches`` (its start record, status and result) and
a journal of table operations in ``journal``: resolved events, undos and
redos, in order. Replaying the journal gives the match exactly, redo history
included, so a restart resumes where the table was. The journal also holds
the match's start record (entry 0, ``start``, at its start time) and its
ending (``end``, when it was abandoned): on its own it is the whole match, so
a damaged page of ``matches`` loses no match (companion/salvage.py).

The database runs in WAL mode with ``synchronous=FULL``: when a write
method returns, the change is on disk and survives a power cut. Every write
also raises the table version kept in ``meta``, so the version shown to
phones keeps rising across restarts. Each database also has an ``epoch``, a
random number made with it, so a phone can tell a new database (one moved
aside and started afresh, whose version began again at 0) from the one it
followed.

A change is acknowledged only if it is on disk where the next start will
read it: before each commit the store checks that the database and its log
are still the files it opened (not deleted or replaced); a full disk and a
read-only file system are named as such. Each refuses the change with
:class:`~companion.errors.StoreUnavailable`, logged once per episode.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import logging
import os
import secrets
import sqlite3
import stat
import threading
import time
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, overload

from companion import wal
from companion.errors import (
    IllegalAction,
    InvalidAction,
    MatchInProgress,
    StoreDamaged,
    StoreError,
    StoreUnavailable,
    UnknownPlayer,
)
from companion.games.base import JSON, clean_name, name_key
from companion.i18n import Text, _
from companion.kept_text import kept, revived
from companion.rulings import Ruling, ruled_standing
from companion.teams import teams

if TYPE_CHECKING:
    from companion.catalog import Catalog

log = logging.getLogger(__name__)
_T = TypeVar("_T")

SCHEMA_VERSION = 4

ACTIVE, FINISHED, ABANDONED = "active", "finished", "abandoned"

_SCHEMA = """-- i18n: not said (SQL)
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
INSERT INTO meta (key, value) VALUES ('version', 0);
CREATE TABLE matches (
    id         INTEGER PRIMARY KEY,
    game       TEXT NOT NULL,
    start      TEXT NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('active', 'finished', 'abandoned')),
    winner     TEXT,
    summary    TEXT NOT NULL DEFAULT '',
    started_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
-- At most one unfinished match, enforced by the database itself.
CREATE UNIQUE INDEX one_active_match ON matches (status) WHERE status = 'active';
CREATE TABLE journal (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seq      INTEGER NOT NULL,
    op       TEXT NOT NULL CHECK (op IN ('start', 'event', 'undo', 'redo', 'end')),
    event    TEXT,
    at       REAL NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;
"""

#: Schema 2: the players, and each finished match's standing (companion/standings.py).
#: A player is a name key (companion.games.base.name_key) and the name it is shown by;
#: ``roster`` counts renames and merges, which rewrite stored start records.
_UPGRADE_2 = """-- i18n: not said (SQL)
ALTER TABLE matches ADD COLUMN standing TEXT;
CREATE TABLE players (
    key  TEXT PRIMARY KEY,
    name TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO meta (key, value) VALUES ('roster', 0);
"""

#: Schema 3: the journal holds each match's start record (entry 0) and its abandonment
#: (``end``) too, so it replays a match on its own (the journal is rebuilt for its CHECK).
_UPGRADE_3 = """-- i18n: not said (SQL)
CREATE TABLE journal_3 (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seq      INTEGER NOT NULL,
    op       TEXT NOT NULL CHECK (op IN ('start', 'event', 'undo', 'redo', 'end')),
    event    TEXT,
    at       REAL NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;
INSERT INTO journal_3 SELECT match_id, seq, op, event, at FROM journal;
INSERT OR IGNORE INTO journal_3 SELECT id, 0, 'start', start, started_at FROM matches;
INSERT INTO journal_3 SELECT id, (SELECT coalesce(max(seq), 0) + 1 FROM journal
    WHERE match_id = matches.id), 'end', NULL, updated_at FROM matches
    WHERE status = 'abandoned' AND NOT EXISTS (SELECT 1 FROM journal
    WHERE match_id = matches.id AND op = 'end');
DROP TABLE journal;
ALTER TABLE journal_3 RENAME TO journal
"""
#: Schema 4: the hall's rulings on matches played for its events (a director's correction,
#: or the result the director kept): each is a finished match's winner and standing while
#: its journal is as it was then (``entries``); the match's own row keeps what its play
#: gave (the journal replays to it). (The players are re-keyed with it: names.py.)
_UPGRADE_4 = """-- i18n: not said (SQL)
CREATE TABLE IF NOT EXISTS rulings (
    id           TEXT NOT NULL UNIQUE,
    match_id     INTEGER NOT NULL REFERENCES matches (id),
    entries      INTEGER NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('corrected', 'kept')),
    reason       TEXT NOT NULL,
    standing     TEXT NOT NULL,
    winner       TEXT NOT NULL,
    at           REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS rulings_of_match ON rulings (match_id);
"""
#: The table operations of a journal (the others: its start record and its ending).
PLAYS = "op IN ('event', 'undo', 'redo')"  # i18n: not said (SQL)
#: The hall's ruling in force on a match (a column of a ``matches`` query): the newest,
#: while the match is finished and its journal as it was when the ruling came (a play
#: since, an undo at the table, puts the table's own result back).
_RULING = (
    "(SELECT json_object('id', r.id, 'kind', r.kind, 'reason',"  # i18n: not said
    " r.reason, 'at', r.at,"  # i18n: not said
    " 'was', json(matches.winner), 'winner', json(r.winner),"  # i18n: not said
    " 'standing', json(r.standing))"  # i18n: not said
    " FROM rulings AS r WHERE r.match_id = matches.id"  # i18n: not said (SQL)
    " AND matches.status = 'finished' AND r.entries = (SELECT"  # i18n: not said
    " count(*) FROM journal"  # i18n: not said
    f" WHERE match_id = matches.id AND {PLAYS}) ORDER BY r.rowid DESC LIMIT 1)"  # i18n: not said
)


@dataclass(frozen=True)
class StoredMatch:
    """A match as stored: its start record and journal, oldest first."""

    id: int
    start: JSON
    status: str
    journal: tuple[tuple[str, JSON | None], ...]
    #: When the match began (seconds since the epoch), as kept in the history.
    started_at: float
    #: The result stored with the match's last change (None, "" before any).
    winner: Any = None
    summary: str = ""
    #: The database file it was read from, for messages about it.
    database: str = ""


@dataclass(frozen=True)
class Restored:
    """A match brought back from a damaged database (companion/salvage.py), checked by the
    rules: its row's values and its journal's (op, event, at), entries 1, 2, 3...;
    ``ended_at`` is when an abandoned match was ended (its journal's ``end``)."""

    id: int
    game: str
    start: JSON
    status: str
    winner: Any
    summary: str
    started_at: float
    updated_at: float
    standing: JSON | None
    journal: list[tuple[str, JSON | None, float]]
    ended_at: float | None = None


@dataclass(frozen=True)
class Finished:
    """A finished match as the ratings read it: who played and how it ended."""

    id: int
    game: str
    players: tuple[str, ...]
    #: companion/standings.py's standing; None for a match finished before schema 2.
    standing: JSON | None
    started_at: float
    #: The start record's ``event`` (the hall's event it was played for), or None.
    event: JSON | None = None
    #: Entries in its journal (MatchSummary.entries): a result undone and played again
    #: is told apart by it.
    entries: int = 0
    #: The hall's ruling in force on its result (MatchSummary.ruling), or None.
    ruling: JSON | None = None


@dataclass(frozen=True)
class PlayerRow:
    """A player of this table: the name shown, matches played (any status), last played."""

    name: str
    matches: int
    last_played: float | None


@dataclass(frozen=True)
class MatchSummary:
    """One line of the match history."""

    id: int
    game: str
    players: tuple[str, ...]
    status: str
    winner: Any
    summary: str
    started_at: float
    updated_at: float
    #: The events in effect (played, less those undone): 0 for a match where nothing
    #: was played.
    plays: int = 0
    #: Entries in its journal (events, undos and redos): it only grows, so with the
    #: status and ``updated_at`` it tells whether anything drawn from the match is current.
    #: Not part of the JSON.
    entries: int = 0
    #: Each side's player indexes, every player in one (companion/teams.py): ``[[0, 2],
    #: [1, 3]]`` for doubles, ``[[0], [1], [2]]`` where everyone plays for themselves.
    teams: tuple[tuple[int, ...], ...] = ()
    #: The hall's ruling in force on the match (Store.apply_ruling): ``{"id", "kind"
    #: ("corrected" or "kept"), "reason", "at", "was" (the winner the table's play gave)}``,
    #: or None: the result is the table's own.
    ruling: JSON | None = None

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning players' indexes: one, or several for a shared (team) win; none yet."""
        if self.winner is None:
            return ()
        return tuple(self.winner) if isinstance(self.winner, list) else (self.winner,)

    def to_json(self) -> JSON:
        return {
            "id": self.id, "game": self.game, "players": list(self.players),
            "status": self.status, "winner": self.winner, "summary": self.summary,
            "started_at": iso_utc(self.started_at), "updated_at": iso_utc(self.updated_at),
            "plays": self.plays, "teams": [list(t) for t in self.teams],
            "ruling": None if self.ruling is None else {
                **self.ruling, "at": iso_utc(self.ruling["at"])},
        }


#: A stored match's summary line made again from the match (a rename rewrites it).
Resummary = Callable[[StoredMatch], str]


def _check_access(path: Path) -> None:
    """StoreError saying it is a permission problem if SQLite could not write here.

    SQLite in WAL mode writes the database, its -wal and -shm files and
    creates the latter two in the folder, even to read. A file that is merely
    read-only is not damaged: it is named as a permission problem and left
    exactly as it is.
    """
    folder = path.parent
    for p, need in ((folder, os.W_OK | os.X_OK), (path, os.R_OK | os.W_OK),
                    (_sibling(path, "-wal"), os.R_OK | os.W_OK),
                    (_sibling(path, "-shm"), os.R_OK | os.W_OK)):
        if p.exists() and not os.access(p, need):
            raise StoreError(_permission_message(p, folder))


def unwritable_message(p: Path) -> str:
    """Why the companion could not write the file or folder ``p``: its file system is
    read-only (the remedy: fsck, remount), or the user may not (the remedy: chown)."""
    return _permission_message(p, p if p.is_dir() else p.parent)


def _permission_message(p: Path, folder: Path) -> Text:
    try:
        import pwd  # Unix only, like the companion
        user = pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):
        user = f"uid {os.geteuid()}"
    if _read_only(p):
        return read_only_message(p)
    st = p.stat()
    values = {"path": str(p), "user": user, "mode": stat.filemode(st.st_mode),
              "owner": st.st_uid, "folder": str(folder)}
    if p.is_dir():
        return _("{path} is not writable by user {user} (folder mode {mode}, owner uid "
                 "{owner}): a permission problem, not damage; nothing was changed. Fix it, "
                 "e.g. `sudo chown -R {user} {folder}` or `chmod u+rw {path}`", **values)
    return _("{path} is not writable by user {user} (file mode {mode}, owner uid {owner}): "
             "a permission problem, not damage; nothing was changed. Fix it, e.g. `sudo "
             "chown -R {user} {folder}` or `chmod u+rw {path}`", **values)


def _read_only(p: Path) -> bool:
    """Whether ``p`` (or, if it is gone, its nearest folder) is on a read-only file system:
    mounted read-only, or turned read-only by the kernel after errors (ext4 does that
    and still shows the mount read-write: a write there answers EROFS)."""
    for q in (p, *p.parents):
        try:
            if os.statvfs(q).f_flag & os.ST_RDONLY:
                return True
        except OSError:
            continue
        return _write_probe(q if q.is_dir() else q.parent) == errno.EROFS
    return False


def _write_probe(folder: Path) -> int | None:
    """The errno of writing and syncing a page to a new file in ``folder`` (removed after);
    None if that works."""
    probe = folder / f".companion-probe-{os.getpid()}"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, bytes(4096))
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as err:
        return err.errno
    finally:
        with contextlib.suppress(OSError):
            probe.unlink()
    return None


def read_only_message(p: Path) -> Text:
    """What to say, and do, when ``p`` is on a read-only file system: not permissions."""
    return _("{path} is on a read-only file system (not a permission problem, not damage; "
             "nothing was changed). Remount it read-write; an SD card the kernel remounted "
             "read-only after errors needs checking first: stop the companion, `sudo fsck` "
             "the card (or check it in another computer), then start it again", path=str(p))


class Checkpointer:
    """Copies the write-ahead log into the database on a thread and connection of its own.

    SQLite's automatic checkpoint (turned off on the writer's connection) runs
    inside the commit that takes the log past its threshold: that one change
    then waits for thousands of pages to be written and the database file
    synced, 50-70 ms here under readers, long enough to miss a press's budget
    (tests/bench/bench_reads.py). Here the commit only looks at the log's
    size; past ``LIMIT`` bytes a passive checkpoint runs beside the writer,
    which WAL allows: it copies what no reader still needs and never makes a
    commit wait (but a flood of changes, which it cannot catch up with, is
    checkpointed by the writer itself past ``LATE_AFTER`` times that, so the log
    stays bounded).
    Durability does not change: a commit is synced in the log before it
    returns, whatever the checkpoint does. The connection opens the file
    ``mode=rw``, so a database deleted meanwhile is never made afresh.
    Thread-safe.
    """

    #: Bytes of log past which a checkpoint starts (SQLite's default: 1,000 pages of 4 KB).
    LIMIT = 1000 * 4096
    #: Times LIMIT past which the writer checkpoints itself: changes coming faster than
    #: the checkpointer can catch up with (it never finishes while they keep coming).
    LATE_AFTER = 4

    def __init__(self, path: Path) -> None:
        self.path = path
        self._wal = _sibling(path, "-wal")
        self._wanted = threading.Event()
        self._closing = False
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def committed(self) -> object:
        """After a commit: start a checkpoint if the log has grown past the threshold.

        Returns LATE when the log is past LATE_AFTER times it: the caller (the
        writer, outside any transaction) then checkpoints itself."""
        try:
            size = os.stat(self._wal).st_size
        except OSError:
            return None
        if size <= self.LIMIT:
            return None
        with self._lock:
            if self._closing:
                return None
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="checkpointer",
                                                daemon=True)
                self._thread.start()
        self._wanted.set()
        return LATE if size > self.LATE_AFTER * self.LIMIT else None

    def close(self) -> None:
        """Stop the thread (a checkpoint under way finishes first)."""
        with self._lock:
            self._closing = True
            thread = self._thread
        self._wanted.set()
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        db: sqlite3.Connection | None = None
        try:
            while True:
                self._wanted.wait()
                self._wanted.clear()
                if self._closing:
                    return
                try:
                    if db is None:
                        db = sqlite3.connect(self.path.resolve().as_uri() + "?mode=rw",
                                             uri=True, isolation_level=None,
                                             check_same_thread=False)
                        db.execute("PRAGMA busy_timeout = 5000")
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error as err:
                    # Not a loss: the log keeps every commit, and the next commit past the
                    # threshold asks again; a real fault shows at the writer's own commit.
                    log.debug("%s: checkpoint not done (%s)", self.path, err)
        finally:
            if db is not None:
                db.close()


#: What :meth:`Checkpointer.committed` returns when the writer must checkpoint itself.
LATE = object()


def _sibling(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def _check_wal(path: Path) -> None:
    """StoreDamaged if SQLite would silently drop committed changes from the -wal file."""
    log = _sibling(path, "-wal")
    found = wal.damage(log, wal.db_page_size(path))
    if found is not None:
        # Read again: a log another process restarted while it was being
        # read can look damaged once; real damage stays.
        found = wal.damage(log, wal.db_page_size(path))
    if found is not None:
        raise StoreDamaged(str(log), found)


#: SQLite's result codes for a file that is damaged rather than unreachable.
_DAMAGED = ("SQLITE_CORRUPT", "SQLITE_NOTADB")


def _raise_named(path: str, err: sqlite3.DatabaseError) -> None:
    """Raise StoreDamaged or a permission StoreError for ``err`` if it is one of those."""
    name = getattr(err, "sqlite_errorname", "") or ""
    if name.startswith(_DAMAGED) or "malformed" in str(err):
        raise StoreDamaged(path, _("SQLite reports: {error}", error=str(err))) from None
    if name.startswith(("SQLITE_READONLY", "SQLITE_PERM", "SQLITE_CANTOPEN")):
        p = Path(path)
        problem = (read_only_message(p if p.exists() else p.parent) if _read_only(p) else
                   _permission_message(p if p.exists() else p.parent, p.parent))
        raise StoreError(_("{problem} (SQLite reports: {error})", problem=problem,
                           error=str(err))) from None


def _named_errors(method: Callable[..., Any]) -> Callable[..., Any]:
    """Turn SQLite and decoding errors from ``method`` into errors that name the file.

    A damaged page met by a query is StoreDamaged; any other SQLite failure
    is a StoreError. Never a raw traceback.
    """
    @functools.wraps(method)
    def named(self: Store, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as err:
            trouble = self._unavailable(err)
            if trouble is not None:
                raise self._episode(trouble) from None
            _raise_named(self.path, err)
            raise StoreError(_("{path}: SQLite reports: {error}", path=self.path,
                               error=str(err))) from None
    return named


@contextmanager
def _decoding(path: str, what: str) -> Iterator[None]:
    """StoreDamaged naming ``what`` if stored text no longer decodes as written."""
    try:
        yield
    except (ValueError, KeyError, TypeError) as err:
        raise StoreDamaged(path, _("{what} does not decode ({error})", what=what,
                                   error=repr(err))) from None


class Store:
    """The SQLite match store. Thread-safe; one connection behind a lock.

    ``path`` is a file or ``":memory:"`` for tests that need no durability.
    With ``create`` (the default) a missing file and its folder are made;
    without it (for commands that only read) a missing database raises
    StoreError naming the folder, and nothing is written to the disk. Raises
    StoreError naming the path when the file cannot be opened or is not a
    companion database, and saying so when the cause is a permission.

    Damage is named, never hidden: StoreDamaged (naming the file and what is
    wrong) when the write-ahead log would silently drop committed changes
    (checked before SQLite reads it, see :mod:`companion.wal`), when SQLite
    finds the file corrupt, and from any read or write that meets a damaged
    page or record. :meth:`integrity_check` checks the whole file.

    Reads never wait on the writer: a file store's reads (:meth:`history`,
    :meth:`load`, :meth:`with_start`, :meth:`summaries`, :meth:`start_of`) run
    on connections of their own, each read in one transaction, which WAL lets
    run beside a commit and which sees the database as of one committed
    change. Only a ``":memory:"`` store (one connection: nothing else can see
    its data) reads under the writer's lock.

    A write the storage cannot take raises StoreUnavailable with nothing
    stored: the file deleted or replaced since it was opened (every later
    write is refused too, and what the open file holds is copied beside it,
    see :meth:`_lost`), the disk full, the file system read-only.

    The store owns its connections: whoever opens a store closes it
    (:meth:`close`, or use it as a context manager). Python 3.13 warns about
    a connection left for the garbage collector, and the tests make that an
    error.
    """

    def __init__(self, path: str | Path, *, create: bool = True,
                 catalog: Catalog | None = None) -> None:
        self.path = str(path)
        #: The games, for what the history derives from a match's start (its sides,
        #: companion/teams.py); without it every player is a side alone.
        self.catalog = catalog
        self._lock = threading.Lock()
        #: Readers' connections not in use now, and all of them (closed with the store).
        self._idle_readers: list[sqlite3.Connection] = []
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        #: Set by close(): a reader still in use is closed when its read ends.
        self._readers_closed = False
        if not create and self.path != ":memory:":
            _require_database(Path(self.path))
        if self.path != ":memory:":
            _check_access(Path(self.path))
            _check_wal(Path(self.path))
        try:
            if create and self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            # mode=rw: SQLite itself refuses to make a file that vanished meanwhile.
            target, uri = ((self.path, False) if create or self.path == ":memory:"
                           else (Path(self.path).resolve().as_uri() + "?mode=rw", True))
            self._db = sqlite3.connect(target, isolation_level=None, check_same_thread=False,
                                       uri=uri)
        except (OSError, sqlite3.Error) as err:
            if getattr(err, "errno", None) == errno.EROFS:
                raise StoreError(read_only_message(Path(self.path).parent)) from None
            raise StoreError(_("cannot open the match database {path}: {error}",
                               path=self.path, error=str(err))) from None
        try:
            self._setup(create)
        except sqlite3.DatabaseError as err:
            self._db.close()
            _raise_named(self.path, err)
            raise StoreError(_("{path} is not a usable match database ({error}); move it "
                               "aside to start a new one", path=self.path,
                               error=str(err))) from None
        except BaseException:  # e.g. Ctrl-C: whatever stops the setup, nothing stays open
            self._db.close()
            raise
        #: The kind of StoreUnavailable in the episode under way (logged once), or None.
        self._trouble: str | None = None
        #: Set once the file was found deleted or replaced: every later change is refused.
        self._gone: StoreUnavailable | None = None
        #: The files this store opened, as (st_dev, st_ino): a commit checks they are still
        #: the ones at their paths (a deleted database takes commits no one will read again).
        self._identity = {p: _identity(p) for p in (Path(self.path), _sibling(Path(self.path),
                                                                              "-wal"))
                          if self.path != ":memory:" and p.exists()}
        self._checkpointer = None if self.path == ":memory:" else Checkpointer(Path(self.path))

    def _setup(self, create: bool) -> None:
        db = self._db
        db.execute("PRAGMA busy_timeout = 5000")
        if self.path != ":memory:":
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode.lower() != "wal":
                raise sqlite3.DatabaseError(_("WAL mode refused (got {mode})", mode=mode))
        # FULL: a commit returns only once the WAL is synced, so an
        # acknowledged event survives a power cut.
        db.execute("PRAGMA synchronous = FULL")
        if self.path != ":memory:":
            # The log is copied into the database by the checkpointer, off the
            # writer's path (see Checkpointer), not inside a commit; and cut back to
            # its threshold when it starts again, so its size tells how much it holds.
            db.execute("PRAGMA wal_autocheckpoint = 0")
            db.execute(f"PRAGMA journal_size_limit = {Checkpointer.LIMIT}")
        db.execute("PRAGMA foreign_keys = ON")
        with self._transaction():
            found = db.execute("PRAGMA user_version").fetchone()[0]
            if found == 0:
                if not create:
                    raise sqlite3.DatabaseError(_("it holds no companion schema"))
                if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                    raise sqlite3.DatabaseError(_("it holds tables but no companion schema"))
                _run_script(db, _SCHEMA)
                _run_script(db, _UPGRADE_2)
                _run_script(db, _UPGRADE_4)
                found = SCHEMA_VERSION
            elif found > SCHEMA_VERSION:
                raise sqlite3.DatabaseError(
                    _("schema {found} is from a newer companion (this one knows {known})",
                      found=found, known=SCHEMA_VERSION)
                )
            if found < 2:
                _run_script(db, _UPGRADE_2)
                found = 2
                # Every name already played becomes a player, shown as last written.
                for (start,) in db.execute("SELECT start FROM matches ORDER BY id").fetchall():
                    for name in json.loads(start)["players"]:
                        db.execute("INSERT INTO players (key, name) VALUES (?, ?) ON CONFLICT"
                                   " (key) DO UPDATE SET name = excluded.name",
                                   (name_key(name), name))
            if found < 3:
                _run_script(db, _UPGRADE_3)
            if found < 4:
                _run_script(db, _UPGRADE_4)
                _rekey_players(db)
            if found < SCHEMA_VERSION or db.execute("PRAGMA user_version").fetchone()[0] \
                    != SCHEMA_VERSION:
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            if create:  # a new database, or one made before epochs: it gets one now
                db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('epoch', ?)",
                           (new_epoch(),))
            row = db.execute("SELECT value FROM meta WHERE key = 'epoch'").fetchone()
        #: This database's identity (0 for an old one opened only to read).
        self.epoch: int = 0 if row is None else row[0]

    def close(self) -> None:
        """Close the database and the readers' connections. Safe to call twice."""
        if self._checkpointer is not None:
            self._checkpointer.close()
        with self._readers_lock:
            # Only the idle ones: a connection closed under a statement another thread
            # is running can crash the process (CPython's sqlite3 frees what that
            # statement uses). A read under way ends its own (_reading), and no new
            # read begins on a closed store.
            for reader in self._idle_readers:
                self._readers.remove(reader)
                reader.close()
            self._idle_readers.clear()
            self._readers_closed = True
        with self._lock:
            if self._db is not None:
                self._db.close()
                # Typed as the open connection its many uses hold; a closed store is
                # told by None, which the ways in check first (StoreError).
                self._db = None  # type: ignore[assignment]

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Store {self.path}>"  # i18n: not said

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """A connection for one read, inside one read transaction; never the writer's lock.

        A file store's reader connections are made when first needed (as many
        as reads run at once) and kept for the next reads. They open the file
        in ``mode=rw``, so a reader never creates a database that is not there,
        and are ``query_only``. A ``":memory:"`` store reads on its only
        connection, under the lock.
        """
        if self.path == ":memory:":
            with self._lock:
                yield self._db
            return
        with self._readers_lock:
            if self._db is None:
                raise StoreError(_("{path}: the store is closed", path=self.path))
            reader = self._idle_readers.pop() if self._idle_readers else None
        if reader is None:
            reader = self._open_reader()
        try:
            reader.execute("BEGIN")
        except BaseException:
            self._drop_reader(reader)
            raise
        try:
            yield reader
        finally:
            try:
                reader.execute("COMMIT")  # a read transaction: this ends its snapshot
            except BaseException:
                self._drop_reader(reader)  # in an unknown state: never reused
                raise
            with self._readers_lock:
                closed = self._readers_closed
                if not closed:
                    self._idle_readers.append(reader)
                else:  # the store was closed meanwhile: this read was its last
                    self._readers.remove(reader)
            if closed:
                reader.close()

    def close_idle_readers(self) -> int:
        """Close the readers' connections no read is using, and with them their page
        caches (up to 2 MB each); a later read opens one again. How many were closed."""
        with self._readers_lock:
            idle, self._idle_readers = self._idle_readers, []
            for reader in idle:
                self._readers.remove(reader)
        for reader in idle:
            reader.close()
        return len(idle)

    def _drop_reader(self, reader: sqlite3.Connection) -> None:
        with self._readers_lock:
            if reader in self._readers:
                self._readers.remove(reader)
        reader.close()

    def _open_reader(self) -> sqlite3.Connection:
        uri = Path(self.path).resolve().as_uri() + "?mode=rw"
        reader = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        try:
            reader.execute("PRAGMA busy_timeout = 5000")
            reader.execute("PRAGMA query_only = ON")
        except BaseException:
            reader.close()
            raise
        with self._readers_lock:
            if self._db is None:
                reader.close()
                raise StoreError(_("{path}: the store is closed", path=self.path))
            self._readers.append(reader)
        return reader

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One change: a transaction committed only into the files this store opened.

        Call with the lock held. Raises StoreUnavailable, with nothing stored,
        when the database was deleted or replaced since it was opened; SQLite
        errors meaning a full disk or a read-only file system become
        StoreUnavailable in :func:`_named_errors`. Each kind of trouble is
        logged once, when it begins, and its end once, at the next commit.
        """
        if self._gone is not None:
            raise self._gone
        moved: str | None = None
        try:
            with self._transaction() as db:
                yield db
                moved = self._moved()
                if moved is not None:
                    raise _Refused  # rolls the change back
        except _Refused:
            raise self._lost(moved or "") from None
        if self._checkpointer is not None and self._checkpointer.committed() is LATE:
            # A flood of changes outran the checkpointer: copy here, as SQLite would, so
            # the log stays bounded.
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        if self._trouble is not None:
            log.warning("%s: changes are saved again (the %s problem is over)",
                        self.path, self._trouble)
            self._trouble = None

    def _moved(self) -> Text | None:
        """What happened to the files this store opened, if they are no longer at their paths."""
        for path, identity in self._identity.items():
            try:
                now = _identity(path)
            except FileNotFoundError:
                return _("{path} was deleted while the companion ran", path=path)
            except OSError as err:
                return _("{path} cannot be found any more ({error})", path=path,
                         error=err.strerror)
            if now != identity:
                return _("{path} was replaced by another file while the companion ran (the "
                         "companion still has the one it opened)", path=path)
        return None

    def _lost(self, what: str) -> StoreUnavailable:
        """The refusal for a database deleted or replaced: a copy of what it held is saved.

        The companion still has the file open, so everything acknowledged is
        still readable through it: SQLite's backup API copies it beside the
        path, for the user to put back. From now on every change is refused.
        """
        version = self._db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()[0]
        path = Path(self.path)
        try:
            rescued = _rescue(self._db, path)
        except (OSError, sqlite3.Error) as err:
            saved = _("copying what it held to the folder failed ({error}), so restarting the "
                      "companion starts afresh and loses the changes up to version "
                      "{version}; to keep them, copy its open file from /proc/{process}/fd/ "
                      "(`ls -l` it) before stopping the companion", error=str(err),
                      version=version, process=os.getpid())
        else:
            saved = _("everything acknowledged (version {version}) was copied to {copy}: stop "
                      "the companion, move that file to {path} (the file there now, if any, "
                      "aside), and start it again", version=version, copy=str(rescued),
                      path=str(path))
        self._gone = StoreUnavailable(
            "gone", _("{what}: this change was refused, and every change is until the "
                      "companion restarts; {saved}", what=what, saved=saved),
            _("Not saved: database file gone. See the log"))
        return self._episode(self._gone)

    def _unavailable(self, err: sqlite3.DatabaseError) -> StoreUnavailable | None:
        """``err`` as the trouble it means (disk full, read-only, moved), or None."""
        name = getattr(err, "sqlite_errorname", "") or ""
        folder = Path(self.path).parent
        if name == "SQLITE_READONLY_DBMOVED":
            return StoreUnavailable(
                "gone", _("{path} was moved or deleted while the companion ran (SQLite "
                          "reports: {error}); this change was refused: restart the companion",
                          path=self.path, error=str(err)),
                _("Not saved: database file gone. See the log"))
        full = name.startswith("SQLITE_FULL")
        read_only = name.startswith("SQLITE_READONLY")
        if name.startswith("SQLITE_IOERR") and self.path != ":memory:":
            # SQLite does not say which errno made the I/O error: a write beside the
            # database asks the file system (a card ext4 turned read-only after errors
            # still shows as mounted read-write).
            found = _write_probe(folder)
            read_only, full = found == errno.EROFS, found == errno.ENOSPC
        if read_only:
            return StoreUnavailable(
                "read-only", _("the data folder is read-only: {problem}; this change was not "
                               "saved (SQLite reports: {error})",
                               problem=read_only_message(folder), error=str(err)),
                _("Not saved: data folder is read-only. See the log"))
        if full:
            return StoreUnavailable(
                "full", _("the disk is full: free space on the file system holding {folder} "
                          "({free}); this change was not saved, and what was saved before "
                          "is kept. Delete what is not needed there (old logs: `sudo "
                          "journalctl --vacuum-size=50M`; old damaged-* folders once copied "
                          "elsewhere), then try again (SQLite reports: {error})",
                          folder=str(folder), free=_free(folder), error=str(err)),
                _("Not saved: the disk is full. See the log"))
        return None

    def _episode(self, trouble: StoreUnavailable) -> StoreUnavailable:
        """``trouble``, logged if it begins an episode: once, not once per request."""
        if self._trouble != trouble.kind:
            self._trouble = trouble.kind
            log.error("%s", trouble)
        return trouble

    def _bump_version(self) -> int:
        return self._db.execute(
            "UPDATE meta SET value = value + 1 WHERE key = 'version' RETURNING value"
        ).fetchone()[0]

    # --- writes: each is one transaction and returns the new version ---------

    @property
    @_named_errors
    def version(self) -> int:
        """The version of the last committed change."""
        with self._lock:
            return self._db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()[0]

    @_named_errors
    def begin_match(self, start: JSON) -> tuple[int, int]:
        """Store a new active match; returns (match id, version).

        Raises MatchInProgress if an unfinished match is stored.
        """
        now = time.time()
        with self._lock:
            try:
                with self._write() as db:
                    cur = db.execute(
                        "INSERT INTO matches (game, start, status, started_at, updated_at)"
                        " VALUES (?, ?, 'active', ?, ?)",
                        (start["game"], _dumps(start), now, now),
                    )
                    db.execute("INSERT INTO journal (match_id, seq, op, event, at)"
                               " VALUES (?, 0, 'start', ?, ?)", (cur.lastrowid, _dumps(start), now))
                    _register(db, start["players"])
                    return _inserted(cur), self._bump_version()
            except sqlite3.IntegrityError:
                raise MatchInProgress(
                    _("a match is still unfinished: finish or end it before starting another")
                ) from None

    @_named_errors
    def record(self, match_id: int, op: str, event: JSON | None, *, status: str,
               winner: Any, summary: str, standing: JSON | None = None) -> int:
        """Append one journal entry and the match's new status; returns the version.

        ``standing`` (companion/standings.py) goes with a finished match's result."""
        now = time.time()
        with self._lock, self._write() as db:
            db.execute(
                "INSERT INTO journal (match_id, seq, op, event, at) VALUES"
                " (?, (SELECT coalesce(max(seq), 0) + 1 FROM journal WHERE match_id = ?),"
                " ?, ?, ?)",
                (match_id, match_id, op, None if event is None else _dumps(event), now),
            )
            self._set_status(db, match_id, status, winner, summary, now, standing)
            return self._bump_version()

    @_named_errors
    def set_status(self, match_id: int, status: str, *, winner: Any = None,
                   summary: str = "") -> int:
        """Change a match's status (for example to abandoned: its journal's ``end``);
        returns the version."""
        now = time.time()
        with self._lock, self._write() as db:
            if status == ABANDONED:
                db.execute("INSERT INTO journal (match_id, seq, op, event, at) VALUES"
                           " (?, (SELECT coalesce(max(seq), 0) + 1 FROM journal"
                           " WHERE match_id = ?), 'end', NULL, ?)", (match_id, match_id, now))
            self._set_status(db, match_id, status, winner, summary, now)
            return self._bump_version()

    @staticmethod
    def _set_status(db: sqlite3.Connection, match_id: int, status: str, winner: Any,
                    summary: str, now: float, standing: JSON | None = None) -> None:
        cur = db.execute(
            "UPDATE matches SET status = ?, winner = ?, summary = ?, updated_at = ?,"
            " standing = ? WHERE id = ?",
            (status, _dumps(winner), kept(summary), now,
             None if standing is None or status != FINISHED else _dumps(standing), match_id),
        )
        if cur.rowcount != 1:
            raise StoreError(_("there is no match {id}", id=match_id))

    @_named_errors
    def import_match(self, start: JSON, events: list[JSON], *, status: str, winner: Any,
                     summary: str, started_at: float | None = None,
                     standing: JSON | None = None) -> int:
        """Store a whole match from a match file in one transaction; returns its id.

        ``started_at`` is when the match began (the file's start time); None: now.
        """
        now = time.time()
        with self._lock:
            try:
                with self._write() as db:
                    cur = db.execute(
                        "INSERT INTO matches (game, start, status, winner, summary,"
                        " started_at, updated_at, standing) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (start["game"], _dumps(start), status, _dumps(winner), kept(summary),
                         now if started_at is None else started_at, now,
                         None if standing is None or status != FINISHED
                         else _dumps(standing)),
                    )
                    match_id = _inserted(cur)
                    _register(db, start["players"])
                    db.execute("INSERT INTO journal (match_id, seq, op, event, at)"
                               " VALUES (?, 0, 'start', ?, ?)",
                               (match_id, _dumps(start), now if started_at is None
                                else started_at))
                    db.executemany(
                        "INSERT INTO journal (match_id, seq, op, event, at)"
                        " VALUES (?, ?, 'event', ?, ?)",
                        [(match_id, i, _dumps(e), now) for i, e in enumerate(events, start=1)],
                    )
                    self._bump_version()
                    return match_id
            except sqlite3.IntegrityError:
                raise MatchInProgress(
                    _("this match is unfinished and another one is in progress: "
                      "finish or end that one first")
                ) from None

    @_named_errors
    def restore(self, match: Restored) -> int:
        """Store a match brought back from a damaged database, in one transaction, under
        its own id if that is free (else the next one); returns its id. The version rises
        by the changes it was made of (its start, each entry, its ending). An unfinished
        match is stored as ended when another one is unfinished here."""
        with self._lock, self._write() as db:
            taken = db.execute("SELECT 1 FROM matches WHERE id = ?", (match.id,)).fetchone()
            status = match.status
            if status == ACTIVE and db.execute(
                    "SELECT 1 FROM matches WHERE status = 'active'").fetchone():
                status = ABANDONED
            cur = db.execute(
                "INSERT INTO matches (id, game, start, status, winner, summary, started_at,"
                " updated_at, standing) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (None if taken else match.id, match.game, _dumps(match.start), status,
                 _dumps(match.winner), kept(match.summary), match.started_at, match.updated_at,
                 None if match.standing is None or status != FINISHED
                 else _dumps(match.standing)))
            match_id = _inserted(cur)
            _register(db, match.start["players"])
            rows: list[tuple[int, int, str, str | None, float]] = [
                (match_id, 0, "start", _dumps(match.start), match.started_at)]
            rows += [(match_id, seq, op, None if event is None else _dumps(event), at)
                     for seq, (op, event, at) in enumerate(match.journal, start=1)]
            if status == ABANDONED:
                rows.append((match_id, len(rows), "end", None,
                             match.ended_at if match.ended_at is not None
                             else match.updated_at))
            db.executemany("INSERT INTO journal (match_id, seq, op, event, at)"
                           " VALUES (?, ?, ?, ?, ?)", rows)
            db.execute("UPDATE meta SET value = value + ? WHERE key = 'version'",
                       (len(rows),))
            return match_id

    # --- reads ----------------------------------------------------------------

    @_named_errors
    def current(self) -> StoredMatch | None:
        """The table's current match: the newest one, unless it was abandoned."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, status FROM matches ORDER BY id DESC LIMIT 1"
            ).fetchone()
        if row is None or row[1] == ABANDONED:
            return None
        return self.load(row[0])

    @_named_errors
    def load(self, match_id: int) -> StoredMatch:
        """One stored match with its journal; StoreError if there is none."""
        with self._reading() as db:
            return self._load(db, match_id)

    def _load(self, db: sqlite3.Connection, match_id: int) -> StoredMatch:
        row = db.execute(
            "SELECT start, status, started_at, winner, summary FROM matches WHERE id = ?",
            (match_id,)
        ).fetchone()
        if row is None:
            raise StoreError(_("there is no match {id}", id=match_id))
        rows = db.execute(
            f"SELECT op, event FROM journal WHERE match_id = ? AND {PLAYS} ORDER BY seq",
            (match_id,)
        ).fetchall()
        with _decoding(self.path, f"match {match_id}"):
            journal = tuple((op, None if ev is None else json.loads(ev)) for op, ev in rows)
            return StoredMatch(match_id, json.loads(row[0]), row[1], journal, row[2],
                               winner=None if row[3] is None else json.loads(row[3]),
                               summary=revived(row[4]), database=self.path)

    @_named_errors
    def with_start(self, start: JSON) -> list[StoredMatch]:
        """The stored matches whose start record equals ``start``, oldest first."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT id, start FROM matches WHERE game = ? ORDER BY id", (start.get("game"),)
            ).fetchall()
            # Compared as JSON values, not text: key order is no part of a record.
            with _decoding(self.path, _("a match's start record")):
                same = [r[0] for r in rows if json.loads(r[1]) == start]
            return [self._load(db, match_id) for match_id in same]

    #: The history's columns: a match's row and its journal's counts.
    _SUMMARY = (
        "SELECT id, game, start, status, winner, summary, started_at, updated_at,"  # i18n: not said
        # Each undo takes back one event, each redo plays it again.
        " (SELECT coalesce(sum(CASE op WHEN 'undo' THEN -1 ELSE 1 END), 0)"  # i18n: not said (SQL)
        f"  FROM journal WHERE match_id = matches.id AND {PLAYS}),"  # i18n: not said (SQL)
        f" (SELECT count(*) FROM journal WHERE match_id = matches.id"  # i18n: not said
        f" AND {PLAYS}),"  # i18n: not said
        f" {_RULING}"  # i18n: not said (SQL)
        " FROM matches"  # i18n: not said (SQL)
    )

    @_named_errors
    def history(self, limit: int | None = None) -> list[MatchSummary]:
        """Stored matches, newest first."""
        with self._reading() as db:
            rows = db.execute(f"{self._SUMMARY} ORDER BY id DESC LIMIT ?",
                              (-1 if limit is None else limit,)).fetchall()
        return self._summaries(rows)

    @overload
    def summaries(self, above: int, ids: Collection[int] = ()
                  ) -> tuple[int, list[MatchSummary]]: ...

    @overload
    def summaries(self, above: int, ids: Collection[int], made: Callable[[MatchSummary], _T]
                  ) -> tuple[int, list[_T]]: ...

    @_named_errors
    def summaries(self, above: int, ids: Collection[int] = (),
                  made: Callable[[MatchSummary], Any] | None = None) -> tuple[int, list[Any]]:
        """The version, and the matches with an id above ``above`` or in ``ids``, newest first
        (each passed through ``made`` where given).

        Both as of one committed change (one read transaction). What a reader
        needs to bring a history it holds up to date: a change only ever adds a
        match (a new id) or changes the table's current one. Each row is read,
        decoded and made into what the caller keeps one at a time, so reading
        5,000 matches holds what is kept of them, not the rows and their decoded
        JSON as well: Python keeps its small objects in 1 MB arenas that a single
        object made meanwhile keeps from the system (docs/design.md, "Reads and
        play").
        """
        wanted = sorted({int(i) for i in ids if int(i) <= above})
        marks = ",".join("?" * len(wanted))
        where = f"id > ? OR id IN ({marks})" if wanted else "id > ?"  # i18n: not said (SQL)
        with self._reading() as db:
            version = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()[0]
            rows = db.execute(f"{self._SUMMARY} WHERE {where} ORDER BY id DESC",
                              (above, *wanted))
            kept: list[Any] = []
            for r in rows:
                with _decoding(self.path, _("the match history")):
                    summary = self._summary(r, json.loads(r[2]))
                kept.append(summary if made is None else made(summary))
        return version, kept

    def _summaries(self, rows: list[tuple[Any, ...]]) -> list[MatchSummary]:
        with _decoding(self.path, _("the match history")):
            return [self._summary(r, json.loads(r[2])) for r in rows]

    def _summary(self, r: tuple[Any, ...], start: JSON) -> MatchSummary:
        players = tuple(start["players"])
        ruling = None if r[10] is None else json.loads(r[10])
        winner = None if r[4] is None else json.loads(r[4])
        return MatchSummary(id=r[0], game=r[1], players=players, status=r[3],
                            winner=winner if ruling is None else ruling.pop("winner"),
                            summary=revived(r[5]), started_at=r[6], updated_at=r[7], plays=r[8],
                            entries=r[9],
                            ruling=None if ruling is None else _without(ruling, "standing"),
                            teams=teams(self.catalog, r[1], players,
                                        start.get("options") or {}))

    @_named_errors
    def start_of(self, match_id: int) -> JSON:
        """A stored match's start record only (no journal); StoreError if there is none."""
        with self._reading() as db:
            row = db.execute("SELECT start FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise StoreError(_("there is no match {id}", id=match_id))
        with _decoding(self.path, f"match {match_id}"):
            return json.loads(row[0])

    # --- players ----------------------------------------------------------------

    @_named_errors
    def offer_played(self, offer: str) -> int | None:
        """The id of the finished match started from the hall's offer ``offer`` (its
        start record's ``event.offer``), or None: a table plays an offer once."""
        with self._reading() as db:
            row = db.execute("SELECT id FROM matches WHERE status = 'finished' AND"
                             " json_extract(start, '$.event.offer') = ? ORDER BY id LIMIT 1",
                             (offer,)).fetchone()
        return None if row is None else row[0]

    @_named_errors
    def apply_ruling(self, ruling: Ruling) -> int | None:
        """Lay the hall's ``ruling`` on the finished match it names: its winner and
        standing are the ruling's while its journal stays as it is now (the match's row
        keeps what its play gave, and the journal replays to that); returns the
        version, or None when the ruling was
        taken before (rulings are kept by id: one that comes again changes nothing) or
        already says what the match says. InvalidAction, nothing changed, for a ruling
        the hall may not give this match (companion/rulings.py says which).

        Anything drawn from the match before is out of date: the roster counter rises
        as with a rename."""
        with self._lock, self._write() as db:
            if db.execute("SELECT 1 FROM rulings WHERE id = ?", (ruling.id,)).fetchone():
                return None
            row = db.execute(
                "SELECT start, status, winner, standing,"
                f" (SELECT count(*) FROM journal WHERE match_id = matches.id AND {PLAYS}),"
                f" {_RULING} FROM matches WHERE id = ?", (ruling.match,)).fetchone()
            if row is None:
                raise InvalidAction(f"ruling {ruling.id}: "  # i18n: not said (the log's)
                                    f"there is no match {ruling.match} "  # i18n: not said
                                    "at this table")  # i18n: not said
            with _decoding(self.path, f"match {ruling.match}"):
                start, was = json.loads(row[0]), None if row[3] is None else json.loads(row[3])
                now = was if row[5] is None else json.loads(row[5])["standing"]
            placed, winner = ruled_standing(ruling, start, row[1], was)
            if now is not None and placed["places"] == now.get("places") \
                    and placed.get("tiebreaks") == now.get("tiebreaks"):
                return None  # it says what the match says now
            db.execute("INSERT INTO rulings (id, match_id, entries, kind, reason, standing,"
                       " winner, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (ruling.id, ruling.match, row[4], ruling.kind, ruling.reason,
                        _dumps(placed), _dumps(winner), time.time()))
            db.execute("UPDATE meta SET value = value + 1 WHERE key = 'roster'")
            return self._bump_version()

    @_named_errors
    def rulings_taken(self, last: int) -> list[str]:
        """The ids of the hall's last ``last`` rulings this database took, newest first
        (in force or since played over): what the hall need not send again."""
        with self._reading() as db:
            return [r[0] for r in db.execute(
                "SELECT id FROM rulings ORDER BY rowid DESC LIMIT ?", (last,))]

    @_named_errors
    def finished(self, last: int | None = None,
                 after: tuple[float, int] | None = None) -> list[Finished]:
        """Every finished match, in the order they were played (start time, then id); with
        ``after`` (a start time and an id), only those played after that match; with
        ``last``, only the last that many stored (the highest ids), oldest first."""
        # Only the names of the start record: the options are not read.
        columns = ("SELECT id, game, json_extract(start, '$.players'),"  # i18n: not said
                   " standing, started_at,"  # i18n: not said
                   " json_extract(start, '$.event'),"  # i18n: not said (SQL)
                   f" (SELECT count(*) FROM journal WHERE match_id = matches.id"  # i18n: not said
                   f" AND {PLAYS}),"  # i18n: not said
                   f" {_RULING} FROM matches WHERE status = 'finished'")  # i18n: not said (SQL)
        with self._reading() as db:
            if last is None and after is not None:
                rows = db.execute(f"{columns} AND (started_at, id) > (?, ?)"
                                  " ORDER BY started_at, id", after).fetchall()
            elif last is None:
                rows = db.execute(f"{columns} ORDER BY started_at, id").fetchall()
            else:
                rows = db.execute(f"{columns} ORDER BY id DESC LIMIT ?", (last,)).fetchall()
                rows.reverse()
        with _decoding(self.path, _("the finished matches")):
            return [self._finished(r) for r in rows]

    @staticmethod
    def _finished(r: tuple[Any, ...]) -> Finished:
        ruling = None if r[7] is None else json.loads(r[7])
        standing = None if r[3] is None else json.loads(r[3])
        return Finished(r[0], r[1], tuple(json.loads(r[2])),
                        standing if ruling is None else ruling["standing"], r[4],
                        None if r[5] is None else json.loads(r[5]), r[6],
                        None if ruling is None else _without(ruling, "standing", "winner"))

    @_named_errors
    def players(self) -> list[PlayerRow]:
        """The table's players, the most recently played first (then by name)."""
        with self._reading() as db:
            names = dict(db.execute("SELECT key, name FROM players").fetchall())
            # Counted per spelling by SQLite (a long history is a few spellings, not every
            # match's names decoded here), then per player.
            rows = db.execute("SELECT seat.value, count(*), max(started_at) FROM matches,"
                              " json_each(matches.start, '$.players') AS seat"
                              " GROUP BY seat.value").fetchall()
        played: dict[str, list[Any]] = {key: [0, None] for key in names}
        with _decoding(self.path, _("the players")):
            for name, count, last in rows:
                if not isinstance(name, str):
                    raise TypeError(f"a player's name is {name!r}, not text")
                seen = played.setdefault(name_key(name), [0, None])
                seen[0] += count
                seen[1] = last if seen[1] is None else max(seen[1], last)
        found = [PlayerRow(names.get(key, key), n, last) for key, (n, last) in played.items()]
        return sorted(found, key=lambda p: (-(p.last_played or 0), name_key(p.name)))

    @_named_errors
    def names(self) -> dict[str, str]:
        """Each player's name key and the name it is shown by."""
        with self._reading() as db:
            return dict(db.execute("SELECT key, name FROM players").fetchall())

    @property
    @_named_errors
    def roster(self) -> int:
        """How many renames and merges this database has seen: each rewrites the names in
        stored matches, so anything drawn from them before is out of date."""
        with self._reading() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'roster'").fetchone()
        return 0 if row is None else row[0]

    @_named_errors
    def rename_player(self, old: str, new: object, summary: Resummary) -> int:
        """Show the player ``old`` as ``new`` everywhere, every stored match included;
        returns the version. ``summary`` gives a rewritten match's summary line again
        (names appear in some).

        Refused with nothing changed: UnknownPlayer if ``old`` is no player;
        InvalidAction for a name that is not one (the reason said); IllegalAction if
        ``new`` is another player's name (that is a merge).
        """
        name = clean_name(new, _("the new name"))
        with self._lock, self._write() as db:
            key = self._player(db, old)
            taken = db.execute("SELECT name FROM players WHERE key = ?",
                               (name_key(name),)).fetchone()
            if taken is not None and name_key(name) != key:
                raise IllegalAction(_("{name} is another player: to make them one, merge "
                                      "{old} into {name}", name=taken[0], old=old.strip()))
            return self._rewrite(db, key, name, summary)

    @_named_errors
    def merge_players(self, source: str, target: str, summary: Resummary) -> int:
        """Make ``source`` and ``target`` one player, shown as ``target``: every match of
        ``source`` becomes ``target``'s; returns the version.

        Refused with nothing changed: UnknownPlayer if either is no player;
        IllegalAction if they are the same player, or played in one match (two
        seats of a match are two people).
        """
        with self._lock, self._write() as db:
            gone, kept = self._player(db, source), self._player(db, target)
            if gone == kept:
                raise IllegalAction(_("{source} and {target} are one player already",
                                      source=source.strip(), target=target.strip()))
            for match_id, start in db.execute("SELECT id, start FROM matches ORDER BY id"):
                keys = {name_key(n) for n in json.loads(start)["players"]}
                if gone in keys and kept in keys:
                    raise IllegalAction(_(
                        "{source} and {target} both played in match {match}: they are two "
                        "people, not one", source=source.strip(), target=target.strip(),
                        match=match_id))
            shown = db.execute("SELECT name FROM players WHERE key = ?", (kept,)).fetchone()[0]
            return self._rewrite(db, gone, shown, summary)

    @staticmethod
    def _player(db: sqlite3.Connection, name: str) -> str:
        """The key of the player called ``name``; UnknownPlayer if there is none."""
        key = name_key(name) if isinstance(name, str) else ""
        if not key or db.execute("SELECT 1 FROM players WHERE key = ?", (key,)).fetchone() \
                is None:
            raise UnknownPlayer(_("there is no player {name} at this table", name=repr(name)))
        return key

    def _rewrite(self, db: sqlite3.Connection, key: str, name: str,
                 summary: Resummary) -> int:
        """Every stored match's seat of player ``key`` named ``name``, its summary made
        again; the player is then ``name``'s (a merge: the player that already had it)."""
        for match_id, start in db.execute("SELECT id, start FROM matches").fetchall():
            record = json.loads(start)
            names = [name if name_key(n) == key else n for n in record["players"]]
            if names != record["players"]:
                record["players"] = names
                db.execute("UPDATE matches SET start = ? WHERE id = ?",
                           (_dumps(record), match_id))
                db.execute("UPDATE journal SET event = ? WHERE match_id = ? AND op = 'start'",
                           (_dumps(record), match_id))
                stored = self._load(db, match_id)
                if stored.journal:  # a match begun has no summary yet
                    db.execute("UPDATE matches SET summary = ? WHERE id = ?",
                               (kept(summary(stored)), match_id))
        db.execute("DELETE FROM players WHERE key = ?", (key,))
        db.execute("INSERT INTO players (key, name) VALUES (?, ?) ON CONFLICT (key)"
                   " DO UPDATE SET name = excluded.name", (name_key(name), name))
        db.execute("UPDATE meta SET value = value + 1 WHERE key = 'roster'")
        return self._bump_version()

    def durability(self) -> dict[str, Any]:
        """The settings that make commits durable, as SQLite reports them."""
        with self._lock:
            mode = self._db.execute("PRAGMA journal_mode").fetchone()[0]
            sync = self._db.execute("PRAGMA synchronous").fetchone()[0]
        return {"journal_mode": mode, "synchronous": {0: "OFF", 1: "NORMAL", 2: "FULL",
                                                      3: "EXTRA"}[sync]}

    @_named_errors
    def integrity_check(self) -> str:
        """SQLite's own check of the file: ``"ok"`` when it is sound, else its first finding."""
        with self._lock:
            return self._db.execute("PRAGMA integrity_check").fetchone()[0]


class _Refused(Exception):
    """Ends a write transaction with a rollback (the database left its path)."""


def _identity(path: Path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino


def _free(folder: Path) -> Text:
    try:
        st = os.statvfs(folder)
    except OSError:
        return _("its free space cannot be read")
    return _("{free} KiB free of {size} KiB", free=st.f_bavail * st.f_frsize // 1024,
             size=st.f_blocks * st.f_frsize // 1024)


def _rescue(db: sqlite3.Connection, path: Path) -> Path:
    """Copy the open database ``db`` (whose file left ``path``) into a new folder beside it."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    folder = path.parent / f"rescued-{stamp}"
    n = 1
    while folder.exists():
        n += 1
        folder = path.parent / f"rescued-{stamp}-{n}"
    folder.mkdir(parents=True)
    copy = folder / path.name
    with contextlib.closing(sqlite3.connect(copy)) as target:
        db.backup(target)
    return copy


def new_epoch() -> int:
    """A random database identity: positive and exact as a JavaScript number (< 2**53)."""
    return secrets.randbelow(2**53 - 1) + 1


def _run_script(db: sqlite3.Connection, script: str) -> None:
    """Each statement of ``script`` in the transaction under way (executescript would
    commit it)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _without(d: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in keys}


def _rekey_players(db: sqlite3.Connection) -> None:
    """Key every player by today's :func:`~companion.names.name_key` (a database made
    before names were folded keyed them by a plain casefold: "Zoe\u0308" and "Zoë" were
    two keys, and a rename or merge of "Zoë" found neither). Two keys that fold alike are
    one player (shown by the name of the key already right, else the first); the stored
    matches keep their names, which are read through the same key."""
    rows = db.execute("SELECT key, name FROM players ORDER BY key").fetchall()
    wanted: dict[str, str] = {}
    for key, name in rows:
        new = name_key(name)
        if key == new or new not in wanted:
            wanted[new] = name
    if all(name_key(name) == key for key, name in rows):
        return
    db.execute("DELETE FROM players")
    db.executemany("INSERT INTO players (key, name) VALUES (?, ?)", sorted(wanted.items()))
    db.execute("UPDATE meta SET value = value + 1 WHERE key = 'roster'")


def _register(db: sqlite3.Connection, names: list[str]) -> None:
    """Make each of ``names`` a player if it is not one yet (a known one keeps its name)."""
    db.executemany("INSERT INTO players (key, name) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                   [(name_key(n), n) for n in names])


def _inserted(cur: sqlite3.Cursor) -> int:
    """The id of the row the INSERT just run on ``cur`` added (SQLite sets it on each)."""
    assert cur.lastrowid is not None, "no row was inserted"  # i18n: not said
    return cur.lastrowid


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def iso_utc(ts: float) -> str:
    """A time as ISO 8601 in UTC to the second: ``2024-05-01T18:02:11Z``."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def _require_database(path: Path) -> None:
    """StoreError unless ``path`` exists: reading commands never create a database."""
    if path.exists():
        return
    folder = path.parent
    # The command line's words (a reading command's), which stay English.
    why = ("the folder does not exist" if not folder.exists()  # i18n: not said
           else f"there is no {path.name} in it")  # i18n: not said
    raise StoreError(
        f"no match database in {folder} ({why}); "  # i18n: not said (the command line's)
        "the data folder is --data DIR, "  # i18n: not said
        "else $COMPANION_DATA, else the user's data folder"  # i18n: not said
    )
