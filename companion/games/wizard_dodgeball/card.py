# i18n: words not marked yet (issue #40)
"""Wizard Dodgeball's hall card: points, or the wizards still on court, of each team."""

from __future__ import annotations

from companion.games.base import JSON, Card, won


def card(view: JSON) -> Card:
    """Points in the points variant, else the wizards on court."""
    points = view["variant"] == "points"
    key, heading = ("score", "Pts") if points else ("on_court", "On court")
    cells = [side[key] for side in view["sides"]]
    score = f"{cells[0]}-{cells[1]}" if points else f"{cells[0]} v {cells[1]} on court"
    return Card(score, [heading], [(side["name"], [str(side[key])], (i,),
                                     won(view["winner"], i))
                                    for i, side in enumerate(view["sides"])])


def tiebreaks(view: JSON) -> list[float]:
    """Each side's own tiebreak for a club night's standings: its points minus the other
    side's in the points variant, its wizards left on court minus the other's in
    elimination."""
    key = "score" if view["variant"] == "points" else "on_court"
    a, b = (side[key] for side in view["sides"])
    return [a - b, b - a]
