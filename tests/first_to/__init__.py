"""First to N: a test-only game, two seats, a point at a time, first to ``target`` wins.

It is the proof that a game is a folder and a catalog line: nothing else in the
project is written for it. It brings only its rules (no ``kit.py``: no panel, no
OLED, no card, no page scripts), so every output shows it through the generic
faces. The tests load it as the catalog loads each folder it lists, into a catalog
of their own: ``build().plus(load("tests.first_to"))`` (tests/support.py
``with_first_to``; the ``first_to_game`` fixture puts it in a test's ``catalog``).
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
    check_option_keys,
    check_players,
    integer,
    with_item,
)
from companion.games.chart import Chart, Mark, Series, Step

GAME_ID = "first-to"
SEATS = (2, 2)
OPTIONS = (OptionSpec("target", "Target", ((3, "3 points"), (5, "5 points")), 3),)


@dataclass(frozen=True)
class State:
    players: tuple[str, str]
    target: int
    scores: tuple[int, int] = (0, 0)


def prepare(players: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> JSON:
    check_players(players, SEATS)
    options = check_option_keys(options, [o.key for o in OPTIONS])
    return {o.key: o.read(options) for o in OPTIONS}


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


def summary(state: State) -> str:
    return "-".join(str(s) for s in state.scores)


def timeline(steps: Sequence[Step]) -> Chart:
    names = steps[0].view["players"]
    lines = [Series(name, f"player-{i}", [(0, 0)]) for i, name in enumerate(names)]
    for step in steps[1:]:
        for i, line in enumerate(lines):
            line.add(step.number, step.view["scores"][i])
    last = steps[-1].view
    marks = [] if last["winner"] is None else [
        Mark(len(steps) - 1, "win", f"{names[last['winner']]} wins",
             f"player-{last['winner']}")]
    return Chart("Points", "point", "points", lines,
                 f"Points: {names[0]} {last['scores'][0]}, {names[1]} {last['scores'][1]}.",
                 marks)


GAME = Game(
    id=GAME_ID, title="First to N", seats=SEATS, options=OPTIONS, prepare=prepare,
    setup=setup, legal=legal, resolve=resolve, apply=apply, view=view, winner=winner,
    summary=summary, turn=lambda state: (), again=dict, timeline=timeline,
)
