"""Center Court's timeline: each player's points over the match, sets and faults marked."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.chart import Chart, Mark, Series, Step
from companion.games.said import sentences
from companion.i18n import Text, _


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
            marks.append(Mark(played, "set", _("Set {number}: {score}", number=sets,
                                                 score=f"{games[0]}-{games[1]}"),
                              f"side-{winner}"))
    won = [s["points_won"] for s in steps[-1].view["stats"]]
    told: list[Text | str] = [_("Points won: {first} {first_points}, {second} {second_points}.",
                                first=names[0], first_points=won[0], second=names[1],
                                second_points=won[1])]
    if lead[0]:
        told.append(_("Biggest lead: {name} by {lead} (after point {point}).",
                      name=names[0 if lead[0] > 0 else 1], lead=abs(lead[0]), point=lead[1]))
    told += [_("{mark}.", mark=m.label) for m in marks]
    return Chart(_("Momentum"), _("point"), _("points ahead"), [line], sentences(told), marks,
                 zero={"above": _("{name} ahead", name=names[0]),
                       "below": _("{name} ahead", name=names[1]),
                       "above_colour": "side-0", "below_colour": "side-1"})
