"""AlakaSLAM's timeline: each side's score point by point, and its points by reason."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.alakaslam.rules import REASON_WORDS, point_said
from companion.games.alakaslam.state import REASONS
from companion.games.chart import Bars, Chart, Mark, Series, Step
from companion.games.said import joined
from companion.i18n import Text, _


def timeline(steps: Sequence[Step]) -> Chart:
    """Per side, its score after each point, a mark per point naming why it was won
    (coloured by the side that won it), and the points won by reason per side."""
    sides = steps[0].view["sides"]
    lines = [Series(side["name"], f"side-{s}", [(0, 0)]) for s, side in enumerate(sides)]
    marks: list[Mark] = []
    played = 0
    for step in steps[1:]:
        view = step.view
        scores = [side["score"] for side in view["sides"]]
        if sum(scores) == played:
            continue
        played = sum(scores)
        for line, score in zip(lines, scores, strict=True):
            line.add(played, score)
        won = view["last_point"]
        marks.append(Mark(played, won["reason"],
                          point_said(sides[won["winner"]]["name"], won["reason"], played,
                                     pair=len(sides[won["winner"]]["players"]) > 1),
                          f"side-{won['winner']}"))
    by_reason = tuple(tuple(side[r] for r in REASONS)
                      for side in steps[-1].view["stats"]["points"])
    told: list[Text | str] = []
    for side, counts in zip(sides, by_reason, strict=True):
        why = joined([_("{reason} {n}", reason=REASON_WORDS[r], n=n)
                      for r, n in zip(REASONS, counts, strict=True) if n])
        told.append(_("{side} {points} ({why})", side=side["name"], points=sum(counts), why=why)
                    if why else f"{side['name']} {sum(counts)}")
    return Chart(_("Points by reason"), _("point"), _("score"), lines,
                 _("Points: {sides}.", sides=joined(told)), marks,
                 Bars(_("Points by reason"), tuple(REASON_WORDS[r] for r in REASONS),
                      by_reason))
