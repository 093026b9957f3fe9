"""Wizard Dodgeball: initiative order, spell recharge timers and the dice.

The companion keeps whose wizard acts, the score, who is off the court, the
spell cards in hand and recharging, the effect tokens on wizards, and it can
roll every throw and cast. The players keep the court (positions, balls,
moves). The rules applied (docs/rules.md, after shared/RULINGS.md):

- Two sides of five wizards, known by jersey (0-99, all ten different).
  Activations alternate: the first side's first wizard, the other side's
  first, ... the other side's fifth, then the next round. The activation
  count includes skipped slots.
- A cast card leaves the hand whatever the result and comes back, with every
  effect token of that cast, when activation ``cast + 10`` ends: the
  caster's next slot, whether the caster played it, sat it out or was off
  the court. A Fireball token also ends when its throw resolves.
- Points variant: +1 for a hit, +1 for a catch; the target wins at once. An
  eliminated wizard comes back at the start of its next slot (no move in
  the basic turn, one action fewer in the advanced one). Elimination
  variant: no points, eliminated wizards' slots are skipped, a side with no
  wizard on the court loses at once.
- Dice are named by colour, with configurable faces (a plain d6 unless
  ``dice`` says otherwise). Each stat has a left and a right die. Plus and
  minus one die effects (Strong/Weak, Shrink/Enlarge, Magic Boost/Drain)
  add the white die or take one away (the white one first, then the left
  one; never the last die).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.errors import IllegalAction, InvalidAction
from companion.games.base import (
    JSON,
    MAX_NAME,
    Game,
    OptionSpec,
    action_type,
    check_fields,
    check_option_keys,
    check_players,
    choice,
    integer,
)
from companion.turns import Timers, TurnOrder

GAME_ID = "wizard-dodgeball"
SIDE_SIZE = 5
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
FROZEN_DODGE = 5
#: A Fireball's attack, rolled for nothing.
FIREBALL_ATTACK = 10
#: Sticky Fingers catch on these dodge totals (and on doubles).
STICKY_TOTALS = frozenset({3, 6, 9, 12})


@dataclass(frozen=True)
class Card:
    """A spell card: its id (the first face), its faces and its advanced cost."""

    id: str
    faces: tuple[str, ...]
    cost: int


CARDS = (
    Card("dispel", ("dispel",), 1),
    Card("fireball", ("fireball",), 1),
    Card("freeze", ("freeze",), 1),
    Card("shield", ("shield",), 1),
    Card("teleport", ("teleport",), 1),
    Card("butter_fingers", ("butter_fingers", "sticky_fingers"), 2),
    Card("magic_drain", ("magic_drain", "magic_boost"), 2),
    Card("shrink", ("shrink", "enlarge"), 2),
    Card("slow", ("slow", "speed"), 2),
    Card("weak", ("weak", "strong"), 2),
)
CARD_OF = {face: card for card in CARDS for face in card.faces}
SPELLS = tuple(CARD_OF)
#: Spells that leave no token (Teleport moves, Dispel removes).
NO_TOKEN = frozenset({"teleport", "dispel"})
#: Spells that a resist roll of doubles stops instead of rebounding.
NO_REBOUND = frozenset({"teleport", "dispel"})
#: The effect that adds (plus) or removes (minus) one die from a stat's roll.
PLUS_DIE = {"throw": "strong", "dodge": "shrink", "cast": "magic_boost", "resist": "magic_boost"}
MINUS_DIE = {"throw": "weak", "dodge": "enlarge", "cast": "magic_drain", "resist": "magic_drain"}
MOVE_CHANGE = {"shrink": -2, "enlarge": 2}
SHORT = {
    "dispel": "DSP", "fireball": "FIR", "freeze": "FRZ", "shield": "SHD", "teleport": "TEL",
    "butter_fingers": "BUT", "sticky_fingers": "STK", "magic_drain": "DRN",
    "magic_boost": "BST", "shrink": "SHR", "enlarge": "ENL", "slow": "SLO", "speed": "SPD",
    "weak": "WEK", "strong": "STR",
}
TITLES = {s: s.replace("_", " ").title() for s in SPELLS}

OPTIONS = (
    OptionSpec("turn", "Turn", (("basic", "Basic"), ("advanced", "Advanced")), "basic"),
    OptionSpec("variant", "Win by", (("points", "Points"), ("elimination", "Elimination")),
               "points"),
    OptionSpec("target", "Target", ((3, "3 points"), (5, "5 points"), (7, "7 points"),
                                    (10, "10 points")), 5),
    OptionSpec("first_side", "First", ((0, "Side 1"), (1, "Side 2"), ("roll", "Roll d6")), 0),
)
#: Options that are not a menu choice: edited by the game's own setup screens.
FREE_OPTIONS = ("rosters", "wizards", "spells", "dice")
#: Written by prepare: the device's roll-off for the first side, if it made one.
ROLL_OFF = "roll_off"
ACTIONS = ("end_activation", "throw", "hit", "catch", "cast", "cast_roll", "dispel")

_COLOUR = re.compile(r"[a-z][a-z0-9_-]{0,11}")


# --- setup ---------------------------------------------------------------------------


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

    @property
    def label(self) -> str:
        return f"#{self.jersey}"


@dataclass(frozen=True)
class Setup:
    """What stays fixed for the whole match."""

    sides: tuple[str, str]
    turn: str
    variant: str
    target: int
    first_side: int
    rosters: tuple[tuple[int, ...], tuple[int, ...]]
    wizards: Mapping[int, Wizard]
    #: The card ids each side owns.
    cards: tuple[tuple[str, ...], tuple[str, ...]]
    dice: Mapping[str, tuple[int, ...]]

    def side_of(self, jersey: int) -> int:
        return self.wizards[jersey].side

    def faces(self, colour: str) -> tuple[int, ...]:
        return self.dice.get(colour, D6)


@dataclass(frozen=True)
class Token:
    """An effect on a wizard, from a side's card (removed when that card returns)."""

    jersey: int
    spell: str
    side: int


@dataclass(frozen=True)
class Cast:
    """A card out of a side's hand: which face was cast, and by whom."""

    side: int
    card: str
    spell: str
    caster: int


@dataclass(frozen=True)
class State:
    """The match; everything shown is derived from it."""

    setup: Setup
    #: Whose slot it is; ``order.turn`` is the activation count.
    order: TurnOrder[int]
    off: frozenset[int] = frozenset()
    tokens: tuple[Token, ...] = ()
    #: Cards out of the hand, each until the end of its activation.
    recharging: Timers[Cast] = field(default_factory=Timers)
    score: tuple[int, int] = (0, 0)
    #: The active wizard came back at the start of this activation.
    returned: bool = False
    #: What the last event did, for the outputs (JSON-ready).
    last: Mapping[str, Any] | None = None
    winner: int | None = None


def prepare(players: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> JSON:
    """Checked, complete options; ``first_side: "roll"`` is rolled off here."""
    check_players(players, (2, 2))
    options = check_option_keys(options, [*(o.key for o in OPTIONS), *FREE_OPTIONS, ROLL_OFF])
    prepared: JSON = {spec.key: spec.read(options) for spec in OPTIONS if spec.key != "target"}
    prepared["target"] = integer(options, "target", 1, 21, "option", required=False) or 5
    rosters = _rosters(options.get("rosters"))
    prepared["rosters"] = [list(r) for r in rosters]
    wizards = _wizards(options.get("wizards"), rosters)
    prepared["wizards"] = {str(j): w for j, w in wizards.items()}
    prepared["dice"] = _dice(options.get("dice"))
    prepared["spells"] = _spells(options.get("spells"), prepared["turn"], players, rosters,
                                 wizards)
    prepared[ROLL_OFF] = _roll_off(options.get(ROLL_OFF))
    if prepared["first_side"] == "roll":
        prepared["first_side"], prepared[ROLL_OFF] = roll_off(rng)
    return prepared


def roll_off(rng: random.Random) -> tuple[int, list[list[int]]]:
    """The first side by a high d6 each, rolled again on a tie; and the rolls."""
    rolls = []
    while True:
        a, b = rng.choice(D6), rng.choice(D6)
        rolls.append([a, b])
        if a != b:
            return (0 if a > b else 1), rolls


def _rosters(value: object) -> tuple[tuple[int, ...], tuple[int, ...]]:
    shape = ("option 'rosters' must be two lists of five jersey numbers (0-99) in "
             "initiative order, e.g. [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]")
    if value is None:
        raise InvalidAction(f"{shape}; it is required")
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise InvalidAction(shape)
    rosters = []
    for side, roster in enumerate(value):
        if not isinstance(roster, list | tuple) or len(roster) != SIDE_SIZE:
            raise InvalidAction(f"{shape}; side {side + 1} has not five")
        for j in roster:
            if type(j) is not int or not 0 <= j <= JERSEY_MAX:
                raise InvalidAction(f"{shape}; side {side + 1} has {j!r}")
        rosters.append(tuple(roster))
    seen = Counter(j for r in rosters for j in r)
    twice = sorted(j for j, n in seen.items() if n > 1)
    if twice:
        raise InvalidAction(f"jersey #{twice[0]} is in the rosters twice; every wizard needs "
                            "its own number, since actions name wizards by jersey")
    return rosters[0], rosters[1]


def _wizards(value: object, rosters: Sequence[Sequence[int]]) -> dict[int, JSON]:
    """Stats by jersey, checked: ``{jersey: {name, move, magic, throw...}}``."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidAction("option 'wizards' must be an object of stats by jersey number")
    known = {j for r in rosters for j in r}
    out: dict[int, JSON] = {}
    for key, stats in value.items():
        jersey = int(key) if isinstance(key, str) and key.isdigit() else key
        if jersey not in known:
            raise InvalidAction(f"option 'wizards' has stats for #{key}, who is in no roster")
        where = f"wizard #{jersey}"
        if not isinstance(stats, Mapping):
            raise InvalidAction(f"{where}: stats must be an object")
        unknown = sorted(set(stats) - {"name", "move", "magic", *STATS})
        if unknown:
            raise InvalidAction(f"{where}: unknown stat {unknown[0]!r}; the stats are name, "
                                f"move, magic, {', '.join(STATS)}")
        card: JSON = {}
        if stats.get("name") is not None:
            name = stats["name"]
            if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME * 2 \
                    or not name.isprintable():
                raise InvalidAction(f"{where}: 'name' must be printable text, at most "
                                    f"{MAX_NAME * 2} characters")
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
        raise InvalidAction(f"{where} must be a die colour (like \"blue\") or two of them "
                            "[left, right]: lower-case letters, at most 12")
    return colours[0], colours[1]


def _dice(value: object) -> JSON:
    """Faces by colour: ``{"blue": [1, 2, 3, 3, 4, 5]}``; unnamed colours are plain d6s."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidAction("option 'dice' must be an object of six faces by colour")
    out = {}
    for colour, faces in value.items():
        if not isinstance(colour, str) or not _COLOUR.fullmatch(colour):
            raise InvalidAction(f"option 'dice': {colour!r} is not a colour name "
                                "(lower-case letters, at most 12)")
        if not isinstance(faces, list | tuple) or len(faces) != 6 or not all(
                type(f) is int and 0 <= f <= MAX_FACE for f in faces):
            raise InvalidAction(f"option 'dice': the {colour} die needs six faces, each a "
                                f"whole number 0-{MAX_FACE}")
        out[colour] = list(faces)
    return dict(sorted(out.items()))


def _spells(value: object, turn: str, players: Sequence[str],
            rosters: Sequence[Sequence[int]], wizards: Mapping[int, JSON]) -> list[list[str]]:
    every = [c.id for c in CARDS]
    if turn == "basic":
        if value is not None and any(sorted(_card_ids(v, i)) != sorted(every)
                                     for i, v in enumerate(_two(value))):
            raise InvalidAction("in the basic game each side has all ten spell cards; "
                                "'spells' is chosen only in the advanced game")
        return [every, list(every)]
    if value is None:
        raise InvalidAction("the advanced game needs option 'spells': the cards each side "
                            "bought, e.g. [[\"freeze\", \"shield\"], [\"fireball\", \"speed\"]]")
    bought = []
    for side, cards in enumerate(_two(value)):
        ids = _card_ids(cards, side)
        magic = [wizards.get(j, {}).get("magic") for j in rosters[side]]
        missing = [j for j, m in zip(rosters[side], magic, strict=True) if m is None]
        if missing:
            raise InvalidAction(
                f"the advanced game's spell budget is the sum of each side's Magic stats: "
                f"give wizard #{missing[0]} a 'magic' stat in option 'wizards'")
        cost, budget = sum(CARD_OF[c].cost for c in ids), sum(magic)
        if cost > budget:
            sums = "+".join(str(m) for m in magic)
            raise InvalidAction(
                f"{players[side]}'s spells cost {cost} but its Magic budget is {budget} "
                f"({sums}): leave out cards worth {cost - budget} or more")
        bought.append([c for c in every if c in ids])
    return bought


def _two(value: object) -> list[Any]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise InvalidAction("option 'spells' must be two lists of spell card ids, one per side")
    return list(value)


def _card_ids(cards: object, side: int) -> list[str]:
    if not isinstance(cards, list | tuple):
        raise InvalidAction(f"option 'spells': side {side + 1} must be a list of spell ids")
    ids = []
    for spell in cards:
        if spell not in CARD_OF:
            raise InvalidAction(f"option 'spells': unknown spell {spell!r}; "
                                f"known: {', '.join(SPELLS)}")
        card = CARD_OF[spell].id
        if card in ids:
            raise InvalidAction(f"option 'spells': side {side + 1} has the "
                                f"{'/'.join(CARD_OF[spell].faces)} card twice")
        ids.append(card)
    return ids


def _roll_off(value: object) -> list[list[int]] | None:
    if value is None:
        return None
    ok = isinstance(value, list) and value and all(
        isinstance(r, list) and len(r) == 2 and all(type(x) is int and 1 <= x <= 6 for x in r)
        for r in value)
    if not ok:
        raise InvalidAction("option 'roll_off' must be the list of [side 1, side 2] d6 rolls")
    return value


def setup(players: Sequence[str], options: Mapping[str, Any]) -> State:
    """The match before the first activation, from prepared options."""
    names = check_players(players, (2, 2))
    rosters = (tuple(options["rosters"][0]), tuple(options["rosters"][1]))
    stats = {int(j): s for j, s in options["wizards"].items()}
    wizards = {}
    for side, roster in enumerate(rosters):
        for j in roster:
            s = stats.get(j, {})
            dice = tuple((k, (s[k][0], s[k][1])) for k in STATS if k in s)
            wizards[j] = Wizard(j, side, s.get("name"), s.get("move"), s.get("magic"), dice)
    first = options["first_side"]
    order = tuple(rosters[side][i] for i in range(SIDE_SIZE) for side in (first, 1 - first))
    return State(
        setup=Setup(
            sides=(names[0], names[1]), turn=options["turn"], variant=options["variant"],
            target=options["target"], first_side=first, rosters=rosters, wizards=wizards,
            cards=(tuple(options["spells"][0]), tuple(options["spells"][1])),
            dice={c: tuple(f) for c, f in options["dice"].items()},
        ),
        order=TurnOrder(order),
    )


# --- derived facts ---------------------------------------------------------------------


def active(state: State) -> int:
    """The jersey whose activation it is."""
    return state.order.current


def has(state: State, jersey: int, spell: str) -> bool:
    return any(t.jersey == jersey and t.spell == spell for t in state.tokens)


def effects(state: State, jersey: int) -> list[str]:
    return [t.spell for t in state.tokens if t.jersey == jersey]


def on_court(state: State, side: int) -> list[int]:
    """The side's wizards on the court, in initiative order."""
    return [j for j in state.setup.rosters[side] if j not in state.off]


def card_status(state: State, side: int, card: str) -> Cast | None:
    """The cast keeping ``card`` out of ``side``'s hand, or None if it is ready."""
    for cast, _ in _recharges(state):
        if cast.side == side and cast.card == card:
            return cast
    return None


def returns_after(state: State, cast: Cast) -> int:
    return state.recharging.until[cast]


def ready(state: State, side: int) -> list[str]:
    """The spells ``side`` may cast now: both faces of each card in hand."""
    return [face for card in state.setup.cards[side] if card_status(state, side, card) is None
            for face in CARD_OF[card].faces]


def actions(state: State) -> int | None:
    """Actions the active wizard has (advanced turn only)."""
    if state.setup.turn != "advanced":
        return None
    j = active(state)
    count = 2 + has(state, j, "speed") - has(state, j, "slow") - state.returned
    return max(0, count)


def reminder(state: State) -> str | None:
    """What the players must remember about this activation, short enough for the OLED."""
    j = active(state)
    if state.winner is not None:
        return None
    if j in state.off:
        return "off the court: End"
    if has(state, j, "freeze"):
        return "frozen: no actions"
    if state.returned:
        if state.setup.turn == "basic":
            return "back: no move this time"
        count = actions(state)
        return f"back: {count} action{'s' if count != 1 else ''}, no move"
    return None


def _recharges(state: State) -> list[tuple[Cast, int]]:
    return sorted(state.recharging.until.items(), key=lambda kv: (kv[1], kv[0].side))


# --- the dice ------------------------------------------------------------------------


@dataclass(frozen=True)
class Pool:
    """The dice one roll uses: (role, colour) with role "left", "right" or "white"."""

    dice: tuple[tuple[str, str], ...]

    @property
    def colours(self) -> list[str]:
        return [c for _, c in self.dice]

    def doubles(self, values: Sequence[int]) -> bool:
        """The stat's own two dice show the same."""
        by_role = {role: v for (role, _), v in zip(self.dice, values, strict=True)
                   if role != "white"}
        return len(by_role) == 2 and by_role["left"] == by_role["right"]

    @staticmethod
    def triples(values: Sequence[int]) -> bool:
        return any(n >= 3 for n in Counter(values).values())


def pool(state: State, jersey: int, stat: str, base: Iterable[str] = ("left", "right")) -> Pool:
    """The dice ``jersey`` rolls for ``stat``, after Strong/Weak and the like."""
    left, right = state.setup.wizards[jersey].stat(stat)
    colour = {"left": left, "right": right, "white": WHITE}
    dice = [(role, colour[role]) for role in base]
    for _ in range(has(state, jersey, PLUS_DIE[stat])):
        dice.append(("white", WHITE))
    for _ in range(has(state, jersey, MINUS_DIE[stat])):
        if len(dice) > 1:
            whites = [i for i, (role, _) in enumerate(dice) if role == "white"]
            dice.pop(whites[-1] if whites else 0)
    return Pool(tuple(dice))


def throw_pool(state: State, thrower: int, zones: int) -> Pool:
    base = {3: ("right",), 2: ("left", "right"), 1: ("left", "right", "white")}[zones]
    return pool(state, thrower, "throw", base)


def dodge_pool(state: State, target: int, holding: bool) -> Pool:
    return pool(state, target, "dodge", ("left", "right", "white") if holding
                else ("left", "right"))


def _roll(state: State, p: Pool, given: object, what: str, rng: random.Random) -> list[int]:
    """The values of ``p``: checked from ``given``, or rolled if None."""
    if given is None:
        return [rng.choice(state.setup.faces(c)) for c in p.colours]
    shown = ", ".join(p.colours) or "no dice"
    if not isinstance(given, list) or len(given) != len(p.dice):
        raise InvalidAction(f"{what} needs {len(p.dice)} value(s), one per die ({shown}); "
                            f"got {given!r}")
    for colour, v in zip(p.colours, given, strict=True):
        faces = state.setup.faces(colour)
        if type(v) is not int or v not in faces:
            raise InvalidAction(f"{what}: the {colour} die cannot show {v!r}; its faces are "
                                f"{', '.join(map(str, faces))}")
    return list(given)


# --- rules ---------------------------------------------------------------------------


def legal(state: State) -> list[JSON]:
    """What may happen now; every shape lists the values a field may take."""
    if state.winner is not None:
        return []
    shapes: list[JSON] = [{"type": "end_activation"}]
    j = active(state)
    side = state.setup.side_of(j)
    if j in state.off or has(state, j, "freeze"):
        return shapes
    foes = on_court(state, 1 - side)
    if _can_throw(state, j) is None and foes:
        shapes.append({"type": "throw", "thrower": [j], "target": foes, "range": [1, 2, 3],
                       "target_holding_ball": [False, True]})
        shapes.append({"type": "hit", "thrower": [j], "target": foes})
        catchers = [f for f in foes if _can_catch(state, f) is None]
        if catchers and not has(state, j, "fireball"):
            back = [w for w in state.setup.rosters[1 - side] if w in state.off]
            shapes.append({"type": "catch", "thrower": [j], "catcher": catchers,
                           "returning": [*back, None]})
    spells = [s for s in ready(state, side) if s != "dispel"]
    everyone = on_court(state, 0) + on_court(state, 1)
    if spells:
        shapes.append({"type": "cast", "caster": [j], "spell": spells, "targets": everyone})
        shapes.append({"type": "cast_roll", "caster": [j], "spell": spells,
                       "targets": everyone})
    wearers = [w for w in everyone if effects(state, w)]
    if "dispel" in ready(state, side) and wearers:
        spells_on = sorted({t.spell for t in state.tokens if t.jersey in wearers},
                           key=SPELLS.index)
        shapes.append({"type": "dispel", "caster": [j], "target": wearers,
                       "spell": spells_on})
        shapes.append({"type": "cast_roll", "caster": [j], "spell": ["dispel"],
                       "targets": wearers, "effect": spells_on})
    return shapes


def resolve(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    """Check ``action`` and return the event to log, every roll filled in."""
    kind = action_type(action, ACTIONS)
    if state.winner is not None:
        raise IllegalAction(f"the match is over: {state.setup.sides[state.winner]} won. "
                            "Undo to change the last action, or start a new match")
    if kind == "end_activation":
        check_fields(action, ())
        return {"type": "end_activation"}
    if kind in ("throw", "hit", "catch"):
        return _RESOLVE_THROWS[kind](state, action, rng)
    return _resolve_cast(state, action, rng)


def _jersey(state: State, action: Mapping[str, Any], key: str) -> int:
    j = integer(action, key, 0, JERSEY_MAX)
    assert j is not None
    if j not in state.setup.wizards:
        raise IllegalAction(f"no wizard wears #{j}; the rosters are "
                            f"{_roster_text(state, 0)} and {_roster_text(state, 1)}")
    return j


def _roster_text(state: State, side: int) -> str:
    jerseys = " ".join(f"#{j}" for j in state.setup.rosters[side])
    return f"{state.setup.sides[side]} ({jerseys})"


def _flag(action: Mapping[str, Any], key: str) -> bool:
    value = action.get(key, False)
    if not isinstance(value, bool):
        raise InvalidAction(f"field {key!r} must be true or false; got {value!r}")
    return value


def _require_active(state: State, j: int, doing: str) -> None:
    """``j`` may act now: it is its activation and it is on the court, unfrozen."""
    now = active(state)
    if j != now:
        side = state.setup.sides[state.setup.side_of(now)]
        raise IllegalAction(f"it is #{now}'s activation ({side}): #{j} cannot {doing} now")
    if j in state.off:
        raise IllegalAction(f"#{j} is off the court and cannot {doing}")
    if has(state, j, "freeze"):
        raise IllegalAction(f"#{j} is frozen and cannot {doing}")


def _can_throw(state: State, j: int) -> str | None:
    """Why ``j`` cannot throw at all, or None."""
    if has(state, j, "butter_fingers"):
        return f"#{j} has Butter Fingers and cannot hold a ball"
    if has(state, j, "sticky_fingers"):
        return f"#{j} has Sticky Fingers and cannot throw"
    return None


def _can_catch(state: State, j: int) -> str | None:
    """Why ``j`` cannot catch now, or None."""
    if has(state, j, "freeze"):
        return f"#{j} is frozen and cannot catch"
    if has(state, j, "shield"):
        return f"#{j} is shielded and cannot catch"
    if has(state, j, "butter_fingers"):
        return f"#{j} has Butter Fingers and cannot catch"
    return None


def _thrower_and_target(state: State, action: Mapping[str, Any],
                        target_key: str) -> tuple[int, int]:
    thrower = _jersey(state, action, "thrower")
    _require_active(state, thrower, "throw")
    reason = _can_throw(state, thrower)
    if reason:
        raise IllegalAction(reason)
    target = _jersey(state, action, target_key)
    if state.setup.side_of(target) == state.setup.side_of(thrower):
        raise IllegalAction(f"#{target} is #{thrower}'s teammate: a pass needs no record")
    if target in state.off:
        raise IllegalAction(f"#{target} is off the court")
    return thrower, target


def _returning(state: State, action: Mapping[str, Any], catcher: int) -> int | None:
    """Who the catcher's side brings back: given, or its first eliminated wizard."""
    side = state.setup.side_of(catcher)
    back = [w for w in state.setup.rosters[side] if w in state.off]
    if "returning" not in action:
        return back[0] if back else None
    if action["returning"] is None:
        return None
    j = _jersey(state, action, "returning")
    if j not in back:
        who = ", ".join(f"#{w}" for w in back) or "nobody"
        raise IllegalAction(f"#{j} cannot come back: of {state.setup.sides[side]}, "
                            f"off the court is {who}")
    return j


def _resolve_hit(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    check_fields(action, ("thrower", "target"))
    thrower, target = _thrower_and_target(state, action, "target")
    return {"type": "hit", "thrower": thrower, "target": target}


def _resolve_catch(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    check_fields(action, ("thrower", "catcher", "returning"))
    thrower, catcher = _thrower_and_target(state, action, "catcher")
    if has(state, thrower, "fireball"):
        raise IllegalAction(f"#{thrower}'s ball is a Fireball: it cannot be caught")
    reason = _can_catch(state, catcher)
    if reason:
        raise IllegalAction(reason)
    return {"type": "catch", "thrower": thrower, "catcher": catcher,
            "returning": _returning(state, action, catcher)}


def _resolve_throw(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    check_fields(action, ("thrower", "target", "range", "target_holding_ball", "rolls",
                          "result", "returning"))
    thrower, target = _thrower_and_target(state, action, "target")
    zones = integer(action, "range", 1, 3)
    assert zones is not None
    holding = _flag(action, "target_holding_ball")
    if holding and has(state, target, "butter_fingers"):
        raise IllegalAction(f"#{target} has Butter Fingers and cannot be holding a ball")
    rolls = action.get("rolls")
    if rolls is not None and (not isinstance(rolls, Mapping) or set(rolls) - {"throw", "dodge"}):
        raise InvalidAction("field 'rolls' must be {\"throw\": [...], \"dodge\": [...]}")
    rolls = rolls or {}
    fireball = has(state, thrower, "fireball")
    frozen = has(state, target, "freeze")
    attack = throw_pool(state, thrower, zones) if not fireball else Pool(())
    dodge = dodge_pool(state, target, holding) if not frozen else Pool(())
    event = {
        "type": "throw", "thrower": thrower, "target": target, "range": zones,
        "target_holding_ball": holding,
        "rolls": {"throw": _roll(state, attack, rolls.get("throw"), "rolls.throw", rng),
                  "dodge": _roll(state, dodge, rolls.get("dodge"), "rolls.dodge", rng)},
    }
    result = throw_outcome(state, event)["result"]
    if "result" in action and action["result"] != result:
        raise IllegalAction(f"those rolls give {result!r}, not {action['result']!r}")
    event["result"] = result
    if result == "catch":
        event["returning"] = _returning(state, action, target)
    return event


def throw_outcome(state: State, event: Mapping[str, Any]) -> JSON:
    """What a rolled throw does: the totals and ``result``.

    ``result`` is "hit", "dodge", "catch", or "shield" (a failed dodge the
    target's Shield absorbed).
    """
    thrower, target = event["thrower"], event["target"]
    holding = event["target_holding_ball"]
    throw, dodge = event["rolls"]["throw"], event["rolls"]["dodge"]
    fireball = has(state, thrower, "fireball")
    frozen = has(state, target, "freeze")
    attack = FIREBALL_ATTACK if fireball else sum(throw)
    defence = FROZEN_DODGE if frozen else sum(dodge)
    dice = dodge_pool(state, target, holding)
    doubles = not frozen and dice.doubles(dodge)
    triples = not frozen and Pool.triples(dodge)
    sticky = has(state, target, "sticky_fingers") and defence in STICKY_TOTALS
    if holding and triples:
        result = "dodge"
    elif (not holding and not fireball and _can_catch(state, target) is None
          and (doubles or sticky)):
        result = "catch"
    elif attack > defence:
        result = "shield" if has(state, target, "shield") else "hit"
    else:
        result = "dodge"
    return {"attack": attack, "defence": defence, "doubles": doubles, "triples": triples,
            "fireball": fireball, "frozen": frozen, "result": result}


def _resolve_cast(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    kind = action["type"]
    fields = {"cast": ("caster", "spell", "targets"),
              "cast_roll": ("caster", "spell", "targets", "effect", "rolls", "affected"),
              "dispel": ("caster", "target", "spell")}[kind]
    check_fields(action, fields)
    caster = _jersey(state, action, "caster")
    _require_active(state, caster, "cast")
    side = state.setup.side_of(caster)
    spell = "dispel" if kind == "dispel" else choice(action, "spell", SPELLS, None, "field")
    if spell is None:
        raise InvalidAction(f"missing field 'spell' (one of {', '.join(SPELLS)})")
    _require_ready(state, side, spell)
    if kind == "dispel":
        target = _jersey(state, action, "target")
        effect = choice(action, "spell", SPELLS, None, "field")
        _require_effect(state, target, effect)
        return {"type": "dispel", "caster": caster, "target": target, "spell": effect}
    targets = _targets(state, action.get("targets"), spell)
    if kind == "cast":
        if spell == "dispel" and targets:
            raise InvalidAction("say which effect Dispel removed with the 'dispel' action "
                                "(a failed Dispel is a cast with no targets)")
        return {"type": "cast", "caster": caster, "spell": spell, "targets": targets}
    if not targets:
        raise InvalidAction("a rolled cast needs at least one target wizard "
                            "(a Teleport of a ball alone is a 'cast')")
    event: JSON = {"type": "cast_roll", "caster": caster, "spell": spell, "targets": targets}
    if spell == "dispel":
        if len(targets) != 1:
            raise InvalidAction("Dispel cancels one effect on one wizard: give one target")
        effect = choice(action, "effect", SPELLS, None, "field")
        _require_effect(state, targets[0], effect)
        event["effect"] = effect
    elif "effect" in action:
        raise InvalidAction("field 'effect' is for Dispel only")
    event["rolls"] = _cast_rolls(state, event, action.get("rolls"), rng)
    affected = cast_outcome(state, event)["affected"]
    if "affected" in action and action["affected"] != affected:
        raise IllegalAction(f"those rolls affect {affected!r}, not {action['affected']!r}")
    event["affected"] = affected
    return event


def _require_ready(state: State, side: int, spell: str) -> None:
    card = CARD_OF[spell]
    name = TITLES[spell]
    if card.id not in state.setup.cards[side]:
        raise IllegalAction(f"{state.setup.sides[side]} did not buy the {name} card")
    cast = card_status(state, side, card.id)
    if cast is not None:
        end = returns_after(state, cast)
        to_go = end - state.order.turn
        when = "when this activation ends" if to_go == 0 else \
            f"when activation {end} ends ({to_go} more after this one)"
        face = "" if cast.spell == spell else f" (its {TITLES[cast.spell]} face was cast)"
        raise IllegalAction(f"{name} is recharging{face}: cast by #{cast.caster}, it returns "
                            f"{when}")


def _require_effect(state: State, target: int, effect: str | None) -> None:
    if effect is None:
        raise InvalidAction("say which effect to cancel (a spell id)")
    if target in state.off:
        raise IllegalAction(f"#{target} is off the court")
    if not has(state, target, effect):
        on = ", ".join(TITLES[s] for s in effects(state, target)) or "no effect"
        raise IllegalAction(f"#{target} has no {TITLES[effect]} to cancel; it has {on}")


def _targets(state: State, value: object, spell: str) -> list[int]:
    if value is None:
        value = []
    if not isinstance(value, list):
        raise InvalidAction("field 'targets' must be a list of jersey numbers")
    targets = []
    for j in value:
        if type(j) is not int or j not in state.setup.wizards:
            raise IllegalAction(f"'targets' has {j!r}, who is no wizard in this match")
        if j in targets:
            raise InvalidAction(f"#{j} is in 'targets' twice")
        if j in state.off:
            raise IllegalAction(f"#{j} is off the court: spells reach only wizards on it")
        targets.append(j)
    if spell == "fireball" and len(targets) > 1:
        raise IllegalAction("Fireball goes on one held ball: give the one wizard holding it")
    return targets


def _resister(state: State, event: Mapping[str, Any], target: int) -> int | None:
    """Who rolls to resist ``event`` on ``target``: None if nobody does.

    Teammates do not resist. A Dispel of an opponent's effect is resisted by
    the wizard who cast that effect (if still on the court).
    """
    side = state.setup.side_of(event["caster"])
    if event["spell"] != "dispel":
        return None if state.setup.side_of(target) == side else target
    token = _dispel_token(state, target, event["effect"], side)
    if token.side == side:
        return None
    cast = card_status(state, token.side, CARD_OF[token.spell].id)
    assert cast is not None
    return None if cast.caster in state.off else cast.caster


def _dispel_token(state: State, target: int, effect: str, side: int) -> Token:
    """The token a Dispel by ``side`` cancels: an opponent's before its own side's."""
    tokens = [t for t in state.tokens if t.jersey == target and t.spell == effect]
    return sorted(tokens, key=lambda t: t.side == side)[0]


def _cast_rolls(state: State, event: JSON, given: object,
                rng: random.Random) -> JSON:
    caster = event["caster"]
    if given is not None and (not isinstance(given, Mapping)
                              or set(given) - {"cast", "resist", "rebound"}):
        raise InvalidAction("field 'rolls' must be {\"cast\": [...], \"resist\": "
                            "{jersey: [...]}, \"rebound\": [...]}")
    given = given or {}
    rolls: JSON = {"cast": _roll(state, pool(state, caster, "cast"), given.get("cast"),
                                 "rolls.cast", rng), "resist": {}}
    resist_given = given.get("resist") or {}
    if not isinstance(resist_given, Mapping):
        raise InvalidAction("'rolls.resist' must be an object of dice by jersey")
    resisters = [r for t in event["targets"] if (r := _resister(state, event, t)) is not None]
    extra = set(map(str, resist_given)) - set(map(str, resisters))
    if extra:
        raise InvalidAction(f"'rolls.resist' has a roll for #{sorted(extra)[0]}, who does not "
                            "resist this cast")
    for r in resisters:
        value = resist_given.get(str(r), resist_given.get(r))  # type: ignore[call-overload]
        rolls["resist"][str(r)] = _roll(state, pool(state, r, "resist"), value,
                                        f"rolls.resist.{r}", rng)
    event = {**event, "rolls": rolls}
    if _rebound(state, event):
        rolls["rebound"] = _roll(state, pool(state, caster, "resist"), given.get("rebound"),
                                 "rolls.rebound", rng)
    elif given.get("rebound") is not None:
        raise InvalidAction("'rolls.rebound' is only for a spell that rebounded")
    return rolls


def _resist_result(state: State, event: Mapping[str, Any], jersey: int,
                   values: Sequence[int]) -> str:
    """"resisted", "rebound", "shield" or "affected" for one resist roll."""
    total = sum(values)
    cast = sum(event["rolls"]["cast"])
    p = pool(state, jersey, "resist")
    lucky = p.doubles(values) or Pool.triples(values)
    shielded = has(state, jersey, "shield")
    if lucky and event["spell"] in NO_REBOUND:
        return "resisted"
    if lucky and not shielded:
        return "rebound"
    if total >= cast:
        return "resisted"
    return "shield" if shielded else "affected"


def _rebound(state: State, event: Mapping[str, Any]) -> bool:
    return any(_resist_result(state, event, int(j), v) == "rebound"
               for j, v in event["rolls"]["resist"].items())


def cast_outcome(state: State, event: Mapping[str, Any]) -> JSON:
    """What a rolled cast does to each target, and to the caster on a rebound.

    ``affected`` lists who gets the effect (for Dispel: whose effect goes),
    ``shields`` who lost a Shield absorbing a failed resist, ``results`` one
    entry per target.
    """
    caster = event["caster"]
    affected, shields, results = [], [], []
    for target in event["targets"]:
        resister = _resister(state, event, target)
        if resister is None:
            results.append({"jersey": target, "result": "affected"})
            affected.append(target)
            continue
        values = event["rolls"]["resist"][str(resister)]
        result = _resist_result(state, event, resister, values)
        results.append({"jersey": target, "resister": resister, "dice": values,
                        "total": sum(values), "result": result})
        if result == "affected":
            affected.append(target)
        elif result == "shield":
            shields.append(resister)
    rebound = None
    if "rebound" in event["rolls"]:
        values = event["rolls"]["rebound"]
        p = pool(state, caster, "resist")
        if p.doubles(values) or Pool.triples(values) or sum(values) >= sum(event["rolls"]["cast"]):
            outcome = "resisted"
        elif has(state, caster, "shield"):
            outcome = "shield"
            shields.append(caster)
        else:
            outcome = "affected"
            if caster not in affected:
                affected.append(caster)
        rebound = {"dice": values, "total": sum(values), "result": outcome}
    return {"cast": sum(event["rolls"]["cast"]), "affected": affected, "shields": shields,
            "results": results, "rebound": rebound}


_RESOLVE_THROWS = {"throw": _resolve_throw, "hit": _resolve_hit, "catch": _resolve_catch}


# --- applying events -------------------------------------------------------------------


def apply(state: State, event: Mapping[str, Any]) -> State:
    """The state after a resolved event."""
    kind = event["type"]
    if kind == "end_activation":
        return _end_activation(state)
    if kind == "hit":
        state = _spend_fireball(state, event["thrower"])
        return _hit(state, event["thrower"], event["target"],
                    f"#{event['thrower']} hit #{event['target']}", {"type": "hit"})
    if kind == "catch":
        state = _spend_fireball(state, event["thrower"])
        return _catch(state, event["thrower"], event["catcher"], event["returning"],
                      {"type": "catch"})
    if kind == "throw":
        return _throw(state, event)
    if kind == "dispel":
        state = _cast_card(state, event["caster"], "dispel")
        state = _remove_token(state, event["target"], event["spell"],
                              state.setup.side_of(event["caster"]))
        text = f"#{event['caster']} dispelled {SHORT[event['spell']]} on #{event['target']}"
        return replace(state, last={"type": "dispel", "text": text})
    if kind == "cast":
        return _cast(state, event["caster"], event["spell"], event["targets"], [],
                     {"type": "cast"})
    return _cast_roll(state, event)


def _end_activation(state: State) -> State:
    order = state.order
    state = _close_slot(state, order.turn)
    skipped = []
    while True:
        order = order.advance()
        j = order.current
        if j in state.off and state.setup.variant == "elimination":
            # The slot counts, and ends at once: cards due at its end return.
            skipped.append(j)
            state = _close_slot(replace(state, order=order), order.turn)
            continue
        # The last play stays on show; a skipped slot is news of its own.
        last = state.last
        if skipped:
            out = " ".join(f"#{s}" for s in skipped)
            last = {"type": "end_activation", "text": f"{out} off: skipped",
                    "skipped": skipped}
        return replace(state, order=order, off=state.off - {j}, returned=j in state.off,
                       last=last)


def _close_slot(state: State, activation: int) -> State:
    """End activation ``activation``: cards due come back, their tokens go."""
    timers, expired = state.recharging.end_turn(activation)
    if not expired:
        return state
    gone = {(c.side, c.card) for c in expired}
    tokens = tuple(t for t in state.tokens if (t.side, CARD_OF[t.spell].id) not in gone)
    return replace(state, recharging=timers, tokens=tokens)


def _spend_fireball(state: State, thrower: int) -> State:
    """A Fireball's token ends when its throw resolves."""
    return replace(state, tokens=tuple(t for t in state.tokens
                                       if not (t.jersey == thrower and t.spell == "fireball")))


def _eliminate(state: State, jersey: int) -> State:
    """Off the court, and every effect on the wizard goes with it."""
    return replace(state, off=state.off | {jersey},
                   tokens=tuple(t for t in state.tokens if t.jersey != jersey))


def _score(state: State, side: int) -> State:
    if state.setup.variant != "points":
        return state
    score = (state.score[0] + 1, state.score[1]) if side == 0 else \
        (state.score[0], state.score[1] + 1)
    state = replace(state, score=score)
    if score[side] >= state.setup.target:
        state = replace(state, winner=side)
    return state


def _check_out(state: State) -> State:
    """Elimination variant: a side with nobody on the court has lost."""
    if state.setup.variant == "elimination" and state.winner is None:
        for side in (0, 1):
            if not on_court(state, side):
                return replace(state, winner=1 - side)
    return state


def _hit(state: State, thrower: int, target: int, text: str, last: JSON) -> State:
    if has(state, target, "shield"):
        state = _remove_token(state, target, "shield")
        return replace(state, last={**last, "text": f"{text}: shield"})
    state = _eliminate(state, target)
    state = _score(state, state.setup.side_of(thrower))
    return _check_out(replace(state, last={**last, "text": f"{text}: out"}))


def _catch(state: State, thrower: int, catcher: int, returning: int | None,
           last: JSON) -> State:
    state = _eliminate(state, thrower)
    text = f"#{catcher} caught #{thrower}"
    if returning is not None:
        state = replace(state, off=state.off - {returning})
        text += f", #{returning} back"
    state = _score(state, state.setup.side_of(catcher))
    return _check_out(replace(state, last={**last, "text": text}))


def _throw(state: State, event: Mapping[str, Any]) -> State:
    outcome = throw_outcome(state, event)
    thrower, target = event["thrower"], event["target"]
    throw, dodge = event["rolls"]["throw"], event["rolls"]["dodge"]
    score = f"({outcome['attack']}v{outcome['defence']})"
    last = {"type": "throw", "thrower": thrower, "target": target, "range": event["range"],
            "throw": throw, "dodge": dodge, **outcome}
    state = _spend_fireball(state, thrower)
    result = outcome["result"]
    if result in ("hit", "shield"):
        return _hit(state, thrower, target, f"#{thrower} hit #{target} {score}", last)
    if result == "catch":
        return _catch(state, thrower, target, event.get("returning"), last)
    why = " triples" if outcome["triples"] and event["target_holding_ball"] else ""
    return replace(state, last={**last, "text": f"#{target} dodged #{thrower} {score}{why}"})


def _cast_card(state: State, caster: int, spell: str) -> State:
    """The card leaves the hand until the end of the caster's next slot."""
    side = state.setup.side_of(caster)
    cast = Cast(side, CARD_OF[spell].id, spell, caster)
    until = state.order.turn + len(state.order.order)
    return replace(state, recharging=state.recharging.start(cast, until))


def _remove_token(state: State, jersey: int, spell: str, dispeller: int | None = None) -> State:
    """One ``spell`` token off ``jersey`` (for a Dispel: an opponent's first)."""
    side = dispeller if dispeller is not None else -1
    token = _dispel_token(state, jersey, spell, side)
    tokens = list(state.tokens)
    tokens.remove(token)
    return replace(state, tokens=tuple(tokens))


def _cast(state: State, caster: int, spell: str, affected: Sequence[int],
          shields: Sequence[int], last: JSON) -> State:
    state = _cast_card(state, caster, spell)
    for j in shields:
        state = _remove_token(state, j, "shield")
    side = state.setup.side_of(caster)
    if spell not in NO_TOKEN:
        state = replace(state, tokens=state.tokens + tuple(
            Token(j, spell, side) for j in affected))
    on = " ".join(f"#{j}" for j in affected)
    text = last.get("text") or (f"#{caster} {TITLES[spell]} on {on}" if affected
                                else f"#{caster} {TITLES[spell]}: no effect")
    return replace(state, last={**last, "caster": caster, "spell": spell,
                                "affected": list(affected), "text": text})


def _cast_roll(state: State, event: Mapping[str, Any]) -> State:
    outcome = cast_outcome(state, event)
    caster, spell = event["caster"], event["spell"]
    # Short enough for the OLED; the phone shows each roll from the other fields.
    if spell == "dispel":
        news = "worked" if outcome["affected"] else "resisted"
    else:
        on = outcome["affected"]
        news = f"on {' '.join(f'#{j}' for j in on)}" if on else "resisted"
        if outcome["rebound"]:
            news = f"rebound, {news}"
    text = f"#{caster} {TITLES[spell]} {outcome['cast']}: {news}"
    last = {"type": "cast_roll", **outcome, "text": text}
    if spell == "dispel":
        state = _cast(state, caster, spell, [], outcome["shields"], last)
        for j in outcome["affected"]:
            state = _remove_token(state, j, event["effect"], state.setup.side_of(caster))
        return replace(state, last={**state.last, "affected": outcome["affected"]})
    return _cast(state, caster, spell, outcome["affected"], outcome["shields"], last)


# --- views -------------------------------------------------------------------------------


def view(state: State) -> JSON:
    """The match as every output shows it (see docs/api.md for each key)."""
    s = state.setup
    j = active(state)
    sides = []
    for side in (0, 1):
        spells: JSON = {}
        for card in s.cards[side]:
            cast = card_status(state, side, card)
            status: Any = "ready" if cast is None else {
                "caster": cast.caster, "returns_after": returns_after(state, cast),
                "spell": cast.spell}
            for face in CARD_OF[card].faces:
                spells[face] = status
        magic = [s.wizards[w].magic for w in s.rosters[side]]
        sides.append({
            "name": s.sides[side],
            "score": state.score[side],
            "on_court": len(on_court(state, side)),
            "budget": sum(m for m in magic if m is not None) if None not in magic else None,
            "wizards": [_wizard_view(state, w) for w in s.rosters[side]],
            "spells": spells,
        })
    recharging = [{"side": c.side, "card": c.card, "spell": c.spell, "caster": c.caster,
                   "returns_after": t, "left": t - state.order.turn + 1}
                  for c, t in _recharges(state)]
    return {
        "players": list(s.sides),
        "sides": sides,
        "active": {"side": s.side_of(j), "jersey": j},
        "activation": state.order.turn,
        "round": state.order.round,
        "winner": state.winner,
        "turn": s.turn,
        "variant": s.variant,
        "target": s.target if s.variant == "points" else None,
        "actions": actions(state),
        "returned": state.returned,
        "reminder": reminder(state),
        "recharging": recharging,
        "order": [{"side": s.side_of(w), "jersey": w} for w in state.order.order],
        "last": dict(state.last) if state.last is not None else None,
    }


def _wizard_view(state: State, j: int) -> JSON:
    w = state.setup.wizards[j]
    move = w.move
    if move is not None:
        move = max(0, move + sum(MOVE_CHANGE.get(e, 0) for e in effects(state, j)))
    return {"jersey": j, "name": w.name, "on_court": j not in state.off,
            "effects": effects(state, j), "move": move, "magic": w.magic,
            "dice": {k: list(v) for k, v in w.dice}}


def winner(state: State) -> int | None:
    return state.winner


def turn(state: State) -> tuple[int, ...]:
    """The side whose wizard acts now."""
    if state.winner is not None:
        return ()
    return (state.setup.side_of(active(state)),)


def summary(state: State) -> str:
    """``"5-3"`` in points; ``"3 v 0 on court"`` in elimination."""
    if state.setup.variant == "points":
        return f"{state.score[0]}-{state.score[1]}"
    return f"{len(on_court(state, 0))} v {len(on_court(state, 1))} on court"


def again(options: Mapping[str, Any]) -> JSON:
    """The options for a rematch: the same, with the roll-off made again."""
    out = {k: v for k, v in options.items() if k != ROLL_OFF}
    if options.get(ROLL_OFF):
        out["first_side"] = "roll"
    return out


GAME = Game(
    id=GAME_ID,
    title="Wizard Dodgeball",
    seats=(2, 2),
    options=OPTIONS,
    prepare=prepare,
    setup=setup,
    legal=legal,
    resolve=resolve,
    apply=apply,
    view=view,
    winner=winner,
    summary=summary,
    turn=turn,
    again=again,
    extras={
        "cards": [{"id": c.id, "faces": list(c.faces), "cost": c.cost} for c in CARDS],
        "spells": {s: TITLES[s] for s in SPELLS},
        "side_size": SIDE_SIZE, "jersey_max": JERSEY_MAX,
        "defaults": {"rosters": [list(r) for r in DEFAULT_ROSTERS]},
        "stats": list(STATS),
    },
)
