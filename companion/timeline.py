"""A match's timeline: its log walked step by step and drawn by its game.

``GET /api/timeline`` (the current match) and ``GET /api/matches/<id>/timeline``
answer with :func:`timeline`; the game reads only its views and events
(:class:`~companion.games.chart.Step`), so every game's chart comes from the
same walk.
"""

from __future__ import annotations

from companion.games.chart import JSON, Step
from companion.match import Match


def steps(match: Match) -> list[Step]:
    """The match's log as steps: the view before the first event, then after each."""
    game, events = match.game, match.events
    return [Step(i, events[i - 1] if i else None, game.view(state))
            for i, state in enumerate(match.states)]


def timeline(match: Match) -> JSON:
    """The match's chart as JSON (bounded: companion.games.chart.MAX_POINTS), with
    the game and the players it is about."""
    return {"game": match.start.game, "players": list(match.start.players),
            "events": len(match.events), **match.game.timeline(steps(match)).to_json()}
