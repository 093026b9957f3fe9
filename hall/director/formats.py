"""The fixed formats: round robin and single elimination.

Round robin is scheduled whole in advance by the circle method: one player
stays put, the others turn one place each round, so everyone meets everyone
exactly once; with an odd count an empty seat joins the circle and whoever
faces it sits the round out (a bye).

Single elimination seeds by rating (highest first; equal ratings by the order
given). The bracket has the next power of two places; seed 1 meets the last
seed, seed 2 the second last, placed so that the top two seeds can meet only
in the final, the top four only in the semi-finals, and so on. The places
beyond the field are byes, so the top seeds get them. Each later round pairs
the winners of neighbouring games, once every game of the round before has a
result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.i18n import _
from hall.director.model import Pairing, Player, Result, Round
from hall.director.standings import effective


def round_robin(players: Sequence[Player | str]) -> tuple[Round, ...]:
    """Every round of a round robin of ``players`` (in the order given), numbered from 1.

    n players play n - 1 rounds (n rounds when n is odd, each sitting one out).
    """
    names = [p if isinstance(p, str) else p.name for p in players]
    if len(set(names)) != len(names):
        raise ValueError(f"a player is listed twice: {sorted(names)}")
    if len(names) < 2:
        return ()
    circle: list[str | None] = [*names, *([None] if len(names) % 2 else [])]
    total = len(circle) - 1
    rounds = []
    for number in range(1, total + 1):
        half = len(circle) // 2
        games = [(circle[i], circle[-1 - i]) for i in range(half)]
        pairings = [(a, b) for a, b in games if a is not None and b is not None]
        sitting = [a or b for a, b in games if a is None or b is None]
        out = [Pairing(board, game, _("{a} v {b}: round robin, round {number} of {total}",
                                      a=game[0], b=game[1], number=number, total=total))
               for board, game in enumerate(pairings, 1)]
        out += [Pairing(len(out) + 1, (name,), _(
            "{name} sits out: an odd number of players, each sits out one round of {total}",
            name=name, total=total)) for name in sitting if name]
        rounds.append(Round(number, tuple(out)))
        # The circle turns: the first seat stays, the others move one place.
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return tuple(rounds)


def bracket_order(size: int) -> list[int]:
    """The seeds (1-based) in bracket order for ``size`` places (a power of two):
    neighbours meet first; 1 and 2 are in opposite halves, 1-4 in different quarters."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket has a power of two places, not {size}")
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


@dataclass(frozen=True)
class Bracket:
    """A single-elimination bracket: the seeds, best first, and its rounds so far."""

    seeds: tuple[str, ...]
    rounds: tuple[Round, ...]
    champion: str | None

    @property
    def size(self) -> int:
        return 1 << max(0, len(self.seeds) - 1).bit_length()

    def to_json(self) -> dict[str, Any]:
        return {"seeds": list(self.seeds), "size": self.size,
                "rounds": [r.to_json() for r in self.rounds], "champion": self.champion}


def seeding(players: Sequence[Player]) -> tuple[str, ...]:
    """The players by rating, highest first (equal ratings keep the order given)."""
    return tuple(p.name for p in sorted(players, key=lambda p: -p.rating))


def elimination(players: Sequence[Player], results: Sequence[Result]) -> Bracket:
    """The bracket of ``players`` after ``results`` (corrections applied).

    A round appears once every game of the round before has a result; a game's
    winner is its player ranked 1 (a draw cannot advance anyone: ValueError).
    """
    seeds = seeding(players)
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"a player is listed twice: {sorted(seeds)}")
    if not seeds:
        return Bracket((), (), None)
    size = 1 << (len(seeds) - 1).bit_length()
    seed_of = {name: i for i, name in enumerate(seeds, 1)}
    slots = [seeds[s - 1] if s <= len(seeds) else None for s in bracket_order(size)]
    decided = {(r.round, frozenset(r.players)): r for r in effective(results)}
    rounds: list[Round] = []
    number = 1
    while len(slots) > 1:
        pairings: list[Pairing] = []
        winners: list[str | None] = []
        byes: list[str] = []
        for a, b in zip(slots[::2], slots[1::2], strict=True):
            if a is None or b is None:  # only in round 1: a seed beyond the field
                bye = a or b
                assert bye is not None, (
                    "the bracket meets each empty place with a seed")  # i18n: not said
                byes.append(bye)
                winners.append(bye)
                continue
            pairings.append(Pairing(0, (a, b), _(
                "{a} v {b}: seed {a_seed} v seed {b_seed}, first round", a=a, b=b,
                a_seed=seed_of[a], b_seed=seed_of[b]) if number == 1 else _(
                "{a} v {b}: seed {a_seed} v seed {b_seed}, winners of round {round}", a=a,
                b=b, a_seed=seed_of[a], b_seed=seed_of[b], round=number - 1)))
            winners.append(_winner(decided.get((number, frozenset((a, b)))), a, b))
        pairings = [Pairing(i, p.players, p.why) for i, p in enumerate(pairings, 1)]
        pairings += [Pairing(board, (name,), _(
            "{name} gets a bye: seed {seed} of {seeds}, the bracket has {size} places",
            name=name, seed=seed_of[name], seeds=len(seeds), size=size))
                     for board, name in enumerate(byes, len(pairings) + 1)]
        rounds.append(Round(number, tuple(pairings)))
        if any(w is None for w in winners):
            return Bracket(seeds, tuple(rounds), None)
        slots, number = winners, number + 1
    return Bracket(seeds, tuple(rounds), slots[0])


def _winner(result: Result | None, a: str, b: str) -> str | None:
    """Who advances from ``a`` v ``b``, or None while the game has no result."""
    if result is None:
        return None
    ranks = dict(zip(result.players, result.ranks, strict=True))
    if ranks[a] == ranks[b]:
        raise ValueError(_("{a} v {b} in round {round} is drawn: an elimination game needs "
                           "a winner", a=a, b=b, round=result.round))
    return a if ranks[a] < ranks[b] else b
