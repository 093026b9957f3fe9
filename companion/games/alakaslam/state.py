"""The match state: score, who serves and hits, the ball, Enchantments, abilities."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.games.alakaslam.court import Cell, columns
from companion.games.alakaslam.options import Setup, setup_of

#: How many cards a player holds at the serve, before mulligans.
HAND = 8
HAND_SARISSIA = 10
HAND_SIMON_WITH_TEAMMATE = 7
#: Characters whose ability is used once per point with an ``ability`` action
#: (Josephias only as a Canadian doubles pair player); Laurie's goes in a shot.
ABILITY_ACTION = ("toots", "josephias")
SHOT_ABILITY = "laurie"
#: Why a point ends, in the order the stats count them.
REASONS = ("no_return", "declined", "out", "net", "bad_serve")


@dataclass(frozen=True)
class Binding:
    """An Enchantment on ``player``: their next shot plays exactly ``cards`` cards."""

    player: int
    cards: int
    #: Rich's Enchant-2: no Enchantment in the return either.
    no_enchant: bool
    #: Who played it.
    by: int


@dataclass(frozen=True)
class Shot:
    """One shot of the rally, the serve included, as the view shows it."""

    side: int
    players: tuple[int, ...]
    start: Cell
    end: Cell
    result: str  # in | out | net | bad_serve


@dataclass(frozen=True)
class State:
    setup: Setup
    score: tuple[int, int]
    serving_side: int
    #: "serve", "shot" or None once won.
    due: str | None
    hitting_side: int | None
    ball: Cell | None
    rally: int
    bindings: tuple[Binding, ...]
    ability_used: tuple[bool, ...]
    copies: tuple[str | None, ...]
    mulligans: tuple[int, ...]
    #: Each player's refill size this point, fixed by their first mulligan (None before
    #: one): a copy made after it leaves the hand as it is (the refill is behind him).
    refilled: tuple[int | None, ...]
    last_shot: Shot | None
    #: (winning side, reason) of the last point.
    last_point: tuple[int, str] | None
    winner: int | None
    #: Points won per side, counted by reason (in REASONS order).
    won_by: tuple[tuple[int, ...], tuple[int, ...]]
    #: The most shots in one point so far, the serve and a point-ending shot included.
    longest_rally: int
    #: Once-per-point abilities each player used over the match.
    abilities: tuple[int, ...]

    @property
    def cols(self) -> int:
        return columns(len(self.setup.names))

    @property
    def hitter(self) -> int:
        """``hitting_side`` for the rules that only run in a rally (``due`` is "shot");
        ValueError before the serve or once won."""
        if self.hitting_side is None:
            raise ValueError("no rally is on: nobody is to hit")
        return self.hitting_side


def setup(players: Sequence[str], options: Mapping[str, Any]) -> State:
    """The state before the first serve, from prepared options."""
    s = setup_of(players, options)
    n = len(players)
    return State(setup=s, score=(0, 0), serving_side=s.first_server, due="serve",
                 hitting_side=None, ball=None, rally=0, bindings=(),
                 ability_used=(False,) * n, copies=(None,) * n, mulligans=(0,) * n,
                 refilled=(None,) * n, last_shot=None, last_point=None, winner=None,
                 won_by=((0,) * len(REASONS),) * 2, longest_rally=0, abilities=(0,) * n)


def acts_as(state: State, player: int) -> str:
    """The character whose ability ``player`` uses now (Simon's copy, if he made one)."""
    own = state.setup.characters[player]
    return (state.copies[player] or own) if own == "simon" else own


def hand_size(state: State, player: int) -> int:
    """Cards to hold at the serve: the refill size, less one per mulligan; never below 1.

    The refill is 8, Sarissia 10, Simon with a teammate 7; Simon copying
    Sarissia gets her two extra cards on top of his own count. Simon picks
    his copy before the refill, so a copy made before his first mulligan of
    the point sets his refill; once he has mulliganed, the refill is behind
    him and a new copy leaves the cards he holds as they are.
    """
    fixed = state.refilled[player]
    return (refill_size(state, player) if fixed is None else fixed) - state.mulligans[player]


def refill_size(state: State, player: int) -> int:
    """The hand ``player`` refills to now, before any mulligan (see hand_size)."""
    s = state.setup
    base = HAND
    if s.characters[player] == "simon" and s.teammate(player) is not None:
        base = HAND_SIMON_WITH_TEAMMATE
    if acts_as(state, player) == "sarissia":
        base += HAND_SARISSIA - HAND
    return base


def has_point_ability(state: State, player: int) -> bool:
    """Whether ``player`` now has a once-per-point ``ability`` action."""
    who = acts_as(state, player)
    if who == "toots":
        return True
    return (who == "josephias" and state.setup.format == "canadian"
            and state.setup.teammate(player) is not None)


def draws(state: State, player: int) -> dict[str, Any]:
    """The end-of-turn draw reminder for ``player`` after their side's shot."""
    s = state.setup
    alone = s.teammate(player) is None
    n = 2 if alone else 1
    who = acts_as(state, player)
    wendolyn = who == "wendolyn"
    # As a Canadian pair player Josephias takes from the discard once per point: the
    # ability action records that he did, and the reminder stops offering it.
    spent = has_point_ability(state, player) and state.ability_used[player]
    return {"player": player, "draw": n + wendolyn, "discard_first": int(wendolyn),
            "from_discard": who == "josephias" and not spent}


def held_at_most(state: State, player: int) -> int:
    """The most cards ``player`` can hold for their side's shot now.

    The companion knows the hand at the serve (:func:`hand_size`), and each of the
    side's shots since: after each, the player drew (:func:`draws`: 2 alone, 1 in a pair,
    Wendolyn discarding 1 first; Josephias's card from the discard is instead of his
    draw), and a player alone on a side played at least 1 card of it. The draws are not
    recorded card by card, so this is the bound the record allows: a play the table
    could make is never refused (a lone player with 1 card serves it, draws 2 and may
    play 2).
    """
    side = state.setup.teams[player]
    # The rally counts the point's shots so far, the serve first: the serving side hit
    # the even ones, the other side the odd ones.
    turns = (state.rally + 1) // 2 if side == state.serving_side else state.rally // 2
    d = draws(state, player)
    gained = d["draw"] - d["discard_first"]
    alone = state.setup.teammate(player) is None
    return hand_size(state, player) + turns * (gained - int(alone))


def end_point(state: State, winner: int, reason: str, shot: Shot | None = None) -> State:
    """The state after ``winner`` takes a point: the loser serves next; all resets."""
    score = list(state.score)
    score[winner] += 1
    won = winner if score[winner] >= state.setup.target else None
    n = len(state.setup.names)
    # A shot that ends the point is part of its rally; a point awarded directly is not a shot.
    rally = state.rally + (shot is not None)
    won_by = list(state.won_by)
    won_by[winner] = tuple(c + (r == reason) for c, r in zip(won_by[winner], REASONS, strict=True))
    return replace(state, score=(score[0], score[1]), serving_side=1 - winner,
                   won_by=(won_by[0], won_by[1]),
                   longest_rally=max(state.longest_rally, rally),
                   due=None if won is not None else "serve", hitting_side=None, ball=None,
                   rally=0, bindings=(), ability_used=(False,) * n, copies=(None,) * n,
                   mulligans=(0,) * n, refilled=(None,) * n,
                   # A point awarded before any shot of it keeps no earlier point's shot.
                   last_shot=shot or (state.last_shot if state.due == "shot" else None),
                   last_point=(winner, reason), winner=won)
