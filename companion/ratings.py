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
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

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
    """Every game's ratings: ``games[game][key]``, and the names players are shown by."""

    games: Mapping[str, Mapping[str, Rating]]

    def board(self, game: str) -> list[Rating]:
        """A game's leaderboard: highest ordinal first (then more matches, then by name)."""
        return sorted(self.games.get(game, {}).values(),
                      key=lambda r: (-r.ordinal, -r.matches, r.key))

    def of(self, name: str) -> dict[str, Rating]:
        """A player's rating in each game they played, by game id."""
        key = name_key(name)
        return {g: players[key] for g, players in self.games.items() if key in players}


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
    names = names or {}
    games: dict[str, dict[str, Rating]] = {}
    models: dict[str, dict[str, object]] = {}
    keyed: dict[str, str] = {}  # name_key of each spelling, worked out once
    for m in finished:
        if m.standing is None:
            continue
        teams, places = teams_and_places(m.standing)
        keys = [keyed.get(n) or keyed.setdefault(n, name_key(n)) for n in m.players]
        board = games.setdefault(m.game, {})
        model = models.setdefault(m.game, {})
        for key, shown in zip(keys, m.players, strict=True):
            if key not in board:
                model[key] = start = MODEL.rating()
                board[key] = Rating(key, names.get(key, shown), start.mu, start.sigma,
                                    start.ordinal())
            elif key not in names:
                board[key].name = shown
        after = MODEL.rate([[model[keys[i]] for i in team] for team in teams], ranks=places)
        firsts = places.count(0)
        count = len(teams)
        for team, place, rated in zip(teams, places, after, strict=True):
            others = tuple(keys[i] for t in teams if t is not team for i in t)
            outcome = LOSS if place else (WIN if firsts == 1 else SHARED)
            for i, new in zip(team, rated, strict=True):
                key = keys[i]
                model[key] = new
                r = board[key]
                mu, sigma = new.mu, new.sigma
                r.mu, r.sigma, r.ordinal = mu, sigma, mu - 3 * sigma  # the model's ordinal()
                r.matches += 1
                if outcome != LOSS:
                    r.wins += 1
                partners = () if len(team) == 1 else tuple(keys[j] for j in team if j != i)
                r.played.append(Played(m.id, m.started_at, outcome, place, count, partners,
                                       others, mu, sigma, r.ordinal))
    return Ratings(games)


def table_ratings(store: Store) -> Ratings:
    """The ratings of every finished match in ``store``. A match finished before the store
    kept standings (schema 1) is replayed once here for its standing."""
    finished = []
    for m in store.finished():
        if m.standing is None:
            match = replay_stored(store.load(m.id))
            m = Finished(m.id, m.game, m.players, standing(m.game, match.view()), m.started_at)
        finished.append(m)
    return rate(finished, store.names())

