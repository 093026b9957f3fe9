"""The hall's rulings on this table's matches: a director's correction, or the result the
director kept, carried back to the table that played the match (docs/api.md, "Rulings").

A match played for one of the hall's events is one result with revisions
(docs/club-night.md, "One result, everywhere"). When the director at the hall
corrects its result, or keeps the result that counts over the one the table
changed it to, the table's own history must say so too: the hall sends a
*ruling* with its offers, on the one topic the table reads
(``<prefix>/_hall/offers/<table>``, which only the hall may write), until the
table's ``results`` show it taken.

Pure: no I/O. :func:`parse_rulings` reads the ``rulings`` of an offer
message; :func:`ruled_standing` checks one against the stored match it names
and says what the match's standing and winner become. A ruling changes
nothing but the result of a finished match the hall offered (its start
record's ``event`` names the ruling's event and pairing): it never starts,
ends or replays a match.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import InvalidAction
from companion.games.base import JSON
from companion.i18n import Text, _
from companion.match import ID_PATTERN

#: What a ruling is: the director's new result, or the old result kept over the table's.
CORRECTED, KEPT = "corrected", "kept"
#: The most rulings one message may carry (the hall sends the oldest first, the rest
#: once the table took these).
MAX_RULINGS = 20
#: The longest reason kept (characters; the hall allows 200).
MAX_REASON = 200
#: The largest tiebreak value either way (the hall's bound).
MAX_TIEBREAK = 1_000_000
#: A ruling's fields.
FIELDS = frozenset({"id", "epoch", "match", "event", "pairing", "kind", "reason", "standing"})


@dataclass(frozen=True)
class Ruling:
    """The hall's word on one finished match of this table (``epoch``: its database)."""

    id: str
    epoch: int
    match: int
    event: str
    pairing: str
    kind: str
    reason: str
    #: ``{"teams": [[seat, ...], ...], "places": [...], "tiebreaks"?: [...]}``: each
    #: side's place from 0, as companion/standings.py gives a finished match's.
    standing: Mapping[str, Any]

    def to_json(self) -> JSON:
        return {"id": self.id, "kind": self.kind, "reason": self.reason}


def ruling_words(ruling: Mapping[str, Any]) -> Text:
    """A ruling in force (MatchSummary.ruling) in words, for a history line:
    ``corrected by the hall's director: the score sheet``, ``kept by the hall's director``."""
    reason = ruling.get("reason") or ""
    if ruling.get("kind") == CORRECTED:
        return (_("corrected by the hall's director: {reason}", reason=reason) if reason
                else _("corrected by the hall's director"))
    return (_("kept by the hall's director: {reason}", reason=reason) if reason
            else _("kept by the hall's director"))


def parse_rulings(value: Any) -> tuple[list[Ruling], list[str]]:
    """The usable rulings of an offer message's ``rulings`` (a list), and why each
    other one cannot be used. Never raises, whatever ``value`` holds.

    Why a ruling is refused here and in :func:`ruled_standing` goes to the table's log
    only (companion/table.py, companion/offers.py), in English as every log line: the
    director sees the hall's own account of it."""
    if not isinstance(value, list):
        return [], ["'rulings' must be a list"]  # i18n: not said
    found: list[Ruling] = []
    problems: list[str] = []
    for item in value[:MAX_RULINGS]:
        try:
            found.append(_ruling(item))
        except InvalidAction as err:
            problems.append(str(err))
    if len(value) > MAX_RULINGS:
        problems.append(
            f"a message carries at most {MAX_RULINGS} rulings: the rest wait")  # i18n: not said
    return found, problems


def _ruling(item: Any) -> Ruling:
    if not isinstance(item, dict):
        raise InvalidAction("a ruling must be a JSON object")  # i18n: not said
    if set(item) - FIELDS or FIELDS - {"reason"} - set(item):
        raise InvalidAction(
            f"a ruling has the fields {', '.join(sorted(FIELDS))}")  # i18n: not said
    rid, epoch, match = item["id"], item["epoch"], item["match"]
    if not isinstance(rid, str) or not ID_PATTERN.fullmatch(rid):
        raise InvalidAction(
            "a ruling's 'id' must be 1-64 of A-Z, a-z, 0-9, _ and -")  # i18n: not said
    if type(epoch) is not int or type(match) is not int or match < 1:
        raise InvalidAction(
            f"ruling {rid}: 'epoch' and 'match' must be whole numbers")  # i18n: not said
    event, pairing = item["event"], item["pairing"]
    if not all(isinstance(v, str) and ID_PATTERN.fullmatch(v) for v in (event, pairing)):
        raise InvalidAction(f"ruling {rid}: 'event' and 'pairing' must be ids")  # i18n: not said
    kind = item["kind"]
    if kind not in (CORRECTED, KEPT):
        raise InvalidAction(f"ruling {rid}: 'kind' is {CORRECTED!r} or {KEPT!r}")
    reason = item.get("reason", "")
    if not isinstance(reason, str) or len(reason) > MAX_REASON or not reason.isprintable():
        raise InvalidAction(
            f"ruling {rid}: 'reason' is text of at most {MAX_REASON} "  # i18n: not said
                            "characters")
    standing = item["standing"]
    if not isinstance(standing, dict) or set(standing) - {"teams", "places", "tiebreaks"}:
        raise InvalidAction(
            f"ruling {rid}: 'standing' is teams, places and tiebreaks")  # i18n: not said
    return Ruling(rid, epoch, match, event, pairing, kind, " ".join(reason.split()),
                  standing)


def ruled_standing(ruling: Ruling, start: Mapping[str, Any], status: str,
                   standing: Mapping[str, Any] | None) -> tuple[JSON, Any]:
    """``(standing, winner)`` of the stored match ``ruling`` names once it is applied:
    the ruling's places (and tiebreaks) laid on the match's own sides (``standing``, the
    one its play gave), and the winner as the store keeps it (a seat, or a list of
    seats for a side or a shared first place). InvalidAction, saying why, when the
    ruling is not one the hall may give this match: the match is not finished, was not
    played for the ruling's event and pairing, or its sides differ."""
    what = f"ruling {ruling.id} on match {ruling.match}"  # i18n: not said
    if status != "finished":
        raise InvalidAction(f"{what}: the match is {status} here, not finished")  # i18n: not said
    event = start.get("event")
    if not isinstance(event, dict) or (event.get("id"), event.get("pairing")) != (
            ruling.event, ruling.pairing):
        raise InvalidAction(
            f"{what}: that match was not played for the hall's game "  # i18n: not said
                            f"{ruling.pairing} of event {ruling.event}")
    if standing is None:
        raise InvalidAction(f"{what}: the match has no standing to correct")  # i18n: not said
    mine = [tuple(t) for t in standing["teams"]]
    teams_in, places_in = ruling.standing.get("teams"), ruling.standing.get("places")
    if not isinstance(teams_in, list) or not isinstance(places_in, list) or not all(
            isinstance(t, list) and all(type(i) is int for i in t) for t in teams_in):
        raise InvalidAction(
            f"{what}: its standing is not teams of seats and places")  # i18n: not said
    teams = [tuple(t) for t in teams_in]
    places, values = list(places_in), ruling.standing.get("tiebreaks")
    if sorted(map(sorted, teams)) != sorted(map(sorted, mine)) or len(places) != len(teams) \
            or not all(type(p) is int and 0 <= p < len(teams) for p in places) \
            or 0 not in places:
        raise InvalidAction(f"{what}: its sides or places are not this match's")  # i18n: not said
    if values is not None and (not isinstance(values, list) or len(values) != len(teams)
                               or not all(_number(v) for v in values)):
        raise InvalidAction(f"{what}: its tiebreaks are not a number a side")  # i18n: not said
    by_team = {frozenset(t): i for i, t in enumerate(teams)}
    order = [by_team[frozenset(t)] for t in mine]
    out: JSON = {"teams": [list(t) for t in mine], "places": [places[i] for i in order]}
    if values is not None:
        out["tiebreaks"] = [values[i] for i in order]
    return out, _winner(mine, out["places"])


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) \
        and abs(v) <= MAX_TIEBREAK


def _winner(teams: Sequence[tuple[int, ...]], places: Sequence[int]) -> Any:
    """The store's winner for ``places``: the one first seat, else the first seats sorted."""
    first = sorted(i for t, p in zip(teams, places, strict=True) if p == 0 for i in t)
    return first[0] if len(first) == 1 else first
