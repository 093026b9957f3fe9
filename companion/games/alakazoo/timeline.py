"""Alakazoo's timeline: each player's points turn by turn, and the jury's breakdown."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.chart import Bars, Chart, Mark, Series, Step
from companion.i18n import Text, _


def timeline(steps: Sequence[Step]) -> Chart:
    """Per player, the points won in play after each turn (x: the turn, from 1; a forced
    pass at 3 Dark Power is a turn too), then the total with the jury's points once the
    game is over; a mark where the final round began; and, at the end, the jury's points
    per player: rows, columns, pure."""
    players = steps[0].view["players"]
    lines = [Series(p["name"], f"player-{i}", [(0, 0)]) for i, p in enumerate(players)]
    marks: list[Mark] = []
    turns, final = 0, False
    for step in steps[1:]:
        view, x = step.view, turns + 1  # the turn this event belongs to
        if (step.event or {}).get("type") == "end_turn":
            # The turn ended, and each forced pass on the way was a turn of its own.
            turns += 1 + len(view["passes"])
        for line, player in zip(lines, view["players"], strict=True):
            line.add(x, player["total"])
        if view["final_round"] and not final:
            final = True
            ender = players[view["ender"]]["name"]
            marks.append(Mark(x, "final_round",
                              _("Final round: {name} completed the portal", name=ender),
                              f"player-{view['ender']}"))
    last = steps[-1].view["players"]
    totals = ", ".join(f"{p['name']} {p['total']}" for p in last)
    told: Text = _("Turns played: {turns}. Points: {totals}.", turns=turns, totals=totals)
    bars = None
    if all(p["jury"] for p in last):
        juries = tuple((sum(p["jury"]["rows"]), sum(p["jury"]["cols"]), p["jury"]["pure"])
                       for p in last)
        bars = Bars(_("The jury"), (_("rows"), _("columns"), _("pure")), juries)
        each: Text | None = None
        for p, (r, c, u) in zip(last, juries, strict=True):
            one = _("{name} {total} (rows {rows}, columns {columns}, pure {pure})",
                    name=p["name"], total=p["jury"]["total"], rows=r, columns=c, pure=u)
            each = one if each is None else _("{list}, {item}", list=each, item=one)
        told = _("{told} The jury: {each}.", told=told, each=each)
    return Chart(_("Points by turn"), _("turn"), _("points"), lines, told, marks, bars)
