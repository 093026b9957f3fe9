"""The club night on the hall: events, their rounds, offers to tables and results, kept in SQLite.

:class:`Night` is the director's side of docs/club-night.md with I/O: it
keeps every event in the hall's database (``hall.db`` in ``--data``, WAL,
each change committed before it is answered, so a hall killed at any moment
resumes exactly from what it acknowledged), pairs rounds with the pure core
(:mod:`hall.director`), offers each game to a free table over MQTT
(/work/offers.md: ``<prefix>/_hall/offers/<table>``, retained, QoS 1) and
takes the result back from the table's retained ``results`` when the entry
carries the offer's ``event``.

Every change the director asks for carries the event's ``version`` it was
made on (its premise): a stale one is refused (:class:`Refusal` 409) and
nothing changes. A change the tables make (a result in, a game in play)
raises the version too, so a director's page that missed it is told. Any
refusal leaves the database as it was: each change is one transaction.

A game's result is one fact with revisions (hall/revisions.py): the match
its table played from the offer (by its seats, whatever the table renames),
then every change of it (an undo past the win, a new winner, a redo, a
rename), and the director's corrections. The newest applied revision counts
for the event's standings and for the club's leaderboard and ratings alike
(:meth:`Night.club_rows`): they are made from the same list. A table's
revision that would change what a later round was paired on (or what the
director entered, or a finished event) is held: the director sees it and
applies or declines it. A second match a table plays from the same offer,
or one played from an offer since moved, is never counted: the director is
told why.
"""

from __future__ import annotations

import csv
import io
import json
import random
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion.catalog import Catalog
from companion.errors import InvalidAction
from companion.i18n import ENGLISH, N_, _, message, said
from companion.kept_text import from_json, kept, revived, to_json
from companion.names import clean_name, name_key, name_problem
from companion.rulings import CORRECTED, KEPT, MAX_RULINGS
from companion.topics import dumps, valid_table_id
from hall.director.formats import elimination, round_robin
from hall.director.groups import tables as seat_tables
from hall.director.groups import teams as form_teams
from hall.director.model import Pairing, Player, Result, Round, points_text
from hall.director.pairing import pair_swiss
from hall.director.standings import CHESS, standings
from hall.lineups import (
    EACH_ROUND,
    JOIN,
    SEATS,
    label,
    lineup_of,
    options_for,
    seat_teams,
    sides_of,
)
from hall.revisions import (
    APPLIED,
    BYE,
    DECLINED,
    DIRECTOR,
    HELD,
    MAX_TIEBREAK,
    NOTED,
    SUPERSEDED,
    TABLE,
    Entry,
    Origin,
    Revision,
    outcome,
    read_results,
    renamed_seats,
    standing_of,
    tiebreak_ok,
)
from web.reads import Body, json_body

#: The database file (shared with the club leaderboard, hall/results.py; its own tables).
FILE = "hall.db"
FORMATS = ("swiss", "round-robin", "elimination")
#: Bounds of what a director may ask for.
MAX_PLAYERS, MAX_TABLES, MAX_ROUNDS, MAX_EVENT_NAME, MAX_REASON = 512, 256, 30, 60, 200
#: The newest notes an event keeps for its director (what was not counted, and why).
MAX_NOTES = 50
#: An offer's payload is at most this (offers.md).
MAX_OFFER = 8 * 1024

_SCHEMA = """-- i18n: not said (SQL)
CREATE TABLE IF NOT EXISTS events (
    id       TEXT PRIMARY KEY,
    doc      TEXT NOT NULL,
    version  INTEGER NOT NULL,
    created  REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS event_players (
    event    TEXT NOT NULL,
    seq      INTEGER NOT NULL,
    name     TEXT NOT NULL,
    rating   REAL NOT NULL,
    start_points REAL NOT NULL,
    present  INTEGER NOT NULL,
    PRIMARY KEY (event, seq)
);
CREATE TABLE IF NOT EXISTS event_pairings (
    event    TEXT NOT NULL,
    id       TEXT NOT NULL,
    round    INTEGER NOT NULL,
    board    INTEGER NOT NULL,
    players  TEXT NOT NULL,
    why      TEXT NOT NULL,
    table_id TEXT,
    offer    TEXT,
    status   TEXT NOT NULL,
    PRIMARY KEY (event, id)
);
CREATE TABLE IF NOT EXISTS event_results (
    event    TEXT NOT NULL,
    seq      INTEGER NOT NULL,
    pairing  TEXT NOT NULL,
    result   TEXT NOT NULL,
    source   TEXT NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (event, seq)
);
"""
#: Columns added since the first hall.db (a hall.db made before them gets them, empty:
#: its results stay applied, its pairings' offers are read with the players as paired).
_ADDED = {
    "event_results": (("state", "TEXT NOT NULL DEFAULT 'applied'"),  # i18n: not said
                      ("origin", "TEXT"), ("names", "TEXT"), ("started", "REAL")),
    "event_pairings": (("offered", "TEXT"), ("offered_at", "REAL")),
}

#: A pairing's status: waiting for a table, offered to one, in play there, played
#: on a table without a companion (its result is entered), done (result in).
WAITING, OFFERED, PLAYING, ELSEWHERE, DONE = "waiting", "offered", "playing", "elsewhere", "done"
OPEN = (WAITING, OFFERED, PLAYING, ELSEWHERE)


class Refusal(Exception):
    """A request that is not applied: ``status`` (400, 404, 409) and the message for it."""

    def __init__(self, status: int, message: str, **more: Any) -> None:
        super().__init__(message)
        self.status, self.more = status, more


def _bad(message: str) -> Refusal:
    return Refusal(400, message)


@dataclass
class _Pairing:
    id: str
    round: int
    board: int
    players: tuple[str, ...]
    why: str
    table: str | None
    offer: str | None
    status: str
    #: The players' names as the current offer gave them (a rename at a table is read
    #: against them); None before an offer, or in a hall.db older than this column.
    offered: tuple[str, ...] | None = None
    #: When the current offer was made (its ``sent_at``, the same after a restart);
    #: None before an offer, or in a hall.db older than this column.
    offered_at: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "round": self.round, "board": self.board,
                "players": list(self.players), "bye": len(self.players) == 1,
                "why": self.why, "table": self.table, "offer": self.offer,
                "status": self.status}


@dataclass
class _Event:
    id: str
    doc: dict[str, Any]
    version: int
    players: list[Player]          # in check-in order (the seeding of the standings)
    present: dict[str, bool]
    pairings: dict[str, _Pairing]  # in the order made
    results: list[Revision]        # every revision of every game's result, in order

    @property
    def round(self) -> int:
        return max((p.round for p in self.pairings.values()), default=0)

    @property
    def finished(self) -> bool:
        return bool(self.doc.get("finished"))

    @property
    def lineup(self) -> str:
        return self.doc.get("lineup", "singles")  # events made before lineups: singles

    def sides(self, p: _Pairing) -> tuple[int, ...]:
        """Each of ``p``'s players' side (``()``: every player for themselves)."""
        if len(p.players) == 1:
            return ()
        return sides_of(self.lineup, self.doc["options"], len(p.players))

    def current(self) -> list[_Pairing]:
        n = self.round
        return [p for p in self.pairings.values() if p.round == n]

    def revisions(self, pairing: str) -> list[Revision]:
        return [r for r in self.results if r.pairing == pairing]

    def counted(self, pairing: str) -> Revision | None:
        """The revision that counts for ``pairing``: its newest applied one."""
        found = None
        for r in self.results:
            if r.pairing == pairing and r.state == APPLIED:
                found = r
        return found

    def result_of(self, pairing: str) -> Result | None:
        counted = self.counted(pairing)
        return None if counted is None else counted.result

    def plain_results(self) -> list[Result]:
        """The result of every game that has one, in the order games first had one: the
        one list the standings, the pairings and the club's leaderboard are made from."""
        latest: dict[str, Result | None] = {}
        for r in self.results:
            if r.state == APPLIED:
                latest[r.pairing] = r.result
        return [r for r in latest.values() if r is not None]

    def origin(self, pairing: str) -> Origin | None:
        """The table match ``pairing``'s result comes from (its first table revision)."""
        return next((r.origin for r in self.results
                     if r.pairing == pairing and r.origin is not None), None)

    def last_from_table(self, pairing: str) -> Revision | None:
        found = None
        for r in self.results:
            if r.pairing == pairing and r.source == TABLE:
                found = r
        return found

    def held(self) -> list[Revision]:
        """The table revisions waiting for the director (one a game at most)."""
        return [r for r in self.results if r.state == HELD]

    def later_round(self, p: _Pairing) -> bool:
        return any(q.round > p.round for q in self.pairings.values())


Publish = Callable[[str, bytes], None]


class Night:
    """Every event the hall keeps, in ``folder/hall.db``. Safe from any thread.

    ``publish(topic, payload)`` sends a retained QoS 1 message on the hall's
    broker connection (the offers); ``ratings(game)`` gives the club's
    ratings of a game by name key (for seeding and the Swiss's order). Its events are of
    the games of ``catalog``.
    """

    def __init__(self, folder: Path, prefix: str, publish: Publish | None = None,
                 ratings: Callable[[str], dict[str, float]] | None = None,
                 clock: Callable[[], float] = time.time, *, catalog: Catalog) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.prefix = prefix
        #: The games an event may be of.
        self.catalog = catalog
        self._publish = publish or (lambda topic, payload: None)
        self._ratings = ratings or (lambda game: {})
        self._clock = clock
        self._db = sqlite3.connect(folder / FILE, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = FULL")  # committed means on the disk
        self._db.executescript(_SCHEMA)
        for table, columns in _ADDED.items():
            have = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            for name, kind in columns:
                if name not in have:
                    self._db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
        self._lock = threading.RLock()
        self._events: dict[str, _Event] = {}
        #: Each event's answer to ``GET /api/events/<id>`` in each language asked for, made
        #: once per version (at most an event's of each shipped language).
        self._bodies: dict[tuple[str, str], tuple[int, Body]] = {}
        #: What each table's offer topic was last given (the payload), and each offer's
        #: payload as made when it was offered (its ``sent_at`` kept).
        self._published: dict[str, bytes] = {}
        self._payloads: dict[str, bytes] = {}
        #: Each table's database epoch, as its latest ``results`` said (rulings go only to
        #: the database that played the match; unknown until it speaks: all are sent).
        self._epochs: dict[str, int] = {}
        #: The ids of the rulings each table's latest ``results`` says it took.
        self._taken: dict[str, frozenset[str]] = {}
        #: A table told that the game it plays was moved: its notice, until its next offer.
        self._notices: dict[str, bytes] = {}
        #: ``(version, rows, events)`` of :meth:`club_rows`, replaced whole at each change.
        self._club: tuple[int, tuple[tuple[Any, ...], ...], frozenset[str]] = (
            0, (), frozenset())
        self._load()
        self._club_changed()

    # --- the database ------------------------------------------------------------------

    def _load(self) -> None:
        for eid, doc, version in self._db.execute(
                "SELECT id, doc, version FROM events ORDER BY created, id"):
            event = _Event(eid, json.loads(doc), version, [], {}, {}, [])
            for name, rating, start, present in self._db.execute(
                    "SELECT name, rating, start_points, present FROM event_players"
                    " WHERE event = ? ORDER BY seq", (eid,)):
                event.players.append(Player(name, rating, start))
                event.present[name] = bool(present)
            for row in self._db.execute(
                    "SELECT id, round, board, players, why, table_id, offer, status, offered,"
                    " offered_at FROM event_pairings WHERE event = ? ORDER BY round, board",
                    (eid,)):
                pid, number, board, players, why, table, offer, status, offered, at = row
                event.pairings[pid] = _Pairing(
                    pid, number, board, tuple(json.loads(players)), revived(why), table,
                    offer, status,
                    None if offered is None else tuple(json.loads(offered)), at)
            for seq, pid, result, source, at, state, origin, names, started in \
                    self._db.execute(
                        "SELECT seq, pairing, result, source, at, state, origin, names,"
                        " started FROM event_results WHERE event = ? ORDER BY seq", (eid,)):
                found = json.loads(result)
                event.results.append(Revision(
                    seq, pid, None if found is None else Result.from_json(found), source, at,
                    state, Origin.parse(origin),
                    None if names is None else tuple(json.loads(names)), started))
            self._events[eid] = event

    @contextmanager
    def _change(self, event: _Event | None) -> Iterator[list[tuple[str, bytes]]]:
        """One change: a transaction (rolled back, with the memory reloaded, on any
        error), the event's version raised, and the offers every table should now hold
        published once it is committed (never before: an offer the database does not
        hold is never sent)."""
        outbox: list[tuple[str, bytes]] = []
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield outbox
            if event is not None:
                event.version += 1
                self._db.execute("UPDATE events SET version = ?, doc = ? WHERE id = ?",
                                 (event.version, dumps(event.doc), event.id))
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            self._events.clear()
            self._load()
            raise
        self._club_changed()
        for topic, payload in [*outbox, *self._offers_changed()]:
            self._publish(topic, payload)

    def _save_pairing(self, event: _Event, p: _Pairing) -> None:
        self._db.execute(
            "INSERT INTO event_pairings (event, id, round, board, players, why, table_id,"
            " offer, status, offered, offered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT DO UPDATE SET table_id = excluded.table_id, offer = excluded.offer,"
            " status = excluded.status, players = excluded.players,"
            " offered = excluded.offered, offered_at = excluded.offered_at",
            (event.id, p.id, p.round, p.board, dumps(list(p.players)), kept(p.why), p.table,
             p.offer, p.status, None if p.offered is None else dumps(list(p.offered)),
             p.offered_at))

    def _save_result(self, event: _Event, pairing: str, result: Result | None, source: str,
                     *, state: str = APPLIED, entry: Entry | None = None,
                     like: Revision | None = None) -> Revision:
        """Append a revision of ``pairing``'s result: from the table's ``entry``, or
        carrying the origin of ``like`` (a held revision applied). A revision still held
        for the pairing is superseded by any newer one but a rename's."""
        for i, r in enumerate(event.results):
            if r.pairing == pairing and r.state == HELD and state != NOTED:
                self._set_state(event, i, SUPERSEDED)
        origin, names, started = ((entry.origin, entry.names, entry.started) if entry
                                  else (like.origin, like.names, like.started) if like
                                  else (None, None, None))
        seq = max((r.seq for r in event.results), default=0) + 1
        revision = Revision(seq, pairing, result, source, self._clock(), state, origin,
                            names, started)
        self._db.execute(
            "INSERT INTO event_results (event, seq, pairing, result, source, at, state,"
            " origin, names, started) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (event.id, revision.seq, pairing, revision.result_text(), source, revision.at,
             state, None if origin is None else origin.key,
             None if names is None else dumps(list(names)), started))
        event.results.append(revision)
        return revision

    def _set_state(self, event: _Event, index: int, state: str) -> None:
        revision = replace(event.results[index], state=state)
        event.results[index] = revision
        self._db.execute("UPDATE event_results SET state = ? WHERE event = ? AND seq = ?",
                         (state, event.id, revision.seq))

    def _save_player(self, event: _Event, player: Player) -> None:
        seq = [p.name for p in event.players].index(player.name) + 1
        self._db.execute(
            "INSERT INTO event_players (event, seq, name, rating, start_points, present)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET present = excluded.present,"
            " name = excluded.name",
            (event.id, seq, player.name, player.rating, player.start_points,
             int(event.present[player.name])))

    def _note(self, e: _Event, key: str, text: str) -> bool:
        """Tell the director ``text`` (once per ``key``); whether it is new."""
        notes = e.doc.setdefault("notes", [])
        if any(n["key"] == key for n in notes):
            return False
        # Kept as its message (companion/kept_text.py): each reader is told it in theirs.
        notes.append({"key": key, "text": to_json(text), "at": round(self._clock(), 3)})
        del notes[:-MAX_NOTES]
        return True

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- the club's one list of results --------------------------------------------------

    def _club_changed(self) -> None:
        """Make :meth:`club_rows` again from every event's counted results (under the
        lock, after each change): one pass over each event's revisions."""
        rows: list[tuple[Any, ...]] = []
        for e in self._events.values():
            first: dict[str, Revision] = {}
            counted: dict[str, Revision] = {}
            origin: dict[str, Origin] = {}
            started: dict[str, float] = {}
            from_table: set[str] = set()
            for r in e.results:
                first.setdefault(r.pairing, r)
                if r.state == APPLIED:
                    counted[r.pairing] = r
                if r.origin is not None:
                    origin.setdefault(r.pairing, r.origin)
                if r.started is not None:
                    started.setdefault(r.pairing, r.started)
                if r.source == TABLE:
                    from_table.add(r.pairing)
            for pid, opening in first.items():
                count = counted.get(pid)
                if count is None or count.result is None or count.result.bye:
                    continue
                result, where_from = count.result, origin.get(pid)
                if where_from is None and pid in from_table:
                    continue  # a table's result of a hall.db before origins: its own row
                where = (where_from.table, where_from.epoch, where_from.match) \
                    if where_from is not None else ("", 0, opening.seq)
                rows.append((*where, e.doc["game"], json.dumps(list(result.players)),
                             json.dumps(standing_of(result)), started.get(pid, opening.at),
                             e.id, pid))
        version = self._club[0] + 1
        self._club = (version, tuple(rows), frozenset(self._events))

    def club_rows(self) -> tuple[int, tuple[tuple[Any, ...], ...], frozenset[str]]:
        """``(version, rows, events)``: every game of every event that has a result, as
        the club's leaderboard counts it (hall/results.py): ``(table, epoch, match, game,
        players JSON, standing JSON, started_at, event, pairing)``, the table's match
        when it came from one (else table ``""``); and the events' ids: a table's match
        naming one of them is counted here or not at all. Never waits: read by the
        leaderboard while an event changes."""
        return self._club

    # --- reads -------------------------------------------------------------------------

    def events(self) -> list[dict[str, Any]]:
        """Every event, newest first: id, name, game, format, round, finished, version."""
        with self._lock:
            return [{"id": e.id, "name": e.doc["name"], "game": e.doc["game"],
                     "format": e.doc["format"], "round": e.round, "finished": e.finished,
                     "version": e.version} for e in reversed(self._events.values())]

    def _event(self, eid: str) -> _Event:
        event = self._events.get(eid)
        if event is None:
            raise Refusal(404, _("no event {event}", event=repr(eid)))
        return event

    def version(self, eid: str) -> int:
        with self._lock:
            return self._event(eid).version

    def body(self, eid: str, language: str = ENGLISH) -> Body:
        """:meth:`state` said in ``language`` as the answer's body (JSON, strong ETag, gzip
        once), made once per version of the event and language: the TV and every phone
        asking cost one making."""
        with self._lock:
            version = self._event(eid).version
            made = self._bodies.get((eid, language))
            if made is None or made[0] != version:
                made = (version, json_body(said(self.state(eid), language)))
                self._bodies[(eid, language)] = made
            return made[1]

    def state(self, eid: str) -> dict[str, Any]:
        """The whole event as the pages show it (docs/api.md, "Club night"); its words
        (a pairing's why, a note, a problem) are messages, said in a reader's language by
        :func:`companion.i18n.said`."""
        with self._lock:
            e = self._event(eid)
            table = self._standings(e)
            current = e.current()
            busy = {n for p in current for n in p.players}
            byname = {p.name: p for p in e.players}
            won = self._winners(e, table)
            return {
                "id": e.id, "version": e.version, **{k: e.doc[k] for k in (
                    "name", "game", "options", "format", "rounds", "tables")},
                "lineup": e.lineup, "teams": e.doc.get("teams", []),
                "game_title": self.catalog.title(e.doc["game"]),
                "round": e.round, "rounds_planned": self._rounds_planned(e),
                "last_round": self._last_round(e),
                "finished": e.finished, "winner": JOIN.join(won) if won else None,
                "winners": won,
                "players": [{"name": p.name, "rating": round(p.rating, 1),
                             "start_points": p.start_points, "present": e.present[p.name]}
                            for p in e.players],
                "pairings": [self._pairing_json(e, p) for p in current],
                "waiting": [n for n in e.present if e.present[n] and n not in busy
                            and n in byname],
                "standings": [s.to_json() for s in table],
                "corrections": self._corrections(e),
                "held": [self._held_json(e, r) for r in e.held()],
                "notes": [{"text": from_json(n["text"]), "at": n["at"]}
                          for n in e.doc.get("notes", [])],
                "can_start": self._start_problem(e) is None,
                "start_problem": self._start_problem(e),
            }

    def _pairing_json(self, e: _Event, p: _Pairing) -> dict[str, Any]:
        return p.to_json() | {"result": self._result_json(e, p.id), "sides": list(e.sides(p)),
                              "label": label(p.players, e.sides(p))}

    def _winners(self, e: _Event, table: Sequence[Any]) -> list[str]:
        """Who won a finished event: the first of the standings, with their partner in
        doubles (a team wins it: "Eve & Gus")."""
        if not e.finished or not table:
            return []
        first = table[0].name
        for team in e.doc.get("teams") or []:
            if first in team:
                return list(team)
        return [first]

    def _last_round(self, e: _Event) -> bool:
        """Whether the round on now is the event's last (its button finishes the event)."""
        if e.finished or e.round == 0:
            return False
        if e.doc["format"] == "swiss":
            return e.round >= e.doc["rounds"]
        if e.doc["format"] == "round-robin":
            return e.round >= self._rounds_planned(e)
        # A knockout's last round is its final: one game, no bye.
        games = [p for p in e.current() if len(p.players) > 1]
        return len(games) == 1 and not any(len(p.players) == 1 for p in e.current())

    def _result_json(self, e: _Event, pid: str) -> dict[str, Any] | None:
        counted = e.counted(pid)
        if counted is None or counted.result is None:
            return None
        result = counted.result
        latest_table = e.last_from_table(pid)
        names = latest_table.names if latest_table is not None else None
        return {"ranks": list(result.ranks), "tiebreaks": list(result.tiebreaks),
                "reason": result.reason, "source": counted.source,
                "revision": len([r for r in e.revisions(pid) if r.state == APPLIED]),
                **({"played_as": list(names)} if names and names != result.players else {})}

    def _corrections(self, e: _Event) -> list[dict[str, Any]]:
        """Every change of a counted result, in order: what it was, what it is now, why,
        and for the director's that counts now, whether the table that played the match
        shows it yet (``at_table``)."""
        out = []
        before: dict[str, Revision] = {}
        counted = {r.pairing: r for r in e.results if r.state == APPLIED}
        for r in e.results:
            if r.state != APPLIED:
                continue
            old = before.get(r.pairing)
            before[r.pairing] = r
            if old is None or r.same_outcome(old.result):
                continue
            p = e.pairings.get(r.pairing)
            shown = r.result or old.result
            assert shown is not None
            why = r.result.reason if r.result is not None and r.result.reason else (
                _("undone at the table") if r.result is None else _("changed at the table"))
            out.append({"pairing": r.pairing, "round": shown.round,
                        "players": list(p.players if p is not None else shown.players),
                        "was": None if old.result is None else list(old.result.ranks),
                        "now": None if r.result is None else list(r.result.ranks),
                        "reason": why, "source": r.source,
                        "at_table": self._at_table(e, r, counted)})
        return out

    def _at_table(self, e: _Event, r: Revision, counted: dict[str, Revision]
                  ) -> dict[str, Any] | None:
        """``{"table", "taken", "gone"}`` for the director's result ``r`` while it counts
        and its game was played at a table: whether the table's results show it
        (``taken``), or the table has another database since (``gone``: it cannot);
        else None."""
        origin = e.origin(r.pairing)
        if r.source != DIRECTOR or counted.get(r.pairing) is not r or origin is None:
            return None
        told = e.last_from_table(r.pairing)
        return {"table": origin.table,
                "taken": told is not None and told.same_outcome(r.result),
                "gone": self._epochs.get(origin.table, origin.epoch) != origin.epoch}

    def _held_json(self, e: _Event, r: Revision) -> dict[str, Any]:
        p = e.pairings[r.pairing]
        counted = e.counted(p.id)
        now = counted.result if counted is not None else None
        later = e.later_round(p)
        return {"pairing": p.id, "round": p.round, "table": p.table,
                "label": label(p.players, e.sides(p)),
                "ranks": None if r.result is None else list(r.result.ranks),
                "text": self._held_text(e, p, r, now),
                "can_apply": self._apply_problem(e, p, r, repair=False) is None,
                "can_repair": later and self._apply_problem(e, p, r, repair=True) is None,
                "apply_problem": self._apply_problem(e, p, r, repair=False),
                "next_round": e.round if later else None}

    def _held_text(self, e: _Event, p: _Pairing, r: Revision, now: Result | None) -> str:
        where = r.origin.table if r.origin is not None else (p.table or _("the table"))
        game = label(p.players, e.sides(p))
        what = (_("the result of {game} was undone at the table", game=game)
                if r.result is None else
                _("the result of {game} changed to {outcome}", game=game,
                  outcome=outcome(r.result)))
        counted = outcome(now, possessive=True)
        if e.later_round(p):
            why = _("round {round} was paired on {outcome}", round=e.round, outcome=counted)
        elif e.finished:
            why = _("the event finished on {outcome}", outcome=counted)
        else:
            why = _("the director had entered {outcome}", outcome=counted)
        # The table's id first: the director's page shows the table's name in its place.
        return _("{table}: {what}; {why}", table=where, what=what, why=why)

    def _standings(self, e: _Event):
        return standings(e.players, e.plain_results(), CHESS)

    def explain(self, eid: str, pid: str) -> str:
        with self._lock:
            e = self._event(eid)
            return _pairing(e, pid).why

    def csv(self, eid: str) -> str:
        """The standings as CSV: place, name, points, Buchholz, tiebreak, played, byes."""
        with self._lock:
            e = self._event(eid)
            out = io.StringIO()
            w = csv.writer(out, lineterminator="\r\n")
            w.writerow(["place", "name", "points", "buchholz", "tiebreak", "played", "byes"])
            for s in self._standings(e):
                # A name a spreadsheet would read as a formula is quoted with a '.
                name = "'" + s.name if s.name[:1] in "=+-@\t\r" else s.name
                w.writerow([s.place, name, f"{s.points:g}", f"{s.buchholz:g}",
                            f"{s.tiebreak:g}", s.played, s.byes])
            return out.getvalue()

    # --- the director's changes -------------------------------------------------------

    def _changing(self, eid: str, body: Any) -> tuple[_Event, dict[str, Any]]:
        """The event a director's change names and its body, once the body is an object
        carrying the version the director saw (409 when the event moved on). Call with
        the lock held."""
        e = self._event(eid)
        body = _object(body)
        self._premise(e, body)
        return e, body

    def _premise(self, e: _Event, body: dict[str, Any]) -> None:
        version = body.get("version")
        if isinstance(version, bool) or not isinstance(version, int):
            raise _bad(_("give the event's version you saw (\"version\": a whole number)"))
        if version != e.version:
            raise Refusal(409, _("the event changed meanwhile (version {version}, not "
                                 "{given}): look again and redo the change",
                                 version=e.version, given=version), version=e.version)

    def create(self, body: Any) -> dict[str, Any]:
        """A new event from ``body`` (docs/api.md); its state."""
        body = _object(body)
        name = body.get("name")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_EVENT_NAME \
                or not name.isprintable():
            raise _bad(_("name is the event's name, 1-{most} characters", most=MAX_EVENT_NAME))
        game = body.get("game")
        if not isinstance(game, str) or game not in self.catalog:
            # A game the catalog does not have is not there (404), as an unknown event is.
            raise Refusal(404 if isinstance(game, str) else 400,
                          _("game is one of {games}, not {game}",
                            games=", ".join(self.catalog), game=repr(game)))
        options = body.get("options", {})
        if not isinstance(options, dict):
            raise _bad(_("options is an object (the game's start options)"))
        if len(dumps(options)) > MAX_OFFER // 2:  # the offer carries them, in 8 KiB
            raise _bad(_("options take at most {most} bytes of JSON", most=MAX_OFFER // 2))
        try:
            lineup = lineup_of(self.catalog, game, options, body.get("lineup"))
        except ValueError as err:
            raise _bad(message(err)) from None
        for seats in SEATS[lineup]:  # every size of game the event can offer starts
            try:
                self.catalog.game(game).prepare(
                    [f"Player {chr(65 + i)}" for i in range(seats)],  # i18n: not said
                    options_for(self.catalog, game, options, seats), random.Random(0))
            except InvalidAction as err:
                raise _bad(_("options: {problem}", problem=message(err))) from None
        fmt = body.get("format")
        if fmt not in FORMATS:
            raise _bad(_("format is one of {formats}, not {format}",
                         formats=", ".join(FORMATS), format=repr(fmt)))
        if lineup in EACH_ROUND and fmt != "swiss":
            raise _bad(_("a {lineup} event seats its players anew each round: its format "
                         "is swiss", lineup=lineup))
        rounds = body.get("rounds")
        if fmt == "swiss":
            if isinstance(rounds, bool) or not isinstance(rounds, int) \
                    or not 1 <= rounds <= MAX_ROUNDS:
                raise _bad(_("rounds is the number of Swiss rounds, 1-{most}", most=MAX_ROUNDS))
        else:
            rounds = None
        tables = body.get("tables", [])
        if not isinstance(tables, list) or len(tables) > MAX_TABLES or not all(
                isinstance(t, str) and valid_table_id(t) for t in tables) \
                or len(set(tables)) != len(tables):
            raise _bad(_("tables is a list of distinct table ids (1-32 of a-z, 0-9, - and _)"))
        with self._lock:
            busy = {t for e in self._events.values() if not e.finished
                    for t in e.doc["tables"]} & set(tables)
            if busy:
                raise Refusal(409, _("table {table} is in use by another event that has not "
                                     "finished", table=sorted(busy)[0]))
            eid = f"e-{len(self._events) + 1}"
            while eid in self._events:
                eid = f"e-{secrets.token_hex(3)}"
            doc = {"name": name.strip(), "game": game, "options": options, "format": fmt,
                   "rounds": rounds, "tables": tables, "seed": secrets.randbelow(2**31),
                   "finished": False, "lineup": lineup}
            event = _Event(eid, doc, 0, [], {}, {}, [])
            new = self._players(event, body.get("players", []))
            with self._change(None):
                self._db.execute("INSERT INTO events (id, doc, version, created)"
                                 " VALUES (?, ?, 1, ?)", (eid, dumps(doc), self._clock()))
                event.version = 1
                for player in new:
                    event.players.append(player)
                    event.present[player.name] = True
                    self._save_player(event, player)
                self._events[eid] = event
            return self.state(eid)

    def _players(self, e: _Event, given: Any) -> list[Player]:
        """New players from ``given``: names, or ``{"name", "start_points"}``; rated by
        the club's rating of the event's game. 400 for a bad list or a name twice."""
        if not isinstance(given, list) or len(given) + len(e.players) > MAX_PLAYERS:
            raise _bad(_("players is a list of at most {most} names", most=MAX_PLAYERS))
        ratings = self._ratings(e.doc["game"])
        known = {name_key(p.name) for p in e.players}
        out = []
        for item in given:
            start = 0.0
            if isinstance(item, dict):
                name, start = item.get("name"), item.get("start_points", 0)
                if isinstance(start, bool) or not isinstance(start, int | float) \
                        or not 0 <= start <= MAX_ROUNDS:
                    raise _bad(_("start_points is a number 0-{most}", most=MAX_ROUNDS))
            else:
                name = item
            if (problem := name_problem(name)) is not None:
                raise _bad(_("a player's name: {problem}, not {name}", problem=problem,
                             name=repr(name)))
            name = clean_name(name)
            if name_key(name) in known:
                raise _bad(_("{name} is checked in already", name=name))
            known.add(name_key(name))
            out.append(Player(name, float(ratings.get(name_key(name), 0.0)), float(start)))
        if ratings:  # a newcomer is seeded in the middle of the field (model.players)
            mean = sum(ratings.values()) / len(ratings)
            out = [p if name_key(p.name) in ratings else Player(p.name, mean, p.start_points)
                   for p in out]
        return out

    def check_in(self, eid: str, body: Any) -> dict[str, Any]:
        """Late arrivals (``players``), or players who left coming back: in the next round."""
        with self._lock:
            e, body = self._changing(eid, body)
            self._open(e)
            if e.round and e.doc["format"] != "swiss":
                raise Refusal(409, _("a round robin or a knockout keeps the field it started "
                                     "with: only a Swiss takes late arrivals"))
            if e.round and e.lineup == "doubles":
                raise Refusal(409, _("doubles keeps the teams formed when it started: a late "
                                     "arrival cannot join a team"))
            given = body.get("players", [])
            if not isinstance(given, list):
                raise _bad(_("players is a list of names"))
            # A player who left comes back by name, in any case and spacing, written as a
            # name or as {"name", "start_points"}; they keep their own line and points.
            back, arriving = [], []
            for item in given:
                player = _named(e, item.get("name") if isinstance(item, dict) else item)
                if player is None or e.present[player.name]:
                    arriving.append(item)  # new, or checked in already (refused there)
                    continue
                if isinstance(item, dict) and item.get("start_points", 0) not in (0, None):
                    raise _bad(_("{name} comes back with their own points: give no "
                                 "start_points", name=player.name))
                if player not in back:
                    back.append(player)
            fresh = self._players(e, arriving)
            if not fresh and not back:
                raise _bad(_("name at least one player to check in"))
            with self._change(e):
                for player in fresh:
                    e.players.append(player)
                    e.present[player.name] = True
                    self._save_player(e, player)
                for player in back:
                    e.present[player.name] = True
                    self._save_player(e, player)
            return self.state(eid)

    def drop(self, eid: str, body: Any) -> dict[str, Any]:
        """A player leaves: left out of the next rounds, keeping their line."""
        with self._lock:
            e, body = self._changing(eid, body)
            self._open(e)
            player = _named(e, body.get("name"))
            if player is None:
                raise Refusal(404, _("{name} is not checked in", name=repr(body.get("name"))))
            name = player.name
            if e.round and (e.doc["format"] != "swiss" or e.lineup == "doubles"):
                raise Refusal(409, _("a round robin, a knockout or doubles keeps the field it "
                                     "started with: enter the game as lost instead"))
            if not e.present[name]:
                raise Refusal(409, _("{name} has left already", name=name))
            playing = [p for p in e.current() if name in p.players and p.status in OPEN]
            if playing:
                raise Refusal(409, _("{name} is in a game of round {round}: enter its result "
                                     "first", name=name, round=playing[0].round))
            with self._change(e):
                e.present[name] = False
                self._save_player(e, player)
            return self.state(eid)

    def _open(self, e: _Event) -> None:
        if e.finished:
            raise Refusal(409, _("{event} has finished", event=e.doc["name"]))

    def _rounds_planned(self, e: _Event) -> int:
        fmt, n = e.doc["format"], sum(e.present.values())
        if fmt == "swiss":
            return e.doc["rounds"]
        per = 2 if e.lineup == "doubles" else 1  # a doubles format pairs teams of two
        if fmt == "round-robin":
            field = len(e.doc.get("field") or [p for p in e.players if e.present[p.name]]) // per
            return field - 1 + field % 2 if field > 1 else 0
        size = len(e.doc.get("field") or [None] * n) // per
        return max(0, (size - 1).bit_length())

    def _start_problem(self, e: _Event) -> str | None:
        if e.finished:
            return _("the event has finished")
        held = e.held()
        if held:
            p = e.pairings[held[0].pairing]
            return _("a new result of {game} waits for your decision",
                     game=label(p.players, e.sides(p)))
        open_games = [p for p in e.current() if p.status in OPEN]
        if open_games:
            return N_("round {round} has {n} game without a result",
                      "round {round} has {n} games without a result", len(open_games),
                      round=e.round)
        here = sum(e.present.values())
        if e.round == 0 and here < 2:
            return _("check in two players at least")
        if e.round == 0 and e.lineup == "doubles" and (here < 4 or here % 2):
            return N_("doubles needs an even number of players, four at least ({n} checked "
                      "in)", "doubles needs an even number of players, four at least ({n} "
                      "checked in)", here)
        if e.round == 0 and e.lineup == "canadian" and here < 3:
            return N_("Canadian doubles needs three players at least ({n} checked in)",
                      "Canadian doubles needs three players at least ({n} checked in)", here)
        return None

    def _next_round(self, e: _Event) -> Round | None:
        """The next round by the event's format, None when the event is over."""
        fmt, number = e.doc["format"], e.round + 1
        present = [p for p in e.players if e.present[p.name]]
        if e.lineup == "doubles":
            return self._doubles_round(e, number)
        if e.lineup in EACH_ROUND:
            return None if number > e.doc["rounds"] else self._table_round(e, present, number)
        # A Swiss pairs who is here; a round robin or a knockout the field it started with.
        entrants = present if fmt == "swiss" else [
            p for p in e.players if p.name in e.doc["field"]]
        return _by_format(e, entrants, e.plain_results(), number)

    def _doubles_round(self, e: _Event, number: int) -> Round | None:
        """The next round of a doubles event: its format pairs the teams formed at its
        start; each game seats the two teams as the game's ``teams`` option says."""
        byname = {p.name: p for p in e.players}
        members = {JOIN.join(t): tuple(t) for t in e.doc["teams"]}
        units = [Player(name, sum(byname[m].rating for m in team) / len(team))
                 for name, team in members.items()]
        paired = _by_format(e, units, _team_results(e.plain_results(), members), number)
        if paired is None:
            return None
        total = {n: sum(byname[m].rating for m in t) for n, t in members.items()}
        out: list[Pairing] = []
        for pairing in paired.pairings:
            if pairing.bye:  # each player of the team has the bye
                for m in members[pairing.players[0]]:
                    out.append(Pairing(len(out) + 1, (m,), pairing.why))
                continue
            a, b = pairing.players
            seated, _seats = seat_teams(e.doc["options"], "doubles", members[a], members[b])
            out.append(Pairing(len(out) + 1, seated, _(
                "{why}; teams formed at the start with rating totals as even as can be: "
                "{a} {a_total}, {b} {b_total}", why=pairing.why, a=a, b=b,
                a_total=f"{total[a]:g}", b_total=f"{total[b]:g}")))
        return Round(number, tuple(out))

    def _table_round(self, e: _Event, present: list[Player], number: int) -> Round:
        """The next round of a Canadian doubles or tables event: everyone present seated
        anew (:func:`hall.director.groups.tables`), who the count leaves over resting."""
        results = e.plain_results()
        line = {s.name: s for s in self._standings(e)}
        resting: list[Player] = []
        if e.lineup == "canadian":
            # Fewest byes, then fewest points, then lowest rating, then latest check-in.
            order = sorted(enumerate(present), key=lambda ip: (
                line[ip[1].name].byes, line[ip[1].name].points, ip[1].rating, -ip[0]))
            resting = [p for _, p in order[:len(present) % 3]]
            split = seat_tables([p for p in present if p not in resting], results, seats=3)
        else:
            split = seat_tables(present, results)
            resting = [p for p in present if p.name in split.resting]
        out: list[Pairing] = []
        # The board numbers the tables: each group's reason without its "Table 1: ".
        for group, why in zip(split.groups, split.reasons, strict=True):
            if e.lineup == "canadian":
                seated, _seats = seat_teams(e.doc["options"], "canadian", group[:1],
                                            group[1:])
                why = _("{why}; {alone}, best rated, plays alone against {first} and "
                        "{second}", why=why, alone=group[0], first=group[1], second=group[2])
            else:
                seated = group  # best rated first: the turn order
            out.append(Pairing(len(out) + 1, seated, why))
        for p in resting:
            s = line[p.name]
            out.append(Pairing(len(out) + 1, (p.name,), _(
                "{name} gets a bye: the tables leave {over} over, and {name} has the fewest "
                "byes ({byes}), then points ({points}), then rating of those here",
                name=p.name, over=len(resting), byes=s.byes, points=points_text(s.points))))
        return Round(number, tuple(out))

    def start_round(self, eid: str, body: Any) -> dict[str, Any]:
        """Pair the next round (or finish the event when none is left) and offer its
        games to the free tables."""
        with self._lock:
            e, body = self._changing(eid, body)
            problem = self._start_problem(e)
            if problem is not None:
                raise Refusal(409, _("the next round cannot start: {problem}",
                                     problem=problem))
            # All inside the change: a refusal rolls back the field and teams set for it.
            with self._change(e):
                if e.round == 0:
                    e.doc["field"] = [p.name for p in e.players if e.present[p.name]]
                    if e.lineup == "doubles":  # teams for the whole event, balanced by rating
                        split = form_teams([p for p in e.players if e.present[p.name]], 2)
                        e.doc["teams"] = [list(team) for team in split.groups]
                self._pair_next(e)
            return self.state(eid)

    def _pair_next(self, e: _Event) -> None:
        """Pair the next round and offer it (or finish the event); inside a change."""
        try:
            paired = self._next_round(e)
        except ValueError as err:  # a drawn knockout game: the director corrects it
            raise Refusal(409, _("the next round cannot be paired: {problem}",
                                 problem=message(err))) from None
        if paired is None:
            e.doc["finished"] = True  # every offer of its tables withdrawn (_wanted)
            return
        for pairing in paired.pairings:
            self._add_pairing(e, paired.number, pairing)
        self._offer_free(e)

    def _add_pairing(self, e: _Event, number: int, pairing: Pairing) -> None:
        pid = f"r{number}-{pairing.board}"
        p = _Pairing(pid, number, pairing.board, pairing.players, pairing.why, None, None,
                     WAITING)
        e.pairings[pid] = p
        if pairing.bye:
            p.status = DONE
            self._save_result(e, pid, Result(number, pairing.players, game=pid), BYE)
        self._save_pairing(e, p)

    # --- tables and offers -------------------------------------------------------------

    def offer_topic(self, table: str) -> str:
        return f"{self.prefix}/_hall/offers/{table}"

    def _offer_payload(self, e: _Event, p: _Pairing) -> bytes:
        """The offer of ``p`` as its table is sent it, made once per offer (its
        ``sent_at`` the time it was first made)."""
        assert p.offer is not None
        made = self._payloads.get(p.offer)
        if made is not None:
            return made
        players = p.offered or p.players
        payload = dumps({"offer": p.offer, "event": {
            "id": e.id, "name": e.doc["name"], "round": p.round, "pairing": p.id},
            "game": e.doc["game"],
            "options": options_for(self.catalog, e.doc["game"], e.doc["options"],
                                   len(players)),
            "players": list(players),
            "sent_at": int(self._clock() if p.offered_at is None else p.offered_at)}).encode()
        if len(payload) > MAX_OFFER:  # options are bounded by the request's size
            raise _bad(_("the event's options make an offer larger than 8 KiB"))
        self._payloads[p.offer] = payload
        return payload

    def _busy_tables(self) -> set[str]:
        return {p.table for e in self._events.values() for p in e.pairings.values()
                if p.table is not None and p.status in (OFFERED, PLAYING)}

    def _offer_free(self, e: _Event) -> None:
        """Offer each waiting game of the round, in board order, to a free table."""
        busy = self._busy_tables()
        free = [t for t in e.doc["tables"] if t not in busy]
        for p in e.current():
            if not free:
                break
            if p.status == WAITING:
                self._offer(e, p, free.pop(0))

    def _offer(self, e: _Event, p: _Pairing, table: str) -> None:
        p.table, p.offer, p.status = table, f"o-{secrets.token_hex(4)}", OFFERED
        p.offered, p.offered_at = p.players, self._clock()
        self._notices.pop(table, None)  # its new offer says all
        self._save_pairing(e, p)

    def _wanted(self) -> dict[str, bytes]:
        """What each table of every event should hold on its offer topic now: the game
        offered to it (else the one it plays, so that a table restarted mid-match knows
        it), a notice that its game was moved, or an empty payload (none)."""
        out: dict[str, bytes] = {}
        for e in self._events.values():
            for t in e.doc["tables"]:
                out[t] = self._notices.get(t, b"")
        for e in self._events.values():
            if e.finished:
                continue
            for p in e.pairings.values():
                if p.table is None or p.offer is None:
                    continue
                if p.status == OFFERED or (p.status == PLAYING and out.get(p.table, b"")
                                           in (b"", self._notices.get(p.table))):
                    out[p.table] = self._offer_payload(e, p)
        for t, notice in self._notices.items():
            out.setdefault(t, notice)
        for t, rulings in self._rulings().items():
            out[t] = _with_rulings(out.get(t, b""), rulings)
        return out

    def _rulings(self) -> dict[str, list[dict[str, Any]]]:
        """By table, the director's word on the matches it played that its ``results``
        do not say yet (oldest first): a correction of the game's result, or the result
        the director kept over the table's change of it. Each goes to the table with its
        offers (companion/rulings.py) until the table's results show it taken (then the
        table's revision says what counts, and is only noted). Nothing is sent while the
        table's newest revision waits for the director or its match is played again."""
        out: dict[str, list[dict[str, Any]]] = {}
        for e in self._events.values():
            counted: dict[str, Revision] = {}
            last: dict[str, Revision] = {}
            declined: dict[str, int] = {}
            origins: dict[str, Origin] = {}
            for r in e.results:
                if r.state == APPLIED:
                    counted[r.pairing] = r
                if r.source == TABLE:
                    last[r.pairing] = r
                if r.state == DECLINED:
                    declined[r.pairing] = r.seq
                if r.origin is not None:
                    origins.setdefault(r.pairing, r.origin)
            for pid, where in origins.items():
                if self._epochs.get(where.table, where.epoch) != where.epoch:
                    continue  # the table has another database now: it cannot take it
                now, told = counted.get(pid), last.get(pid)
                if now is None or now.result is None or told is None or told.result is None \
                        or told.state == HELD or told.same_outcome(now.result):
                    continue
                # Named by the director's newest word on the game (a correction, or a
                # keep since): a table that played over an older ruling takes the new one.
                seq = max(now.seq if now.source == DIRECTOR else 0, declined.get(pid, 0))
                if not seq:
                    continue
                if f"{e.id}-{seq}" in self._taken.get(where.table, ()):
                    continue  # taken, on a match older than the table's list of results
                kind, reason = ((CORRECTED, now.result.reason) if now.source == DIRECTOR
                                else (KEPT, ""))
                out.setdefault(where.table, []).append({
                    "id": f"{e.id}-{seq}", "epoch": where.epoch, "match": where.match,
                    "event": e.id, "pairing": pid, "kind": kind, "reason": reason,
                    "standing": standing_of(now.result)})
        return out

    def _offers_changed(self) -> list[tuple[str, bytes]]:
        """The offer topics whose payload changed since last published (under the lock)."""
        wanted = self._wanted()
        changed = [(t, payload) for t, payload in wanted.items()
                   if self._published.get(t, b"") != payload]  # never sent: nothing there
        self._published.update(changed)
        live = {p.offer for e in self._events.values() for p in e.pairings.values()
                if p.status in (OFFERED, PLAYING)}  # the offers _wanted may send again
        self._payloads = {o: pl for o, pl in self._payloads.items() if o in live}
        return [(self.offer_topic(t), payload) for t, payload in changed]

    def pending(self) -> list[tuple[str, bytes]]:
        """What every table of an event should hold on its offer topic now: its pending
        offer, or an empty payload (sent again at each connection to the broker, so a
        hall or broker restarted republishes every pending offer)."""
        with self._lock:
            return [(self.offer_topic(t), payload) for t, payload in self._wanted().items()]

    def resend(self, publish: Publish) -> None:
        """Publish :meth:`pending` through ``publish`` (a new connection to the broker).

        Under the lock every change publishes under: an offer made or withdrawn
        meanwhile is published after these, never overwritten by what was
        pending before it.
        """
        with self._lock:
            for topic, payload in self.pending():
                publish(topic, payload)
            self._published = dict(self._wanted())

    def move(self, eid: str, pid: str, body: Any) -> dict[str, Any]:
        """Move a game without a result to another table (``"table": id``), or to a table
        without a companion (``"table": null``: its result is entered by the director).
        A game its table has started moves only with ``"abandoned": true``: the director
        says its match there is given up; that table is told, and a result it sends
        for it afterwards is not counted."""
        with self._lock:
            e, body = self._changing(eid, body)
            p = _pairing(e, pid)
            what = label(p.players, e.sides(p))
            if p.status == DONE:
                raise Refusal(409, _("{game} has its result: correct it instead", game=what))
            if "table" not in body:
                raise _bad(_("give the table to move to (\"table\": its id, or null for a "
                             "table without a companion)"))
            table = body.get("table")
            if table is not None and (not isinstance(table, str) or not valid_table_id(table)):
                raise _bad(_("table is a table id (1-32 of a-z, 0-9, - and _), or null for a "
                             "table without a companion"))
            abandoned = body.get("abandoned", False)
            if not isinstance(abandoned, bool):
                raise _bad(_("abandoned is true or false"))
            if p.status == PLAYING and not abandoned:
                raise Refusal(409, _("{game} is being played at {table}: move it only once "
                                     "its match there is abandoned (\"abandoned\": true); "
                                     "{table} is then told", game=what, table=p.table),
                              playing=p.table)
            if table is not None and table == p.table:
                raise Refusal(409, _("{game} is at {table} already", game=what, table=table))
            if table is not None and table in self._busy_tables():
                raise Refusal(409, _("{table} has a game of its own now: move that one first",
                                     table=table))
            # A table serves one unfinished event at most (as when events are created):
            # two events offering on one table's retained topic would replace each other.
            owner = next((o for o in self._events.values() if o is not e and not o.finished
                          and table in o.doc["tables"]), None)
            if owner is not None:
                raise Refusal(409, _("{table} is in {event}, which has not finished: choose "
                                     "another table", table=table, event=owner.doc["name"]))
            with self._change(e):
                if p.status == PLAYING and p.table is not None:
                    where = table or _("a table without a companion")
                    # Said to the table in English: the table's own language is its own.
                    self._notices[p.table] = dumps({"withdrawn": p.offer, "reason": str(_(
                        "the director moved {game} to {table}: its match here is abandoned "
                        "and its result will not count", game=what, table=where))}).encode()
                    self._note(e, f"moved:{p.offer}", _(
                        "{table}: {game} was abandoned there and moved to {to}",
                        table=p.table, game=what, to=where))
                if table is None:
                    p.table, p.offer, p.status = None, None, ELSEWHERE
                    self._save_pairing(e, p)
                else:
                    if table not in e.doc["tables"]:
                        e.doc["tables"].append(table)
                    self._offer(e, p, table)
                self._offer_free(e)
            return self.state(eid)

    def enter_result(self, eid: str, pid: str, body: Any) -> dict[str, Any]:
        """The director's result for a game (``ranks``, 1 the winner, equal for a draw;
        optionally ``tiebreaks``, each player's value of the game's own tiebreak): the first
        result of a game without one, or a correction with a ``reason``. A table's
        revision of the game held for the director is settled by it."""
        with self._lock:
            e, body = self._changing(eid, body)
            p = _pairing(e, pid)
            if len(p.players) == 1:
                raise Refusal(409, _("{name}'s bye has no result to enter", name=p.players[0]))
            ranks = body.get("ranks")
            if not isinstance(ranks, list) or len(ranks) != len(p.players) or not all(
                    type(r) is int and 1 <= r <= len(p.players) for r in ranks) \
                    or 1 not in ranks:
                raise _bad(_("ranks gives each of {names} a place from 1, someone first "
                             "(equal places: a draw)", names=", ".join(p.players)))
            tiebreaks = body.get("tiebreaks", [])
            if not isinstance(tiebreaks, list) or (tiebreaks and (
                    len(tiebreaks) != len(p.players)
                    or not all(tiebreak_ok(t) for t in tiebreaks))):
                raise _bad(_("tiebreaks gives each of {names} a number of at most {most} "
                             "either way (or is left out)", names=", ".join(p.players),
                             most=f"{MAX_TIEBREAK:g}"))
            reason = body.get("reason", "")
            if not isinstance(reason, str) or len(reason) > MAX_REASON \
                    or not reason.isprintable():
                raise _bad(_("reason is text of at most {most} characters", most=MAX_REASON))
            reason = reason.strip()
            earlier = e.result_of(pid)
            if earlier is not None and not reason:
                raise _bad(_("{game} has a result: a correction needs a reason",
                             game=" v ".join(p.players)))
            if earlier is not None and list(earlier.ranks) == ranks \
                    and list(earlier.tiebreaks) == tiebreaks:
                raise Refusal(409, _("that is the result it has already"))
            if e.doc["format"] == "elimination" and len(set(ranks)) == 1:
                raise _bad(_("a knockout game needs a winner: a draw cannot advance anyone"))
            if e.doc["format"] == "elimination" and earlier is not None \
                    and any(q.round > p.round for q in e.pairings.values()):
                raise Refusal(409, _("the next knockout round is paired already: this result "
                                     "can no longer change who advanced"))
            try:
                result = Result(p.round, p.players, tuple(ranks), tuple(tiebreaks), game=pid,
                                reason=reason if earlier is not None else "",
                                sides=e.sides(p))
            except ValueError as err:  # teammates placed apart
                raise _bad(message(err)) from None
            with self._change(e):
                self._save_result(e, pid, result, DIRECTOR)
                self._counted_now(e, p)
            return self.state(eid)

    def decide(self, eid: str, pid: str, body: Any) -> dict[str, Any]:
        """The director's choice on a table's revision held for them (``"choice"``):
        ``apply`` it, ``repair`` (apply it and pair the round after it again, none of whose
        games has started), or ``keep`` the result as it counts now."""
        with self._lock:
            e, body = self._changing(eid, body)
            p = _pairing(e, pid)
            index = next((i for i, r in enumerate(e.results)
                          if r.pairing == pid and r.state == HELD), None)
            if index is None:
                raise Refusal(409, _("no new result of {game} waits for a decision",
                                     game=label(p.players, e.sides(p))))
            choice = body.get("choice")
            if choice not in ("apply", "repair", "keep"):
                raise _bad(_('choice is "apply", "repair" (apply it and pair the next round '
                             'again) or "keep" (the result as it counts now)'))
            held = e.results[index]
            if choice == "keep":
                with self._change(e):
                    self._set_state(e, index, DECLINED)
                return self.state(eid)
            problem = self._apply_problem(e, p, held, repair=choice == "repair")
            if problem is not None:
                raise Refusal(409, problem)
            with self._change(e):
                if choice == "repair":
                    self._unpair_last(e)
                self._save_result(e, pid, held.result, TABLE, like=held)
                self._counted_now(e, p)
                if choice == "repair":
                    self._pair_next(e)
            return self.state(eid)

    def _apply_problem(self, e: _Event, p: _Pairing, r: Revision, *, repair: bool
                       ) -> str | None:
        """Why the held revision ``r`` of ``p`` cannot be applied so, or None."""
        counted = e.counted(p.id)
        now = counted.result if counted is not None else None
        if r.result is None and (e.later_round(p) or e.finished):
            return _("its match is being played again at {table}: wait for its new result, "
                     "or keep {outcome}", table=p.table, outcome=outcome(now, possessive=True))
        if repair:
            if e.finished or p.round != e.round - 1:
                return _("only the round after the game's own can be paired again")
            started = [q for q in e.current() if len(q.players) > 1
                       and (q.status in (PLAYING, DONE) or e.result_of(q.id) is not None)]
            if started:
                return _("round {round} has games started: apply it as it is, or keep the "
                         "result", round=e.round)
            return None
        if e.doc["format"] == "elimination" and (e.later_round(p) or e.finished) \
                and r.result is not None and now is not None \
                and outcome(r.result) != outcome(now):
            return _("the next knockout round was paired on {outcome}: pair it again (when "
                     "none of its games has started) or keep the result",
                     outcome=outcome(now, possessive=True))
        return None

    def _unpair_last(self, e: _Event) -> None:
        """Take the newest round back (none of its games started): its pairings and byes."""
        gone = [p.id for p in e.current()]
        for pid in gone:
            del e.pairings[pid]
        e.results[:] = [r for r in e.results if r.pairing not in gone]
        marks = ",".join("?" * len(gone))
        self._db.execute(f"DELETE FROM event_pairings WHERE event = ? AND id IN ({marks})",
                         (e.id, *gone))
        self._db.execute(f"DELETE FROM event_results WHERE event = ? AND pairing IN ({marks})",
                         (e.id, *gone))

    def _counted_now(self, e: _Event, p: _Pairing) -> None:
        """``p``'s counted result changed: it is done, or played again at its table (a
        result undone there), and the free tables get what waits."""
        if e.result_of(p.id) is not None:
            p.status = DONE
        elif p.table is not None:
            p.status = PLAYING  # its table plays it again
        else:
            p.status = ELSEWHERE
        self._save_pairing(e, p)
        self._offer_free(e)

    # --- what the tables say -----------------------------------------------------------

    def _find_offer(self, table: str, offer: Any) -> tuple[_Event, _Pairing] | None:
        for e in self._events.values():
            for p in e.pairings.values():
                if p.offer == offer and p.table == table and p.status in (OFFERED, PLAYING):
                    return e, p
        return None

    def summary(self, table: str, payload: bytes) -> None:
        """A table's summary: the game offered to it is in play when it names the offer."""
        offer = _event_field(payload, "offer")
        if offer is None:
            return
        with self._lock:
            found = self._find_offer(table, offer)
            if found is None or found[1].status != OFFERED:
                return
            e, p = found
            with self._change(e):
                p.status = PLAYING
                self._save_pairing(e, p)

    def results(self, table: str, payload: bytes) -> int:
        """A table's retained ``results``: each finished match that names an offer of an
        event is a revision of that game's result when it says something new (a first
        result, a change, an undo, a rename). How many games' counted results changed."""
        read = read_results(table, payload)
        if read is None:
            return 0
        epoch, listed, entries = read.epoch, read.listed, read.entries
        changed = 0
        with self._lock:
            moved_on = self._epochs.get(table, epoch) != epoch
            self._epochs[table] = epoch
            taken = self._taken.get(table, frozenset())
            self._taken[table] = read.rulings
            moved_on = moved_on or bool(read.rulings - taken)
            for e in list(self._events.values()):
                changed += self._from_table(e, table, epoch, listed,
                                            [x for x in entries if x.event == e.id])
            if moved_on:  # rulings it took, or of the database it had, are sent no more
                for topic, payload in self._offers_changed():
                    self._publish(topic, payload)
        return changed

    def _from_table(self, e: _Event, table: str, epoch: int, listed: list[int],
                    mine: list[Entry]) -> int:
        origins: dict[str, Origin] = {}
        for r in e.results:
            if r.origin is not None:
                origins.setdefault(r.pairing, r.origin)
        found: dict[str, list[Entry]] = {}
        for x in sorted(mine, key=lambda x: x.origin.match):
            found.setdefault(x.pairing, []).append(x)
        oldest = min(listed, default=None)
        work: list[tuple[_Pairing, Entry | None]] = []
        notes: list[tuple[str, str]] = []
        for pid, origin in origins.items():
            p = e.pairings.get(pid)
            if p is None or origin.table != table or origin.epoch != epoch:
                continue
            entry = next((x for x in found.get(pid, []) if x.origin == origin), None)
            if entry is None and oldest is not None and origin.match < oldest:
                continue  # older than the table's list: kept, not undone
            work.append((p, entry))
        for pid, entries in found.items():
            p = e.pairings.get(pid)
            if p is None or len(p.players) < 2:
                continue
            counted = origins.get(pid)
            for x in entries:
                if counted is not None and x.origin == counted:
                    continue  # its revisions: above
                what = label(p.players, e.sides(p))
                if counted is None and x.offer == p.offer and table == p.table \
                        and len(x.names) == len(p.players):
                    counted = x.origin
                    work.append((p, x))
                elif x.offer == p.offer and table == p.table:
                    notes.append((f"again:{x.origin.key}", _(
                        "{table}: {game} was played a second time there (match {match}): "
                        "only its first match counts", table=table, game=what,
                        match=x.origin.match)))
                elif len(x.names) != len(p.players):
                    notes.append((f"seats:{x.origin.key}", N_(
                        "{table}: match {match} names {game} but seats {n} player: not "
                        "counted", "{table}: match {match} names {game} but seats {n} "
                        "players: not counted", len(x.names), table=table,
                        match=x.origin.match, game=what)))
                else:
                    notes.append((f"moved:{x.origin.key}", _(
                        "{table}: {game} was finished there from an offer since moved or "
                        "replaced (match {match}): not counted", table=table, game=what,
                        match=x.origin.match)))
        steps = [step for p, entry in work
                 if (step := self._revision_of(e, p, entry)) is not None]
        fresh = [(k, t) for k, t in notes
                 if not any(n["key"] == k for n in e.doc.get("notes", []))]
        if not steps and not fresh:
            return 0
        changed = 0
        with self._change(e):
            for key, text in fresh:
                self._note(e, key, text)
            for p, entry, result in steps:
                changed += self._take(e, p, entry, result)
        return changed

    def _revision_of(self, e: _Event, p: _Pairing, x: Entry | None
                     ) -> tuple[_Pairing, Entry | None, Result | None] | None:
        """What the table's entry ``x`` of ``p`` (None: its match is not finished now)
        says that the hall has not heard: ``(p, x, its result)``, or None."""
        last = e.last_from_table(p.id)
        if x is None:
            return None if last is None or last.result is None else (p, None, None)
        if e.doc["format"] == "elimination" and len(set(x.ranks)) == 1:
            return None  # a drawn knockout game: the director enters who advances
        try:
            result = Result(p.round, p.players, x.ranks, x.tiebreaks, game=p.id,
                            sides=e.sides(p))
        except ValueError:  # teammates placed apart: not a result of this lineup
            return None
        if last is not None and last.same_outcome(result) and last.names == x.names:
            return None
        return p, x, result

    def _take(self, e: _Event, p: _Pairing, x: Entry | None, result: Result | None) -> int:
        """Record the table's new revision of ``p`` (inside a change); 1 if the result
        that counts changed."""
        last = e.last_from_table(p.id)
        if x is not None:
            before = last.names if last is not None else None
            self._follow_names(e, p, before, x.names)
            if result is not None:
                result = replace(result, players=p.players)
        counted = e.counted(p.id)
        if last is not None and result is not None and last.same_outcome(result):
            self._save_result(e, p.id, result, TABLE, state=NOTED, entry=x)  # names only
            return 0
        if counted is not None and counted.same_outcome(result):
            self._save_result(e, p.id, result, TABLE, state=NOTED, entry=x)
            return 0
        auto = not e.finished and not e.later_round(p) and (
            counted is None or counted.source == TABLE)
        self._save_result(e, p.id, result, TABLE, state=APPLIED if auto else HELD, entry=x)
        if not auto:
            return 0
        self._counted_now(e, p)
        return 1

    def _follow_names(self, e: _Event, p: _Pairing, before: Sequence[str] | None,
                      now: Sequence[str]) -> None:
        """A player the table renamed (or merged into another of its names) in ``p``'s
        match: the event calls them so too, unless another player of the event has that
        name (the director is told)."""
        offered = p.offered or p.players
        for i in renamed_seats(offered, before, now, name_key):
            old, new = p.players[i], " ".join(now[i].split())
            if name_key(new) == name_key(old) or name_problem(new) is not None:
                continue
            table = p.table or _("a table")
            if _named(e, new) is not None:
                self._note(e, f"clash:{p.id}:{i}:{name_key(new)}", _(
                    "{table} calls {old} '{new}', the name of another player of this event: "
                    "{old} keeps the name here", table=table, old=old, new=new))
                continue
            self._rename(e, old, new)
            self._note(e, f"renamed:{p.id}:{i}:{name_key(new)}",
                       _("{table} renamed {old} to {new}: the event follows", table=table,
                         old=old, new=new))

    def _rename(self, e: _Event, old: str, new: str) -> None:
        """Call player ``old`` ``new`` throughout the event (inside a change)."""
        def swap(names: Sequence[str]) -> tuple[str, ...]:
            return tuple(new if n == old else n for n in names)

        for i, player in enumerate(e.players):
            if player.name == old:
                e.players[i] = Player(new, player.rating, player.start_points)
                e.present = {new if n == old else n: v for n, v in e.present.items()}
                self._save_player(e, e.players[i])
        for key in ("field",):
            if isinstance(e.doc.get(key), list):
                e.doc[key] = list(swap(e.doc[key]))
        e.doc["teams"] = [list(swap(t)) for t in e.doc.get("teams") or []]
        for q in e.pairings.values():
            if old in q.players:
                q.players = swap(q.players)
                self._save_pairing(e, q)
        for i, r in enumerate(e.results):
            if r.result is not None and old in r.result.players:
                e.results[i] = replace(r, result=replace(r.result,
                                                         players=swap(r.result.players)))
                self._db.execute("UPDATE event_results SET result = ? WHERE event = ? AND"
                                 " seq = ?", (e.results[i].result_text(), e.id, r.seq))


def _by_format(e: _Event, entrants: list[Player], results: list[Result],
               number: int) -> Round | None:
    """Round ``number`` of ``entrants`` (players, or teams as players) by the event's
    format, given the results so far; None when the format has no such round."""
    fmt = e.doc["format"]
    if fmt == "swiss":
        if number > e.doc["rounds"]:
            return None
        return pair_swiss(entrants, results, number, seed=e.doc["seed"])
    if fmt == "round-robin":
        schedule = round_robin(entrants)
        return schedule[number - 1] if number <= len(schedule) else None
    bracket = elimination(entrants, results)
    if bracket.champion is not None or len(bracket.rounds) < number:
        return None
    return bracket.rounds[number - 1]


def _team_results(results: Sequence[Result], members: dict[str, tuple[str, ...]]
                  ) -> list[Result]:
    """The results of a doubles event as its teams' results (each side one team, named
    as in ``members``), for the format that pairs the teams; a team's bye once."""
    team_of = {m: name for name, team in members.items() for m in team}
    out: list[Result] = []
    for r in results:
        if r.bye:
            team = team_of.get(r.players[0])
            if team is not None and not any(o.bye and o.round == r.round
                                            and o.players == (team,) for o in out):
                out.append(Result(r.round, (team,), game=f"r{r.round}-bye-{team}"))
            continue
        order = sorted(set(r.sides))
        first = {s: r.players.index(next(n for n, t in zip(r.players, r.sides, strict=True)
                                          if t == s)) for s in order}
        teams = tuple(team_of[r.players[first[s]]] for s in order)
        out.append(Result(r.round, teams, tuple(r.ranks[first[s]] for s in order),
                          tuple(r.tiebreaks[first[s]] for s in order) if r.tiebreaks else (),
                          game=r.game, reason=r.reason))
    return out


def _named(e: _Event, name: Any) -> Player | None:
    """The event's player called ``name`` in any case and spacing (None: no such player)."""
    if not isinstance(name, str):
        return None
    key = name_key(name)
    return next((p for p in e.players if name_key(p.name) == key), None)


def _with_rulings(payload: bytes, rulings: list[dict[str, Any]]) -> bytes:
    """The offer topic's ``payload`` (an offer, a notice, or empty) carrying as many of
    ``rulings`` as fit in an offer's 8 KiB (the oldest first; the rest once these are
    taken)."""
    body = json.loads(payload) if payload else {}
    fit: list[dict[str, Any]] = []
    for r in rulings[:MAX_RULINGS]:
        if len(dumps({**body, "rulings": [*fit, r]}).encode()) > MAX_OFFER:
            break
        fit.append(r)
    return dumps({**body, "rulings": fit}).encode() if fit else payload


def _object(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise _bad(_("the body is a JSON object"))
    return body


def _pairing(e: _Event, pid: str) -> _Pairing:
    """The pairing ``pid`` of ``e``; Refusal 404 when it has none."""
    p = e.pairings.get(pid)
    if p is None:
        raise Refusal(404, _("no pairing {pairing} in {event}", pairing=repr(pid),
                             event=e.doc["name"]))
    return p


def _event_field(payload: bytes, key: str) -> Any:
    try:
        body = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    event = body.get("event") if isinstance(body, dict) else None
    return event.get(key) if isinstance(event, dict) else None
