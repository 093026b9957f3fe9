"""Helpers that play Center Court through the public engine API, a start record of each
game, a hand-moved clock, and the catalogs the tests' tables play."""

from __future__ import annotations

import random
from typing import Any

from companion.catalog import Catalog, build, load
from companion.match import Match, StartRecord

#: The games companion/catalog.py's FOLDERS lists: the catalog the tests' tables play.
CATALOG = build()


def with_first_to() -> Catalog:
    """:data:`CATALOG` and the test-only game (tests/first_to/, First to N), loaded as the
    catalog loads every game, by its folder: ``load`` finds no ``kit.py`` there, so it
    plays on the generic faces alone."""
    return CATALOG.plus(load("tests.first_to"))


class NoDice(random.Random):
    """An RNG that fails the test if anything is rolled with it."""

    def choice(self, seq: Any) -> Any:
        raise AssertionError("nothing should have been rolled")

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        raise AssertionError("nothing should have been rolled")


def center_court(players: tuple[str, str] = ("Ann", "Bob"), rng: random.Random | None = None,
                 **options: Any) -> Match:
    """A new Center Court match with the given options."""
    record = {"game": "center-court", "players": list(players), "options": options}
    return Match(StartRecord.create(record, rng or random.Random(0), CATALOG), CATALOG)


def act(match: Match, action: dict[str, Any], rng: random.Random | None = None) -> Match:
    """Resolve and apply one action (raising what the rules raise)."""
    match.push(*match.resolve(action, rng or NoDice()))
    return match


def points(match: Match, *winners: int) -> Match:
    """Award points to the given players in order."""
    for w in winners:
        act(match, {"type": "point", "winner": w})
    return match


def game(match: Match, winner: int) -> Match:
    """Win a game from 0-0 (four straight points)."""
    return points(match, *[winner] * 4)


def games(match: Match, *winners: int) -> Match:
    for w in winners:
        game(match, w)
    return match


def set_6_0(match: Match, winner: int) -> Match:
    return games(match, *[winner] * 6)


def to_six_all(match: Match) -> Match:
    """From 0-0 in a set, reach 6-6 in games (alternating games)."""
    return games(match, *[0, 1] * 6)


class Clock:
    """A clock the test moves by hand (lockout waits, button edge times)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


#: A start record of each game (the fewest options each needs), in GAMES order.
ONE_OF_EACH: list[dict[str, Any]] = [
    {"game": "center-court", "players": ["Ann", "Bob"]},
    {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
     "options": {"rosters": [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]}},
    {"game": "alakaslam", "players": ["Ann", "Bob", "Cid"],
     "options": {"characters": ["austin", "rich", "toots"]}},
    {"game": "alakazoo", "players": ["Ann", "Bob", "Cid"], "options": {"first_player": 0}},
]
