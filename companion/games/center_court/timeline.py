# i18n: words not marked yet (issue #40)
"""Center Court's timeline: each player's points over the match, sets and faults marked."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.chart import Chart, Mark, Series, Step


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
            marks.append(Mark(played, "set", f"Set {sets}: {games[0]}-{games[1]}",
                              f"side-{winner}"))
    won = [s["points_won"] for s in steps[-1].view["stats"]]
    told = [f"Points won: {names[0]} {won[0]}, {names[1]} {won[1]}."]
    if lead[0]:
        told.append(f"Biggest lead: {names[0 if lead[0] > 0 else 1]} by {abs(lead[0])} "
                    f"(after point {lead[1]}).")
    told += [f"{m.label}." for m in marks]
    return Chart("Momentum", "point", "points ahead", [line], " ".join(told), marks,
                 zero={"above": f"{names[0]} ahead", "below": f"{names[1]} ahead",
                       "above_colour": "side-0", "below_colour": "side-1"})

