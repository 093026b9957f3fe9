"""The table: the running match, its store and everyone watching it.

:class:`Table` is the single writer. Every change goes the same way: resolve
the action against the rules (dice rolled here, once, with the table's RNG),
commit it to the store, only then change the match in memory and publish the
new :class:`Snapshot` to subscribers. A refused action or a failed commit
changes nothing.

The Table is not thread-safe by design: one thread owns it
(:class:`TableRunner`), and other threads submit work to that thread's
queue. Readers on any thread may read :attr:`Table.snapshot`, which is an
immutable value replaced whole on every change.
"""

from __future__ import annotations

import functools
import json
import logging
import queue
import random
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

from companion.catalog import Catalog
from companion.errors import IllegalAction, InvalidAction, NoMatch, StoreUnavailable
from companion.games.base import JSON, name_key
from companion.headline import score_card
from companion.i18n import _
from companion.integrity import replay_stored
from companion.match import EVENT, REDO, UNDO, Match, StartRecord
from companion.rulings import CORRECTED, Ruling
from companion.standings import standing
from companion.store import ABANDONED, ACTIVE, FINISHED, MatchSummary, Store, StoredMatch
from companion.subscribers import Subscribers
from companion.topics import RESULTS_KEPT
from companion.undone import undone_of

log = logging.getLogger(__name__)
#: The most refused rulings remembered (so each is logged once).
MAX_REFUSED = 256

T = TypeVar("T")
Subscriber = Callable[["Snapshot"], None]  # i18n: not said


@dataclass(frozen=True)
class Snapshot:
    """What the table shows at one version; the body of ``GET /api/state``."""

    version: int
    match: JSON | None
    #: The database's identity (Store.epoch): versions count anew in a new one.
    epoch: int = 0
    #: What changed to make this snapshot (None for the one read at start):
    #: ``{"op": "start"|"event"|"undo"|"redo"|"abandon"|"players", "match": id, "event":
    #: the resolved event (event, undo, redo) or None}``. Not part of the state
    #: JSON: outputs that report each change (MQTT's events topic) read it.
    change: JSON | None = field(default=None, compare=False)
    #: The table's last finished matches (companion/topics.py ``results_payload``'s
    #: ``results``): the same object until one finishes, is undone or renamed. Not part of
    #: the state JSON: the MQTT publisher sends it for the hall's club leaderboard.
    results: tuple[JSON, ...] = field(default=(), compare=False)
    #: After an undo, what it took back, as data (``{"type": "point", "to": "Ann"}``,
    #: companion/undone.py): the state JSON's ``undone``, so the OLED, the host page and
    #: the phones say "Undone: …" of one event, whoever undid, each in its reader's
    #: language. None after any other change (and on a resume): news of the change, like
    #: ``change``, not part of what the table shows.
    undone: JSON | None = field(default=None, compare=False)
    #: After a redo, what it put back, told the same way: the state JSON's ``redone``.
    redone: JSON | None = field(default=None, compare=False)
    #: The ids of the hall's rulings this table took lately (Store.rulings_taken), sent
    #: with ``results``: the hall sends them no more. Not part of the state JSON.
    rulings: tuple[str, ...] = field(default=(), compare=False)

    def to_json(self) -> JSON:
        state: JSON = {"version": self.version, "epoch": self.epoch, "match": self.match}
        if self.undone is not None:
            state["undone"] = self.undone
        if self.redone is not None:
            state["redone"] = self.redone
        return state

    @cached_property
    def json_text(self) -> str:
        """:meth:`to_json` as compact JSON text, encoded once for every output."""
        return json.dumps(self.to_json(), separators=(",", ":"), ensure_ascii=False)


class Table:
    """The current match, kept in step with the store and published on change.

    On construction it resumes the store's current match (the newest one
    unless it was abandoned), exactly as it was, redo history included,
    every stored entry checked against the rules on the way: StoreDamaged
    (naming the file, match and entry) if one fails, never a silently wrong
    score. It plays the games of ``catalog``.
    ``rng`` rolls every die the device rolls; inject a seeded one for tests.
    """

    def __init__(self, store: Store, catalog: Catalog, rng: random.Random | None = None
                 ) -> None:
        self._store = store
        #: The games this table plays.
        self.catalog = catalog
        if store.catalog is None:
            # The history of this table's store is read with the games it plays (each
            # stored match's sides, companion/teams.py).
            store.catalog = catalog
        self._rng = rng if rng is not None else random.SystemRandom()
        self._subscribers: Subscribers[Snapshot] = Subscribers()
        self._troubles: Subscribers[StoreUnavailable] = Subscribers()
        self._match: Match | None = None
        self._match_id: int | None = None
        stored = store.current()
        if stored is not None:
            self._match, self._match_id = replay_stored(stored, catalog), stored.id
        self._results: tuple[JSON, ...] = ()
        self._rulings: tuple[str, ...] = ()
        #: The hall's rulings refused here (logged once each).
        self._refused_rulings: set[str] = set()
        self._read_results()
        self.snapshot = self._snapshot(store.version)

    def __repr__(self) -> str:
        return f"<Table version={self.snapshot.version} match={self._match!r}>"  # i18n: not said

    @property
    def match(self) -> Match | None:
        """The current match (finished ones stay current until replaced)."""
        return self._match

    @property
    def match_id(self) -> int | None:
        return self._match_id

    @property
    def version(self) -> int:
        return self.snapshot.version

    # --- changes -------------------------------------------------------------

    def start(self, record: object) -> Snapshot:
        """Start a match from a start record; it replaces a finished one.

        Raises InvalidAction for a bad record and MatchInProgress while the
        current match is unfinished.
        """
        start = StartRecord.create(self._known_names(record), self._rng, self.catalog)
        match = Match(start, self.catalog)
        match_id, version = self._commit(lambda: self._store.begin_match(start.to_json()))
        self._match, self._match_id = match, match_id
        return self._publish(version, _change("start", match_id))

    def act(self, action: object) -> Snapshot:
        """Resolve, commit and apply one game action."""
        match, match_id = self._require_match()
        event, state = match.resolve(action, self._rng)
        version = self._record(match_id, EVENT, event, match.game.winner(state),
                               match.game.summary(state), lambda: match.game.view(state))
        match.push(event, state)
        return self._publish(version, _change("event", match_id, event))

    def undo(self) -> Snapshot:
        """Take back the last event (a finished match reopens)."""
        return self._step(UNDO)

    def redo(self) -> Snapshot:
        """Put back the last undone event exactly as it was resolved."""
        return self._step(REDO)

    def abandon(self) -> Snapshot:
        """End the unfinished match without a result; the table is then empty."""
        match, match_id = self._require_match()
        if match.is_over:
            raise IllegalAction(_("this match is over and kept in the history; start a new one"))
        version = self._commit(lambda: self._store.set_status(
            match_id, ABANDONED, summary=match.game.summary(match.state)))
        self._match = self._match_id = None
        return self._publish(version, _change("abandon", match_id))

    def _step(self, op: str) -> Snapshot:
        match, match_id = self._require_match()
        # Try it on the match first so a refusal changes nothing stored; the
        # in-memory step is reversed if the commit then fails.
        do, undo = (match.undo, match.redo) if op == UNDO else (match.redo, match.undo)
        # What an undo takes back, told from the view that still shows it; what a redo
        # puts back, from the view that shows it again.
        view = match.view() if op == UNDO else None
        event = do()
        told = undone_of(match.view() if view is None else view, match.start.players, event)
        try:
            version = self._record(match_id, op, None, match.game.winner(match.state),
                                   match.game.summary(match.state), match.view)
        except BaseException:
            undo()
            raise
        return self._publish(version, _change(op, match_id, event), told if op == UNDO else None,
                             told if op == REDO else None)

    def _record(self, match_id: int, op: str, event: JSON | None, winner: Any,
                summary: str, view: Callable[[], JSON]) -> int:
        status = ACTIVE if winner is None else FINISHED
        assert self._match is not None
        # The standing (who placed where) goes with a finished match: the ratings read it.
        placed = None if winner is None else standing(
            self.catalog.kit(self._match.start.game), view())
        version = self._commit(lambda: self._store.record(match_id, op, event, status=status,
                                                          winner=winner, summary=summary,
                                                          standing=placed))
        if status == FINISHED or any(r["match"] == match_id for r in self._results):
            self._read_results()  # a match finished, or a finished one was undone
        return version

    def _read_results(self) -> None:
        """The last finished matches, as the hall's leaderboard is sent them."""
        self._results = tuple(
            {"match": m.id, "game": m.game, "players": list(m.players),
             "standing": m.standing, "started_at": round(m.started_at, 3),
             # The hall's ruling it carries: only when it has one in force.
             **({} if m.ruling is None else {"ruling": {
                 k: m.ruling[k] for k in ("id", "kind", "reason")}}),
             # The hall's event it was played for: only when it had one.
             **({} if m.event is None else {"event": m.event})}
            for m in self._store.finished(last=RESULTS_KEPT))
        self._rulings = tuple(self._store.rulings_taken(RESULTS_KEPT))

    def _known_names(self, record: object) -> object:
        """``record`` with each name a known player goes by in that player's own form
        ("ann " for Ann); anything else as it is, for the rules to judge."""
        if not isinstance(record, dict) or not isinstance(record.get("players"), list):
            return record
        known = self._store.names()
        names = [known.get(name_key(n), n) if isinstance(n, str) else n
                 for n in record["players"]]
        return {**record, "players": names}

    def rename_player(self, old: str, new: object) -> Snapshot:
        """Show player ``old`` as ``new`` in every stored match and on the table
        (Store.rename_player says what is refused)."""
        version = self._commit(lambda: self._store.rename_player(old, new, self._summary_of))
        return self._reload(version)

    def merge_players(self, source: str, target: str) -> Snapshot:
        """Make ``source`` one player with ``target`` (Store.merge_players)."""
        version = self._commit(lambda: self._store.merge_players(source, target,
                                                                 self._summary_of))
        return self._reload(version)

    def apply_rulings(self, rulings: Iterable[Ruling]) -> Snapshot | None:
        """Lay the hall's rulings (companion/rulings.py) on the finished matches they
        name, each once; the new snapshot (its results carry them, which is how the hall
        learns they were taken), or None when none changed anything. A ruling of another
        database (``epoch``), or one the hall may not give, is left, logged once."""
        version = None
        for ruling in rulings:
            if ruling.epoch != self._store.epoch or ruling.id in self._rulings:
                continue  # another database's (the hall heard of it), or taken lately
            try:
                done = self._commit(functools.partial(self._store.apply_ruling, ruling))
            except InvalidAction as err:
                if ruling.id not in self._refused_rulings:
                    if len(self._refused_rulings) >= MAX_REFUSED:
                        self._refused_rulings.clear()  # bounded: at worst said again
                    self._refused_rulings.add(ruling.id)
                    log.warning("the hall's ruling cannot be taken: %s", err)
                continue
            if done is not None:
                version = done
                log.info("the hall's director %s the result of match %d (ruling %s)",
                         "corrected" if ruling.kind == CORRECTED else "kept",
                         ruling.match, ruling.id)
        if version is None:
            return None
        if self._match_id is not None:
            self._match = replay_stored(self._store.load(self._match_id), self.catalog)
        self._read_results()
        return self._publish(version, _change("ruling", self._match_id or 0))

    def _reload(self, version: int) -> Snapshot:
        """The table's match read again after a change to its players' names."""
        if self._match_id is not None:
            self._match = replay_stored(self._store.load(self._match_id), self.catalog)
        self._read_results()
        return self._publish(version, _change("players", self._match_id or 0))

    def _summary_of(self, stored: StoredMatch) -> str:
        return summary_of(stored, self.catalog)

    def _commit(self, write: Callable[[], T]) -> T:
        """``write()`` (a store write); a refusal for want of storage is told to
        :meth:`on_trouble`'s subscribers before it is raised."""
        try:
            return write()
        except StoreUnavailable as err:
            self._troubles.notify(err)
            raise

    def _require_match(self) -> tuple[Match, int]:
        if self._match is None or self._match_id is None:
            raise NoMatch(_("no match is running: start one first"))
        return self._match, self._match_id

    @property
    def store(self) -> Store:
        """The table's store, for readers on any thread: its reads never wait on a commit."""
        return self._store

    def history(self, limit: int | None = None) -> list[MatchSummary]:
        """Stored matches, newest first. Safe from any thread."""
        return self._store.history(limit)

    def stored(self, match_id: int) -> StoredMatch:
        """One stored match with its journal; StoreError if unknown. Safe from any thread."""
        return self._store.load(match_id)

    # --- outputs -------------------------------------------------------------

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call ``subscriber(snapshot)`` after every committed change.

        It runs on the writer thread, so it must only hand the snapshot on
        (enqueue, notify), never block. Returns a function that unsubscribes.
        """
        return self._subscribers.add(subscriber)

    def on_trouble(self, subscriber: Callable[[StoreUnavailable], None]) -> Callable[[], None]:
        """Call ``subscriber(err)`` when a change is refused because the store cannot take
        it (StoreUnavailable: database gone, disk full, read-only), whoever asked for the
        change; on the writer thread, like :meth:`subscribe`. Returns the unsubscriber."""
        return self._troubles.add(subscriber)

    def _publish(self, version: int, change: JSON, undone: JSON | None = None,
                 redone: JSON | None = None) -> Snapshot:
        self.snapshot = snapshot = self._snapshot(version, change, undone, redone)
        self._subscribers.notify(snapshot)
        return snapshot

    def _snapshot(self, version: int, change: JSON | None = None,
                  undone: JSON | None = None, redone: JSON | None = None) -> Snapshot:
        match = self._match
        if match is None:
            return Snapshot(version, None, self._store.epoch, change, self._results,
                            rulings=self._rulings)
        return Snapshot(version, match_json(match, self._match_id,
                                            FINISHED if match.is_over else ACTIVE,
                                            self.catalog),
                        self._store.epoch, change, self._results, undone, redone,
                        self._rulings)


def summary_of(stored: StoredMatch, catalog: Catalog) -> str:
    """A stored match's summary line, from its replay through ``catalog``'s rules (after
    its players were renamed)."""
    match = replay_stored(stored, catalog, check_result=False)
    return match.game.summary(match.state)


def _change(op: str, match_id: int, event: JSON | None = None) -> JSON:
    """A :attr:`Snapshot.change`."""
    return {"op": op, "match": match_id, "event": event}


def match_json(match: Match, match_id: int | None, status: str, catalog: Catalog) -> JSON:
    """``match`` as the state's ``match`` shows it (docs/api.md), its card drawn by its
    game's kit in ``catalog``."""
    body = {
        "id": match_id,
        "game": match.start.game,
        "players": list(match.start.players),
        "options": dict(match.start.options),
        # The hall's event it is played for (companion/match.py check_event), or None.
        "event": None if match.start.event is None else dict(match.start.event),
        "status": status,
        "can_undo": match.can_undo,
        "can_redo": match.can_redo,
        "legal": match.game.legal(match.state),
        "turn": list(match.game.turn(match.state)),
        "view": match.view(),
    }
    # The score as the hall's card reads it (the game's card face): the pages' score
    # header and the board of a game without a script of its own draw it.
    body["card"] = score_card(body, catalog)
    return body


class TableRunner:
    """Owns a :class:`Table` on one thread; any thread may submit work.

    ``submit(fn)`` queues ``fn(table)`` and returns a Future of its result,
    so library callbacks (GPIO, serial, web) only enqueue. ``call`` waits for
    the result and re-raises what ``fn`` raised. Work whose future was
    cancelled before its turn is skipped: it never runs. Use as a context
    manager or call :meth:`close`, which is idempotent.
    """

    _STOP = object()

    def __init__(self, table: Table) -> None:
        self.table = table
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="table-writer", daemon=True)
        self._closed = False
        #: When the work running now began (monotonic), None while idle.
        self._began: float | None = None
        self._thread.start()

    def __enter__(self) -> TableRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def submit(self, fn: Callable[[Table], T]) -> Future[T]:
        """Queue ``fn(table)`` for the writer thread."""
        if self._closed:
            raise RuntimeError("the table runner is closed")
        future: Future[T] = Future()
        self._queue.put((fn, future))
        return future

    def call(self, fn: Callable[[Table], T], timeout: float | None = 10.0) -> T:
        """Run ``fn(table)`` on the writer thread and return its result."""
        return self.submit(fn).result(timeout)

    def stalled(self, limit: float) -> bool:
        """Whether the writer is stuck: its thread is gone, or one piece of work has run
        longer than ``limit`` seconds. A long queue of work that each finishes in time is
        progress, not a stall. Safe from any thread."""
        began = self._began
        if began is not None:
            return time.monotonic() - began > limit
        return not self._thread.is_alive() and not self._closed

    def close(self, timeout: float = 10.0) -> None:
        """Finish the queued work, then stop the thread."""
        if self._closed:
            return
        self._closed = True
        self._queue.put(self._STOP)
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is self._STOP:
                return
            fn, future = item
            if not future.set_running_or_notify_cancel():
                continue  # cancelled while it waited: it never runs
            self._began = time.monotonic()
            try:
                future.set_result(fn(self.table))
            except BaseException as err:  # handed to the caller, never lost
                future.set_exception(err)
            finally:
                self._began = None


class Lane:
    """A bounded share of a runner's queue: at most ``limit`` pieces of work queued or running.

    Inputs (buttons, the serial pad) go through a lane, so a flood of them
    cannot grow the writer's queue without bound; work submitted to the
    runner directly (host requests, the watchdog) is not counted and still
    gets through. Safe from any thread.
    """

    def __init__(self, runner: TableRunner, limit: int) -> None:
        self._runner, self.limit = runner, limit
        self._waiting = 0
        self._lock = threading.Lock()
        #: Work refused since the lane was made.
        self.dropped = 0

    def submit(self, fn: Callable[[Table], T]) -> Future[T] | None:
        """Queue ``fn(table)`` like :meth:`TableRunner.submit`; None (dropped) when full."""
        with self._lock:
            if self._waiting >= self.limit:
                self.dropped += 1
                return None
            self._waiting += 1
        try:
            future = self._runner.submit(fn)
        except BaseException:
            self._done(None)
            raise
        future.add_done_callback(self._done)
        return future

    def _done(self, _future: object) -> None:
        with self._lock:
            self._waiting -= 1
