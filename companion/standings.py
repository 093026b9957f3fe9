"""How a finished match ended, in one shape for every game: who played together, who placed where.

A standing is ``{"teams": [[player index, ...], ...], "places": [place, ...]}``:
the teams (one player each in a free-for-all) and each team's place, 0 for
the first; teams level share a place; and ``"tiebreaks": [value, ...]``, each
team's own tiebreak for a club night's standings (the catalog's
``Kit.tiebreaks``, e.g. Center Court's sets and games, AlakaSLAM's points
difference), when the game gives one. It is read from the view keys
CONTRACT.md fixes for each game, so it is what the board showed:

- Center Court: two players, ``winner`` 0|1.
- Wizard Dodgeball: two sides (each named as one player), ``winner`` 0|1.
- AlakaSLAM: ``sides[i].players`` are the teams (singles, doubles, Canadian
  one against two), ``winner`` the side.
- Alakazoo: every player for themselves, placed by ``players[i].total``
  (points plus jury); equal totals share the place.

The store keeps the standing with each finished match (companion/table.py
writes it with the result), so the ratings never replay a match.
"""

from __future__ import annotations

from companion.catalog import kit
from companion.games.base import JSON


def standing(game: str, view: JSON) -> JSON | None:
    """The standing of a match from its view; None while it is unfinished."""
    placed = _placed(game, view)
    if placed is None:
        return None
    found = kit(game)
    values = found.tiebreaks(view) if found is not None and found.tiebreaks else None
    if values is not None and len(values) == len(placed["teams"]):
        placed["tiebreaks"] = list(values)
    return placed


def _placed(game: str, view: JSON) -> JSON | None:
    winner = view.get("winner")
    if winner is None or winner == []:
        return None
    if game == "alakazoo":
        totals = [p["total"] for p in view["players"]]
        # Competition places: 0 for the best total, and each place after counts those above.
        places = [sum(1 for t in totals if t > mine) for mine in totals]
        return {"teams": [[i] for i in range(len(totals))], "places": places}
    # Center Court and Wizard Dodgeball: player (side) 0 against 1.
    teams = ([list(side["players"]) for side in view["sides"]] if game == "alakaslam"
             else [[0], [1]])
    return {"teams": teams, "places": [0 if side == winner else 1 for side in range(2)]}
