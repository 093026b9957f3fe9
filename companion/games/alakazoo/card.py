"""Alakazoo's hall card (each player's total) and its results: every player for themselves."""

from __future__ import annotations

from companion.games.base import JSON, Card, won
from companion.i18n import _


def card(view: JSON) -> Card:
    """Each player's total; the final round said while it runs."""
    players = view["players"]
    sides = [(p["name"], [str(p["total"])], (i,), won(view["winner"], i))
             for i, p in enumerate(players)]
    score = "-".join(str(p["total"]) for p in players)
    if view.get("final_round") and view["winner"] is None:
        score = _("{score} (final round)", score=score)
    return Card(score, [_("Pts")], sides)


def tiebreaks(view: JSON) -> list[float] | None:
    """Each player's own tiebreak for a club night's standings: the Magic Jury's points
    (None before the jury has judged)."""
    jury = [p["jury"] for p in view["players"]]
    return None if any(j is None for j in jury) else [j["total"] for j in jury]


def standing(view: JSON) -> JSON | None:
    """Every player for themselves, placed by ``total`` (points plus jury): equal totals
    share a place (None while the game runs)."""
    if not view.get("winner"):
        return None
    totals = [p["total"] for p in view["players"]]
    # Competition places: 0 for the best total, and each place after counts those above.
    places = [sum(1 for t in totals if t > mine) for mine in totals]
    return {"teams": [[i] for i in range(len(totals))], "places": places}
