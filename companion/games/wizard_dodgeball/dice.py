"""The dice: which dice a roll uses, and what a throw or a cast does."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import InvalidAction
from companion.games.base import JSON, json_text
from companion.games.wizard_dodgeball.cards import CARD_OF, MINUS_DIE, NO_REBOUND, PLUS_DIE
from companion.games.wizard_dodgeball.options import WHITE
from companion.games.wizard_dodgeball.state import (
    State,
    cannot_catch,
    card_status,
    dispel_token,
    has,
)
from companion.i18n import N_, _

FROZEN_DODGE = 5
#: A Fireball's attack, rolled for nothing.
FIREBALL_ATTACK = 10
#: Sticky Fingers catch on these dodge totals (and on doubles).
STICKY_TOTALS = frozenset({3, 6, 9, 12})


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
    for _plus in range(has(state, jersey, PLUS_DIE[stat])):
        dice.append(("white", WHITE))
    for _minus in range(has(state, jersey, MINUS_DIE[stat])):
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


def roll(state: State, p: Pool, given: object, what: str, rng: random.Random) -> list[int]:
    """The values of ``p``: checked from ``given``, or rolled if None."""
    if given is None:
        return [rng.choice(state.setup.faces(c)) for c in p.colours]
    shown = ", ".join(p.colours) or _("no dice")
    if not isinstance(given, list) or len(given) != len(p.dice):
        raise InvalidAction(N_("{what} needs {n} value, one per die ({dice}); got {given}",
                               "{what} needs {n} values, one per die ({dice}); got {given}",
                               len(p.dice), what=what, dice=shown, given=json_text(given)))
    for colour, v in zip(p.colours, given, strict=True):
        faces = state.setup.faces(colour)
        if type(v) is not int or v not in faces:
            raise InvalidAction(_("{what}: the {colour} die cannot show {value}; its faces "
                                  "are {faces}", what=what, colour=colour, value=json_text(v),
                                  faces=", ".join(map(str, faces))))
    return list(given)


def throw_outcome(state: State, event: Mapping[str, Any]) -> JSON:
    """What a rolled throw does: the totals and ``result``.

    ``result`` is "hit", "dodge", "catch", or "shield" (a failed dodge the
    target's Shield absorbed).
    """
    thrower, target = event["thrower"], event["target"]
    holding = event["target_holding_ball"]
    throw, dodge = event["rolls"]["throw"], event["rolls"]["dodge"]
    # The event says whether the ball was a Fireball; one from before the field
    # threw its thrower's.
    fireball = event.get("fireball", has(state, thrower, "fireball"))
    frozen = has(state, target, "freeze")
    attack = FIREBALL_ATTACK if fireball else sum(throw)
    defence = FROZEN_DODGE if frozen else sum(dodge)
    dice = dodge_pool(state, target, holding)
    doubles = not frozen and dice.doubles(dodge)
    triples = not frozen and Pool.triples(dodge)
    sticky = has(state, target, "sticky_fingers") and defence in STICKY_TOTALS
    if holding and triples:
        result = "dodge"
    elif (not holding and not fireball and cannot_catch(state, target) is None
          and (doubles or sticky)):
        result = "catch"
    elif attack > defence:
        result = "shield" if has(state, target, "shield") else "hit"
    else:
        result = "dodge"
    return {"attack": attack, "defence": defence, "doubles": doubles, "triples": triples,
            "fireball": fireball, "frozen": frozen, "result": result}


def resister_of(state: State, event: Mapping[str, Any], target: int) -> int | None:
    """Who rolls to resist ``event`` on ``target``: None if nobody does.

    Teammates do not resist. A Dispel of an opponent's effect is resisted by
    the wizard who cast that effect (if still on the court).
    """
    side = state.setup.side_of(event["caster"])
    if event["spell"] != "dispel":
        return None if state.setup.side_of(target) == side else target
    token = dispel_token(state, target, event["effect"], side)
    if token.side == side:
        return None
    cast = card_status(state, token.side, CARD_OF[token.spell].id)
    assert cast is not None
    return None if cast.caster in state.off else cast.caster


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
    return failed_resist(state, jersey, event["spell"])


def failed_resist(state: State, jersey: int, spell: str) -> str:
    """A failed resist by ``jersey``: its Shield absorbs it ("shield") or the spell
    takes hold ("affected").

    A Shield is spent only by a spell that would affect its wizard: not by an
    effect the wizard already carries (an effect counts once, so another of
    the same changes nothing; a Shield cast on a shielded opponent, say).
    """
    if has(state, jersey, "shield") and not harmless(state, jersey, spell):
        return "shield"
    return "affected"


def harmless(state: State, jersey: int, spell: str) -> bool:
    """Whether ``spell`` would change nothing on ``jersey``: it carries that effect
    already (a wizard holds one marker of a kind). Teleport moves it, and Dispel's
    resister is the caster of the effect it cancels: neither is ever harmless."""
    return spell not in NO_REBOUND and has(state, jersey, spell)


def rebounds(state: State, event: Mapping[str, Any]) -> bool:
    return any(_resist_result(state, event, int(j), v) == "rebound"
               for j, v in event["rolls"]["resist"].items())


def cast_outcome(state: State, event: Mapping[str, Any]) -> JSON:
    """What a cast does to each target, and to the caster on a rebound.

    A rolled cast (``rolls`` given) compares each resist with the cast. A
    cast recorded by hand names the wizards it took (``targets``): each
    opponent among them failed to resist, and a Shield absorbs that failure
    just as for a rolled one. ``affected`` lists who gets the effect (for
    Dispel: whose effect goes), ``shields`` who lost a Shield absorbing a
    failed resist, ``results`` one entry per target.
    """
    caster = event["caster"]
    rolled = "rolls" in event
    affected, shields, results = [], [], []
    for target in event["targets"]:
        resister = resister_of(state, event, target)
        if resister is None:
            results.append({"jersey": target, "result": "affected"})
            affected.append(target)
            continue
        if rolled:
            values = event["rolls"]["resist"][str(resister)]
            result = _resist_result(state, event, resister, values)
            results.append({"jersey": target, "resister": resister, "dice": values,
                            "total": sum(values), "result": result})
        else:
            result = failed_resist(state, resister, event["spell"])
            results.append({"jersey": target, "resister": resister, "result": result})
        if result == "affected":
            affected.append(target)
        elif result == "shield":
            shields.append(resister)
    rebound = None
    if rolled and "rebound" in event["rolls"]:
        values = event["rolls"]["rebound"]
        p = pool(state, caster, "resist")
        if p.doubles(values) or Pool.triples(values) or sum(values) >= sum(event["rolls"]["cast"]):
            outcome = "resisted"
        elif caster in affected:
            # The spell took the caster already (named among its teammates): the
            # rebound changes nothing, and spends no Shield.
            outcome = "affected"
        else:
            outcome = failed_resist(state, caster, event["spell"])
            if outcome == "shield":
                shields.append(caster)
            else:
                affected.append(caster)
        rebound = {"dice": values, "total": sum(values), "result": outcome}
    out: JSON = {"affected": affected, "shields": shields, "results": results}
    if rolled:
        # No cast total when nobody resisted: a spell on teammates is not rolled.
        cast = event["rolls"]["cast"] if any("resister" in r for r in results) else []
        out = {"cast": sum(cast) if cast else None, **out, "rebound": rebound}
    return out
