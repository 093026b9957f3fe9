"""AlakaSLAM's hall card (each side's points to the target) and its results, side v side."""

from __future__ import annotations

from companion.games.base import JSON, Card, name_text, won
from companion.i18n import _
from companion.names import TEAM_JOIN


def card(view: JSON) -> Card:
    """One row per side (a doubles side is its two players), its points."""
    names = [name_text(p["name"]) for p in view["players"]]
    sides = [(TEAM_JOIN.join(names[p] for p in side["players"]), [str(side["score"])],
              tuple(side["players"]), won(view["winner"], i))
             for i, side in enumerate(view["sides"])]
    score = "-".join(cells[0] for _, cells, _, _ in sides)
    return Card(_("{score} (to {target})", score=score, target=view["target"]), [_("Pts")],
                sides)


def tiebreaks(view: JSON) -> list[float]:
    """Each side's own tiebreak for a club night's standings: its points minus the other
    side's (a doubles side's value goes to both partners)."""
    a, b = (side["score"] for side in view["sides"])
    return [a - b, b - a]


def standing(view: JSON) -> JSON | None:
    """Side against side, each side's players a team (singles, doubles, Canadian one
    against two); None while the match runs."""
    winner = view.get("winner")
    if winner is None:
        return None
    return {"teams": [list(side["players"]) for side in view["sides"]],
            "places": [0 if side == winner else 1 for side in range(2)]}
