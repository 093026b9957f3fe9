"""Setting up a match: characters, teams, the format, the first server and the target."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import InvalidAction
from companion.games.base import (
    JSON,
    OptionSpec,
    again_with,
    check_option_keys,
    check_players,
    integer,
    is_one_of,
)
from companion.i18n import N_, _

#: Every character the rulebook names, by contract id, with a short title: the name
#: printed on the card, said as printed in every language (docs/glossary, "AlakaSLAM").
CHARACTERS: dict[str, str] = {
    "austin": "Austin", "laurie": "Laurie", "rich": "Rich",  # i18n: not said
    "toots": "Toots", "josephias": "Josephias",  # i18n: not said (names as printed)
    "simon": "Simon", "sarissia": "Sarissia",  # i18n: not said (names as printed)
    "wendolyn": "Wendolyn",  # i18n: not said (names as printed)
}
#: The format by number of players.
FORMATS = {2: "singles", 3: "canadian", 4: "doubles"}
DEFAULT_TEAMS = {2: (0, 1), 3: (0, 1, 1), 4: (0, 0, 1, 1)}
OPTIONS = (
    OptionSpec("first_server", _("Serves"), ((0, _("Side 1")), (1, _("Side 2")),
                                             ("coin", _("Coin"))), 0),
    OptionSpec("target", _("Target"),
               tuple((n, N_("{n} point", "{n} points", n)) for n in range(1, 10)), 3),
)
#: Options that are not a menu choice: set by the game's own setup screens.
FREE_OPTIONS = ("characters", "teams")
#: Written by prepare: the side the device's coin flip chose, if it made one.
COIN = "coin_flip"


@dataclass(frozen=True)
class Setup:
    """What stays fixed for the whole match."""

    names: tuple[str, ...]
    characters: tuple[str, ...]
    #: The side (0|1) of each player.
    teams: tuple[int, ...]
    first_server: int
    target: int

    @property
    def format(self) -> str:
        return FORMATS[len(self.names)]

    def side_players(self, side: int) -> tuple[int, ...]:
        return tuple(p for p, s in enumerate(self.teams) if s == side)

    def teammate(self, player: int) -> int | None:
        mates = [p for p in self.side_players(self.teams[player]) if p != player]
        return mates[0] if mates else None


def prepare(players: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> JSON:
    """Checked, complete options; ``first_server: "coin"`` is flipped here, once."""
    names = check_players(players, (2, 4))
    options = check_option_keys(options, [*(o.key for o in OPTIONS), *FREE_OPTIONS, COIN])
    prepared: JSON = {
        "characters": list(_characters(options.get("characters"), names)),
        "teams": list(_teams(options.get("teams"), len(names))),
        "target": integer(options, "target", 1, 9, "option", required=False) or 3,
    }
    first = options.get("first_server", 0)
    if not any(first == v and type(first) is type(v) for v in (0, 1, "coin")):
        raise InvalidAction(_("option 'first_server' must be 0, 1 or {coin}", coin='"coin"'))
    flip = integer(options, COIN, 0, 1, "option", required=False)
    if first == "coin":
        if flip is not None:
            raise InvalidAction(_("option '{key}' records the device's flip, which "
                                  "'first_server': {coin} asks for now: give 'first_server' "
                                  "{coin} alone for a new flip, or 'first_server' {flip} "
                                  "with it to keep that one", key=COIN, coin='"coin"',
                                  flip=flip))
        flip = rng.randrange(2)
        first = flip
    elif flip is not None and "first_server" not in options:
        # Only the device writes a flip, always with the server it chose: a flip alone
        # was not the device's, and the server is not said.
        raise InvalidAction(_("option '{key}' records the device's flip and comes with the "
                              "'first_server' it chose: give 'first_server' 0 or 1 to choose "
                              "who serves, or {coin} to have the device flip", key=COIN,
                              coin='"coin"'))
    elif flip is not None and flip != first:
        raise InvalidAction(_("option '{key}' says the device's flip chose side {flip}, but "
                              "'first_server' is {first}: they must agree (give one of them)",
                              key=COIN, flip=flip, first=first))
    prepared["first_server"] = first
    prepared[COIN] = flip
    return prepared


def again(options: Mapping[str, Any]) -> JSON:
    """The options for a rematch: the same, with the coin flipped again if one was."""
    return again_with(options, COIN, "first_server", "coin")


def setup_of(players: Sequence[str], options: Mapping[str, Any]) -> Setup:
    """The fixed facts of a match from prepared options."""
    return Setup(names=tuple(players), characters=tuple(options["characters"]),
                 teams=tuple(options["teams"]), first_server=options["first_server"],
                 target=options["target"])


def _characters(value: object, names: Sequence[str]) -> tuple[str, ...]:
    count = len(names)
    known = ", ".join(CHARACTERS)
    if value is None:
        raise InvalidAction(_("option 'characters' is required: one id per player, all "
                              "different, from: {known}", known=known))
    if not isinstance(value, list) or len(value) != count:
        raise InvalidAction(_("option 'characters' must list {count} character ids, one per "
                              "player, from: {known}", count=count, known=known))
    for i, c in enumerate(value):
        if not is_one_of(c, CHARACTERS):
            raise InvalidAction(_("option 'characters': {name}'s character (player {number}) "
                                  "must be one of: {known}", name=names[i], number=i,
                                  known=known))
    if len(set(value)) != count:
        raise InvalidAction(_("option 'characters': every player needs a different character"))
    return tuple(value)


def _teams(value: object, count: int) -> tuple[int, ...]:
    if value is None:
        return DEFAULT_TEAMS[count]
    shape = {2: _("one player per side, e.g. {example}", example="[0, 1]"),
             3: _("one player alone on a side, two on the other, e.g. {example}",
                  example="[0, 1, 1]"),
             4: _("two players per side, e.g. {example}", example="[0, 0, 1, 1]")}[count]
    if not (isinstance(value, list) and len(value) == count
            and all(type(s) is int and s in (0, 1) for s in value)) \
            or sorted((value.count(0), value.count(1))) != {2: [1, 1], 3: [1, 2], 4: [2, 2]}[count]:
        raise InvalidAction(_("option 'teams' gives each player's side (0 or 1): {shape}",
                              shape=shape))
    return tuple(value)
