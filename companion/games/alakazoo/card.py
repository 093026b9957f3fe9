"""Alakazoo's hall card: each player's total."""

from __future__ import annotations

from companion.games.base import JSON, Card, won


def card(view: JSON) -> Card:
    """Each player's total; the final round said while it runs."""
    players = view["players"]
    sides = [(p["name"], [str(p["total"])], (i,), won(view["winner"], i))
             for i, p in enumerate(players)]
    score = "-".join(str(p["total"]) for p in players)
    if view.get("final_round") and view["winner"] is None:
        score += " (final round)"
    return Card(score, ["Pts"], sides)


def tiebreaks(view: JSON) -> list[float] | None:
    """Each player's own tiebreak for a club night's standings: the Magic Jury's points
    (None before the jury has judged)."""
    jury = [p["jury"] for p in view["players"]]
    return None if any(j is None for j in jury) else [j["total"] for j in jury]
