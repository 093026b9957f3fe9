"""First to N: a test-only game, two seats, a point at a time, first to ``target`` wins.

It is the proof that a game is a folder and a catalog line: nothing else in the
project is written for it. It brings only its rules (no ``kit.py``: no panel, no
OLED, no card, no page scripts), so every output shows it through the generic
faces, and it leaves out of its ``Game`` all that ``Game`` gives by default (no
turn order, no rematch choices, the options read from their menu, the score line
and the timeline from its view's players and scores): the smallest complete game,
as README's "How to add a game" shows it. The tests load it as the catalog loads
each folder it lists, into a catalog of their own:
``build().plus(load("tests.first_to"))`` (tests/support.py ``with_first_to``; the
``first_to_game`` fixture puts it in a test's ``catalog``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import IllegalAction
from companion.games.base import (
    JSON,
    Game,
    OptionSpec,
    action_type,
    check_fields,
    integer,
    with_item,
)

GAME_ID = "first-to"
SEATS = (2, 2)
OPTIONS = (OptionSpec("target", "Target", ((3, "3 points"), (5, "5 points")), 3),)


@dataclass(frozen=True)
class State:
    players: tuple[str, str]
    target: int
    scores: tuple[int, int] = (0, 0)


def setup(players: Sequence[str], options: Mapping[str, Any]) -> State:
    return State(tuple(players), options["target"])  # type: ignore[arg-type]


def winner(state: State) -> int | None:
    return next((i for i, s in enumerate(state.scores) if s >= state.target), None)


def legal(state: State) -> list[JSON]:
    return [] if winner(state) is not None else [{"type": "point", "seat": [0, 1]}]


def resolve(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    action_type(action, ("point",))
    check_fields(action, ("seat",))
    seat = integer(action, "seat", 0, 1)
    if winner(state) is not None:
        raise IllegalAction("the game is over: start a new one")
    return {"type": "point", "seat": seat}


def apply(state: State, event: Mapping[str, Any]) -> State:
    seat = event["seat"]
    return replace(state, scores=with_item(state.scores, seat, state.scores[seat] + 1))


def view(state: State) -> JSON:
    return {"players": list(state.players), "scores": list(state.scores),
            "target": state.target, "winner": winner(state)}


GAME = Game(id=GAME_ID, title="First to N", seats=SEATS, options=OPTIONS, setup=setup,
            legal=legal, resolve=resolve, apply=apply, view=view, winner=winner)
