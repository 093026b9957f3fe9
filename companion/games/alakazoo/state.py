"""The match state: whose turn, Dark Power, points, portals, the final round, the jury."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.alakazoo.options import (
    CREATURES,
    DISPLAY_COST,
    HELPER_COST,
    MAX_MAGIC,
    SPACES,
    START_MAGIC,
    UNRECORDED_GAIN,
    Setup,
    setup_of,
)

#: Dark Power a player can hold; a player who starts a turn with this many passes.
DARK_MAX = 3
#: Why a player takes Dark Power, in the order the stats count them.
DARK_REASONS = ("no_rune", "magic_power", "hand", "helper")
#: The turn's one action, as the rulebook has three: roll the Spell Dice, take a column
#: (or discard), or the Magic Helper (a swap, or a trick with a hand card).
TURN_ACTIONS = ("roll", "column", "helper")
#: The Magic Helper's tricks that involve no portal: a hand card swapped with another
#: player's hand (+1 Dark Power), or one discarded for a card from a column.
TRICKS = ("hand", "column")
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
    #: Columns taken (or cards discarded) as the turn's action.
    columns: int = 0
    #: The Helper's tricks with a hand card (no portal involved).
    tricks: int = 0


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
    #: This turn's one action (one of TURN_ACTIONS), or None while it is free.
    action: str | None
    #: Elements the current player displayed this turn (no action may follow one).
    displays: int
    #: The Spell Dice rolled this turn: (faces, rolled by the device).
    roll: tuple[tuple[str, ...], bool] | None
    #: ``no_rune`` Dark Power recorded after this turn's roll (one per rune die at most).
    no_runes: int
    #: The creatures known to be in the deck: the portals' own, then those put on a
    #: portal (or all but the ``boxed`` ones), in the order they came; at most deck_size.
    deck: tuple[int, ...]
    #: The forced passes on the way to the current turn.
    passes: tuple[Pass, ...]
    #: The last event applied, for the "what just happened" line.
    last: Mapping[str, Any] | None
    stats: tuple[Stats, ...]
    #: Per player, the most Magic Power tokens the record allows at the start of
    #: their turn (RULINGS, third round): 1 at the start, never over 6.
    tokens: tuple[int, ...] = ()
    #: The penalties of this turn that its action must make possible ("magic_power"
    #: needs a roll that could pass 6, "hand" a column or the Helper), as recorded.
    penalties: tuple[str, ...] = ()

    @property
    def over(self) -> bool:
        return self.ended is not None

    @property
    def mover(self) -> int:
        """``current`` for the rules that only run while the game is on (``resolve``
        refuses every action once it is over); ValueError after the end."""
        if self.current is None:
            raise ValueError("the game is over: nobody's turn")
        return self.current

    @property
    def final_round(self) -> bool:
        return self.ender is not None and not self.over

    @property
    def acted(self) -> bool:
        return self.action is not None

    @property
    def displayed(self) -> bool:
        return self.displays > 0

    @property
    def max_displays(self) -> int:
        """The most displays this turn allows: a player holds at most 6 Magic Power and
        each display spends 2; the Magic Helper (any of its uses) spent 1 of them first;
        and no more than the Magic Power the record allows pays for."""
        spent = HELPER_COST if self.action == "helper" else 0
        most = (MAX_MAGIC - spent) // DISPLAY_COST
        return min(most, self.displays + self.magic_power() // DISPLAY_COST)

    def gain(self) -> int:
        """What this turn's action could add to the Magic Power the player holds: a
        recorded roll its dice less the ``no_rune`` penalties recorded for it, a
        column or the Helper nothing, an action not recorded 3 (it may have been a
        roll of three dice the table did not enter)."""
        if self.action == "roll" and self.roll is not None:
            return len(self.roll[0]) - self.no_runes
        return UNRECORDED_GAIN if self.action is None else 0

    def magic_power(self, player: int | None = None) -> int:
        """The most Magic Power tokens the record allows ``player`` (the current
        player by default) now: the turn's gain added (never over 6), the turn's
        displays (2 each) and the Helper (1) taken; never below 0, since a player
        holds no fewer than none. (The record spends more than it allowed only
        through what is not refused: the Helper, or a ``no_rune`` recorded after the
        displays; a bound carried below 0 would sink with every such Helper and
        refuse the player's displays for ever.)"""
        p = self.current if player is None else player
        if p is None or p != self.current:
            return self.tokens[p] if p is not None else 0
        spent = self.displays * DISPLAY_COST + (HELPER_COST if self.action == "helper" else 0)
        return max(0, min(MAX_MAGIC, self.tokens[p] + self.gain()) - spent)

    def others_complete(self) -> bool:
        """In the final round, every other player's portal is complete: the Helper can be
        used against none of them (the rulebook's end-of-game note on the Helper)."""
        return self.final_round and all(
            full(portal) for o, portal in enumerate(self.portals) if o != self.current)

    @property
    def deck_full(self) -> bool:
        """Every creature of the deck is known: no other creature can come into play."""
        return len(self.deck) >= self.setup.deck_size

    def in_deck(self, creature: int) -> bool:
        """``creature`` is in the deck, or may still be (a free place in it)."""
        return creature in self.deck or not self.deck_full

    def shown_on(self, space: int, creature: int) -> int | None:
        """The player whose portal shows ``creature`` on ``space`` (0-8): each card exists
        once."""
        return next((p for p, portal in enumerate(self.portals) if portal[space] == creature),
                    None)

    def rune_dice(self) -> int:
        """The dice of this turn's roll that showed a rune symbol (not Magic Power)."""
        if self.roll is None:
            return 0
        return sum(f != self.setup.faces[0] for f in self.roll[0])


def setup(players: Sequence[str], options: Mapping[str, Any]) -> State:
    """The state before the first turn, from prepared options."""
    s = setup_of(players, options)
    n = len(players)
    deck = s.portals if s.boxed is None else \
        (*s.portals, *(c for c in range(1, CREATURES + 1)
                       if c not in s.portals and c not in s.boxed))
    return State(setup=s, current=s.first_player, round=1, dark=(0,) * n, points=(0,) * n,
                 portals=((None,) * SPACES,) * n, firsts=(None,) * SPACES, ender=None,
                 tokens=(START_MAGIC,) * n,
                 ended=None, action=None, displays=0, roll=None, no_runes=0, deck=deck,
                 passes=(), last=None, stats=(Stats(),) * n)


def full(portal: Portal) -> bool:
    return all(c is not None for c in portal)


def line_kind(creatures: Sequence[int | None]) -> str:
    """What the jury sees in a row or column (LINE_KINDS): only a full line can score."""
    if any(c is None for c in creatures):
        return "open"
    return {1: "same", 2: "pair", 3: "different"}[len(set(creatures))]


def jury(portal: Portal, creature: int) -> Jury:
    """The Magic Jury's verdict on ``portal``, whose board shows ``creature``."""
    # Three rows, three columns (ROWS, COLS): the tuples built here are of three, which
    # mypy cannot count (hence the ignores [arg-type]).
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
