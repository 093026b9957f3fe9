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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.catalog import GAMES, get_game
from companion.errors import IllegalAction, InvalidAction
from companion.games import Game
from companion.games.base import JSON, check_players

#: Table-level operations in a journal, besides game events.
UNDO, REDO, EVENT = "undo", "redo", "event"


@dataclass(frozen=True)
class StartRecord:
    """Line 1 of a match file: the game, the players and complete options."""

    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any]

    @classmethod
    def create(cls, record: object, rng: random.Random) -> StartRecord:
        """A checked start record with the game's options filled in.

        Device decisions (a coin flip for the first server) are made here with
        ``rng`` and written into the options, so a replay repeats them.
        Raises InvalidAction naming the field at fault.
        """
        if not isinstance(record, Mapping):
            raise InvalidAction("a start record must be a JSON object with 'game' and 'players'")
        extra = sorted(set(record) - {"game", "players", "options"})
        if extra == ["started"]:
            raise InvalidAction("'started' belongs to match files (replay, import): "
                                "a match started here starts now")
        if extra:
            raise InvalidAction(f"a start record has no field {extra[0]!r}")
        if "game" not in record:
            raise InvalidAction(f'the start record has no "game"; one of: {", ".join(GAMES)}')
        game = get_game(record["game"])
        players = check_players(record.get("players"), game.seats)
        options = record.get("options")
        if options is None:  # left out (or null): the game's defaults
            options = {}
        elif not isinstance(options, Mapping):
            raise InvalidAction(f"'options' must be a JSON object of the game's options, "
                                f"such as {{}}; got {json.dumps(options)[:40]}")
        options = game.prepare(players, options, rng)
        return cls(game.id, players, options)

    def to_json(self) -> JSON:
        return {"game": self.game, "players": list(self.players), "options": dict(self.options)}


class Match:
    """A running match: the state after its log, with undo and redo.

    Not thread-safe: one owner (the table's writer thread) drives it.
    """

    def __init__(self, start: StartRecord) -> None:
        self.start = start
        self.game: Game = get_game(start.game)
        # _states[i] is the state after the first i events; undo is a pop.
        self._states: list[Any] = [self.game.setup(start.players, start.options)]
        self._events: list[JSON] = []
        self._undone: list[JSON] = []

    def __repr__(self) -> str:
        return f"<Match {self.start.game} {list(self.start.players)} events={len(self._events)}>"

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
        then :meth:`push` it. Raises InvalidAction or IllegalAction.
        """
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
            raise IllegalAction("nothing to undo: no action has been recorded in this match")
        self._states.pop()
        event = self._events.pop()
        self._undone.append(event)
        return event

    def redo(self) -> JSON:
        """Put back the last undone event, exactly as it was resolved."""
        if not self._undone:
            raise IllegalAction("nothing to redo: no action was undone since the last one")
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

