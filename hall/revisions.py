"""A game's result as one fact with revisions (docs/club-night.md, "One result, everywhere").

Pure: no database, no network. hall/night.py keeps the revisions of each
game of an event in ``hall.db`` and decides what to do with each; this
module says what a table's ``results`` message tells of a game, and puts a
result in words.

A game's result changes after it first came in: the players at the table
undo past the winning point (the match is unfinished again: a revision with
no result), play on to another winner, redo, rename or merge a player, or the
director corrects it at the hall. Each change is a :class:`Revision` of the
same game, in the order they came. The revision that counts is the newest
one *applied*; a revision from a table that would change what a later round
was paired on, or what the director entered, is *held* until the director
applies or declines it.

A table's match is the game's by its seats, not by its names: seat *i* of
the match that the hall's offer started is the event's player the offer put
in seat *i*. So a player renamed at the table mid-match (or merged with
another of the table's names) still gets the result; the hall follows the
new name.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.i18n import _
from hall.director.model import Result

#: A revision's state: counted (the newest applied counts), waiting for the director,
#: declined by the director, only noted (a rename: the result is the same), or
#: superseded while held (a newer revision came, or the director applied it anew).
APPLIED, HELD, DECLINED, NOTED, SUPERSEDED = ("applied", "held", "declined", "noted",
                                             "superseded")
#: Where a revision came from.
TABLE, DIRECTOR, BYE = "table", "director", "bye"
#: The largest game tiebreak value (either way) a result may carry: far beyond any game's own.
MAX_TIEBREAK = 1_000_000


@dataclass(frozen=True)
class Origin:
    """The table match a game's result comes from: its table, database epoch and match id."""

    table: str
    epoch: int
    match: int

    @property
    def key(self) -> str:
        return f"{self.table}/{self.epoch}/{self.match}"

    @classmethod
    def parse(cls, key: str | None) -> Origin | None:
        if not key:
            return None
        table, epoch, match = key.rsplit("/", 2)
        return cls(table, int(epoch), int(match))


@dataclass(frozen=True)
class Revision:
    """One revision of a game's result (``result`` None: the game has none now, as when the
    table undid the winning point)."""

    seq: int
    pairing: str
    result: Result | None
    source: str
    at: float
    state: str = APPLIED
    #: The table match it comes from (TABLE revisions).
    origin: Origin | None = None
    #: The names the table gave the players, seat by seat (TABLE revisions).
    names: tuple[str, ...] | None = None
    #: When the table's match started (Unix time), for the club's ratings' order.
    started: float | None = None

    def same_outcome(self, other: Result | None) -> bool:
        """Whether ``other`` places everyone as this revision does (its tiebreaks too)."""
        mine = self.result
        if mine is None or other is None:
            return mine is None and other is None
        return mine.ranks == other.ranks and mine.tiebreaks == other.tiebreaks

    def result_text(self) -> str:
        return "null" if self.result is None else json.dumps(self.result.to_json(),
                                                              ensure_ascii=False)


@dataclass(frozen=True)
class Entry:
    """A finished match in a table's ``results`` that names one of the hall's offers."""

    origin: Origin
    event: str
    pairing: str
    offer: str
    names: tuple[str, ...]
    #: Each seat's place from 1 and the game tiebreak values (``()``: none given).
    ranks: tuple[int, ...]
    tiebreaks: tuple[float, ...]
    started: float | None


@dataclass(frozen=True)
class Results:
    """What a table's ``results`` message says: its database's epoch, every match id it
    lists, the entries naming an offer, and the hall's rulings it took lately."""

    epoch: int
    listed: list[int]
    entries: list[Entry]
    rulings: frozenset[str] = frozenset()


def read_results(table: str, payload: bytes) -> Results | None:
    """The :class:`Results` of a table's ``results`` message, None when it is not one. An
    entry that is not a whole result (no standing, places that do not add up) is left
    out of the entries, never guessed; its match id still counts as listed."""
    try:
        body = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    if not isinstance(body, dict):
        return None
    epoch, listed = body.get("epoch"), body.get("results")
    if type(epoch) is not int or not isinstance(listed, list):
        return None
    matches: list[int] = []
    entries: list[Entry] = []
    for item in listed:
        if not isinstance(item, dict) or type(item.get("match")) is not int:
            continue
        matches.append(item["match"])
        entry = _entry(table, epoch, item)
        if entry is not None:
            entries.append(entry)
    taken = body.get("rulings")
    rulings = frozenset(r for r in taken if isinstance(r, str)) \
        if isinstance(taken, list) else frozenset()
    return Results(epoch, matches, entries, rulings)


def _entry(table: str, epoch: int, item: Mapping[str, Any]) -> Entry | None:
    ev = item.get("event")
    if not isinstance(ev, dict) or not all(isinstance(ev.get(k), str)
                                           for k in ("id", "pairing", "offer")):
        return None
    names = item.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return None
    placed = placed_by_seat(item.get("standing"), len(names))
    if placed is None:
        return None
    started = item.get("started_at")
    started = float(started) if isinstance(started, int | float) \
        and not isinstance(started, bool) else None
    return Entry(Origin(table, epoch, item["match"]), ev["id"], ev["pairing"], ev["offer"],
                 tuple(names), *placed, started)


def tiebreak_ok(value: Any) -> bool:
    """Whether ``value`` is a game tiebreak the hall takes: a finite number within bounds."""
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and abs(value) <= MAX_TIEBREAK  # NaN compares False: refused too


def placed_by_seat(standing: Any, seats: int
                   ) -> tuple[tuple[int, ...], tuple[float, ...]] | None:
    """Each seat's place from 1 in a table's ``standing`` and its team's game tiebreak
    value (none when the standing gives none, or gives them wrongly); None when the
    standing does not place exactly ``seats`` seats."""
    try:
        teams, places = standing["teams"], standing["places"]
        rank: dict[int, int] = {}
        for team, place in zip(teams, places, strict=True):
            if type(place) is not int or place < 0:
                return None
            for i in team:
                if type(i) is not int or i in rank:
                    return None
                rank[i] = place + 1
        if sorted(rank) != list(range(seats)):
            return None
        ranks = tuple(rank[i] for i in range(seats))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    values = standing.get("tiebreaks")
    if not isinstance(values, list) or len(values) != len(teams) \
            or not all(tiebreak_ok(v) for v in values):
        return ranks, ()  # a game without one, or a table before it sent them
    value: dict[int, float] = {}
    for team, v in zip(teams, values, strict=True):
        for i in team:
            value[i] = float(v)
    return ranks, tuple(value[i] for i in range(seats))


def standing_of(result: Result) -> dict[str, Any]:
    """``result`` as a table's standing (companion/standings.py): a team per side (each
    player alone without sides), each team's place from 0, and its tiebreak."""
    if result.sides:
        order = sorted(set(result.sides))
        teams = [[i for i, s in enumerate(result.sides) if s == side] for side in order]
    else:
        teams = [[i] for i in range(len(result.players))]
    out: dict[str, Any] = {"teams": teams,
                           "places": [result.ranks[team[0]] - 1 for team in teams]}
    if result.tiebreaks:
        out["tiebreaks"] = [result.tiebreaks[team[0]] for team in teams]
    return out


def winners(result: Result, join: str = " & ") -> str:
    """Who won ``result``, in words: ``Quo``, ``Ann & Cy``, ``Ann and Bob`` (sharing)."""
    firsts = [n for n, r in zip(result.players, result.ranks, strict=True) if r == 1]
    if result.sides or len(firsts) == 1:
        return join.join(firsts)
    return _("{names} and {last}", names=", ".join(firsts[:-1]), last=firsts[-1])


def outcome(result: Result | None, *, possessive: bool = False) -> str:
    """A result in words: ``Quo`` / ``Pia's win`` (possessive), ``a draw``, ``no result``."""
    if result is None:
        return _("no result")
    if len(set(result.ranks)) == 1:
        return _("a draw")
    if len(result.players) > 2 and not result.sides:
        places = ", ".join(f"{n} {r}" for n, r in zip(result.players, result.ranks,
                                                       strict=True))
        return _("places {places}", places=places)
    who = winners(result)
    return _("{names}'s win", names=who) if possessive else who


def renamed_seats(offered: Sequence[str], before: Sequence[str] | None,
                  now: Sequence[str], key: Any) -> list[int]:
    """The seats whose name the table changed since the hall last heard of the match:
    ``now`` differs (by ``key``) from the names of the last revision (``before``), or
    from the offer's names at the match's first result."""
    ref = before if before is not None else offered
    return [i for i, name in enumerate(now) if i < len(ref) and key(name) != key(ref[i])]
