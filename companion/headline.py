"""A table at a glance: the few lines a hall board or Home Assistant shows.

:func:`headline` reads only the ``/api/state`` JSON (the contract's view
keys), so the table that publishes it and a hall board that receives it
over MQTT compute the same card from the same message. The result is plain
JSON: strings short enough for a Home Assistant sensor (at most
:data:`MAX_TEXT` characters) and one row per side for a scoreboard card.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.games import GAMES
from companion.games.base import JSON

#: Home Assistant keeps a sensor's state to 255 characters; a card has less room.
MAX_TEXT = 120
IDLE = "idle"


def headline(state: Mapping[str, Any]) -> JSON:
    """The card of one ``/api/state`` body (``{"version", "match"}``).

    Keys: ``game`` (id or None), ``title`` (the game's name, or "No match"),
    ``status`` (``"active"``, ``"finished"`` or ``"idle"``), ``players`` ("Ann v
    Bob"), ``score`` (the score line), ``turn`` (whose turn it is, "" when
    nobody's), ``winner`` ("" until the end), ``columns`` (the headings of
    each side's ``score`` cells) and ``sides``: ``[{"name", "score": [str],
    "turn": bool, "winner": bool}]`` in seat order. Every text is a string of
    at most :data:`MAX_TEXT` characters. Raises nothing for a well-formed
    state of any game; ValueError for any other body (a message off a broker
    may be anything).
    """
    if not isinstance(state, Mapping):
        raise ValueError("not a table state: not a JSON object")
    match = state.get("match")
    if match is None:
        return {"game": None, "title": "No match", "status": IDLE, "players": "",
                "score": "", "turn": "", "winner": "", "columns": [], "sides": []}
    try:
        return _match_card(match)
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as err:
        raise ValueError(f"not a table state: {err!r}") from None


def _match_card(match: Mapping[str, Any]) -> JSON:
    game, view = match["game"], match["view"]
    card = _CARDS[game](view)
    turn = set(match.get("turn") or ())
    status = match.get("status", "active")
    if not isinstance(status, str):
        raise TypeError(f"status {status!r}")
    sides = [{"name": _short(_text(name)), "score": [_short(str(c)) for c in cells],
              "turn": bool(turn & set(seats)), "winner": won}
             for name, cells, seats, won in card.sides]
    return {
        "game": game,
        "title": GAMES[game].title,
        "status": _short(status),
        "players": _short(" v ".join(s["name"] for s in sides)),
        "score": _short(card.score),
        "turn": _short(" & ".join(s["name"] for s in sides if s["turn"])),
        "winner": _short(" and ".join(s["name"] for s in sides if s["winner"])),
        "columns": card.columns,
        "sides": sides,
    }


def _text(value: Any) -> str:
    """``value`` if it is a string (a name), else TypeError."""
    if not isinstance(value, str):
        raise TypeError(f"a name must be a string, not {value!r}")
    return value


class _Card:
    """One game's reading of its view: a score line and a row per side."""

    def __init__(self, score: str, columns: list[str],
                 sides: list[tuple[str, list[str], Sequence[int], bool]]) -> None:
        self.score, self.columns, self.sides = score, columns, sides


def _won(winner: Any, side: int) -> bool:
    """Whether ``side`` is (one of) the winner(s): ``winner`` is None, an index or a list."""
    if isinstance(winner, list):
        return side in winner
    return winner == side


def _center_court(view: JSON) -> _Card:
    # Written as the game writes a score line (center_court.set_score): a set
    # "6-4", a set tiebreak "7-6(7-5)", a match tiebreak "[10-8]".
    sets, breaks = view["sets"], view.get("set_tiebreaks") or [None] * len(view["sets"])
    games, points = view["games"], view["points"]
    live = view["winner"] is None
    columns = [f"S{i + 1}" for i in range(len(sets))]
    line = [_set_text(games_, tb) for games_, tb in zip(sets, breaks, strict=True)]
    if live and view.get("match_tiebreak"):
        columns += ["P"]
        line += [f"[{points[0]}-{points[1]}]"]
    elif live:
        columns += ["G", "P"]
        line += [f"{games[0]}-{games[1]}", f"({points[0]}-{points[1]})"]
    sides = []
    for p, name in enumerate(view["players"]):
        cells = [_set_cell(games_, tb, p) for games_, tb in zip(sets, breaks, strict=True)]
        if live and view.get("match_tiebreak"):
            cells += [str(points[p])]
        elif live:
            cells += [str(games[p]), str(points[p])]
        sides.append((name, cells, (p,), _won(view["winner"], p)))
    return _Card(" ".join(line), columns, sides)


def _set_text(games: list[int], tiebreak: list[int] | None) -> str:
    """One finished set from the first player's side."""
    if tiebreak is None:
        return f"{games[0]}-{games[1]}"
    if max(games) == 1:  # a match tiebreak stands for the deciding set
        return f"[{tiebreak[0]}-{tiebreak[1]}]"
    return f"{games[0]}-{games[1]}({tiebreak[0]}-{tiebreak[1]})"


def _set_cell(games: list[int], tiebreak: list[int] | None, player: int) -> str:
    """One player's cell of a finished set: games, the loser of a set tiebreak with
    their tiebreak points ("6(5)"), a match tiebreak's points in brackets."""
    if tiebreak is None:
        return str(games[player])
    if max(games) == 1:
        return f"[{tiebreak[player]}]"
    lost = games[player] < games[1 - player]
    return f"{games[player]}({tiebreak[player]})" if lost else str(games[player])


def _dodgeball(view: JSON) -> _Card:
    points = view["variant"] == "points"
    key, heading = ("score", "Pts") if points else ("on_court", "On court")
    cells = [side[key] for side in view["sides"]]
    score = f"{cells[0]}-{cells[1]}" if points else f"{cells[0]} v {cells[1]} on court"
    return _Card(score, [heading], [(side["name"], [str(side[key])], (i,),
                                     _won(view["winner"], i))
                                    for i, side in enumerate(view["sides"])])


def _alakaslam(view: JSON) -> _Card:
    names = [_text(p["name"]) for p in view["players"]]
    sides = [(" & ".join(names[p] for p in side["players"]), [str(side["score"])],
              tuple(side["players"]), _won(view["winner"], i))
             for i, side in enumerate(view["sides"])]
    score = "-".join(cells[0] for _, cells, _, _ in sides)
    return _Card(f"{score} (to {view['target']})", ["Pts"], sides)


def _alakazoo(view: JSON) -> _Card:
    players = view["players"]
    sides = [(p["name"], [str(p["total"])], (i,), _won(view["winner"], i))
             for i, p in enumerate(players)]
    score = "-".join(str(p["total"]) for p in players)
    if view.get("final_round") and view["winner"] is None:
        score += " (final round)"
    return _Card(score, ["Pts"], sides)


_CARDS: dict[str, Callable[[JSON], _Card]] = {
    "center-court": _center_court,
    "wizard-dodgeball": _dodgeball,
    "alakaslam": _alakaslam,
    "alakazoo": _alakazoo,
}


def _short(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1] + "…"
