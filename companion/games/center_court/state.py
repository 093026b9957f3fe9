"""Center Court's state: the match as frozen data, its setup and the facts derived from it
(whose serve, which set, a tiebreak or not)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.base import (
    check_players,
)
from companion.turns import TurnOrder

GAME_ID = "center-court"


#: The Service Die's faces.
SERVICE_DIE = (1, 1, 2, 5, 6, 6)


#: Serve values that are rolled for; 3 and 4 never are.
ROLLED_SERVES = frozenset({1, 2, 5, 6})


CARD_VALUES = range(1, 7)


#: Cards of one value in the deck, so no return needs more.
CARDS_PER_VALUE = 6


@dataclass(frozen=True)
class Options:
    """The match format; every field has its default from the contract."""

    sets: int = 3
    no_ad: bool = False
    final_set: str = "tiebreak"
    first_server: int = 0


@dataclass(frozen=True)
class ServeRecord:
    """The last serve: who, which card, what the die showed, and a fault or not."""

    player: int
    card: int
    roll: int | None
    fault: bool


@dataclass(frozen=True)
class Rally:
    """A ball in play: the value to return, who has to return it, which serve
    (1 or 2) put it in play, and the returns played since."""

    volley: int
    to_return: int
    serve: int = 1
    #: Returns played since the serve (0: the serve itself is the ball in play).
    returns: int = 0


@dataclass(frozen=True)
class SetScore:
    """A completed set: the games, and the tiebreak points if one decided it.

    A match tiebreak that replaced the final set has ``games`` (1, 0) or
    (0, 1) and its points in ``tiebreak``.
    """

    games: tuple[int, int]
    tiebreak: tuple[int, int] | None = None


@dataclass(frozen=True)
class Stats:
    """One player's counts over the match."""

    faults: int = 0
    double_faults: int = 0
    serve_points_won: int = 0
    points_won: int = 0


@dataclass(frozen=True)
class State:
    """The whole match; everything shown is derived from it."""

    players: tuple[str, str]
    options: Options
    #: Who serves the current game; advanced once per game (tiebreaks included).
    service: TurnOrder[int]
    sets: tuple[SetScore, ...] = ()
    games: tuple[int, int] = (0, 0)
    #: Points won in the current game or tiebreak, as plain counts.
    points: tuple[int, int] = (0, 0)
    #: 1 or 2: the serve due next. 2 only between a first-serve fault and the
    #: second serve; a good serve puts the ball in play and the next point
    #: starts with a first serve again.
    serve: int = 1
    rally: Rally | None = None
    last_serve: ServeRecord | None = None
    #: Each player's card on their latest serve in this match (faults included).
    serve_cards: tuple[int | None, int | None] = (None, None)
    #: What the last event calls out: "fault", "double_fault" or None.
    call: str | None = None
    winner: int | None = None
    #: Who served the point that won the match (None while it runs).
    match_point_server: int | None = None
    stats: tuple[Stats, Stats] = (Stats(), Stats())
    #: The most shots in one rally of the match: its serve that went in and every
    #: return, counted when the point ends (0 before any point is played out).
    longest_rally: int = 0


def setup(players: Sequence[str], options: Mapping[str, Any]) -> State:
    """The match before the first serve, from prepared options."""
    names = check_players(players, (2, 2))
    opts = Options(
        sets=options["sets"],
        no_ad=options["no_ad"],
        final_set=options["final_set"],
        first_server=options["first_server"],
    )
    first = opts.first_server
    return State(players=(names[0], names[1]), options=opts,
                 service=TurnOrder((first, 1 - first)))


def sets_won(state: State) -> tuple[int, int]:
    """Sets won by each player."""
    won = [0, 0]
    for s in state.sets:
        won[0 if s.games[0] > s.games[1] else 1] += 1
    return won[0], won[1]


def sets_to_win(options: Options) -> int:
    """How many sets win the match: 1, 2 or 3."""
    return options.sets // 2 + 1


def is_final_set(state: State) -> bool:
    """Whether the set being played is the deciding one.

    Once the match is won no set is being played, so never then: a match won
    2-0 must not read as being in its (match-tiebreak) final set.
    """
    return state.winner is None and len(state.sets) == state.options.sets - 1


def match_tiebreak(state: State) -> bool:
    """Whether the current 'set' is a match tiebreak (first to 10)."""
    return is_final_set(state) and state.options.final_set == "match-tiebreak"


def in_tiebreak(state: State) -> bool:
    """Whether points are counted as a tiebreak (set or match tiebreak)."""
    if match_tiebreak(state):
        return True
    advantage_set = is_final_set(state) and state.options.final_set == "advantage"
    return state.games == (6, 6) and not advantage_set


def server(state: State) -> int:
    """Who serves the next (or current) point.

    Outside a tiebreak the game's server. In a tiebreak the game's server
    serves the first point, then the players serve two points each. Once the
    match is won nobody serves again: the answer is who served match point.
    """
    if state.match_point_server is not None:
        return state.match_point_server
    game_server = state.service.current
    if not in_tiebreak(state):
        return game_server
    played = sum(state.points)
    if played == 0:
        return game_server
    return 1 - game_server if (played - 1) // 2 % 2 == 0 else game_server

