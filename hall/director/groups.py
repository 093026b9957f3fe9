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
  With ``seats`` every table seats that many (3 for Canadian doubles) and the
  lowest-rated players the count leaves over rest.

"Even" means the smallest gap between the strongest and the weakest group
(by total for teams, by average otherwise). Up to :data:`EXACT_UP_TO` players
every split is tried; above, a snake draft is improved by the best swap of
two players while one helps, so that no single swap improves the end result
(a local best, not always the best; 100 players at tables take seconds,
tests/bench/bench_pairing.py measures it). Equal splits are decided by
the order the players are given in, so the same input gives the same split.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.said import listed
from companion.i18n import Text, _
from hall.director.model import Player, Result
from hall.director.standings import effective

#: Up to this many players, every way to split them is tried.
EXACT_UP_TO = 12


@dataclass(frozen=True)
class Split:
    """The groups (best-rated group member first), who rests, and a line on each group:
    ``why`` numbered ("Table 2: ..."), ``reasons`` the same without the number (where the
    group is numbered otherwise: a round's board)."""

    groups: tuple[tuple[str, ...], ...]
    resting: tuple[str, ...]
    why: tuple[str, ...]
    reasons: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"groups": [list(g) for g in self.groups], "resting": list(self.resting),
                "why": list(self.why)}


#: What a split is judged by, group by group: (repeat opponents in it, its rating value:
#: the total for teams, the average otherwise). A split is better with fewer repeats in
#: all, then a smaller gap between the highest and lowest value.
Measure = Callable[[list[str]], tuple[int, float]]


def _judge(measures: list[tuple[int, float]]) -> tuple[int, float]:
    values = [v for _, v in measures]
    return (sum(r for r, _ in measures),
            round(max(values, default=0) - min(values, default=0), 9))


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


def _best(names: list[str], sizes: list[int], measure: Measure) -> list[list[str]]:
    if len(names) <= EXACT_UP_TO:
        return min(_every_split(names, sizes), key=lambda split: _judge(
            [measure(g) for g in split]))
    # Snake draft by the order given (the caller sorts by rating), then swaps.
    groups: list[list[str]] = [[] for _ in sizes]
    turn = 0
    step = 1
    for name in names:
        while len(groups[turn]) >= sizes[turn]:
            turn, step = _snake(turn, step, len(sizes))
        groups[turn].append(name)
        turn, step = _snake(turn, step, len(sizes))
    _improve(groups, measure)
    return groups


def _improve(groups: list[list[str]], measure: Measure) -> None:
    """Swap two players of different groups while a swap makes the split better.

    Only swaps that could help are tried: one of the two groups holds a repeat
    (no other swap lowers the repeats), or has the highest or lowest value (no
    other swap narrows the gap). So the split it ends with is one no swap at
    all improves.
    """
    repeats = [0] * len(groups)
    values = [0.0] * len(groups)
    for g, group in enumerate(groups):
        repeats[g], values[g] = measure(group)

    def judge() -> tuple[int, float]:
        return (sum(repeats), round(max(values) - min(values), 9))

    current = judge()
    while True:
        # The best swap of all that could help (the steepest step: far fewer steps than
        # taking the first that helps, each of which would start the search again).
        top, bottom = max(values), min(values)
        worth = [g for g in range(len(groups)) if repeats[g] or values[g] in (top, bottom)]
        best: tuple[tuple[int, float], int, int, int, int] | None = None
        for g in worth:
            for h in range(len(groups)):
                if h == g or (h in worth and h < g):  # each pair once
                    continue
                for i, j in itertools.product(range(len(groups[g])), range(len(groups[h]))):
                    groups[g][i], groups[h][j] = groups[h][j], groups[g][i]
                    before = repeats[g], values[g], repeats[h], values[h]
                    repeats[g], values[g] = measure(groups[g])
                    repeats[h], values[h] = measure(groups[h])
                    trial = judge()
                    if trial < current and (best is None or trial < best[0]):
                        best = (trial, g, h, i, j)
                    groups[g][i], groups[h][j] = groups[h][j], groups[g][i]
                    repeats[g], values[g], repeats[h], values[h] = before
        if best is None:
            return
        current, g, h, i, j = best
        groups[g][i], groups[h][j] = groups[h][j], groups[g][i]
        repeats[g], values[g] = measure(groups[g])
        repeats[h], values[h] = measure(groups[h])


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
            numbered: Callable[[int, Text], Text], line: Callable[[list[str]], Text]
            ) -> Split:
    ordered = [sorted(g, key=lambda n: -rating[n]) for g in groups]
    ordered.sort(key=lambda g: -sum(rating[n] for n in g) / len(g))
    reasons = tuple(line(g) for g in ordered)
    return Split(tuple(tuple(g) for g in ordered), tuple(resting),
                 tuple(numbered(i, r) for i, r in enumerate(reasons, 1)), reasons)


def teams(players: Sequence[Player], size: int = 2) -> Split:
    """Teams of ``size`` with rating totals as even as can be (module docstring)."""
    if size < 1:
        raise ValueError(f"a team has at least one player, not {size}")
    names, rating = _ranked(players)
    count = len(names) // size
    playing, resting = names[:count * size], names[count * size:]

    groups = _best(playing, [size] * count,
                   lambda g: (0, sum(rating[n] for n in g))) if count else []
    return _finish(groups, rating, resting,
                   lambda i, why: _("Team {number}: {why}", number=i, why=why),
                   lambda g: _("{names}: rating total {total}", names=" + ".join(g),
                               total=f"{sum(rating[n] for n in g):g}"))


def sides(players: Sequence[Player], count: int = 2) -> Split:
    """Everyone into ``count`` sides, sizes within one, average ratings as even as can be."""
    if count < 1:
        raise ValueError(f"at least one side, not {count}")
    names, rating = _ranked(players)
    if len(names) < count:
        raise ValueError(f"{len(names)} players cannot make {count} sides")
    sizes = [len(names) // count + (i < len(names) % count) for i in range(count)]
    groups = _best(names, sizes, lambda g: (0, sum(rating[n] for n in g) / len(g)))
    return _finish(groups, rating, [],
                   lambda i, why: _("Side {number}: {why}", number=i, why=why),
                   lambda g: _("{names}: average rating {average}", names=", ".join(g),
                               average=f"{_mean(g, rating):g}"))


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


def tables(players: Sequence[Player], results: Sequence[Result] = (),
           seats: int | None = None) -> Split:
    """Seats at 3-4 player tables: repeat opponents as few as can be, then even averages.

    ``seats`` fixes every table's size instead (3 for AlakaSLAM's Canadian doubles):
    the lowest-rated players the count leaves over rest (the caller chooses who rests
    by leaving them out of ``players``)."""
    names, rating = _ranked(players)
    met = Counter(frozenset((r.players[i], r.players[j])) for r in effective(results)
                  for i, j in itertools.combinations(range(len(r.players)), 2)
                  if r.opposed(i, j))
    if seats is not None and seats < 2:
        raise ValueError(f"a table seats two at least, not {seats}")
    sizes = table_sizes(len(names)) if seats is None else [seats] * (len(names) // seats)
    seated = sum(sizes)
    playing, resting = names[:seated], names[seated:]

    def measure(group: list[str]) -> tuple[int, float]:
        return (sum(met[frozenset(p)] > 0 for p in itertools.combinations(group, 2)),
                sum(rating[n] for n in group) / len(group))

    groups = _best(playing, sizes, measure) if sizes else []

    def line(group: list[str]) -> Text:
        again = [_("{first} and {second}", first=a, second=b)
                 for a, b in (sorted(p) for p in itertools.combinations(group, 2))
                 if met[frozenset((a, b))]]
        average = f"{_mean(group, rating):g}"
        if again:
            return _("{names}: average rating {average}, {pairs} met before: no seating "
                     "avoids it", names=", ".join(group), average=average,
                     pairs=listed(again))
        return _("{names}: average rating {average}, no one has met before",
                 names=", ".join(group), average=average)

    return _finish(groups, rating, resting,
                   lambda i, why: _("Table {number}: {why}", number=i, why=why), line)


def _mean(group: list[str], rating: dict[str, float]) -> float:
    return round(sum(rating[n] for n in group) / len(group), 1)
