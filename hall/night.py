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

A result is counted once: a game (pairing) takes the first result that
reaches it, from its table or the director; anything after that for the same
game is a correction, which only the director makes, with a reason (kept and
shown: :func:`hall.director.standings.corrections`).
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.catalog import Catalog
from companion.errors import InvalidAction
from companion.games.base import MAX_NAME, name_key
from companion.topics import dumps, valid_table_id
from hall.director.formats import elimination, round_robin
from hall.director.groups import tables as seat_tables
from hall.director.groups import teams as form_teams
from hall.director.model import Pairing, Player, Result, Round, points_text
from hall.director.pairing import pair_swiss
from hall.director.standings import CHESS, corrections, standings
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
from web.reads import Body, json_body

#: The database file (shared with the club leaderboard, hall/results.py; its own tables).
FILE = "hall.db"
FORMATS = ("swiss", "round-robin", "elimination")
#: Bounds of what a director may ask for.
MAX_PLAYERS, MAX_TABLES, MAX_ROUNDS, MAX_EVENT_NAME, MAX_REASON = 512, 256, 30, 60, 200
#: The largest game tiebreak value (either way) a result may carry: far beyond any game's own.
MAX_TIEBREAK = 1_000_000
#: An offer's payload is at most this (offers.md).
MAX_OFFER = 8 * 1024

_SCHEMA = """
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
    results: list[tuple[str, Result, str, float]]  # (pairing, result, source, at), in order

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

    def plain_results(self) -> list[Result]:
        return [r for _, r, _, _ in self.results]

    def result_of(self, pairing: str) -> Result | None:
        found = None
        for pid, result, _, _ in self.results:
            if pid == pairing:
                found = result
        return found


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
        self._lock = threading.RLock()
        self._events: dict[str, _Event] = {}
        #: Each event's answer to ``GET /api/events/<id>``, made once per version.
        self._bodies: dict[str, tuple[int, Body]] = {}
        self._load()

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
                    "SELECT id, round, board, players, why, table_id, offer, status"
                    " FROM event_pairings WHERE event = ? ORDER BY round, board", (eid,)):
                event.pairings[row[0]] = _Pairing(row[0], row[1], row[2],
                                                  tuple(json.loads(row[3])), *row[4:])
            for pid, result, source, at in self._db.execute(
                    "SELECT pairing, result, source, at FROM event_results WHERE event = ?"
                    " ORDER BY seq", (eid,)):
                event.results.append((pid, Result.from_json(json.loads(result)), source, at))
            self._events[eid] = event

    @contextmanager
    def _change(self, event: _Event | None) -> Iterator[list[tuple[str, bytes]]]:
        """One change: a transaction (rolled back, with the memory reloaded, on any
        error), the event's version raised, and the messages to publish once it is
        committed (never before: an offer the database does not hold is never sent)."""
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
        for topic, payload in outbox:
            self._publish(topic, payload)

    def _save_pairing(self, event: _Event, p: _Pairing) -> None:
        self._db.execute(
            "INSERT INTO event_pairings (event, id, round, board, players, why, table_id,"
            " offer, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET"
            " table_id = excluded.table_id, offer = excluded.offer, status = excluded.status",
            (event.id, p.id, p.round, p.board, dumps(list(p.players)), p.why, p.table,
             p.offer, p.status))

    def _save_result(self, event: _Event, pairing: str, result: Result, source: str) -> None:
        at = self._clock()
        self._db.execute(
            "INSERT INTO event_results (event, seq, pairing, result, source, at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (event.id, len(event.results) + 1, pairing, dumps(result.to_json()), source, at))
        event.results.append((pairing, result, source, at))

    def _save_player(self, event: _Event, player: Player) -> None:
        seq = [p.name for p in event.players].index(player.name) + 1
        self._db.execute(
            "INSERT INTO event_players (event, seq, name, rating, start_points, present)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET present = excluded.present",
            (event.id, seq, player.name, player.rating, player.start_points,
             int(event.present[player.name])))

    def close(self) -> None:
        with self._lock:
            self._db.close()

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
            raise Refusal(404, f"no event {eid!r}")
        return event

    def version(self, eid: str) -> int:
        with self._lock:
            return self._event(eid).version

    def body(self, eid: str) -> Body:
        """:meth:`state` as the answer's body (JSON, strong ETag, gzip once), made once per
        version of the event: the TV and every phone asking cost one making."""
        with self._lock:
            version = self._event(eid).version
            made = self._bodies.get(eid)
            if made is None or made[0] != version:
                made = (version, json_body(self.state(eid)))
                self._bodies[eid] = made
            return made[1]

    def state(self, eid: str) -> dict[str, Any]:
        """The whole event as the pages show it (docs/api.md, "Club night")."""
        with self._lock:
            e = self._event(eid)
            table = self._standings(e)
            current = e.current()
            busy = {n for p in current for n in p.players}
            byname = {p.name: p for p in e.players}
            corrected = [{"pairing": new.key, "round": new.round,
                          "players": list(new.players), "was": list(old.ranks),
                          "now": list(new.ranks), "reason": new.reason}
                         for old, new in corrections(e.plain_results())]
            return {
                "id": e.id, "version": e.version, **{k: e.doc[k] for k in (
                    "name", "game", "options", "format", "rounds", "tables")},
                "lineup": e.lineup, "teams": e.doc.get("teams", []),
                "game_title": self.catalog.title(e.doc["game"]),
                "round": e.round, "rounds_planned": self._rounds_planned(e),
                "finished": e.finished, "winner": table[0].name if e.finished and table
                else None,
                "players": [{"name": p.name, "rating": round(p.rating, 1),
                             "start_points": p.start_points, "present": e.present[p.name]}
                            for p in e.players],
                "pairings": [p.to_json() | {
                    "result": self._result_json(e, p.id), "sides": list(e.sides(p)),
                    "label": label(p.players, e.sides(p))} for p in current],
                "waiting": [n for n in e.present if e.present[n] and n not in busy
                            and n in byname],
                "standings": [s.to_json() for s in table],
                "corrections": corrected,
                "can_start": self._start_problem(e) is None,
                "start_problem": self._start_problem(e),
            }

    def _result_json(self, e: _Event, pid: str) -> dict[str, Any] | None:
        result = e.result_of(pid)
        if result is None:
            return None
        source = next(s for p, _, s, _ in reversed(e.results) if p == pid)
        return {"ranks": list(result.ranks), "tiebreaks": list(result.tiebreaks),
                "reason": result.reason, "source": source}

    def _standings(self, e: _Event):
        return standings(e.players, e.plain_results(), CHESS)

    def explain(self, eid: str, pid: str) -> str:
        with self._lock:
            e = self._event(eid)
            if pid not in e.pairings:
                raise Refusal(404, f"no pairing {pid!r} in {e.doc['name']}")
            return e.pairings[pid].why

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
            raise _bad("give the event's version you saw (\"version\": a whole number)")
        if version != e.version:
            raise Refusal(409, f"the event changed meanwhile (version {e.version}, not "
                          f"{version}): look again and redo the change", version=e.version)

    def create(self, body: Any) -> dict[str, Any]:
        """A new event from ``body`` (docs/api.md); its state."""
        if not isinstance(body, dict):
            raise _bad("the body is a JSON object")
        name = body.get("name")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_EVENT_NAME \
                or not name.isprintable():
            raise _bad(f"name is the event's name, 1-{MAX_EVENT_NAME} characters")
        game = body.get("game")
        if not isinstance(game, str) or game not in self.catalog:
            raise _bad(f"game is one of {', '.join(self.catalog)}, not {game!r}")
        options = body.get("options", {})
        if not isinstance(options, dict):
            raise _bad("options is an object (the game's start options)")
        if len(dumps(options)) > MAX_OFFER // 2:  # the offer carries them, in 8 KiB
            raise _bad(f"options take at most {MAX_OFFER // 2} bytes of JSON")
        try:
            lineup = lineup_of(self.catalog, game, options, body.get("lineup"))
        except ValueError as err:
            raise _bad(str(err)) from None
        for seats in SEATS[lineup]:  # every size of game the event can offer starts
            try:
                self.catalog.game(game).prepare(
                    [f"Player {chr(65 + i)}" for i in range(seats)],
                    options_for(self.catalog, game, options, seats), random.Random(0))
            except InvalidAction as err:
                raise _bad(f"options: {err}") from None
        fmt = body.get("format")
        if fmt not in FORMATS:
            raise _bad(f"format is one of {', '.join(FORMATS)}, not {fmt!r}")
        if lineup in EACH_ROUND and fmt != "swiss":
            raise _bad(f"a {lineup} event seats its players anew each round: its format "
                       "is swiss")
        rounds = body.get("rounds")
        if fmt == "swiss":
            if isinstance(rounds, bool) or not isinstance(rounds, int) \
                    or not 1 <= rounds <= MAX_ROUNDS:
                raise _bad(f"rounds is the number of Swiss rounds, 1-{MAX_ROUNDS}")
        else:
            rounds = None
        tables = body.get("tables", [])
        if not isinstance(tables, list) or len(tables) > MAX_TABLES or not all(
                isinstance(t, str) and valid_table_id(t) for t in tables) \
                or len(set(tables)) != len(tables):
            raise _bad("tables is a list of distinct table ids (1-32 of a-z, 0-9, - and _)")
        with self._lock:
            busy = {t for e in self._events.values() if not e.finished
                    for t in e.doc["tables"]} & set(tables)
            if busy:
                raise Refusal(409, f"table {sorted(busy)[0]} is in use by another event "
                              "that has not finished")
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
            raise _bad(f"players is a list of at most {MAX_PLAYERS} names")
        ratings = self._ratings(e.doc["game"])
        known = {name_key(p.name) for p in e.players}
        out = []
        for item in given:
            start = 0.0
            if isinstance(item, dict):
                name, start = item.get("name"), item.get("start_points", 0)
                if isinstance(start, bool) or not isinstance(start, int | float) \
                        or not 0 <= start <= MAX_ROUNDS:
                    raise _bad(f"start_points is a number 0-{MAX_ROUNDS}")
            else:
                name = item
            if not isinstance(name, str) or not name.strip() \
                    or len(name.strip()) > MAX_NAME or not name.isprintable():
                raise _bad(f"a player's name is 1-{MAX_NAME} printable characters, "
                           f"not {name!r}")
            name = " ".join(name.split())
            if name_key(name) in known:
                raise _bad(f"{name} is checked in already")
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
                raise Refusal(409, "a round robin or a knockout keeps the field it started "
                              "with: only a Swiss takes late arrivals")
            if e.round and e.lineup == "doubles":
                raise Refusal(409, "doubles keeps the teams formed when it started: a late "
                              "arrival cannot join a team")
            given = body.get("players", [])
            if not isinstance(given, list):
                raise _bad("players is a list of names")
            # A player who left comes back by name, in any case and spacing, written as a
            # name or as {"name", "start_points"}; they keep their own line and points.
            back, arriving = [], []
            for item in given:
                player = _named(e, item.get("name") if isinstance(item, dict) else item)
                if player is None or e.present[player.name]:
                    arriving.append(item)  # new, or checked in already (refused there)
                    continue
                if isinstance(item, dict) and item.get("start_points", 0) not in (0, None):
                    raise _bad(f"{player.name} comes back with their own points: "
                               "give no start_points")
                if player not in back:
                    back.append(player)
            fresh = self._players(e, arriving)
            if not fresh and not back:
                raise _bad("name at least one player to check in")
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
                raise Refusal(404, f"{body.get('name')!r} is not checked in")
            name = player.name
            if e.round and (e.doc["format"] != "swiss" or e.lineup == "doubles"):
                raise Refusal(409, "a round robin, a knockout or doubles keeps the field it "
                              "started with: enter the game as lost instead")
            if not e.present[name]:
                raise Refusal(409, f"{name} has left already")
            playing = [p for p in e.current() if name in p.players and p.status in OPEN]
            if playing:
                raise Refusal(409, f"{name} is in a game of round {playing[0].round}: "
                              "enter its result first")
            with self._change(e):
                e.present[name] = False
                self._save_player(e, player)
            return self.state(eid)

    def _open(self, e: _Event) -> None:
        if e.finished:
            raise Refusal(409, f"{e.doc['name']} has finished")

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
            return "the event has finished"
        open_games = [p for p in e.current() if p.status in OPEN]
        if open_games:
            return (f"round {e.round} has {len(open_games)} game"
                    f"{'s' if len(open_games) > 1 else ''} without a result")
        here = sum(e.present.values())
        if e.round == 0 and here < 2:
            return "check in two players at least"
        if e.round == 0 and e.lineup == "doubles" and (here < 4 or here % 2):
            return (f"doubles needs an even number of players, four at least "
                    f"({here} checked in)")
        if e.round == 0 and e.lineup == "canadian" and here < 3:
            return f"Canadian doubles needs three players at least ({here} checked in)"
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
            seated, _ = seat_teams(e.doc["options"], "doubles", members[a], members[b])
            out.append(Pairing(len(out) + 1, seated, (
                f"{pairing.why}; teams formed at the start with rating totals as even as can "
                f"be: {a} {total[a]:g}, {b} {total[b]:g}")))
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
        for group, why in zip(split.groups, split.why, strict=True):
            why = why.split(": ", 1)[1]  # "Table 1: Ann, ...": the board numbers them
            if e.lineup == "canadian":
                seated, _ = seat_teams(e.doc["options"], "canadian", group[:1], group[1:])
                why = (f"{why}; {group[0]}, best rated, plays alone against {group[1]} "
                       f"and {group[2]}")
            else:
                seated = group  # best rated first: the turn order
            out.append(Pairing(len(out) + 1, seated, why))
        for p in resting:
            s = line[p.name]
            out.append(Pairing(len(out) + 1, (p.name,), (
                f"{p.name} gets a bye: the tables leave {len(resting)} over, and "
                f"{p.name} has the fewest byes ({s.byes}), then points "
                f"({points_text(s.points)}), then rating of those here")))
        return Round(number, tuple(out))

    def start_round(self, eid: str, body: Any) -> dict[str, Any]:
        """Pair the next round (or finish the event when none is left) and offer its
        games to the free tables."""
        with self._lock:
            e, body = self._changing(eid, body)
            problem = self._start_problem(e)
            if problem is not None:
                raise Refusal(409, f"the next round cannot start: {problem}")
            # All inside the change: a refusal rolls back the field and teams set for it.
            with self._change(e) as outbox:
                if e.round == 0:
                    e.doc["field"] = [p.name for p in e.players if e.present[p.name]]
                    if e.lineup == "doubles":  # teams for the whole event, balanced by rating
                        split = form_teams([p for p in e.players if e.present[p.name]], 2)
                        e.doc["teams"] = [list(team) for team in split.groups]
                try:
                    paired = self._next_round(e)
                except ValueError as err:  # a drawn knockout game: the director corrects it
                    raise Refusal(409, f"the next round cannot be paired: {err}") from None
                # Nothing is answered inside the change: its version is raised on leaving it.
                if paired is None:
                    e.doc["finished"] = True
                    outbox += self._withdraw_all(e)
                else:
                    for pairing in paired.pairings:
                        self._add_pairing(e, paired.number, pairing)
                    outbox += self._offer_free(e)
            return self.state(eid)

    def _add_pairing(self, e: _Event, number: int, pairing: Pairing) -> None:
        pid = f"r{number}-{pairing.board}"
        p = _Pairing(pid, number, pairing.board, pairing.players, pairing.why, None, None,
                     WAITING)
        e.pairings[pid] = p
        if pairing.bye:
            p.status = DONE
            self._save_result(e, pid, Result(number, pairing.players, game=pid), "bye")
        self._save_pairing(e, p)

    # --- tables and offers -------------------------------------------------------------

    def offer_topic(self, table: str) -> str:
        return f"{self.prefix}/_hall/offers/{table}"

    def _offer_payload(self, e: _Event, p: _Pairing) -> bytes:
        payload = dumps({"offer": p.offer, "event": {
            "id": e.id, "name": e.doc["name"], "round": p.round, "pairing": p.id},
            "game": e.doc["game"],
            "options": options_for(self.catalog, e.doc["game"], e.doc["options"],
                                   len(p.players)),
            "players": list(p.players),
            "sent_at": int(self._clock())}).encode()
        if len(payload) > MAX_OFFER:  # options are bounded by the request's size
            raise _bad("the event's options make an offer larger than 8 KiB")
        return payload

    def _busy_tables(self) -> set[str]:
        return {p.table for e in self._events.values() for p in e.pairings.values()
                if p.table is not None and p.status in (OFFERED, PLAYING)}

    def _offer_free(self, e: _Event) -> list[tuple[str, bytes]]:
        """Offer each waiting game of the round, in board order, to a free table."""
        busy = self._busy_tables()
        free = [t for t in e.doc["tables"] if t not in busy]
        out = []
        for p in e.current():
            if not free:
                break
            if p.status == WAITING:
                out += self._offer(e, p, free.pop(0))
        return out

    def _offer(self, e: _Event, p: _Pairing, table: str) -> list[tuple[str, bytes]]:
        p.table, p.offer, p.status = table, f"o-{secrets.token_hex(4)}", OFFERED
        self._save_pairing(e, p)
        return [(self.offer_topic(table), self._offer_payload(e, p))]

    def _withdraw(self, p: _Pairing) -> list[tuple[str, bytes]]:
        """Clear the offer of ``p``'s table (an empty retained message)."""
        if p.table is None or p.status not in (OFFERED, PLAYING):
            return []
        return [(self.offer_topic(p.table), b"")]

    def _withdraw_all(self, e: _Event) -> list[tuple[str, bytes]]:
        return [(self.offer_topic(t), b"") for t in e.doc["tables"]]

    def pending(self) -> list[tuple[str, bytes]]:
        """What every table of an event not finished should hold on its offer topic now:
        its pending offer, or an empty payload (sent again at each connection to the broker,
        so a hall or broker restarted republishes every pending offer)."""
        with self._lock:
            out: dict[str, bytes] = {}
            for e in self._events.values():
                if e.finished:
                    continue
                for t in e.doc["tables"]:
                    out.setdefault(t, b"")
                for p in e.pairings.values():
                    if p.table is not None and p.status in (OFFERED, PLAYING):
                        out[p.table] = self._offer_payload(e, p)
            return [(self.offer_topic(t), payload) for t, payload in out.items()]

    def resend(self, publish: Publish) -> None:
        """Publish :meth:`pending` through ``publish`` (a new connection to the broker).

        Under the lock every change publishes under: an offer made or withdrawn
        meanwhile is published after these, never overwritten by what was
        pending before it.
        """
        with self._lock:
            for topic, payload in self.pending():
                publish(topic, payload)

    def move(self, eid: str, pid: str, body: Any) -> dict[str, Any]:
        """Move a game without a result to another table (``"table": id``), or to a table
        without a companion (``"table": null``: its result is entered by the director)."""
        with self._lock:
            e, body = self._changing(eid, body)
            p = e.pairings.get(pid)
            if p is None:
                raise Refusal(404, f"no pairing {pid!r} in {e.doc['name']}")
            if p.status == DONE:
                raise Refusal(409, f"{' v '.join(p.players)} has its result: correct it "
                              "instead")
            if "table" not in body:
                raise _bad("give the table to move to (\"table\": its id, or null for a table "
                           "without a companion)")
            table = body.get("table")
            if table is not None and (not isinstance(table, str) or not valid_table_id(table)):
                raise _bad("table is a table id (1-32 of a-z, 0-9, - and _), or null for a "
                           "table without a companion")
            if table is not None and table == p.table:
                raise Refusal(409, f"{' v '.join(p.players)} is at {table} already")
            if table is not None and table in self._busy_tables():
                raise Refusal(409, f"{table} has a game of its own now: move that one first")
            # A table serves one unfinished event at most (as when events are created):
            # two events offering on one table's retained topic would replace each other.
            owner = next((o for o in self._events.values() if o is not e and not o.finished
                          and table in o.doc["tables"]), None)
            if owner is not None:
                raise Refusal(409, f"{table} is in {owner.doc['name']}, which has not "
                              "finished: choose another table")
            with self._change(e) as outbox:
                outbox += self._withdraw(p)
                if table is None:
                    p.table, p.offer, p.status = None, None, ELSEWHERE
                    self._save_pairing(e, p)
                else:
                    if table not in e.doc["tables"]:
                        e.doc["tables"].append(table)
                    outbox += self._offer(e, p, table)
                outbox += self._offer_free(e)
            return self.state(eid)

    def enter_result(self, eid: str, pid: str, body: Any) -> dict[str, Any]:
        """The director's result for a game (``ranks``, 1 the winner, equal for a draw;
        optionally ``tiebreaks``, each player's value of the game's own tiebreak): the first
        result of a game without one, or a correction with a ``reason``."""
        with self._lock:
            e, body = self._changing(eid, body)
            p = e.pairings.get(pid)
            if p is None:
                raise Refusal(404, f"no pairing {pid!r} in {e.doc['name']}")
            if len(p.players) == 1:
                raise Refusal(409, f"{p.players[0]}'s bye has no result to enter")
            ranks = body.get("ranks")
            if not isinstance(ranks, list) or len(ranks) != len(p.players) or not all(
                    type(r) is int and 1 <= r <= len(p.players) for r in ranks) \
                    or 1 not in ranks:
                raise _bad(f"ranks gives each of {', '.join(p.players)} a place from 1, "
                           "someone first (equal places: a draw)")
            tiebreaks = body.get("tiebreaks", [])
            if not isinstance(tiebreaks, list) or (tiebreaks and (
                    len(tiebreaks) != len(p.players) or not all(_tiebreak(t) for t in tiebreaks))):
                raise _bad(f"tiebreaks gives each of {', '.join(p.players)} a number of at "
                           f"most {MAX_TIEBREAK:g} either way (or is left out)")
            reason = body.get("reason", "")
            if not isinstance(reason, str) or len(reason) > MAX_REASON \
                    or not reason.isprintable():
                raise _bad(f"reason is text of at most {MAX_REASON} characters")
            reason = reason.strip()
            earlier = e.result_of(pid)
            if earlier is not None and not reason:
                raise _bad(f"{' v '.join(p.players)} has a result: a correction needs a reason")
            if earlier is not None and list(earlier.ranks) == ranks \
                    and list(earlier.tiebreaks) == tiebreaks:
                raise Refusal(409, "that is the result it has already")
            if e.doc["format"] == "elimination" and len(set(ranks)) == 1:
                raise _bad("a knockout game needs a winner: a draw cannot advance anyone")
            if e.doc["format"] == "elimination" and earlier is not None \
                    and any(q.round > p.round for q in e.pairings.values()):
                raise Refusal(409, "the next knockout round is paired already: this result "
                              "can no longer change who advanced")
            try:
                result = Result(p.round, p.players, tuple(ranks), tuple(tiebreaks), game=pid,
                                reason=reason if earlier is not None else "",
                                sides=e.sides(p))
            except ValueError as err:  # teammates placed apart
                raise _bad(str(err)) from None
            with self._change(e) as outbox:
                self._save_result(e, pid, result, "director")
                outbox += self._finish_game(e, p)
            return self.state(eid)

    def _finish_game(self, e: _Event, p: _Pairing) -> list[tuple[str, bytes]]:
        out = self._withdraw(p) if p.status != DONE else []
        if p.status != DONE:
            p.status = DONE
            self._save_pairing(e, p)
        return out + self._offer_free(e)

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
        """A table's retained ``results``: each finished match carrying an offer's event is
        that game's result, once. How many games got their result."""
        try:
            body = json.loads(payload)
            entries = body["results"] if isinstance(body, dict) else []
        except (ValueError, KeyError, RecursionError):
            return 0
        counted = 0
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, dict) or not isinstance(entry.get("event"), dict):
                continue
            with self._lock:
                counted += self._table_result(table, entry)
        return counted

    def _table_result(self, table: str, entry: dict[str, Any]) -> int:
        ev = entry["event"]
        e = self._events.get(ev.get("id")) if isinstance(ev.get("id"), str) else None
        p = e.pairings.get(ev.get("pairing")) if e is not None and isinstance(
            ev.get("pairing"), str) else None
        if e is None or p is None or p.status == DONE or p.table != table \
                or ev.get("offer") != p.offer:
            return 0  # not ours, counted already, or an offer since moved or replaced
        placed = _placed(entry, p.players)
        if placed is None:
            return 0
        ranks, tiebreaks = placed
        if e.doc["format"] == "elimination" and len(set(ranks)) == 1:
            return 0  # a drawn knockout game: the director enters who advances
        with self._change(e) as outbox:
            self._save_result(e, p.id, Result(p.round, p.players, ranks, tiebreaks, game=p.id,
                                              sides=e.sides(p)), "table")
            outbox += self._finish_game(e, p)
        return 1


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


def _object(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise _bad("the body is a JSON object")
    return body


def _event_field(payload: bytes, key: str) -> Any:
    try:
        body = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    event = body.get("event") if isinstance(body, dict) else None
    return event.get(key) if isinstance(event, dict) else None


def _tiebreak(value: Any) -> bool:
    """Whether ``value`` is a game tiebreak the hall takes: a finite number within bounds."""
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and abs(value) <= MAX_TIEBREAK  # NaN compares False: refused too


def _placed(entry: dict[str, Any], players: Sequence[str]
            ) -> tuple[tuple[int, ...], tuple[float, ...]] | None:
    """Each of ``players``' place from 1 in a table's result entry (its ``standing``) and
    their game tiebreak values (their team's ``standing.tiebreaks``; none when the entry
    gives none or gives them wrongly), None when the entry is not a result of exactly
    these players."""
    try:
        names, standing = entry["players"], entry["standing"]
        teams, places = standing["teams"], standing["places"]
        if [name_key(n) for n in names] != [name_key(n) for n in players]:
            return None
        rank: dict[int, int] = {}
        for team, place in zip(teams, places, strict=True):
            for i in team:
                rank[i] = int(place) + 1
        ranks = tuple(rank[i] for i in range(len(names)))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    values = standing.get("tiebreaks")
    if not isinstance(values, list) or len(values) != len(teams) \
            or not all(_tiebreak(v) for v in values):
        return ranks, ()  # a game without one, or a table before it sent them
    value: dict[int, float] = {}
    for team, v in zip(teams, values, strict=True):
        for i in team:
            value[i] = float(v)
    return ranks, tuple(value[i] for i in range(len(names)))
