"""A match's timeline as a chart: the shape every game's ``timeline`` returns.

A game's ``timeline(steps)`` reads the match's log as :class:`Step` values
(each event with the game's view after it, step 0 being the view before the
first event) and returns a :class:`Chart`: lines over the match, marks on
them, and optionally bars (a breakdown by category). The engine walks the log
(:mod:`companion.timeline`); the phones draw any chart the same way
(web/static/timeline.js), so a game adds only what it reads from its views.

The words (titles, labels, names of marks, the summary) are made with
companion/i18n.py's ``_`` by the game and said in each reader's language where the
answer is encoded (web/i18n.py ``said``). Colours are named, not given: ``"side-0"``,
``"side-1"`` for a side, ``"player-0"``..``"player-3"`` for a player; the page maps
them to its theme.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.i18n import Text, _

JSON = dict[str, Any]

#: At most this many points per line and marks per chart in an answer: a long match
#: is thinned evenly (its last point always kept), so the answer stays small.
MAX_POINTS = 400
MAX_MARKS = 200


@dataclass(frozen=True)
class Step:
    """One entry of the log: ``number`` (0 before the first event), the resolved
    ``event`` (None at step 0) and the game's view after it."""

    number: int
    event: JSON | None
    view: JSON


@dataclass
class Series:
    """One line: its name, its colour's name and its ``(x, y)`` points, x rising."""

    name: str
    colour: str
    points: list[tuple[int, float]] = field(default_factory=list)

    def add(self, x: int, y: float) -> None:
        """Put ``y`` at ``x``; a second value at the same x replaces the first."""
        if self.points and self.points[-1][0] == x:
            self.points[-1] = (x, y)
        else:
            self.points.append((x, y))


@dataclass(frozen=True)
class Mark:
    """Something that happened at ``x``: its ``kind`` (a short id such as "set",
    "hit"), a one-line ``label``, and the colour of whom it counts for (or None)."""

    x: int
    kind: str
    label: str
    colour: str | None = None


@dataclass(frozen=True)
class Bars:
    """A breakdown: per series (in the chart's order) one count per category."""

    title: str
    categories: tuple[str, ...]
    values: tuple[tuple[int, ...], ...]


@dataclass
class Chart:
    """What a game draws from its log (docs/api.md, ``GET /api/timeline``).

    ``zero``, when given, marks y = 0 as the balance line: ``{"above": name,
    "below": name}`` say whom a point above or below it favours.
    ``summary`` says in words what the picture shows (for screen readers too).
    """

    title: str
    x_label: str
    y_label: str
    series: list[Series]
    summary: str
    marks: list[Mark] = field(default_factory=list)
    bars: Bars | None = None
    zero: JSON | None = None

    def to_json(self) -> JSON:
        """JSON-ready, bounded: at most MAX_POINTS points a line and MAX_MARKS marks."""
        thinned = any(len(s.points) > MAX_POINTS for s in self.series) or \
            len(self.marks) > MAX_MARKS
        return {
            "title": self.title, "x_label": self.x_label, "y_label": self.y_label,
            "series": [{"name": s.name, "colour": s.colour,
                        "points": [list(p) for p in thin(s.points, MAX_POINTS)]}
                       for s in self.series],
            "marks": [{"x": m.x, "kind": m.kind, "label": m.label, "colour": m.colour}
                      for m in thin(self.marks, MAX_MARKS)],
            "bars": None if self.bars is None else {
                "title": self.bars.title, "categories": list(self.bars.categories),
                "values": [list(v) for v in self.bars.values]},
            "zero": self.zero,
            "summary": self.summary,
            "thinned": thinned,
        }


def thin(items: list, limit: int) -> list:
    """At most ``limit`` of ``items``, evenly spread, the first and the last kept."""
    if len(items) <= limit:
        return list(items)
    step = (len(items) - 1) / (limit - 1)
    return [items[round(i * step)] for i in range(limit)]


def scores_chart(steps: list[Step] | tuple[Step, ...]) -> Chart:
    """The timeline of a game that draws none of its own (``Game.timeline``'s default):
    a line per player of the view's ``scores`` (a number per seat) over the match, the
    players named by the view's ``players``, and a mark where the view's ``winner``
    (a seat, or a list of seats) first shows. A view without scores charts flat lines."""
    first = steps[0].view
    names = [str(n) for n in first.get("players") or []]
    lines = [Series(name, f"player-{i % 4}") for i, name in enumerate(names)]
    marks: list[Mark] = []
    for step in steps:
        scores = step.view.get("scores")
        for i, line in enumerate(lines):
            value = scores[i] if isinstance(scores, list) and i < len(scores) else 0
            line.add(step.number, value if isinstance(value, int) else 0)
        winner = step.view.get("winner")
        if winner is not None and winner != [] and not marks:
            seats = winner if isinstance(winner, list) else [winner]
            who = [names[s] for s in seats if isinstance(s, int) and 0 <= s < len(names)]
            won = (_("{name} wins", name=who[0]) if len(who) == 1 else
                   _("{names} and {last} win", names=", ".join(who[:-1]), last=who[-1])
                   if who else _("the match is won"))
            marks.append(Mark(step.number, "win", won,
                              f"player-{seats[0] % 4}" if len(seats) == 1 else None))
    last = steps[-1].view.get("scores")
    said = ", ".join(f"{n} {last[i]}" for i, n in enumerate(names)
                     if isinstance(last, list) and i < len(last))
    summary: Text = _("Score: {scores}.", scores=said) if said else _("Score.")
    return Chart(_("Score"), _("change"), _("score"), lines, summary, marks)
