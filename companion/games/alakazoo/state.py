"""The match state: whose turn, Dark Power, points, portals, the final round, the jury."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.alakazoo.options import SPACES, Setup, setup_of

#: Dark Power a player can hold; a player who starts a turn with this many passes.
DARK_MAX = 3
#: Why a player takes Dark Power, in the order the stats count them.
DARK_REASONS = ("no_rune", "magic_power", "hand", "helper")
#: Why a display scores, in the order the stats count them.
SCORES = ("own", "first", "complete")
#: Rows and columns of a portal as space indexes 0-8 (spaces 1-9 in reading order).
ROWS = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
COLS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))
#: What a row or column can be for the jury, and what each scores: all one creature,
#: two of one and another, three different creatures, or not full ("open").
LINE_KINDS = {"same": 1, "pair": 0, "different": 1, "open": 0}

Portal = tuple[int | None, ...]


@dataclass(frozen=True)
class Jury:
    """The Magic Jury's points for one portal: 1 or 0 per row and column, and the bonus."""

    rows: tuple[int, int, int]
    cols: tuple[int, int, int]
    pure: int
    #: Why each row and column scored what it did: one of LINE_KINDS.
    row_kinds: tuple[str, str, str]
    col_kinds: tuple[str, str, str]

    @property
    def total(self) -> int:
        return sum(self.rows) + sum(self.cols) + self.pure


@dataclass(frozen=True)
class Stats:
    """What the history and the view count for one player."""

    #: Points won in play, by SCORES.
    won: tuple[int, int, int] = (0, 0, 0)
    #: Dark Power actually taken, by DARK_REASONS (gains at the cap are not taken).
    dark: tuple[int, int, int, int] = (0, 0, 0, 0)
    forced_passes: int = 0
    swaps: int = 0
    rolls: int = 0


@dataclass(frozen=True)
class Pass:
    """A forced pass: ``player`` started a turn with 3 Dark Power (``reset``: back to 0)."""

    player: int
    reset: bool


@dataclass(frozen=True)
class State:
    setup: Setup
    #: The player whose turn it is; None once the game is over.
    current: int | None
    round: int
    dark: tuple[int, ...]
    points: tuple[int, ...]
    portals: tuple[Portal, ...]
    #: The player who first displayed on each space (index 0-8), or None.
    firsts: tuple[int | None, ...]
    #: The first player to complete a portal: the final round is on.
    ender: int | None
    #: "final_round" when the last turn of the final round ended, "stuck" when
    #: nobody could act (every player at 3 Dark Power, reset off); None while playing.
    ended: str | None
    #: This turn's action (rolling the Spell Dice or the Magic Helper) is done.
    acted: bool
    #: The current player displayed this turn (no action may follow).
    displayed: bool
    #: The Spell Dice rolled this turn: (faces, rolled by the device).
    roll: tuple[tuple[str, ...], bool] | None
    #: The forced passes on the way to the current turn.
    passes: tuple[Pass, ...]
    #: The last event applied, for the "what just happened" line.
    last: Mapping[str, Any] | None
    stats: tuple[Stats, ...]

    @property
    def over(self) -> bool:
        return self.ended is not None

    @property
    def final_round(self) -> bool:
        return self.ender is not None and not self.over


def setup(players: Sequence[str], options: Mapping[str, Any]) -> State:
    """The state before the first turn, from prepared options."""
    s = setup_of(players, options)
    n = len(players)
    return State(setup=s, current=s.first_player, round=1, dark=(0,) * n, points=(0,) * n,
                 portals=((None,) * SPACES,) * n, firsts=(None,) * SPACES, ender=None,
                 ended=None, acted=False, displayed=False, roll=None, passes=(), last=None,
                 stats=(Stats(),) * n)


def full(portal: Portal) -> bool:
    return all(c is not None for c in portal)


def line_kind(creatures: Sequence[int | None]) -> str:
    """What the jury sees in a row or column (LINE_KINDS): only a full line can score."""
    if any(c is None for c in creatures):
        return "open"
    return {1: "same", 2: "pair", 3: "different"}[len(set(creatures))]


def jury(portal: Portal, creature: int) -> Jury:
    """The Magic Jury's verdict on ``portal``, whose board shows ``creature``."""
    row_kinds = tuple(line_kind([portal[i] for i in line]) for line in ROWS)
    col_kinds = tuple(line_kind([portal[i] for i in line]) for line in COLS)
    return Jury(rows=tuple(LINE_KINDS[k] for k in row_kinds),  # type: ignore[arg-type]
                cols=tuple(LINE_KINDS[k] for k in col_kinds),  # type: ignore[arg-type]
                pure=int(all(c == creature for c in portal)),
                row_kinds=row_kinds, col_kinds=col_kinds)  # type: ignore[arg-type]


def totals(state: State) -> tuple[int, ...]:
    """Each player's points plus, once the game is over, the jury's."""
    if not state.over:
        return state.points
    return tuple(p + jury(portal, c).total for p, portal, c in
                 zip(state.points, state.portals, state.setup.portals, strict=True))


def winners(state: State) -> tuple[int, ...]:
    """The players with the highest total once the game is over (a tie shares the win)."""
    if not state.over:
        return ()
    t = totals(state)
    return tuple(p for p, v in enumerate(t) if v == max(t))
