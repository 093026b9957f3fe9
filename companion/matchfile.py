"""Match files: JSON lines, a start record then one action per line.

Line 1 is ``{"game": ..., "players": [...], "options": {...}}``. Every
further line is an action object, or the table-level ``{"type": "undo"}`` /
``{"type": "redo"}``. Blank lines are ignored. An exported file holds
resolved actions (dice filled in), so replaying it reproduces the match.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

from companion.errors import CompanionError, MatchFileError
from companion.games.base import JSON
from companion.match import Match, StartRecord
from companion.store import StoredMatch


def replay(lines: Iterable[str], rng: random.Random) -> Match:
    """The match a file describes, every line checked against the rules.

    Actions without dice results are resolved with ``rng``. Raises
    MatchFileError naming the first bad line and why it is bad.
    """
    match: Match | None = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        obj = _parse(number, line)
        try:
            if match is None:
                match = Match(StartRecord.create(obj, rng))
            elif obj.get("type") == "undo" and set(obj) == {"type"}:
                match.undo()
            elif obj.get("type") == "redo" and set(obj) == {"type"}:
                match.redo()
            else:
                match.push(*match.resolve(obj, rng))
        except CompanionError as err:
            raise MatchFileError(number, str(err)) from None
    if match is None:
        raise MatchFileError(1, "the file is empty: line 1 must be the start record")
    return match


def export(stored: StoredMatch) -> str:
    """The match file of a stored match: its effective, fully resolved events."""
    match = Match(StartRecord.create(stored.start, random.Random()))
    match.replay(stored.journal)
    return dump(match.start, match.events)


def dump(start: StartRecord, events: Iterable[JSON]) -> str:
    """A match file for ``start`` and its resolved ``events``."""
    return "".join(_line(obj) for obj in (start.to_json(), *events))


def _line(obj: Any) -> str:
    return json.dumps(obj, separators=(", ", ": "), ensure_ascii=False) + "\n"


def _parse(number: int, line: str) -> dict[str, Any]:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as err:
        reason = f"not valid JSON ({err.msg} at character {err.pos + 1})"
        raise MatchFileError(number, reason) from None
    if not isinstance(obj, dict):
        what = "the start record" if number == 1 else "an action"
        raise MatchFileError(number, f"{what} must be a JSON object")
    return obj
