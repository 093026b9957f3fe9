"""Setting up a match: options, rosters, wizard stats, dice faces, spell budgets."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import InvalidAction
from companion.games.base import (
    JSON,
    MAX_NAME,
    OptionSpec,
    again_with,
    check_option_keys,
    check_players,
    integer,
    is_one_of,
)
from companion.games.wizard_dodgeball.cards import CARD_OF, CARDS, SPELLS
from companion.i18n import N_, _

SIDE_SIZE = 5
#: Points to win unless the start record says otherwise (the rulebook's 5).
DEFAULT_TARGET = 5
JERSEY_MAX = 99
#: Any default roster works; the UIs start from this one.
DEFAULT_ROSTERS = ((1, 2, 3, 4, 5), (6, 7, 8, 9, 10))
#: Dice stats on a wizard card; each names a left and a right die by colour.
STATS = ("throw", "dodge", "cast", "resist")
PLAIN = "d6"
WHITE = "white"
D6 = (1, 2, 3, 4, 5, 6)
MAX_FACE = 20
#: Frozen wizards do not roll to dodge: their dodge is this.
OPTIONS = (
    OptionSpec("turn", _("Turn"), (("basic", _("Basic")), ("advanced", _("Advanced"))),
               "basic"),
    OptionSpec("variant", _("Win by"), (("points", _("Points")),
                                        ("elimination", _("Elimination"))), "points"),
    # "none" is the elimination variant's: a side wins when the other has nobody left.
    OptionSpec("target", _("Target"), (*((n, N_("{n} point", "{n} points", n))
                                          for n in (3, 5, 7, 10)), (None, _("none"))),
               DEFAULT_TARGET),
    OptionSpec("first_side", _("First"), ((0, _("Side {n}", n=1)), (1, _("Side {n}", n=2)),
                                          ("roll", _("Roll d6"))), 0),
)
#: Options that are not a menu choice: edited by the game's own setup screens. The
#: panel has no screen to buy spells, so ``spell_list`` is not in its menu.
FREE_OPTIONS = ("rosters", "wizards", "spells", "dice", "spell_list")
#: The rulebook's Basic Game (all ten cards) and Advanced Game (cards bought with
#: the side's Magic), apart from its Basic and Advanced Turn (the ``turn`` option).
SPELL_LISTS = ("all", "bought")
#: Written by prepare: the device's roll-off for the first side, if it made one.
ROLL_OFF = "roll_off"
_COLOUR = re.compile(r"[a-z][a-z0-9_-]{0,11}")


@dataclass(frozen=True)
class Wizard:
    """One wizard's card: jersey, side and what the start record said about it."""

    jersey: int
    side: int
    name: str | None = None
    move: int | None = None
    magic: int | None = None
    #: stat -> (left die colour, right die colour)
    dice: tuple[tuple[str, tuple[str, str]], ...] = ()

    def stat(self, stat: str) -> tuple[str, str]:
        return dict(self.dice).get(stat, (PLAIN, PLAIN))


@dataclass(frozen=True)
class Setup:
    """What stays fixed for the whole match."""

    sides: tuple[str, str]
    turn: str
    variant: str
    target: int | None
    first_side: int
    rosters: tuple[tuple[int, ...], tuple[int, ...]]
    wizards: Mapping[int, Wizard]
    #: The card ids each side owns.
    cards: tuple[tuple[str, ...], tuple[str, ...]]
    #: "all" (the ten cards each) or "bought" (within the side's Magic).
    spell_list: str
    dice: Mapping[str, tuple[int, ...]]

    def side_of(self, jersey: int) -> int:
        return self.wizards[jersey].side

    def faces(self, colour: str) -> tuple[int, ...]:
        return self.dice.get(colour, D6)


def prepare(players: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> JSON:
    """Checked, complete options; ``first_side: "roll"`` is rolled off here."""
    check_players(players, (2, 2))
    options = check_option_keys(options, [*(o.key for o in OPTIONS), *FREE_OPTIONS, ROLL_OFF])
    prepared: JSON = {spec.key: spec.read(options) for spec in OPTIONS if spec.key != "target"}
    prepared["target"] = _target(options, prepared["variant"])
    rosters = _rosters(options.get("rosters"))
    prepared["rosters"] = [list(r) for r in rosters]
    wizards = _wizards(options.get("wizards"), rosters)
    prepared["wizards"] = {str(j): w for j, w in wizards.items()}
    prepared["dice"] = _dice(options.get("dice"))
    prepared["spell_list"] = _spell_list(options)
    prepared["spells"] = _spells(options.get("spells"), prepared["spell_list"], players,
                                 rosters, wizards)
    prepared[ROLL_OFF] = _roll_off(options.get(ROLL_OFF))
    if prepared["first_side"] == "roll":
        prepared["first_side"], prepared[ROLL_OFF] = roll_off(rng)
    return prepared


def _target(options: Mapping[str, Any], variant: str) -> int | None:
    """The points to win; none in the elimination variant, where a target is refused.

    Records prepared before this (an export, a stored match: they carry
    ``roll_off``) wrote the default into an elimination match: read as none.
    """
    target = integer(options, "target", 1, 21, "option", required=False)
    if variant == "points":
        return target or DEFAULT_TARGET
    if target is not None and not (ROLL_OFF in options and target == DEFAULT_TARGET):
        raise InvalidAction(_("option 'target' ({target}) is for the points variant: in the "
                              "elimination variant a side wins when the other has no wizard "
                              "on the court; leave 'target' out, or play the points variant",
                              target=target))
    return None


def roll_off(rng: random.Random) -> tuple[int, list[list[int]]]:
    """The first side by a high d6 each, rolled again on a tie; and the rolls."""
    rolls = []
    while True:
        a, b = rng.choice(D6), rng.choice(D6)
        rolls.append([a, b])
        if a != b:
            return (0 if a > b else 1), rolls


def _rosters(value: object) -> tuple[tuple[int, ...], tuple[int, ...]]:
    shape = _("option 'rosters' must be two lists of five jersey numbers (0-99) in "
              "initiative order, e.g. [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]")
    if value is None:
        raise InvalidAction(_("{shape}; it is required", shape=shape))
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise InvalidAction(shape)
    rosters = []
    for side, roster in enumerate(value):
        if not isinstance(roster, list | tuple) or len(roster) != SIDE_SIZE:
            raise InvalidAction(_("{shape}; side {side} has not five", shape=shape,
                                  side=side + 1))
        for j in roster:
            if type(j) is not int or not 0 <= j <= JERSEY_MAX:
                raise InvalidAction(_("{shape}; side {side} has {value}", shape=shape,
                                      side=side + 1, value=repr(j)))
        rosters.append(tuple(roster))
    seen = Counter(j for r in rosters for j in r)
    twice = sorted(j for j, n in seen.items() if n > 1)
    if twice:
        raise InvalidAction(_("jersey #{j} is in the rosters twice; every wizard needs its "
                              "own number, since actions name wizards by jersey", j=twice[0]))
    return rosters[0], rosters[1]


def _wizards(value: object, rosters: Sequence[Sequence[int]]) -> dict[int, JSON]:
    """Stats by jersey, checked: ``{jersey: {name, move, magic, throw...}}``."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidAction("option 'wizards' must be an object "  # i18n: not said
                            "of stats by jersey number")
    known = {j for r in rosters for j in r}
    out: dict[int, JSON] = {}
    for key, stats in value.items():
        jersey = int(key) if isinstance(key, str) and key.isdigit() else key
        if jersey not in known:
            raise InvalidAction(f"option 'wizards' has stats "  # i18n: not said
                                f"for #{key}, who is in no roster")
        where = f"wizard #{jersey}"
        if not isinstance(stats, Mapping):
            raise InvalidAction(f"{where}: stats must be an object")  # i18n: not said
        unknown = sorted(set(stats) - {"name", "move", "magic", *STATS})
        if unknown:
            raise InvalidAction(f"{where}: unknown stat "  # i18n: not said
                                f"{unknown[0]!r}; the stats are name, "
                                f"move, magic, {', '.join(STATS)}")
        card: JSON = {}
        if stats.get("name") is not None:
            name = stats["name"]
            if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME * 2 \
                    or not name.isprintable():
                raise InvalidAction(f"{where}: 'name' must be "  # i18n: not said
                                    f"printable text, at most {MAX_NAME * 2} characters")
            card["name"] = " ".join(name.split())
        for stat in ("move", "magic"):
            number = integer(stats, stat, 0, 9, f"{where} stat", required=False)
            if number is not None:
                card[stat] = number
        for stat in STATS:
            if stats.get(stat) is not None:
                card[stat] = list(_colours(stats[stat], f"{where} stat {stat!r}"))
        out[jersey] = card
    return dict(sorted(out.items()))


def _colours(value: object, where: str) -> tuple[str, str]:
    """A stat's dice: one colour for both, or [left, right]."""
    colours = [value, value] if isinstance(value, str) else value
    if not isinstance(colours, list | tuple) or len(colours) != 2 or not all(
            isinstance(c, str) and _COLOUR.fullmatch(c) for c in colours):
        raise InvalidAction(f"{where} must be a die colour "  # i18n: not said
                            "(like \"blue\") or two of them [left, right]: lower-case "
                            "letters, at most 12")
    return colours[0], colours[1]


def _dice(value: object) -> JSON:
    """Faces by colour: ``{"blue": [1, 2, 3, 3, 4, 5]}``; unnamed colours are plain d6s."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidAction("option 'dice' must be an object "  # i18n: not said
                            "of six faces by colour")
    out = {}
    for colour, faces in value.items():
        if not isinstance(colour, str) or not _COLOUR.fullmatch(colour):
            raise InvalidAction(f"option 'dice': {colour!r} is not "  # i18n: not said
                                "a colour name (lower-case letters, at most 12)")
        if not isinstance(faces, list | tuple) or len(faces) != 6 or not all(
                type(f) is int and 0 <= f <= MAX_FACE for f in faces):
            raise InvalidAction(f"option 'dice': the {colour} die "  # i18n: not said
                                f"needs six faces, each a whole number 0-{MAX_FACE}")
        out[colour] = list(faces)
    return dict(sorted(out.items()))


def _spell_list(options: Mapping[str, Any]) -> str:
    """``"all"`` (the Basic Game's ten cards) or ``"bought"`` (the Advanced Game's).

    Left out, it is read as match files written before the option meant it:
    ``spells`` given is a bought list, except all ten cards with the basic
    turn (how a basic match was exported).
    """
    if "spell_list" in options:
        value = options["spell_list"]
        if value not in SPELL_LISTS:
            raise InvalidAction(_("option 'spell_list' must be \"all\" (each side has all "
                                  "ten cards) or \"bought\" (each side buys cards with its "
                                  "Magic); got {value}", value=repr(value)))
        return value
    spells = options.get("spells")
    if spells is None:
        return "all"
    if options.get("turn", "basic") == "basic" and _is_every(spells):
        return "all"
    return "bought"


def _is_every(value: object) -> bool:
    """``value`` gives both sides all ten cards (loosely read: it is checked later)."""
    every = {c.id for c in CARDS}
    return isinstance(value, list | tuple) and len(value) == 2 and all(
        isinstance(v, list | tuple) and {CARD_OF[x].id for x in v if is_one_of(x, CARD_OF)} == every
        and len(v) == len(every) for v in value)


def _spells(value: object, spell_list: str, players: Sequence[str],
            rosters: Sequence[Sequence[int]], wizards: Mapping[int, JSON]) -> list[list[str]]:
    every = [c.id for c in CARDS]
    if spell_list == "all":
        if value is not None and any(sorted(_card_ids(v, i)) != sorted(every)
                                     for i, v in enumerate(_two(value))):
            raise InvalidAction(_("with spell_list \"all\" each side has all ten spell "
                                  "cards; to give each side the cards it bought, set "
                                  "spell_list \"bought\" (with any turn)"))
        return [every, list(every)]
    if value is None:
        raise InvalidAction(_("spell_list \"bought\" needs option 'spells': the cards each "
                              "side bought, e.g. [[\"freeze\", \"shield\"], [\"fireball\", "
                              "\"speed\"]]"))
    bought = []
    for side, cards in enumerate(_two(value)):
        ids = _card_ids(cards, side)
        magic = [wizards.get(j, {}).get("magic") for j in rosters[side]]
        missing = [j for j, m in zip(rosters[side], magic, strict=True) if m is None]
        if missing:
            raise InvalidAction(_(
                "bought spells' budget is the sum of each side's Magic stats: give wizard "
                "#{j} a 'magic' stat in option 'wizards', or play with all ten cards "
                "(spell_list \"all\", any turn)", j=missing[0]))
        cost = sum(CARD_OF[c].cost for c in ids)
        budget = sum(m for m in magic if m is not None)   # none is: `missing` is empty
        if cost > budget:
            sums = "+".join(str(m) for m in magic)
            raise InvalidAction(_(
                "the {side} spells cost {cost} but its Magic budget is {budget} ({sums}): "
                "leave out cards worth {over} or more", side=players[side], cost=cost,
                budget=budget, sums=sums, over=cost - budget))
        bought.append([c for c in every if c in ids])
    return bought


def _two(value: object) -> list[Any]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise InvalidAction(_("option 'spells' must be two lists of spell card ids, one per "
                              "side"))
    return list(value)


def _card_ids(cards: object, side: int) -> list[str]:
    if not isinstance(cards, list | tuple):
        raise InvalidAction(_("option 'spells': side {side} must be a list of spell ids",
                              side=side + 1))
    ids = []
    for spell in cards:
        if not is_one_of(spell, CARD_OF):
            raise InvalidAction(_("option 'spells': unknown spell {spell}; known: {known}",
                                  spell=repr(spell), known=", ".join(SPELLS)))
        card = CARD_OF[spell].id
        if card in ids:
            raise InvalidAction(_("option 'spells': side {side} has the {card} card twice",
                                  side=side + 1, card="/".join(CARD_OF[spell].faces)))
        ids.append(card)
    return ids


def _roll_off(value: object) -> list[list[int]] | None:
    if value is None:
        return None
    if not (isinstance(value, list) and value and all(
            isinstance(r, list) and len(r) == 2 and all(type(x) is int and 1 <= x <= 6 for x in r)
            for r in value)):
        raise InvalidAction("option 'roll_off' must be "  # i18n: not said
                            "the list of [side 1, side 2] d6 rolls")
    return value


def again(options: Mapping[str, Any]) -> JSON:
    """The options for a rematch: the same, with the roll-off made again."""
    return again_with(options, ROLL_OFF, "first_side", "roll")
