"""How a finished match ended, in one shape for every game: who played together, who placed where.

A standing is ``{"teams": [[player index, ...], ...], "places": [place, ...]}``:
the teams (one player each in a free-for-all) and each team's place, 0 for
the first; teams level share a place; and ``"tiebreaks": [value, ...]``, each
team's own tiebreak for a club night's standings (its kit's
``Kit.tiebreaks``, e.g. Center Court's sets and games, AlakaSLAM's points
difference), when the game gives one. It is read from the match's view, so
it is what the board showed: by the game's kit when it brings a ``standing``
(AlakaSLAM's sides as teams, Alakazoo's players placed by their totals), else
by the generic one: each player (``players``, else two seats) alone, the
``winner`` (a seat, or a list of seats sharing the win) first and the others
second. Center Court's players and Wizard Dodgeball's two sides are placed so.

The store keeps the standing with each finished match (companion/table.py
writes it with the result), so the ratings never replay a match.
"""

from __future__ import annotations

from companion.games.base import JSON
from companion.kit import Kit


def standing(found: Kit | None, view: JSON) -> JSON | None:
    """The standing of a match of the game of kit ``found`` (None: a game the catalog
    does not know, placed the generic way) from its view; None while it is unfinished."""
    placed = (found.standing if found is not None and found.standing else generic)(view)
    if placed is None:
        return None
    values = found.tiebreaks(view) if found is not None and found.tiebreaks else None
    if values is not None and len(values) == len(placed["teams"]):
        placed["tiebreaks"] = list(values)
    return placed


def generic(view: JSON) -> JSON | None:
    """Each player alone, the winner (a seat, or a list of seats sharing the win) first
    and every other player second; None while there is no winner."""
    winner = view.get("winner")
    if winner is None or winner == []:
        return None
    players = view.get("players")
    count = max(2, len(players)) if isinstance(players, list) else 2
    first = set(winner) if isinstance(winner, list | tuple) else {winner}
    return {"teams": [[i] for i in range(count)],
            "places": [0 if i in first else 1 for i in range(count)]}
