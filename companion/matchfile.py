"""Match files: JSON lines, a start record then one action per line.

Line 1 is ``{"game": ..., "players": [...], "options": {...}}``, optionally
with ``"started"``: when the match began, ISO 8601 with a time zone. Every
further line is an action object, or the table-level ``{"type": "undo"}`` /
``{"type": "redo"}``. Blank lines are ignored. An exported file holds
resolved actions (dice filled in) and the start time, so replaying it
reproduces the match and importing it keeps its place in time.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from companion import json_input
from companion.catalog import Catalog
from companion.errors import CompanionError, InvalidAction, MatchFileError
from companion.games.base import JSON
from companion.i18n import _, message
from companion.integrity import replay_stored
from companion.match import Match, StartRecord
from companion.store import Store, StoredMatch, iso_utc

#: The start record's key for the start time (the rest is a StartRecord).
STARTED = "started"


@dataclass(frozen=True)
class MatchFile:
    """A checked match file: the match it describes, and when it began if line 1 says."""

    match: Match
    #: Seconds since the epoch, or None when the file carries no start time.
    started: float | None


def read(lines: Iterable[str], rng: random.Random, catalog: Catalog) -> MatchFile:
    """The match a file describes, every line checked against its game's rules in
    ``catalog``.

    Actions without dice results are resolved with ``rng``. Raises
    MatchFileError naming the first bad line and why it is bad.
    """
    match: Match | None = None
    started: float | None = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        obj = _parse(number, line)
        try:
            if match is None:
                if STARTED in obj:
                    started = _parse_started(obj.pop(STARTED))
                match = Match(StartRecord.create(obj, rng, catalog), catalog)
            elif obj.get("type") == "undo" and set(obj) == {"type"}:
                match.undo()
            elif obj.get("type") == "redo" and set(obj) == {"type"}:
                match.redo()
            else:
                match.push(*match.resolve(obj, rng))
        except CompanionError as err:
            raise MatchFileError(number, message(err)) from None
    if match is None:
        raise MatchFileError(1, _("the file is empty: line 1 must be the start record"))
    return MatchFile(match, started)


def replay(lines: Iterable[str], rng: random.Random, catalog: Catalog) -> Match:
    """The match of :func:`read`, for callers that need no start time."""
    return read(lines, rng, catalog).match


def export(stored: StoredMatch, catalog: Catalog) -> str:
    """The match file of a stored match: its start time and effective, resolved events
    (replayed through ``catalog``'s rules, StoreDamaged if they refuse it)."""
    match = replay_stored(stored, catalog)
    return dump(match.start, match.events, stored.started_at)


def dump(start: StartRecord, events: Iterable[JSON], started: float | None = None) -> str:
    """A match file for ``start`` and its resolved ``events``, begun at ``started``."""
    record = start.to_json()
    if started is not None:
        record[STARTED] = iso_utc(started)
    return "".join(_line(obj) for obj in (record, *events))


def already_stored(store: Store, file: MatchFile, catalog: Catalog) -> int | None:
    """The id of a stored match that is the one ``file`` describes, or None.

    The same match: the same resolved start record, the same events standing
    (however undo and redo got there) and, when the file has one, the same
    start time to the second. Dice the file leaves to the device are rolled
    anew on each read, so such a file matches only when read with the same seed.
    """
    match = file.match
    for stored in store.with_start(match.start.to_json()):
        if file.started is not None and iso_utc(file.started) != iso_utc(stored.started_at):
            continue
        # The events that stand after its undos and redos (StoreDamaged if the rules
        # cannot replay what is stored).
        if replay_stored(stored, catalog).events == match.events:
            return stored.id
    return None


def _parse_started(value: object) -> float:
    try:
        when = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise InvalidAction(_("{key} must be a time in ISO 8601 with its time zone, e.g. "
                              "{example}; got {value}", key="'started'",
                              example="2024-05-01T18:02:11Z", value=json.dumps(value)))
    return when.timestamp()


def _line(obj: Any) -> str:
    return json.dumps(obj, separators=(", ", ": "), ensure_ascii=False) + "\n"


def _parse(number: int, line: str) -> dict[str, Any]:
    try:
        obj = json_input.parse(line)
    except json.JSONDecodeError as err:
        raise MatchFileError(number, _("not valid JSON ({reason} at character {at})",
                                       reason=err.msg, at=err.pos + 1)) from None
    except ValueError as err:  # nested too deep, NaN, a lone surrogate, a 5,000-digit number
        raise MatchFileError(number, _("not valid JSON: {reason}",
                                       reason=str(err))) from None
    if not isinstance(obj, dict):
        if number == 1:
            raise MatchFileError(number, _("the start record must be a JSON object"))
        raise MatchFileError(number, _("an action must be a JSON object"))
    return obj
