"""Points and tiebreaks, derived from the result list every time.

The results are the truth; standings are never stored. A result for a game
that already has one (same :attr:`Result.key`) is a correction: it replaces
the earlier one and must carry a reason (:func:`effective` refuses one
without). In a team game each player scores their side's points and has
met the players of the other sides. :func:`standings` folds the effective
results in one pass; :class:`Tally` keeps the same numbers up to date one
result at a time (for a live board) and always agrees with it.

The order: points, then Buchholz (the sum of the points of everyone each
player has met, byes not counted), then the game's own tiebreak (the sum of
the values the caller gives per result: sets and games, points difference,
jury points), then head-to-head (points scored against the others still tied,
met or not), then the order the players were given in (their seeding).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hall.director.model import Player, Result


@dataclass(frozen=True)
class Scoring:
    """Points for a result. Two-player games: ``win``, ``draw``, ``loss``; ``bye``.

    A game of three or more players (a free-for-all) scores by finishing
    place: ``by_rank`` gives the points of 1st, 2nd, ... (places beyond its
    end score 0; players sharing a place share the average of the places
    they cover). Without ``by_rank`` each player scores the average of what a
    two-player game against each other player would give (beat two of three:
    two thirds of a win's points).
    """

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    bye: float = 1.0
    by_rank: tuple[float, ...] = ()

    def pairwise(self, mine: int, theirs: int) -> float:
        """What a two-player game gives the player placed ``mine`` against one placed ``theirs``."""
        return self.win if mine < theirs else self.draw if mine == theirs else self.loss

    def points(self, result: Result) -> dict[str, float]:
        """Each player's points for ``result``."""
        if result.bye:
            return {result.players[0]: self.bye}
        if result.sides:  # a team game: the sides score as players, each member as their side
            rank = dict(zip(result.sides, result.ranks, strict=True))
            per = self.points(Result(result.round, tuple(f"side {s}" for s in rank),
                                     tuple(rank.values())))
            return {name: per[f"side {side}"]
                    for name, side in zip(result.players, result.sides, strict=True)}
        ranks = dict(zip(result.players, result.ranks, strict=True))
        if len(ranks) > 2 and self.by_rank:
            table = list(self.by_rank) + [0.0] * len(ranks)
            out = {}
            for name, place in ranks.items():
                above = sum(1 for r in ranks.values() if r < place)
                shared = sum(1 for r in ranks.values() if r == place)
                out[name] = sum(table[above:above + shared]) / shared
            return out
        return {name: sum(self.pairwise(rank, other) for o, other in ranks.items() if o != name)
                / (len(ranks) - 1) for name, rank in ranks.items()}

    def to_json(self) -> dict[str, Any]:
        return {"win": self.win, "draw": self.draw, "loss": self.loss, "bye": self.bye,
                "by_rank": list(self.by_rank)}

    @classmethod
    def from_json(cls, data: Any) -> Scoring:
        """The scoring ``to_json`` gave; keys left out keep their defaults (ValueError,
        saying what is wrong, for anything else)."""
        if not isinstance(data, dict) or set(data) - {"win", "draw", "loss", "bye", "by_rank"}:
            raise ValueError(f"a scoring is an object of win, draw, loss, bye and by_rank, "
                             f"not {data!r}")

        def number(value: Any, key: str) -> float:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"{key} is a number, not {value!r}")
            return float(value)

        by_rank = data.get("by_rank", [])
        if not isinstance(by_rank, list):
            raise ValueError(f"by_rank is a list of numbers, not {by_rank!r}")
        return cls(**{k: number(data[k], k) for k in ("win", "draw", "loss", "bye") if k in data},
                   by_rank=tuple(number(v, "by_rank") for v in by_rank))


#: One point a win, half a draw, a bye as a win; free-for-all by the average of its duels.
CHESS = Scoring()


@dataclass(frozen=True)
class Standing:
    """One line of the standings (``place`` from 1; no two players share one)."""

    place: int
    name: str
    points: float
    buchholz: float
    tiebreak: float
    head_to_head: float
    played: int
    byes: int
    opponents: tuple[str, ...]  # everyone met, by name (twice if met twice)

    def to_json(self) -> dict[str, Any]:
        return {"place": self.place, "name": self.name, "points": self.points,
                "buchholz": self.buchholz, "tiebreak": self.tiebreak,
                "head_to_head": self.head_to_head, "played": self.played, "byes": self.byes,
                "opponents": list(self.opponents)}


def effective(results: Iterable[Result]) -> list[Result]:
    """The results that count: each game's latest, in the order games were first reported.

    A result replacing another must give a reason (ValueError otherwise, naming the game).
    """
    latest: dict[str, Result] = {}
    for result in results:
        if result.key in latest and not result.reason:
            raise ValueError(f"{result.key} already has a result: a correction needs a reason")
        latest[result.key] = result
    return list(latest.values())


def corrections(results: Iterable[Result]) -> list[tuple[Result, Result]]:
    """Each correction as (the result it replaced, the correction), in order."""
    latest: dict[str, Result] = {}
    out = []
    for result in results:
        if result.key in latest:
            out.append((latest[result.key], result))
        latest[result.key] = result
    return out


def _roster(players: Sequence[Player | str], results: Iterable[Result]) -> dict[str, Player]:
    """Everyone to rank, in seeding order: the players given, then others in results by name."""
    given = [Player(p) if isinstance(p, str) else p for p in players]
    roster = {p.name: p for p in given}
    if len(roster) != len(given):
        raise ValueError(f"a player is listed twice: {sorted(p.name for p in given)}")
    for name in sorted({n for r in results for n in r.players} - set(roster)):
        roster[name] = Player(name)
    return roster


@dataclass
class _Line:
    points: float = 0.0
    tiebreak: float = 0.0
    played: int = 0
    byes: int = 0


def _rank(roster: dict[str, Player], lines: dict[str, _Line],
          opponents: dict[str, list[str]],
          versus: dict[tuple[str, str], float]) -> tuple[Standing, ...]:
    """Order the players (module docstring) from their totals.

    Sums are rounded to 9 places, so that totals reached in a different order
    (a correction taken back and re-added) compare equal.
    """
    points = {n: _clean(lines[n].points) for n in roster}
    buchholz = {n: _clean(sum(points[o] for o in opponents[n])) for n in roster}
    key = {n: (points[n], buchholz[n], _clean(lines[n].tiebreak)) for n in roster}
    tied: dict[tuple[float, float, float], list[str]] = defaultdict(list)
    for name in roster:
        tied[key[name]].append(name)
    h2h = {n: _clean(sum(versus.get((n, o), 0.0) for o in tied[key[n]] if o != n))
           for n in roster}
    seed = {n: i for i, n in enumerate(roster)}
    order = sorted(roster, key=lambda n: (*(-k for k in key[n]), -h2h[n], seed[n]))
    return tuple(Standing(place, n, *key[n], h2h[n], lines[n].played, lines[n].byes,
                          tuple(sorted(opponents[n])))
                 for place, n in enumerate(order, 1))


def _clean(value: float) -> float:
    return round(value, 9) + 0.0  # + 0.0: never -0.0


def standings(players: Sequence[Player | str], results: Iterable[Result],
              scoring: Scoring = CHESS) -> tuple[Standing, ...]:
    """The standings after ``results`` (corrections applied), best first.

    ``players`` are everyone checked in, in seeding order (a late arrival's
    ``start_points`` count); a player who dropped out keeps their line.
    """
    counted = effective(results)
    roster = _roster(players, counted)
    lines = {n: _Line(points=p.start_points) for n, p in roster.items()}
    opponents: dict[str, list[str]] = {n: [] for n in roster}
    versus: dict[tuple[str, str], float] = defaultdict(float)
    for result in counted:
        for name, points in scoring.points(result).items():
            lines[name].points += points
        if result.bye:
            lines[result.players[0]].byes += 1
            continue
        for i, name in enumerate(result.players):
            lines[name].played += 1
            if result.tiebreaks:
                lines[name].tiebreak += result.tiebreaks[i]
            for j, other in enumerate(result.players):
                if result.opposed(i, j):
                    opponents[name].append(other)
                    versus[name, other] += scoring.pairwise(result.ranks[i], result.ranks[j])
    return _rank(roster, lines, opponents, versus)


class Tally:
    """The standings kept up to date one result at a time, as a live board wants them.

    Each :meth:`add` applies what the result changes (a correction takes the
    replaced result's share back first), so a board need not refold the
    night; :meth:`standings` equals :func:`standings` of the same results.
    """

    def __init__(self, players: Sequence[Player | str], scoring: Scoring = CHESS) -> None:
        self.scoring = scoring
        self._roster = _roster(players, ())
        self._listed = list(self._roster)
        self._lines = {n: _Line(points=p.start_points) for n, p in self._roster.items()}
        self._opponents: dict[str, list[str]] = {n: [] for n in self._roster}
        self._versus: dict[tuple[str, str], float] = defaultdict(float)
        self._results: dict[str, Result] = {}

    def add(self, result: Result) -> None:
        """Count ``result`` (a correction replaces its game's earlier result; ValueError when
        it gives no reason, and nothing changes)."""
        earlier = self._results.get(result.key)
        if earlier is not None and not result.reason:
            raise ValueError(f"{result.key} already has a result: a correction needs a reason")
        for name in sorted(set(result.players) - set(self._roster)):
            self._roster[name] = Player(name)
            self._lines[name] = _Line()
            self._opponents[name] = []
        if earlier is not None:
            self._count(earlier, -1)
        self._count(result, +1)
        self._results[result.key] = result

    def _count(self, result: Result, sign: int) -> None:
        for name, points in self.scoring.points(result).items():
            self._lines[name].points += sign * points
        if result.bye:
            self._lines[result.players[0]].byes += sign
            return
        for i, name in enumerate(result.players):
            line = self._lines[name]
            line.played += sign
            if result.tiebreaks:
                line.tiebreak += sign * result.tiebreaks[i]
            for j, other in enumerate(result.players):
                if not result.opposed(i, j):
                    continue
                if sign > 0:
                    self._opponents[name].append(other)
                else:
                    self._opponents[name].remove(other)
                self._versus[name, other] += sign * self.scoring.pairwise(result.ranks[i],
                                                                           result.ranks[j])

    def standings(self) -> tuple[Standing, ...]:
        # Players not listed at the start rank after those listed, by name (as in standings()).
        later = sorted(set(self._roster) - set(self._listed))
        roster = {n: self._roster[n] for n in [*self._listed, *later]}
        return _rank(roster, self._lines, self._opponents, self._versus)
