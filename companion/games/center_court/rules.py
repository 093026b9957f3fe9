"""Center Court: the tennis card game, scored as real tennis.

The companion keeps the score, the server, the Service Die serves and the
volley value of a rally; the players keep their cards. The rules applied
(docs/rules.md, after shared/RULINGS.md):

- A serve of 1, 2, 5 or 6 rolls the Service Die (faces 1, 1, 2, 5, 6, 6); a
  roll equal to the card is a fault. A 3 or a 4 needs no roll and never
  faults. Two faults in a row are a double fault: the receiver wins the point.
- A volley of value V is returned with k = 1 + |v - V| cards of value v.
- Games, sets and the match as in tennis, with the options ``sets`` (1, 3,
  5), ``no_ad``, ``final_set`` (tiebreak, advantage, match-tiebreak) and
  ``first_server`` (0, 1 or "coin").
- The server changes every game; a tiebreak counts as one game for that
  (so whoever received its first point serves the next set's first game),
  and inside it the service goes 1, 2, 2, 2, ...
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
    again_with,
    check_fields,
    check_option_keys,
    check_players,
    integer,
)
from companion.games.chart import Chart, Mark, Series, Step
from companion.turns import TurnOrder

GAME_ID = "center-court"

#: The Service Die's faces.
SERVICE_DIE = (1, 1, 2, 5, 6, 6)
#: Serve values that are rolled for; 3 and 4 never are.
ROLLED_SERVES = frozenset({1, 2, 5, 6})
CARD_VALUES = range(1, 7)
#: Cards of one value in the deck, so no return needs more.
CARDS_PER_VALUE = 6

OPTIONS = (
    OptionSpec("sets", "Sets", ((1, "Best of 1"), (3, "Best of 3"), (5, "Best of 5")), 3),
    OptionSpec("no_ad", "Deuce", ((False, "Advantage"), (True, "No-ad")), False),
    OptionSpec("final_set", "Final set",
               (("tiebreak", "Tiebreak"), ("advantage", "Advantage"),
                ("match-tiebreak", "Match TB 10")), "tiebreak"),
    OptionSpec("first_server", "Serves 1st", ((0, "Player 1"), (1, "Player 2"),
                                              ("coin", "Coin flip")), 0),
)
#: Written by prepare: whether the device flipped for the first server.
COIN_FLIP = OptionSpec("coin_flip", "Coin flip", ((False, "No"), (True, "Yes")), False)
ACTIONS = ("serve", "return", "point")

_POINT_NAMES = ("0", "15", "30", "40")


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


# --- options and setup -------------------------------------------------------


def prepare(players: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> JSON:
    """Checked, complete options; ``first_server: "coin"`` is flipped here."""
    check_players(players, (2, 2))
    options = check_option_keys(options, [o.key for o in (*OPTIONS, COIN_FLIP)])
    prepared = {spec.key: spec.read(options) for spec in (*OPTIONS, COIN_FLIP)}
    if prepared["first_server"] == "coin":
        # Kept in the record so the history shows the device decided.
        prepared["first_server"], prepared["coin_flip"] = rng.randrange(2), True
    return prepared


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


# --- derived facts -----------------------------------------------------------


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


def return_count(volley: int, card: int) -> int:
    """Cards of value ``card`` needed to return a volley of value ``volley``."""
    return 1 + abs(card - volley)


def valid_returns(volley: int) -> list[tuple[int, int]]:
    """Every way to return ``volley``: (card value, number of cards), by value.

    The formula fixes the rulebook table's two misprints: against 4 it
    offers 5-5, and against 6 it asks 4-4-4 (the table says 2-2-2).
    """
    if volley not in CARD_VALUES:
        raise ValueError(f"a volley value is 1-6, not {volley!r}")
    return [(card, return_count(volley, card)) for card in CARD_VALUES]


def format_return(card: int, count: int) -> str:
    """A return as players say it: ``"5-5"`` for two fives."""
    return "-".join([str(card)] * count)


# --- rules -------------------------------------------------------------------


def legal(state: State) -> list[JSON]:
    """What may happen now; nothing once the match is won.

    Every shape can be sent back as it is, one value picked for ``card`` or
    ``winner``: ``player`` (who serves, or who returns) is accepted back as the
    premise it states.
    """
    if state.winner is not None:
        return []
    point = {"type": "point", "winner": [0, 1]}
    if state.rally is None:
        return [{"type": "serve", "card": list(CARD_VALUES), "player": server(state)}, point]
    return [{"type": "return", "card": list(CARD_VALUES), "player": state.rally.to_return},
            point]


def resolve(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    """Check ``action`` and return the event to log (a serve's roll filled in)."""
    kind = action_type(action, ACTIONS)
    if state.winner is not None:
        raise IllegalAction(
            f"the match is over: {state.players[state.winner]} won. "
            "Undo to change the last point, or start a new match"
        )
    if kind == "point":
        check_fields(action, ("winner",))
        return {"type": "point", "winner": integer(action, "winner", 0, 1)}
    if kind == "serve":
        return _resolve_serve(state, action, rng)
    return _resolve_return(state, action)


def _resolve_serve(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    check_fields(action, ("card", "roll", "player"))
    card = integer(action, "card", 1, 6)
    roll = integer(action, "roll", 1, 6, required=False)
    if state.rally is not None:
        raise IllegalAction(
            "the ball is in play: record a return or who won the point, not a serve"
        )
    _check_player(state, action, server(state), "serves")
    if card not in ROLLED_SERVES:
        if roll is not None:
            raise IllegalAction(f"a serve of {card} is never rolled for; leave out 'roll'")
    elif roll is None:
        roll = rng.choice(SERVICE_DIE)
    elif roll not in SERVICE_DIE:
        raise IllegalAction(f"the Service Die cannot show {roll}: its faces are 1, 1, 2, 5, 6, 6")
    return {"type": "serve", "card": card, "roll": roll}


def _check_player(state: State, action: Mapping[str, Any], due: int, doing: str) -> None:
    """An optional ``player`` (as ``legal`` offers it) must be the one who ``doing`` now."""
    player = integer(action, "player", 0, 1, required=False)
    if player is not None and player != due:
        raise IllegalAction(f"{state.players[due]} {doing} now, not {state.players[player]} "
                            f"(player {due}, as 'legal' offers it)")


def _resolve_return(state: State, action: Mapping[str, Any]) -> JSON:
    check_fields(action, ("card", "count", "player"))
    card = integer(action, "card", 1, 6)
    count = integer(action, "count", 1, CARDS_PER_VALUE, required=False)
    if state.rally is None:
        raise IllegalAction("no ball is in play: the next thing is a serve")
    _check_player(state, action, state.rally.to_return, "returns")
    needed = return_count(state.rally.volley, card)
    if count is not None and count != needed:
        raise IllegalAction(
            f"to return {state.rally.volley} with {card}s, play {needed} "
            f"({format_return(card, needed)}), not {count}"
        )
    return {"type": "return", "card": card, "count": needed}


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


# --- views -------------------------------------------------------------------


def point_names(state: State) -> tuple[str, str]:
    """The points as called: "0".."40", "AD"; tiebreak points as counts."""
    a, b = state.points
    if in_tiebreak(state):
        return str(a), str(b)
    if a >= 3 and b >= 3:
        if a == b:
            return "40", "40"
        return ("AD", "40") if a > b else ("40", "AD")
    return _POINT_NAMES[a], _POINT_NAMES[b]


def set_score(score: SetScore, first: int) -> str:
    """One completed set as written from player ``first``'s side: ``"6-4"``,
    ``"7-6(7-5)"`` with its tiebreak points, ``"[10-8]"`` for a match tiebreak."""
    def pair(p: tuple[int, int]) -> str:
        return f"{p[first]}-{p[1 - first]}"

    if score.tiebreak is None:
        return pair(score.games)
    if max(score.games) == 1:
        return f"[{pair(score.tiebreak)}]"
    return f"{pair(score.games)}({pair(score.tiebreak)})"


def final_score(state: State) -> str | None:
    """The match's sets from the winner's side (``"6-0 6-4"``); None while it runs."""
    if state.winner is None:
        return None
    return " ".join(set_score(s, state.winner) for s in state.sets)


def view(state: State) -> JSON:
    """The match as every output shows it (see docs/api.md for each key)."""
    tiebreak = in_tiebreak(state)
    a, b = state.points
    deuce = not tiebreak and a >= 3 and b >= 3
    rally = state.rally
    last = state.last_serve
    return {
        "players": list(state.players),
        "server": server(state),
        "serve": state.serve,
        "rally_serve": rally.serve if rally else None,
        "in_play": rally is not None,
        "points": list(point_names(state)),
        "tiebreak": tiebreak,
        "match_tiebreak": match_tiebreak(state),
        "deuce": deuce and a == b,
        "advantage": (0 if a > b else 1) if deuce and a != b and not state.options.no_ad else None,
        "games": list(state.games),
        "sets": [list(s.games) for s in state.sets],
        "set_tiebreaks": [list(s.tiebreak) if s.tiebreak else None for s in state.sets],
        "sets_won": list(sets_won(state)),
        "set_number": len(state.sets) + (0 if state.winner is not None else 1),
        "winner": state.winner,
        "final_score": final_score(state),
        "last_serve": None if last is None else {
            "player": last.player, "card": last.card, "roll": last.roll, "fault": last.fault,
        },
        "last_serve_card": list(state.serve_cards),
        "call": state.call,
        "volley": rally.volley if rally else None,
        "rally_returns": rally.returns if rally else None,
        "to_return": rally.to_return if rally else None,
        "returns": [format_return(c, k) for c, k in valid_returns(rally.volley)] if rally else [],
        "stats": [
            {"faults": s.faults, "double_faults": s.double_faults,
             "serve_points_won": s.serve_points_won, "points_won": s.points_won}
            for s in state.stats
        ],
        "longest_rally": state.longest_rally,
    }


def winner(state: State) -> int | None:
    """The match winner's index, or None while it runs."""
    return state.winner


def turn(state: State) -> tuple[int, ...]:
    """Whose move it is: the server before the serve, then whoever must return."""
    if state.winner is not None:
        return ()
    return (state.rally.to_return if state.rally else server(state),)


def summary(state: State) -> str:
    """The score line: ``"6-4 6-7(5-7) [10-8]"``, plus the current set if unfinished."""
    parts = [set_score(s, 0) for s in state.sets]
    if state.winner is None and (state.games != (0, 0) or state.points != (0, 0) or not parts):
        parts.append(f"{state.games[0]}-{state.games[1]}")
    return " ".join(parts)


def again(options: Mapping[str, Any]) -> JSON:
    """The options for a rematch: the same, with the coin flipped again if it was."""
    return again_with(options, COIN_FLIP.key, "first_server", "coin")


def timeline(steps: Sequence[Step]) -> Chart:
    """Momentum: after each point, player 1's points won minus player 2's, with a mark
    where each set ended (its games from player 1's side)."""
    names = steps[0].view["players"]
    line = Series(f"{names[0]} − {names[1]}", "text", [(0, 0)])
    marks, lead, played, sets = [], (0, 0), 0, 0
    for step in steps[1:]:
        view = step.view
        won = [s["points_won"] for s in view["stats"]]
        if sum(won) != played:
            played = sum(won)
            diff = won[0] - won[1]
            line.add(played, diff)
            if abs(diff) > abs(lead[0]):
                lead = (diff, played)
        if len(view["sets"]) > sets:
            sets = len(view["sets"])
            games = view["sets"][-1]
            winner = 0 if games[0] > games[1] else 1
            marks.append(Mark(played, "set", f"Set {sets}: {games[0]}-{games[1]}",
                              f"side-{winner}"))
    won = [s["points_won"] for s in steps[-1].view["stats"]]
    told = [f"Points won: {names[0]} {won[0]}, {names[1]} {won[1]}."]
    if lead[0]:
        told.append(f"Biggest lead: {names[0 if lead[0] > 0 else 1]} by {abs(lead[0])} "
                    f"(after point {lead[1]}).")
    told += [f"{m.label}." for m in marks]
    return Chart("Momentum", "point", "points ahead", [line], " ".join(told), marks,
                 zero={"above": f"{names[0]} ahead", "below": f"{names[1]} ahead",
                       "above_colour": "side-0", "below_colour": "side-1"})


GAME = Game(
    id=GAME_ID,
    title="Center Court",
    seats=(2, 2),
    options=OPTIONS,
    prepare=prepare,
    setup=setup,
    legal=legal,
    resolve=resolve,
    apply=apply,
    view=view,
    winner=winner,
    summary=summary,
    turn=turn,
    again=again,
    timeline=timeline,
)
