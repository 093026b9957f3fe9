"""Teams for doubles and sides, and seats at Alakazoo's 3-4 player tables.

Both split the players into groups of given sizes, balanced by rating (the
caller's numbers, any scale):

- :func:`teams`: teams of ``size`` (2 for AlakaSLAM doubles), their rating
  totals as even as can be. When the count does not divide, the lowest-rated
  players left over rest this round (the director can choose otherwise by
  leaving someone else out of ``players``).
- :func:`sides`: everyone into ``count`` sides (2 for Wizard Dodgeball), sizes
  differing by one at most, the sides' average ratings as even as can be.
- :func:`tables`: tables of 4, and of 3 where the count does not divide by 4
  (10 players: 4 + 3 + 3); 5 players sit 3 + 2 and 2 players at one table
  of 2 (the game takes 2 to 4); a single player rests. Players who have met
  before (in ``results``) are kept apart as far as possible first, then the
  tables' average ratings are made as even as can be.

"Even" means the smallest gap between the strongest and the weakest group
(by total for teams, by average otherwise). Up to :data:`EXACT_UP_TO` players
every split is tried; above, a snake draft is improved by swapping two
players while a swap helps (a swap that no longer helps is a local best: for
club-sized fields it is rarely far from the best). Equal splits are decided by
the order the players are given in, so the same input gives the same split.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hall.director.model import Player, Result
from hall.director.standings import effective

#: Up to this many players, every way to split them is tried.
EXACT_UP_TO = 12


@dataclass(frozen=True)
class Split:
    """The groups (best-rated group member first), who rests, and a line on each group."""

    groups: tuple[tuple[str, ...], ...]
    resting: tuple[str, ...]
    why: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"groups": [list(g) for g in self.groups], "resting": list(self.resting),
                "why": list(self.why)}


Score = Callable[[list[list[str]]], tuple[float, ...]]


def _every_split(names: list[str], sizes: list[int]):
    """Every split into groups of ``sizes``, whatever group the first player is in."""
    if not sizes:
        yield []
        return
    first, others = names[0], names[1:]
    for size in sorted(set(sizes), reverse=True):
        rest = list(sizes)
        rest.remove(size)
        for mates in itertools.combinations(others, size - 1):
            left = [n for n in others if n not in mates]
            for tail in _every_split(left, rest):
                yield [[first, *mates], *tail]


def _best(names: list[str], sizes: list[int], score: Score) -> list[list[str]]:
    if len(names) <= EXACT_UP_TO:
        return min(_every_split(names, sizes), key=score)
    # Snake draft by the order given (the caller sorts by rating), then swaps.
    groups: list[list[str]] = [[] for _ in sizes]
    turn = 0
    step = 1
    for name in names:
        while len(groups[turn]) >= sizes[turn]:
            turn, step = _snake(turn, step, len(sizes))
        groups[turn].append(name)
        turn, step = _snake(turn, step, len(sizes))
    current = score(groups)
    improved = True
    while improved:
        improved = False
        for g, h in itertools.combinations(range(len(groups)), 2):
            for i, j in itertools.product(range(len(groups[g])), range(len(groups[h]))):
                groups[g][i], groups[h][j] = groups[h][j], groups[g][i]
                trial = score(groups)
                if trial < current:
                    current, improved = trial, True
                else:
                    groups[g][i], groups[h][j] = groups[h][j], groups[g][i]
    return groups


def _snake(turn: int, step: int, count: int) -> tuple[int, int]:
    if 0 <= turn + step < count:
        return turn + step, step
    return turn, -step


def _ranked(players: Sequence[Player]) -> tuple[list[str], dict[str, float]]:
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise ValueError(f"a player is listed twice: {sorted(names)}")
    rating = {p.name: float(p.rating) for p in players}
    return sorted(names, key=lambda n: -rating[n]), rating


def _finish(groups: list[list[str]], rating: dict[str, float], resting: list[str],
            line: Callable[[int, list[str]], str]) -> Split:
    ordered = [sorted(g, key=lambda n: -rating[n]) for g in groups]
    ordered.sort(key=lambda g: -sum(rating[n] for n in g) / len(g))
    return Split(tuple(tuple(g) for g in ordered), tuple(resting),
                 tuple(line(i, g) for i, g in enumerate(ordered, 1)))


def teams(players: Sequence[Player], size: int = 2) -> Split:
    """Teams of ``size`` with rating totals as even as can be (module docstring)."""
    if size < 1:
        raise ValueError(f"a team has at least one player, not {size}")
    names, rating = _ranked(players)
    count = len(names) // size
    playing, resting = names[:count * size], names[count * size:]

    def spread(groups: list[list[str]]) -> tuple[float, ...]:
        totals = [sum(rating[n] for n in g) for g in groups]
        return (max(totals, default=0) - min(totals, default=0),)

    groups = _best(playing, [size] * count, spread) if count else []
    return _finish(groups, rating, resting, lambda i, g: (
        f"Team {i}: {' + '.join(g)}: rating total {sum(rating[n] for n in g):g}"))


def sides(players: Sequence[Player], count: int = 2) -> Split:
    """Everyone into ``count`` sides, sizes within one, average ratings as even as can be."""
    if count < 1:
        raise ValueError(f"at least one side, not {count}")
    names, rating = _ranked(players)
    if len(names) < count:
        raise ValueError(f"{len(names)} players cannot make {count} sides")
    sizes = [len(names) // count + (i < len(names) % count) for i in range(count)]
    groups = _best(names, sizes, lambda gs: (_gap(gs, rating),))
    return _finish(groups, rating, [], lambda i, g: (
        f"Side {i}: {', '.join(g)}: average rating {_mean(g, rating):g}"))


def table_sizes(count: int) -> list[int]:
    """Seats per table for ``count`` players: 4s, with 3s where 4 does not divide
    (5 players: 3 + 2; 2 players: one table of 2; 1 player: none, they rest)."""
    if count < 2:
        return []
    if count in (2, 3, 4):
        return [count]
    if count == 5:
        return [3, 2]
    tables = -(-count // 4)
    fours = count - 3 * tables
    return [4] * fours + [3] * (tables - fours)


def tables(players: Sequence[Player], results: Sequence[Result] = ()) -> Split:
    """Seats at 3-4 player tables: repeat opponents as few as can be, then even averages."""
    names, rating = _ranked(players)
    met = Counter(frozenset((r.players[i], r.players[j])) for r in effective(results)
                  for i, j in itertools.combinations(range(len(r.players)), 2)
                  if r.opposed(i, j))
    sizes = table_sizes(len(names))
    seated = sum(sizes)
    playing, resting = names[:seated], names[seated:]

    def repeats(group: list[str]) -> int:
        return sum(met[frozenset(p)] > 0 for p in itertools.combinations(group, 2))

    def score(groups: list[list[str]]) -> tuple[float, ...]:
        return (sum(repeats(g) for g in groups), _gap(groups, rating))

    groups = _best(playing, sizes, score) if sizes else []

    def line(i: int, group: list[str]) -> str:
        again = [" and ".join(sorted(p)) for p in itertools.combinations(group, 2)
                 if met[frozenset(p)]]
        return (f"Table {i}: {', '.join(group)}: average rating {_mean(group, rating):g}, "
                + (f"{'; '.join(again)} met before: no seating avoids it" if again
                   else "no one has met before"))

    return _finish(groups, rating, resting, line)


def _mean(group: list[str], rating: dict[str, float]) -> float:
    return round(sum(rating[n] for n in group) / len(group), 1)


def _gap(groups: list[list[str]], rating: dict[str, float]) -> float:
    means = [sum(rating[n] for n in g) / len(g) for g in groups if g]
    return round(max(means, default=0) - min(means, default=0), 9)
