"""A match as a log: its start record, resolved events, undo and redo.

This is the engine every game runs on. It is pure bookkeeping: no threads,
no storage, no outputs (the :class:`~companion.table.Table` adds those). The
log is the truth: the state is always the replay of ``events`` from the
start record, and undo/redo move resolved events between the log and the
redo stack, so a dice result is never rolled again.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.catalog import Catalog
from companion.errors import IllegalAction, InvalidAction
from companion.games import Game
from companion.games.base import JSON, check_players
from companion.i18n import _

#: Table-level operations in a journal, besides game events.
UNDO, REDO, EVENT = "undo", "redo", "event"

#: The fields of a start record's optional ``event``: the hall's tournament event the
#: match is played for (docs/api.md, "Offers from the hall").
EVENT_FIELDS = ("id", "name", "round", "pairing", "offer")
#: An event's, a pairing's and an offer's id: 1-64 of these characters.
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")  # i18n: not said
#: The longest event name kept.
MAX_EVENT_NAME = 60


def check_event(event: object) -> dict[str, Any]:
    """A start record's ``event`` as kept, or InvalidAction naming the field at fault.

    ``{"id", "name", "round", "pairing", "offer"}``, all required: ids of 1-64
    of ``A-Z a-z 0-9 _ -``, a printable name of at most 60 characters (runs of
    spaces made one), a round from 1.
    """
    if not isinstance(event, Mapping):
        raise InvalidAction(_("'event' must be a JSON object with {fields}",
                              fields=", ".join(repr(f) for f in EVENT_FIELDS)))
    extra = sorted(set(event) - set(EVENT_FIELDS))
    if extra:
        raise InvalidAction(_("'event' has no field {field}", field=repr(extra[0])))
    missing = [f for f in EVENT_FIELDS if f not in event]
    if missing:
        raise InvalidAction(_("'event' needs {field}", field=repr(missing[0])))
    for key in ("id", "pairing", "offer"):
        value = event[key]
        if not isinstance(value, str) or not ID_PATTERN.fullmatch(value):
            raise InvalidAction(_("event {field} must be 1-64 of A-Z, a-z, 0-9, _ and -; got "
                                  "{value}", field=repr(key), value=json.dumps(value)[:40]))
    name = event["name"]
    if not isinstance(name, str) or not name.strip() or not name.isprintable():
        raise InvalidAction(_("event 'name' must be printable text, not empty"))
    name = " ".join(name.split())
    if len(name) > MAX_EVENT_NAME:
        raise InvalidAction(_("event 'name' must be at most {most} characters",
                              most=MAX_EVENT_NAME))
    number = event["round"]
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 10_000:
        raise InvalidAction(_("event 'round' must be a whole number from 1; got {value}",
                              value=json.dumps(number)[:20]))
    return {"id": event["id"], "name": name, "round": number, "pairing": event["pairing"],
            "offer": event["offer"]}


@dataclass(frozen=True)
class StartRecord:
    """Line 1 of a match file: the game, the players and complete options, and the
    hall's event the match is played for, if any (:func:`check_event`)."""

    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any]
    event: Mapping[str, Any] | None = None

    @classmethod
    def create(cls, record: object, rng: random.Random, catalog: Catalog) -> StartRecord:
        """A checked start record of a game of ``catalog``, its options filled in.

        Device decisions (a coin flip for the first server) are made here with
        ``rng`` and written into the options, so a replay repeats them.
        Raises InvalidAction naming the field at fault.
        """
        if not isinstance(record, Mapping):
            raise InvalidAction(_("a start record must be a JSON object with 'game' and "
                                  "'players'"))
        extra = sorted(set(record) - {"game", "players", "options", "event"})
        if extra == ["started"]:
            raise InvalidAction(_("'started' belongs to match files (replay, import): a "
                                  "match started here starts now"))
        if extra:
            raise InvalidAction(_("a start record has no field {field}",
                                  field=repr(extra[0])))
        if "game" not in record:
            raise InvalidAction(_('the start record has no "game"; one of: {games}',
                                  games=", ".join(catalog)))
        game = catalog.game(record["game"])
        players = check_players(record.get("players"), game.seats)
        options = record.get("options")
        if options is None:  # left out (or null): the game's defaults
            options = {}
        elif not isinstance(options, Mapping):
            raise InvalidAction(_("'options' must be a JSON object of the game's options, "
                                  "such as {empty}; got {value}", empty="{}",
                                  value=json.dumps(options)[:40]))
        options = game.prepare(players, options, rng)
        event = record.get("event")
        return cls(game.id, players, options, None if event is None else check_event(event))

    def to_json(self) -> JSON:
        record = {"game": self.game, "players": list(self.players),
                  "options": dict(self.options)}
        if self.event is not None:
            record["event"] = dict(self.event)
        return record


class Match:
    """A running match: the state after its log, with undo and redo.

    Not thread-safe: one owner (the table's writer thread) drives it. Its game is
    ``start``'s in ``catalog`` (InvalidAction for a game the catalog does not know).
    """

    def __init__(self, start: StartRecord, catalog: Catalog) -> None:
        self.start = start
        self.game: Game = catalog.game(start.game)
        # _states[i] is the state after the first i events; undo is a pop.
        self._states: list[Any] = [self.game.setup(start.players, start.options)]
        self._events: list[JSON] = []
        self._undone: list[JSON] = []

    def __repr__(self) -> str:
        return (f"<Match {self.start.game} {list(self.start.players)} "  # i18n: not said
                f"events={len(self._events)}>")

    @property
    def state(self) -> Any:
        """The current game state."""
        return self._states[-1]

    @property
    def events(self) -> tuple[JSON, ...]:
        """The resolved events that make the current state."""
        return tuple(self._events)

    @property
    def states(self) -> tuple[Any, ...]:
        """The state before the first event, then after each event of :attr:`events`."""
        return tuple(self._states)

    @property
    def can_undo(self) -> bool:
        return bool(self._events)

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    @property
    def is_over(self) -> bool:
        return self.game.winner(self.state) is not None

    def view(self) -> JSON:
        return self.game.view(self.state)

    def resolve(self, action: object, rng: random.Random) -> tuple[JSON, Any]:
        """The event ``action`` resolves to and the state it would lead to.

        Changes nothing, so the caller can commit the event first and only
        then :meth:`push` it. Raises InvalidAction or IllegalAction. ``action``
        is untrusted JSON of any shape: the game's ``resolve`` is only asked about
        an object.
        """
        if not isinstance(action, Mapping):
            raise InvalidAction(_("an action must be a JSON object with a 'type'"))
        event = self.game.resolve(self.state, action, rng)
        return event, self.game.apply(self.state, event)

    def push(self, event: JSON, state: Any = None) -> None:
        """Append a resolved event (with its state from :meth:`resolve`).

        A new event ends the redo history, as in any editor.
        """
        self._states.append(self.game.apply(self.state, event) if state is None else state)
        self._events.append(event)
        self._undone.clear()

    def undo(self) -> JSON:
        """Take back the last event and return it; IllegalAction if none."""
        if not self._events:
            raise IllegalAction(_("nothing to undo: no action has been recorded in this match"))
        self._states.pop()
        event = self._events.pop()
        self._undone.append(event)
        return event

    def redo(self) -> JSON:
        """Put back the last undone event, exactly as it was resolved."""
        if not self._undone:
            raise IllegalAction(_("nothing to redo: no action was undone since the last one"))
        event = self._undone.pop()
        self._states.append(self.game.apply(self.state, event))
        self._events.append(event)
        return event

    def replay(self, journal: Iterable[tuple[str, JSON | None]]) -> None:
        """Apply stored journal entries (already resolved events, undo, redo)."""
        for op, event in journal:
            if op == EVENT:
                assert event is not None
                self.push(event)
            elif op == UNDO:
                self.undo()
            elif op == REDO:
                self.redo()
            else:
                raise ValueError(f"unknown journal operation {op!r}")

