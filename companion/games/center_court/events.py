"""Center Court's events applied: serves, returns and points scored as in tennis."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.center_court.state import (
    Rally,
    ServeRecord,
    SetScore,
    State,
    Stats,
    in_tiebreak,
    match_tiebreak,
    server,
    sets_to_win,
    sets_won,
)
from companion.i18n import C_

#: The words for each kind of event, by its type (what an undo took back is said with
#: them: companion/undone.py).
EVENT_WORDS = {"serve": C_("event", "serve"), "return": C_("event", "return"),
               "point": C_("event", "point")}


def apply(state: State, event: Mapping[str, Any]) -> State:
    """The state after a resolved event."""
    kind = event["type"]
    if kind == "point":
        return _win_point(state, event["winner"])
    if kind == "return":
        assert state.rally is not None
        rally = replace(state.rally, volley=event["card"], to_return=1 - state.rally.to_return,
                        returns=state.rally.returns + 1)
        return replace(state, call=None, rally=rally)
    return _serve(state, event["card"], event.get("roll"))


def _serve(state: State, card: int, roll: int | None) -> State:
    player = server(state)
    fault = roll == card
    record = ServeRecord(player=player, card=card, roll=roll, fault=fault)
    cards = (card, state.serve_cards[1]) if player == 0 else (state.serve_cards[0], card)
    state = replace(state, serve_cards=cards)
    if not fault:
        return replace(state, last_serve=record, call=None, serve=1,
                       rally=Rally(volley=card, to_return=1 - player, serve=state.serve))
    stats = _bump(state.stats, player, faults=1)
    if state.serve == 1:
        return replace(state, last_serve=record, serve=2, stats=stats, call="fault")
    stats = _bump(stats, player, double_faults=1)
    state = _win_point(replace(state, last_serve=record, stats=stats), 1 - player)
    return replace(state, call="double_fault")


def _win_point(state: State, winner: int) -> State:
    served = server(state)
    state = _score_point(state, winner, served)
    if state.winner is not None:
        state = replace(state, match_point_server=served)
    return state


def _score_point(state: State, winner: int, served: int) -> State:
    stats = _bump(state.stats, winner, points_won=1, serve_points_won=int(served == winner))
    points = _add(state.points, winner)
    # A point won without a ball in play (a double fault, a point entered as such) adds
    # no rally.
    shots = state.rally.returns + 1 if state.rally else 0
    state = replace(state, stats=stats, points=points, serve=1, rally=None, call=None,
                    longest_rally=max(state.longest_rally, shots))
    if match_tiebreak(state):
        if _decided(points, winner, 10):
            return _win_set(state, winner, SetScore(_add((0, 0), winner), points))
        return state
    if in_tiebreak(state):
        if _decided(points, winner, 7):
            return _win_set(state, winner, SetScore(_add(state.games, winner), points))
        return state
    game_won = points[winner] >= 4 and (
        points[winner] - points[1 - winner] >= 2 or state.options.no_ad
    )
    if not game_won:
        return state
    games = _add(state.games, winner)
    state = replace(state, games=games, points=(0, 0), service=state.service.advance())
    if games[winner] >= 6 and games[winner] - games[1 - winner] >= 2:
        return _win_set(state, winner, SetScore(games))
    return state


def _win_set(state: State, winner: int, score: SetScore) -> State:
    # A tiebreak is one game for the service order: whoever received its
    # first point serves next. A set won on an ordinary game has advanced it.
    service = state.service.advance() if score.tiebreak is not None else state.service
    state = replace(state, sets=(*state.sets, score), games=(0, 0), points=(0, 0),
                    service=service)
    if sets_won(state)[winner] == sets_to_win(state.options):
        state = replace(state, winner=winner)
    return state


def _decided(points: tuple[int, int], winner: int, target: int) -> bool:
    return points[winner] >= target and points[winner] - points[1 - winner] >= 2


def _add(pair: tuple[int, int], index: int) -> tuple[int, int]:
    return (pair[0] + 1, pair[1]) if index == 0 else (pair[0], pair[1] + 1)


def _bump(stats: tuple[Stats, Stats], player: int, **increments: int) -> tuple[Stats, Stats]:
    old = stats[player]
    new = replace(old, **{k: getattr(old, k) + v for k, v in increments.items()})
    return (new, stats[1]) if player == 0 else (stats[0], new)

