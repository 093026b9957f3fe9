"""Setting up a match: portals, the first player, the Dark Power ruling, names and dice."""

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
    choice,
    name_key,
)
from companion.i18n import N_, _

#: Creatures are numbered 1-6 (one Portal board each); these short default
#: names fit the OLED and a table may rename them after its own box.
CREATURES = 6
# The English cards' names, kept as printed in every language (docs/glossary): data a
# table renames after its own box, never translated.
DEFAULT_CREATURES = ("Dragon", "Griffin", "Unicorn", "Phoenix", "Kraken", "Hydra")  # i18n: not said
#: The longest creature name or dice face accepted: they share OLED rows.
MAX_CREATURE = 8
MAX_FACE = 6
#: The Spell Dice faces by default: the Magic Power symbol, then five runes.
DEFAULT_FACES = ("Magic", "Fire", "Water", "Earth", "Air", "Light")  # i18n: not said
MAX_DICE = 3
SPACES = 9
#: Magic Power tokens a player holds at most; each display spends 2, the Magic Helper 1.
MAX_MAGIC = 6
DISPLAY_COST = 2
HELPER_COST = 1
#: A player starts with 1 Magic Power token; a turn whose action the table did not
#: record may have been a roll of three dice (RULINGS, third round).
START_MAGIC = 1
UNRECORDED_GAIN = 3
#: The most displays in one turn: 6 tokens at 2 each (2 after the Helper spent one).
MAX_DISPLAYS = MAX_MAGIC // DISPLAY_COST

OPTIONS = (
    OptionSpec("first_player", _("First"),
               ((0, "P1"), (1, "P2"), (2, "P3"), (3, "P4"), ("roll", _("Roll"))), 0),
    OptionSpec("dark_power_reset", _("3 DP pass"),
               ((True, _("Reset")), (False, _("Keep"))), True),
)
#: Options that are not a menu choice: set by the game's own setup screens or the phone.
FREE_OPTIONS = ("portals", "creatures", "dice_faces", "boxed")
#: Written by prepare: the player the device's roll chose to start, if it rolled.
ROLL = "first_roll"


@dataclass(frozen=True)
class Setup:
    """What stays fixed for the whole match."""

    names: tuple[str, ...]
    #: The creature (1-6) shown on each player's Portal board.
    portals: tuple[int, ...]
    first_player: int
    #: A forced pass at 3 Dark Power sets it back to 0.
    reset: bool
    #: Creature names, index 0 for creature 1.
    creatures: tuple[str, ...]
    #: The faces of each Spell Die; the first is the Magic Power symbol, the others runes.
    faces: tuple[str, ...]
    #: The creatures put back in the box (the ``boxed`` option), or None: the first
    #: creatures displayed decide the deck.
    boxed: tuple[int, ...] | None = None

    def creature(self, number: int) -> str:
        return self.creatures[number - 1]

    @property
    def deck_size(self) -> int:
        """Creatures in the deck: all six with four players, five with three, four with two."""
        return deck_size(len(self.names))


def deck_size(players: int) -> int:
    return CREATURES - (4 - players)


def prepare(players: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> JSON:
    """Checked, complete options; ``first_player: "roll"`` is rolled here, once."""
    names = check_players(players, (2, 4))
    n = len(names)
    options = check_option_keys(options, [*(o.key for o in OPTIONS), *FREE_OPTIONS, ROLL])
    first = options.get("first_player", 0)
    if not (first == "roll" or (type(first) is int and 0 <= first < n)):
        raise InvalidAction(_("option 'first_player' must be a player index 0-{last} or "
                              "\"roll\"; got {value}", last=n - 1, value=repr(first)))
    rolled = options.get(ROLL)
    if rolled is not None and not (type(rolled) is int and 0 <= rolled < n):
        raise InvalidAction(_("option {key} must be a player index 0-{last}", key=repr(ROLL),
                              last=n - 1))
    if first == "roll":
        if rolled is not None:
            raise InvalidAction(_("option {key} records the device's roll, which "
                                  "'first_player': \"roll\" asks for now: give 'first_player' "
                                  "\"roll\" alone for a new roll, or 'first_player' {rolled} "
                                  "with it to keep that one", key=repr(ROLL), rolled=rolled))
        rolled = rng.randrange(n)
        first = rolled
    elif rolled is not None and rolled != first:
        raise InvalidAction(_("option {key} is the player the device rolled to start, so it "
                              "must equal 'first_player' ({first}), or be null if none was "
                              "rolled", key=repr(ROLL), first=first))
    portals = _portals(options.get("portals"), n)
    prepared = {
        "portals": list(portals),
        "first_player": first,
        ROLL: rolled,
        "dark_power_reset": choice(options, "dark_power_reset", (True, False), True),
        "creatures": list(_labels(options.get("creatures"), "creatures", DEFAULT_CREATURES,
                                  MAX_CREATURE, exact=CREATURES)),
        "dice_faces": list(_labels(options.get("dice_faces"), "dice_faces", DEFAULT_FACES,
                                   MAX_FACE, exact=None)),
    }
    # Only when given: without it the first creatures displayed decide the deck.
    if options.get("boxed") is not None:
        prepared["boxed"] = list(_boxed(options["boxed"], portals))
    return prepared


def again(options: Mapping[str, Any]) -> JSON:
    """The options for a rematch: the same, with the first player rolled again if it was."""
    return again_with(options, ROLL, "first_player", "roll")


def setup_of(players: Sequence[str], options: Mapping[str, Any]) -> Setup:
    """The fixed facts of a match from prepared options."""
    return Setup(names=tuple(players), portals=tuple(options["portals"]),
                 first_player=options["first_player"], reset=options["dark_power_reset"],
                 creatures=tuple(options["creatures"]), faces=tuple(options["dice_faces"]),
                 boxed=None if options.get("boxed") is None else tuple(options["boxed"]))


def _portals(value: object, count: int) -> tuple[int, ...]:
    if value is None:
        return tuple(range(1, count + 1))
    if not (isinstance(value, list) and len(value) == count
            and all(type(c) is int and 1 <= c <= CREATURES for c in value)):
        raise InvalidAction(_("option 'portals' lists the creature (1-{most}) on each "
                              "player's Portal board: {count} numbers, e.g. {example}",
                              most=CREATURES, count=count,
                              example=list(range(1, count + 1))))
    if len(set(value)) != count:
        raise InvalidAction(_("option 'portals': every player needs a different Portal board "
                              "(creature)"))
    return tuple(value)


def _boxed(value: object, portals: tuple[int, ...]) -> tuple[int, ...]:
    """The creatures put back in the box: 6 - deck size of them, none on a Portal board."""
    n = len(portals)
    count = CREATURES - deck_size(n)
    free = [c for c in range(1, CREATURES + 1) if c not in portals]
    if not (isinstance(value, list) and len(value) == count
            and all(type(c) is int and 1 <= c <= CREATURES for c in value)) \
            or len(set(value)) != count:
        what = _("none (all six creatures play)") if not count else \
            N_("{n} different creature of {free}", "{n} different creatures of {free}", count,
               free=free)
        raise InvalidAction(_("option 'boxed' lists the creatures put back in the box: with "
                              "{players} players the deck holds {deck} creatures, so {what}",
                              players=n, deck=deck_size(n), what=what))
    on_portal = [c for c in value if c in portals]
    if on_portal:
        raise InvalidAction(_("option 'boxed': creature {creature} is on a Portal board and "
                              "stays in the deck; put back {count} of {free}",
                              creature=on_portal[0], count=count, free=free))
    return tuple(sorted(value))


def _labels(value: object, key: str, default: tuple[str, ...], longest: int,
            exact: int | None) -> tuple[str, ...]:
    """Short display names: creature names (exactly six) or dice faces (2-12)."""
    if value is None:
        return default
    if (not isinstance(value, list) or (exact and len(value) != exact)
            or (not exact and not 2 <= len(value) <= 12)):
        raise InvalidAction(
            _("option {key} must be a list of {count} short names", key=repr(key), count=exact)
            if exact else _("option {key} must be a list of 2 to 12 short names", key=repr(key)))
    out = []
    for i, name in enumerate(value):
        if not isinstance(name, str):
            raise InvalidAction(_("option {key}: entry {entry} must be a string",
                                  key=repr(key), entry=i + 1))
        name = " ".join(name.split())
        if not name or len(name) > longest or not name.isprintable():
            raise InvalidAction(_("option {key}: entry {entry} must be 1 to {longest} "
                                  "printable characters (it shares an OLED row)",
                                  key=repr(key), entry=i + 1, longest=longest))
        out.append(name)
    if len({name_key(n) for n in out}) != len(out):
        raise InvalidAction(_("option {key}: the names must differ from each other",
                              key=repr(key)))
    return tuple(out)
