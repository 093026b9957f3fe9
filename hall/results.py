"""The hall's club leaderboard: every table's finished matches, each counted once, kept on disk.

Each table publishes its last finished matches, retained (``P/T/results``,
companion/topics.py ``results_payload``). The hall keeps every match it was
ever sent in a small SQLite file in its data folder, keyed by table id,
database epoch and match id, so a message the broker sends again, a table
restarted or a broker restarted never counts a match twice, and the
leaderboard survives the hall's own restart and shows while the tables that
played are offline. A message is the table's whole truth from its oldest
match on: a match of that table and database with a higher id that it no
longer lists was undone, and is dropped.

A match a table played for one of the hall's club-night events (its entry
names the event) is that event's game: it counts as the event counts it
(hall/night.py ``Night.club_rows``: its newest applied revision, a director's
correction included, under the event's names; a second play of the same
offer not at all), never as the table sent it. The event's standings and
the leaderboard are so made from the same list of results.

The ratings are companion/ratings.py's, of every counted match in the order
played (start time, then table, then id), brought up to date once per change
(KeptRatings: a match played after the others costs its own update; one
among older ones rates again from the checkpoint before it) and served as
``GET /api/players`` (the shape a table's leaderboard has).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from companion.catalog import Catalog
from companion.games.base import MAX_NAME, name_key
from companion.ratings import KeptRatings, Ratings
from companion.store import Finished
from companion.topics import RESULTS_KEPT, valid_table_id
from web.reads import Body, json_body, leaderboard

FILE = "hall.db"
#: Most seats of a match (Alakazoo's and AlakaSLAM doubles' four).
MAX_SEATS = 4

_SCHEMA = """-- i18n: not said (SQL)
CREATE TABLE IF NOT EXISTS results (
    table_id   TEXT NOT NULL,
    epoch      INTEGER NOT NULL,
    match      INTEGER NOT NULL,
    game       TEXT NOT NULL,
    players    TEXT NOT NULL,
    standing   TEXT NOT NULL,
    started_at REAL NOT NULL,
    PRIMARY KEY (table_id, epoch, match)
) WITHOUT ROWID
"""
#: The club night's games: ``(version, rows, event ids)`` (hall/night.py Night.club_rows).
EventRows = Callable[[], tuple[int, tuple[tuple[Any, ...], ...], frozenset[str]]]


class BadResults(ValueError):
    """A ``results`` message that is not one: nothing of it is kept."""


def _checked(payload: bytes, table: str, catalog: Catalog) -> tuple[int, list[tuple[Any, ...]]]:
    """The epoch and rows of a ``results`` message from ``table`` (of ``catalog``'s games);
    BadResults if anything in it is not what a table sends."""
    try:
        body = json.loads(payload)
        epoch, results = body["epoch"], body["results"]
        if body["table"] != table or type(epoch) is not int or not isinstance(results, list) \
                or len(results) > RESULTS_KEPT:
            raise BadResults("not a table's results")
        rows = []
        for r in results:
            match, game, players, standing = (r["match"], r["game"], r["players"],
                                              r["standing"])
            at = float(r["started_at"])
            teams, places = standing["teams"], standing["places"]
            ok = (type(match) is int and match > 0 and game in catalog
                  and isinstance(players, list) and 2 <= len(players) <= MAX_SEATS
                  and all(isinstance(n, str) and 0 < len(n) <= MAX_NAME and n.isprintable()
                          for n in players)
                  and len({name_key(n) for n in players}) == len(players)
                  and isinstance(teams, list) and isinstance(places, list)
                  and 2 <= len(teams) == len(places)
                  and all(type(p) is int and 0 <= p < len(teams) for p in places)
                  and sorted(i for t in teams for i in t) == list(range(len(players)))
                  and all(type(i) is int for t in teams for i in t))
            if not ok:
                raise BadResults(f"match {match!r} is not a result")  # i18n: not said
            event = r.get("event")
            event = event.get("id") if isinstance(event, dict) else None
            rows.append((match, game, json.dumps(players), json.dumps(
                {"teams": teams, "places": places}), at,
                event if isinstance(event, str) else None))
        return epoch, rows
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise BadResults(f"not a table's results ({err})") from None


class ClubResults:
    """The finished matches of every table, of the games of ``catalog``, kept in
    ``folder/hall.db``; safe from any thread."""

    def __init__(self, folder: Path, catalog: Catalog, events: EventRows | None = None
                 ) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.catalog = catalog
        self.path = folder / FILE
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute(_SCHEMA)
        if "event_id" not in {r[1] for r in self._db.execute("PRAGMA table_info(results)")}:
            # A hall.db from before: its rows learn their event when the tables send their
            # results again (at every connection).
            self._db.execute("ALTER TABLE results ADD COLUMN event_id TEXT")
        self._events = events or (lambda: (0, (), frozenset()))
        self._lock = threading.Lock()
        #: Rises with every change of what is kept (answers are made once per change).
        self.kept_version = 0
        self._made: tuple[tuple[int, int], Ratings, Body] | None = None
        self._kept = KeptRatings()
        self._rating = threading.Lock()  # one caller at a time brings the ratings up

    def receive(self, table: str, payload: bytes) -> bool:
        """Keep what a table's ``results`` message says; whether anything changed.
        BadResults (nothing kept) for a message that is not one."""
        if not valid_table_id(table):
            raise BadResults("not a table id")  # i18n: not said
        epoch, rows = _checked(payload, table, self.catalog)
        with self._lock:
            before = self._db.total_changes
            self._db.execute("BEGIN IMMEDIATE")
            try:
                # From its oldest match on the message is the table's whole truth.
                oldest = rows[0][0] if rows else 0
                listed = [r[0] for r in rows]
                marks = ",".join("?" * len(listed))
                self._db.execute(
                    "DELETE FROM results WHERE table_id = ? AND epoch = ? AND match >= ?"
                    + (f" AND match NOT IN ({marks})" if listed else ""),
                    (table, epoch, oldest, *listed))
                self._db.executemany(
                    "INSERT INTO results (table_id, epoch, match, game, players, standing,"
                    " started_at, event_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO"
                    " UPDATE SET game = excluded.game, players = excluded.players,"
                    " standing = excluded.standing, started_at = excluded.started_at,"
                    " event_id = excluded.event_id"
                    " WHERE players != excluded.players OR standing != excluded.standing"
                    " OR event_id IS NOT excluded.event_id",
                    [(table, epoch, *r) for r in rows])
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            changed = self._db.total_changes != before
            if changed:
                self.kept_version += 1
            return changed

    @property
    def version(self) -> tuple[int, int]:
        """Rises with every change of what counts: a table's results, or an event's."""
        return self.kept_version, self._events()[0]

    def _rows(self) -> tuple[tuple[int, int], list[tuple[Any, ...]]]:
        """Every counted match, in the order played: ``(table, epoch, match, game,
        players, standing, started_at)`` (under the lock)."""
        version, games, events = self._events()
        kept = [row[:7] for row in self._db.execute(
            "SELECT table_id, epoch, match, game, players, standing, started_at, event_id"
            " FROM results") if row[7] is None or row[7] not in events]
        rows = sorted([*kept, *(row[:7] for row in games)],
                      key=lambda r: (r[6], r[0], r[1], r[2]))
        return (self.kept_version, version), rows

    def count(self) -> int:
        """How many matches are counted."""
        with self._lock:
            return len(self._rows()[1])

    def matches(self) -> list[tuple[Any, ...]]:
        """Every counted match, in the order played (what the ratings are made of)."""
        with self._lock:
            return self._rows()[1]

    def ratings(self) -> tuple[tuple[int, int], Ratings]:
        """The club's ratings and the version they are of."""
        with self._rating:
            with self._lock:
                made = self._made
                if made is not None and made[0] == self.version:
                    return made[0], made[1]
                version, rows = self._rows()

            def load(start: int) -> Iterator[tuple[tuple[Any, ...], Finished]]:
                # Each match's id is its place in the order: what follows a change moves.
                for i, row in enumerate(rows[start:], start=start + 1):
                    game, players, standing, at = row[3:]
                    yield row, Finished(i, game, tuple(json.loads(players)),
                                        json.loads(standing), at)

            return version, self._kept.update(rows, load)

    def players(self) -> Body:
        """``GET /api/players`` of the hall: each game's club leaderboard, and the names."""
        made = self._made
        if made is not None and made[0] == self.version:
            return made[2]
        version, ratings = self.ratings()
        names = sorted({r.name for board in ratings.games.values() for r in board.values()},
                       key=name_key)
        body = json_body({"games": [leaderboard(self.catalog, g, ratings.board(g), 0,
                                                len(ratings.board(g))) for g in self.catalog],
                          "names": names, "matches": self.count()})
        with self._lock:
            self._made = (version, ratings, body)
        return body

    def close(self) -> None:
        with self._lock:
            self._db.close()
