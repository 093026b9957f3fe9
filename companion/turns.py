"""Turn order and turn-based timers as plain data.

Games keep whose turn it is as a :class:`TurnOrder` (an order plus a
position, as boardgame.io does) instead of branches, and things that last
"until the end of turn N" as :class:`Timers`. Both are frozen, so a game
state that holds them is restored exactly by undo.

Once-per-point (or once-per-round) flags need no class: keep them as a
``frozenset`` in the state and replace it with an empty one when the point
ends.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)
K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class TurnOrder(Generic[T]):
    """Who acts now, in a fixed cyclic order.

    ``turn`` is the 1-based count of turns begun since the start, skipped
    turns included, so ``round`` and timers can be derived from it.
    """

    order: tuple[T, ...]
    position: int = 0
    turn: int = 1

    def __post_init__(self) -> None:
        if not self.order:
            raise ValueError("a turn order needs at least one participant")
        if not 0 <= self.position < len(self.order):
            raise ValueError(f"position {self.position} is outside the order")
        if self.turn < 1:
            raise ValueError("turns are counted from 1")

    @property
    def current(self) -> T:
        """The participant whose turn it is."""
        return self.order[self.position]

    @property
    def round(self) -> int:
        """The 1-based round: one round is one turn for every participant."""
        return (self.turn - 1) // len(self.order) + 1

    def peek(self, steps: int = 1) -> T:
        """Who acts ``steps`` turns from now (0 is the current participant)."""
        return self.order[(self.position + steps) % len(self.order)]

    def advance(self, steps: int = 1) -> TurnOrder[T]:
        """The order after ``steps`` more turns have begun."""
        if steps < 0:
            raise ValueError("a turn order only moves forward; undo restores the past")
        return TurnOrder(self.order, (self.position + steps) % len(self.order), self.turn + steps)

    def __repr__(self) -> str:
        return (f"<TurnOrder turn={self.turn} "  # i18n: not said
                f"current={self.current!r} of {self.order!r}>")


@dataclass(frozen=True)
class Timers(Generic[K]):
    """Things that last until the end of a given turn, keyed by what they are.

    ``until[key]`` is the turn number at whose end the key expires. A key is
    either running or absent, never both, by construction.
    """

    until: Mapping[K, int] = field(default_factory=dict)

    def start(self, key: K, ends_after_turn: int) -> Timers[K]:
        """The timers with ``key`` running until the end of ``ends_after_turn``."""
        if key in self.until:
            raise ValueError(f"{key!r} is already running")
        return Timers({**self.until, key: ends_after_turn})

    def cancel(self, key: K) -> Timers[K]:
        """The timers without ``key`` (no error if it was not running)."""
        return Timers({k: t for k, t in self.until.items() if k != key})

    def end_turn(self, turn: int) -> tuple[Timers[K], tuple[K, ...]]:
        """Close turn ``turn``: the timers left running and the keys that expired."""
        expired = tuple(k for k, t in self.until.items() if t <= turn)
        if not expired:
            return self, ()
        return Timers({k: t for k, t in self.until.items() if t > turn}), expired

    def __contains__(self, key: object) -> bool:
        return key in self.until

    def __iter__(self) -> Iterator[K]:
        return iter(self.until)

    def __len__(self) -> int:
        return len(self.until)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Timers) and dict(self.until) == dict(other.until)

    def __hash__(self) -> int:
        return hash(frozenset(self.until.items()))
