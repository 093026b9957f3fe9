"""What a club night is made of: players, pairings, rounds and results.

Plain frozen dataclasses, JSON-friendly (``to_json`` gives dicts of strings,
numbers and lists), so that the hall can keep them in its database and show
them as they are. Ratings are numbers the caller supplies (any scale; higher
is stronger).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.i18n import C_, N_, Text, _

#: The empty seat of a bye: what a matching or a schedule pairs a player with when no
#: opponent is left.
BYE = None


@dataclass(frozen=True)
class Player:
    """A player checked in to the event.

    ``start_points`` is what a late arrival joins with (0 unless the director
    gives a score, e.g. half a point for each round missed).
    """

    name: str
    rating: float = 0.0
    start_points: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "rating": self.rating, "start_points": self.start_points}

    @classmethod
    def from_json(cls, data: Any) -> Player:
        """The player ``to_json`` gave (ValueError, saying what is wrong, for anything else)."""
        if not isinstance(data, dict) or not isinstance(data.get("name"), str) \
                or not data["name"].strip():
            raise ValueError(f"a player is an object with a name, not {data!r}")
        return cls(data["name"], _number(data, "rating"), _number(data, "start_points"))


def players(names: Iterable[str], ratings: Mapping[str, float] | None = None,
            start_points: Mapping[str, float] | None = None,
            unrated: float | None = None) -> list[Player]:
    """The players ``names`` (in that order) with their ratings from a name->rating mapping
    (any scale, e.g. OpenSkill's ordinal) and late arrivals' points.

    A name without a rating gets ``unrated``, or by default the mean of the ratings
    given (0 when none is): a newcomer is seeded in the middle of the field.
    """
    ratings = dict(ratings or {})
    if unrated is None:
        unrated = sum(ratings.values()) / len(ratings) if ratings else 0.0
    return [Player(n, float(ratings.get(n, unrated)), float((start_points or {}).get(n, 0)))
            for n in names]


def _number(data: dict[str, Any], key: str) -> float:
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{key} is a number, not {value!r}")
    return float(value)


@dataclass(frozen=True)
class Pairing:
    """One game of a round: its players (one player alone is a bye) and why.

    ``board`` numbers the round's games from 1, the most important first (the
    leaders' game, the top seed's), byes last. ``why`` is the short text the
    director shows on request.
    """

    board: int
    players: tuple[str, ...]
    why: str

    @property
    def bye(self) -> bool:
        return len(self.players) == 1

    def to_json(self) -> dict[str, Any]:
        return {"board": self.board, "players": list(self.players), "bye": self.bye,
                "why": self.why}

    @classmethod
    def from_json(cls, data: Any) -> Pairing:
        """The pairing ``to_json`` gave (ValueError, saying what is wrong, for anything else)."""
        if not isinstance(data, dict):
            raise ValueError(f"a pairing is an object, not {data!r}")
        board, names, why = data.get("board"), data.get("players"), data.get("why", "")
        if isinstance(board, bool) or not isinstance(board, int) or board < 1:
            raise ValueError(f"board is a whole number from 1, not {board!r}")
        if not isinstance(names, list) or not names or not all(
                isinstance(n, str) for n in names) or len(set(names)) != len(names):
            raise ValueError(f"players is a list of distinct names, not {names!r}")
        if not isinstance(why, str):
            raise ValueError(f"why is text, not {why!r}")
        return cls(board, tuple(names), why)


@dataclass(frozen=True)
class Round:
    """A round's games. ``number`` counts from 1."""

    number: int
    pairings: tuple[Pairing, ...]

    def players(self) -> list[str]:
        """Everyone in the round, games in board order."""
        return [name for pairing in self.pairings for name in pairing.players]

    def explain(self, name: str) -> str:
        """Why ``name`` plays what they play this round (KeyError: not in the round)."""
        for pairing in self.pairings:
            if name in pairing.players:
                return pairing.why
        raise KeyError(f"{name} is not in round {self.number}")

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "pairings": [p.to_json() for p in self.pairings]}

    @classmethod
    def from_json(cls, data: Any) -> Round:
        """The round ``to_json`` gave (ValueError, saying what is wrong, for anything else)."""
        if not isinstance(data, dict) or not isinstance(data.get("pairings"), list):
            raise ValueError(f"a round is an object with a list of pairings, not {data!r}")
        number = data.get("number")
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise ValueError(f"number is a whole number from 1, not {number!r}")
        pairings = tuple(Pairing.from_json(p) for p in data["pairings"])
        names = [n for p in pairings for n in p.players]
        if len(set(names)) != len(names):
            raise ValueError(f"a player is paired twice in round {number}")
        return cls(number, pairings)


@dataclass(frozen=True)
class Result:
    """How one game of a round ended, as the table (or the director) reports it.

    ``players`` are the game's players; ``ranks`` their finishing places in the
    same order (1 is first; equal ranks are a draw or a shared place); a bye is
    one player and no ranks. ``tiebreaks`` are the game's own tiebreak values,
    one per player (sets and games won minus lost, points difference, jury
    points): whatever the game counts, summed over the event, higher better.

    A team game (doubles, Dodgeball sides) lists every player, with
    ``sides``: each player's side (any numbers, equal for teammates, who must
    share a rank). Teammates are partners, not opponents: points go by side,
    and only players on different sides have met.

    ``game`` names the game within the event (two results with the same
    ``game`` are the same game); it defaults to the round and the players
    (``r2:Ann|Bob``).
    A result for a game that already has one is a correction: it replaces the
    earlier one and must say why (``reason``).
    """

    round: int
    players: tuple[str, ...]
    ranks: tuple[int, ...] = ()
    tiebreaks: tuple[float, ...] = ()
    game: str = ""
    reason: str = ""
    sides: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        players = tuple(self.players)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "ranks", tuple(self.ranks))
        object.__setattr__(self, "tiebreaks", tuple(self.tiebreaks))
        object.__setattr__(self, "sides", tuple(self.sides))
        if not players or len(set(players)) != len(players):
            raise ValueError(f"a result needs distinct players, not {list(players)}")
        if self.round < 1:
            raise ValueError(f"rounds count from 1, not {self.round}")
        if len(players) == 1:
            if self.ranks:
                raise ValueError(f"{players[0]}'s bye has no ranks")
        elif len(self.ranks) != len(players) or any(r < 1 for r in self.ranks):
            raise ValueError(f"give each of {list(players)} a rank from 1, "
                             f"not {list(self.ranks)}")
        if self.tiebreaks and len(self.tiebreaks) != len(players):
            raise ValueError(f"give each of {list(players)} a tiebreak value, "
                             f"not {list(self.tiebreaks)}")
        if self.sides:
            if len(self.sides) != len(players) or len(set(self.sides)) < 2:
                raise ValueError(f"give each of {list(players)} a side, two sides at least, "
                                 f"not {list(self.sides)}")
            rank_of: dict[int, int] = {}
            for side, rank in zip(self.sides, self.ranks, strict=True):
                if rank_of.setdefault(side, rank) != rank:
                    raise ValueError(_("teammates share a rank: side {side} has {rank} and "
                                       "{other}", side=side, rank=rank_of[side], other=rank))
        if not self.game:
            object.__setattr__(self, "game", f"r{self.round}:" + "|".join(sorted(players)))

    @property
    def key(self) -> str:
        """The game this is a result of (``game``, given or derived)."""
        return self.game

    @property
    def bye(self) -> bool:
        return len(self.players) == 1

    def opposed(self, i: int, j: int) -> bool:
        """Whether players ``i`` and ``j`` (indexes) played against each other."""
        return i != j and (not self.sides or self.sides[i] != self.sides[j])

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "players": list(self.players), "ranks": list(self.ranks),
                "tiebreaks": list(self.tiebreaks), "game": self.key, "reason": self.reason,
                "sides": list(self.sides)}

    @classmethod
    def from_json(cls, data: Any) -> Result:
        """The result ``to_json`` gave (ValueError, saying what is wrong, for anything else)."""
        if not isinstance(data, dict):
            raise ValueError(f"a result is an object, not {data!r}")
        number = data.get("round")
        names = data.get("players")
        ranks = data.get("ranks", [])
        tiebreaks = data.get("tiebreaks", [])
        if isinstance(number, bool) or not isinstance(number, int):
            raise ValueError(f"round is a whole number, not {number!r}")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ValueError(f"players is a list of names, not {names!r}")
        if not isinstance(ranks, list) or not all(
                isinstance(r, int) and not isinstance(r, bool) for r in ranks):
            raise ValueError(f"ranks is a list of whole numbers, not {ranks!r}")
        if not isinstance(tiebreaks, list) or not all(
                isinstance(t, int | float) and not isinstance(t, bool) for t in tiebreaks):
            raise ValueError(f"tiebreaks is a list of numbers, not {tiebreaks!r}")
        game, reason = data.get("game", ""), data.get("reason", "")
        if not isinstance(game, str) or not isinstance(reason, str):
            raise ValueError("game and reason are text")
        sides = data.get("sides", [])
        if not isinstance(sides, list) or not all(
                isinstance(s, int) and not isinstance(s, bool) for s in sides):
            raise ValueError(f"sides is a list of whole numbers, not {sides!r}")
        return cls(number, tuple(names), tuple(ranks), tuple(tiebreaks), game, reason,
                   tuple(sides))


def points_text(points: float) -> Text:
    """``2 points``, ``1 point``, ``½ point``, ``1½ points``: how an explanation says a score
    (a count of whole points takes each language's plural; a half its own form)."""
    whole = int(points)
    half = points - whole == 0.5
    if points == whole:
        number = str(whole)
    elif half:
        number = f"{whole}½" if whole else "½"
    else:
        number = f"{points:g}"
    if points == whole:
        return N_("{points} point", "{points} points", whole, points=number)
    if points == 0.5:
        return C_("half a point", "{points} point", points=number)
    return C_("a fraction of points", "{points} points", points=number)
