"""Wizard Dodgeball's timeline: each side's score by activation, hits, catches and casts."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.chart import JSON, Bars, Chart, Mark, Series, Step
from companion.games.wizard_dodgeball.words import joined
from companion.i18n import _

#: The event types that are casts (rolled, recorded or a Dispel).
CASTS = ("cast", "cast_roll", "dispel")


def timeline(steps: Sequence[Step]) -> Chart:
    """Per side, its score after each activation (the points variant) or, in the
    elimination variant, how many of the other side's wizards are off the court;
    a mark for each hit, catch and cast, coloured by the side it counts for."""
    first = steps[0].view
    points = first["variant"] == "points"
    side_of = {w["jersey"]: s for s, side in enumerate(first["sides"]) for w in side["wizards"]}
    lines = [Series(side["name"], f"side-{s}", [(0, 0)]) for s, side in enumerate(first["sides"])]
    marks: list[Mark] = []
    counts = [[0, 0, 0], [0, 0, 0]]  # per side: hits, catches, casts
    for step in steps[1:]:
        view = step.view
        x = view["activation"]
        for s, side in enumerate(view["sides"]):
            other = view["sides"][1 - s]
            lines[s].add(x, side["score"] if points
                         else len(other["wizards"]) - other["on_court"])
        mark = play_mark(step.event or {}, view["last"] or {}, side_of, x)
        if mark is not None:
            marks.append(mark)
            side = int(mark.colour[-1]) if mark.colour else 0
            counts[side][("hit", "catch", "cast").index(mark.kind)] += 1
    names = [line.name for line in lines]
    told: list[object] = [_("{name}: hits {hits}, catches {catches}, casts {casts}.", name=n,
                            hits=c[0], catches=c[1], casts=c[2])
                          for n, c in zip(names, counts, strict=True)]
    end = [line.points[-1][1] for line in lines]
    after = lines[0].points[-1][0]
    told.insert(0, _("After activation {n}: {first} {a}, {second} {b}.", n=after,
                     first=names[0], a=end[0], second=names[1], b=end[1]) if points else
                _("After activation {n}: {first} {a}, {second} {b} wizards out.", n=after,
                  first=names[0], a=end[0], second=names[1], b=end[1]))
    return Chart(_("Score by activation"), _("activation"),
                 _("score") if points else _("wizards out"),
                 lines, joined(told, " "), marks,
                 Bars(_("Plays"), (_("hits"), _("catches"), _("casts")),
                      tuple(tuple(c) for c in counts)))


def play_mark(event: JSON, last: JSON, side_of: dict[int, int], x: int) -> Mark | None:
    """The mark for one event: a hit (a Shield's too) for the thrower's side, a catch
    for the catcher's, a cast for the caster's; None for anything else."""
    kind = event.get("type")
    result = last.get("result") if kind == "throw" else kind
    if result in ("hit", "shield"):
        return Mark(x, "hit", last["text"], f"side-{side_of[event['thrower']]}")
    if result == "catch":
        catcher = event["target"] if kind == "throw" else event["catcher"]
        return Mark(x, "catch", last["text"], f"side-{side_of[catcher]}")
    if kind in CASTS:
        return Mark(x, "cast", last["text"], f"side-{side_of[event['caster']]}")
    return None
