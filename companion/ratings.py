"""Player ratings per game, computed from the finished matches in the order they were played.

Ratings are derived data, never stored: :func:`rate` takes the finished
matches (each with its standing, companion/standings.py) and gives every
player of every game a rating, so an undone result, a merged player or an
imported match file gives exactly what a fresh computation from the history
gives. Abandoned and unfinished matches are not among the finished ones and
count for nothing.

The model is OpenSkill's Plackett-Luce (the ``openskill`` package: Weng-Lin
Bayesian rating for any number of teams of any size, ties included), which
covers every match shape here: one against one (Center Court, AlakaSLAM
singles), teams (AlakaSLAM doubles and Canadian doubles one against two,
Wizard Dodgeball sides) and a free-for-all with shared places (Alakazoo).
Everyone starts at the model's default (mu 25, sigma 25/3). The figure shown
is the model's ordinal, mu - 3 sigma: conservative, it rises as the
rating grows surer. A rating from fewer than :data:`PROVISIONAL` matches is
provisional.

Players are told apart by their name key (companion.games.base.name_key):
"Ann" and "ann " are one player.

Cheap to keep: OpenSkill's updates are sequential, so the ratings after one
more match are the ratings before it updated by that match alone
(:meth:`Ratings.extended`, exactly what a fresh computation gives).
:class:`KeptRatings` brings a table's or a hall's ratings up to date that
way: a match finished at the end of the order costs one update; only a
change to the past (an undo, a merge, a rename, a match imported among older
ones) computes again, from the last checkpoint before the change, in slices
that leave the interpreter to the table's writer between them.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any

from openskill.models import PlackettLuce

from companion.catalog import Catalog
from companion.games.base import JSON, name_key
from companion.integrity import replay_stored
from companion.standings import standing
from companion.store import Finished, Store

#: A rating from fewer matches than this is provisional.
PROVISIONAL = 5
#: How many of the latest results the form shows.
FORM = 5
#: Outcomes: a win alone, a first place shared (Alakazoo), a loss.
WIN, SHARED, LOSS = "W", "D", "L"
#: Matches rated in one slice of a computation (some 10-30 ms of interpreter time on a
#: Pi-class machine) before the interpreter is left to other threads, and kept as a
#: checkpoint: a change to the past is rated again from the last checkpoint before it.
SLICE = 250

MODEL = PlackettLuce()


@dataclass(slots=True)
class Played:
    """One match of one player: how it ended for them and their rating after it."""

    match: int
    at: float
    outcome: str
    #: The player's team's place (0: first) among ``teams`` teams.
    place: int
    teams: int
    partners: tuple[str, ...]
    opponents: tuple[str, ...]
    mu: float
    sigma: float
    ordinal: float


@dataclass
class Rating:
    """A player's rating in one game and the matches it comes from."""

    key: str
    name: str
    mu: float
    sigma: float
    ordinal: float
    matches: int = 0
    wins: int = 0
    #: Every match, oldest first.
    played: list[Played] = field(default_factory=list)
    #: The model's rating object (openskill never changes one: it rates copies).
    model: Any = field(default=None, repr=False, compare=False)

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL

    @property
    def form(self) -> list[str]:
        """The outcomes of the last :data:`FORM` matches, oldest first."""
        return [p.outcome for p in self.played[-FORM:]]

    def to_json(self) -> JSON:
        return {"name": self.name, "rating": round(self.ordinal, 1), "mu": round(self.mu, 3),
                "sigma": round(self.sigma, 3), "matches": self.matches, "wins": self.wins,
                "form": self.form, "provisional": self.provisional}

    def company(self, which: str) -> list[tuple[str, int, int]]:
        """The players most often met as ``"partners"`` or ``"opponents"``: (key, matches
        together, of those won), the most frequent first."""
        met: Counter[str] = Counter()
        won: Counter[str] = Counter()
        for p in self.played:
            for other in getattr(p, which):
                met[other] += 1
                won[other] += p.outcome != LOSS
        return [(k, n, won[k]) for k, n in sorted(met.items(), key=lambda kv: (-kv[1], kv[0]))]


@dataclass(frozen=True)
class Ratings:
    """Every game's ratings: ``games[game][key]``, and the names players are shown by.

    Never changed once made (readers on other threads hold it): :meth:`extended`
    makes new ratings and leaves these as they are.
    """

    games: Mapping[str, Mapping[str, Rating]]
    #: The name shown for each name key (the store's players), as :func:`rate` was given.
    names: Mapping[str, str] = field(default_factory=dict)

    def board(self, game: str) -> list[Rating]:
        """A game's leaderboard: highest ordinal first (then more matches, then by name)."""
        return sorted(self.games.get(game, {}).values(),
                      key=lambda r: (-r.ordinal, -r.matches, r.key))

    def of(self, name: str) -> dict[str, Rating]:
        """A player's rating in each game they played, by game id."""
        key = name_key(name)
        return {g: players[key] for g, players in self.games.items() if key in players}

    def extended(self, finished: Iterable[Finished]) -> Ratings:
        """The ratings after ``finished`` too, played (in the order given) after every match
        rated here: exactly what :func:`rate` of all of them gives. Costs the new matches'
        updates and a copy of each rating they change (its player's list of matches)."""
        names = self.names
        games = dict(self.games)
        copied: dict[str, dict[str, Rating]] = {}  # the boards new here, changed in place
        own: set[tuple[str, str]] = set()  # the ratings new here, changed in place
        keyed: dict[str, str] = {}  # name_key of each spelling, worked out once
        for m in finished:
            if m.standing is None:
                continue
            teams, places = teams_and_places(m.standing)
            keys = [keyed.get(n) or keyed.setdefault(n, name_key(n)) for n in m.players]
            board = copied.get(m.game)
            if board is None:
                board = copied[m.game] = dict(games.get(m.game, {}))
                games[m.game] = board
            for key, shown in zip(keys, m.players, strict=True):
                r = board.get(key)
                if r is None:
                    start = MODEL.rating()
                    board[key] = r = Rating(key, shown, start.mu, start.sigma,
                                            start.ordinal(), model=start)
                    own.add((m.game, key))
                elif (m.game, key) not in own:
                    board[key] = r = Rating(r.key, r.name, r.mu, r.sigma, r.ordinal, r.matches,
                                            r.wins, list(r.played), r.model)
                    own.add((m.game, key))
                r.name = names.get(key, shown)  # else as last written in a match
            ranks: list[float] = list(places)   # openskill's ranks are floats; places whole
            after = MODEL.rate([[board[keys[i]].model for i in team] for team in teams],
                               ranks=ranks)
            firsts = places.count(0)
            count = len(teams)
            for team, place, rated in zip(teams, places, after, strict=True):
                others = tuple(keys[i] for t in teams if t is not team for i in t)
                outcome = LOSS if place else (WIN if firsts == 1 else SHARED)
                for i, new in zip(team, rated, strict=True):
                    key = keys[i]
                    r = board[key]
                    mu, sigma = new.mu, new.sigma
                    r.model = new
                    r.mu, r.sigma, r.ordinal = mu, sigma, mu - 3 * sigma  # the model's ordinal()
                    r.matches += 1
                    if outcome != LOSS:
                        r.wins += 1
                    partners = () if len(team) == 1 else tuple(keys[j] for j in team if j != i)
                    r.played.append(Played(m.id, m.started_at, outcome, place, count, partners,
                                           others, mu, sigma, r.ordinal))
        return Ratings(games, names)


def teams_and_places(standing: JSON) -> tuple[list[list[int]], list[int]]:
    """A standing's teams (player indexes) and places, checked for shape."""
    teams = [list(t) for t in standing["teams"]]
    places = list(standing["places"])
    if len(teams) != len(places) or len(teams) < 2:
        raise ValueError(f"a standing needs two or more teams, each with a place: {standing}")
    return teams, places


def rate(finished: Iterable[Finished], names: Mapping[str, str] | None = None) -> Ratings:
    """The ratings after ``finished``, rated in the order given (the order played).

    ``names`` maps a name key to the name shown (the store's players); a key
    missing there is shown as last written in a match. A match without a
    standing is skipped (the caller fills standings in: :func:`table_ratings`).
    """
    return Ratings({}, dict(names or {})).extended(finished)


def pause() -> None:
    """Leave the interpreter to the other threads for a moment (between slices of a long
    computation): the table's writer waiting for it gets it now, not after the next
    switch interval."""
    time.sleep(0.001)


class KeptRatings:
    """Ratings kept up to date with a growing history: always exactly :func:`rate` of what
    was loaded, computed again only from where the history changed. Not thread-safe: one
    caller at a time.

    :meth:`update` is given the history as ``marks``, one hashable per finished
    match in the order played that changes whenever what the ratings read of
    that match does, and a ``load(start)`` that gives ``(mark, match)`` for the
    finished matches from position ``start`` of that order on. The matches the
    same as last time up to the first difference are not rated again: from the
    latest checkpoint (every :data:`SLICE` matches) at or before it, only the
    rest is, in slices of :data:`SLICE` with ``between()`` (:func:`pause`)
    between them. A history that only grew costs the new matches' updates alone.
    The marks kept are those loaded: a history that changed between the two
    reads is rated again from the difference at the next update.
    """

    def __init__(self, slice_: int = SLICE, between: Callable[[], None] = pause) -> None:
        self.slice, self.between = slice_, between
        self.ratings = Ratings({}, {})
        self._marks: tuple[Hashable, ...] = ()
        self._context: Hashable = None
        #: (matches rated, the ratings after them), every ``slice`` matches, rising.
        self._checkpoints: list[tuple[int, Ratings]] = [(0, self.ratings)]
        #: Matches rated by the last update (for the benchmark and the tests).
        self.rated = 0

    def update(self, marks: Sequence[Hashable],
               load: Callable[[int], Iterable[tuple[Hashable, Finished]]],
               names: Mapping[str, str] | None = None, context: Hashable = None) -> Ratings:
        """The ratings of the history ``marks`` (see the class) with ``names`` shown.
        A new ``context`` (a table's database and its renames and merges, say) rates
        everything again."""
        names = dict(names or {})
        if context == self._context and names == self.ratings.names and \
                tuple(marks) == self._marks:  # nothing new (compared in C: cheap)
            self.rated = 0
            return self.ratings
        same = 0
        if context != self._context or not self._names_agree(names):
            self._context = context
            self._checkpoints = [(0, Ratings({}, names))]
        else:
            for old, new in zip(self._marks, marks, strict=False):
                if old != new:
                    break
                same += 1
        if same == len(self._marks) == len(marks):
            if names != self.ratings.names:  # a new player, who has not played yet
                self.ratings = Ratings(self.ratings.games, names)
            self.rated = 0
            return self.ratings
        while self._checkpoints[-1][0] > same:
            self._checkpoints.pop()
        start, ratings = self._checkpoints[-1]
        if same == len(self._marks) and same > start:  # only grown: go on from the last
            start, ratings = same, self.ratings
        ratings = Ratings(ratings.games, names)
        kept = list(self._marks[:start])
        loaded = iter(load(start))
        while True:
            # Up to the next checkpoint: a whole slice, or what is left of the one begun.
            part = list(islice(loaded, self.slice - len(kept) % self.slice))
            if not part:
                break
            ratings = ratings.extended(m for _, m in part)
            kept += (mark for mark, _ in part)
            if len(kept) % self.slice == 0:
                self._checkpoints.append((len(kept), ratings))
                self.between()
        self.rated = len(kept) - start
        self.ratings, self._marks = ratings, tuple(kept)
        return ratings

    def _names_agree(self, names: Mapping[str, str]) -> bool:
        """Whether ``names`` shows every player rated so far as the kept ratings do: no name
        of the past changed, and a player new to ``names`` has not played yet."""
        kept = self.ratings.names
        if any(names.get(key) != name for key, name in kept.items()):
            return False
        new = names.keys() - kept.keys()
        return not any(key in board for board in self.ratings.games.values() for key in new)


def table_ratings(store: Store, catalog: Catalog) -> Ratings:
    """The ratings of every finished match in ``store`` (of ``catalog``'s games), computed
    afresh."""
    return rate((with_standing(store, m, catalog) for m in store.finished()), store.names())


def with_standing(store: Store, m: Finished, catalog: Catalog) -> Finished:
    """``m`` with its standing: a match finished before the store kept standings (schema 1)
    is replayed for it through ``catalog``'s rules."""
    if m.standing is not None:
        return m
    match = replay_stored(store.load(m.id), catalog)
    return replace(m, standing=standing(catalog.kit(m.game), match.view()))


def finished_mark(m: Finished) -> tuple[float, int, int]:
    """What tells a table's finished match apart in :class:`KeptRatings`: its place in the
    order played (start time, id) and its journal's length (which only grows: a result
    undone and played again is another mark)."""
    return (m.started_at, m.id, m.entries)


def kept_table_ratings(kept: KeptRatings, store: Store, catalog: Catalog,
                       marks: Sequence[tuple[float, int, int]], context: Hashable) -> Ratings:
    """``kept`` brought up to date with ``store``, whose finished matches are ``marks``
    (:func:`finished_mark`, in the order played) as a reader last saw them, and
    ``context`` its epoch and roster (Store.roster: a rename or merge rates again)."""
    def load(start: int) -> Iterable[tuple[Hashable, Finished]]:
        after = marks[start - 1][:2] if start else None
        return ((finished_mark(m), with_standing(store, m, catalog))
                for m in store.finished(after=after))

    return kept.update(marks, load, store.names(), context)

