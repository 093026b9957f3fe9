"""Wizard Dodgeball's hall card: points, or the wizards still on court, of each team."""

from __future__ import annotations

from companion.games.base import JSON, Card, won
from companion.i18n import _


def card(view: JSON) -> Card:
    """Points in the points variant, else the wizards on court."""
    points = view["variant"] == "points"
    key, heading = ("score", _("Pts")) if points else ("on_court", _("On court"))
    cells = [side[key] for side in view["sides"]]
    score = f"{cells[0]}-{cells[1]}" if points else \
        _("{a} v {b} on court", a=cells[0], b=cells[1])
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
