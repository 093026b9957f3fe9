"""Center Court's view: the JSON every output renders, the winner, the turn, the summary."""

from __future__ import annotations

from companion.games.base import (
    JSON,
)
from companion.games.center_court.rules import (
    format_return,
    valid_returns,
)
from companion.games.center_court.state import (
    SetScore,
    State,
    in_tiebreak,
    match_tiebreak,
    server,
    sets_won,
)

_POINT_NAMES = ("0", "15", "30", "40")


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

