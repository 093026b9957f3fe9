"""What may happen now, and checking an action into an event (rolls filled in)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.errors import IllegalAction, InvalidAction
from companion.games.base import JSON, action_type, check_fields, choice, integer, json_text
from companion.games.wizard_dodgeball.cards import CARD_OF, NO_TOKEN, SPELLS, TITLES
from companion.games.wizard_dodgeball.dice import (
    Pool,
    cast_outcome,
    dodge_pool,
    pool,
    rebounds,
    resister_of,
    roll,
    throw_outcome,
    throw_pool,
)
from companion.games.wizard_dodgeball.options import JERSEY_MAX
from companion.games.wizard_dodgeball.state import (
    MARKERS,
    State,
    active,
    budget_refusal,
    cannot_catch,
    cannot_receive,
    cannot_throw,
    card_status,
    effects,
    has,
    loose_fireballs,
    markers,
    on_court,
    open_actions,
    ready,
    returns_after,
)
from companion.games.wizard_dodgeball.words import VERB, either, jerseys, joined
from companion.i18n import N_, Text, _

ACTIONS = ("end_activation", "throw", "hit", "catch", "pass", "cast", "cast_roll", "dispel")


def legal(state: State) -> list[JSON]:
    """What may happen now; every shape lists the values a field may take.

    Only what the active wizard's activation has left is offered: in the
    basic turn one throw (a pass included) and one cast; in the advanced
    turn any of them while actions are left, Speed and Slow counted. Every
    shape can be sent back as it is with one value picked for each list and,
    for ``targets``, any subset of ``min_targets`` (0 when absent) to
    ``max_targets`` (no limit when absent) of the wizards it lists: every
    such action is accepted. Where one field's values depend on another's,
    the shape is split (a throw's ``target_holding_ball`` per target, a
    Dispel's ``spell`` per wearer, the casts per spell's reach).
    """
    if state.winner is not None:
        return []
    shapes: list[JSON] = [{"type": "end_activation"}]
    j = active(state)
    left = open_actions(state)
    if "throw" in left and cannot_throw(state, j) is None:
        shapes += _throw_shapes(state, j)
    if "cast" in left:
        shapes += _cast_shapes(state, j)
    return shapes


def fireball_values(state: State, j: int) -> list[bool | int]:
    """The ``fireball`` values a throw by ``j`` takes, the likelier first; empty when no
    Fireball is about (the field is then left out)."""
    loose = loose_fireballs(state)
    held = next((t for t in state.tokens if t.jersey == j and t.spell == "fireball"), None)
    sides: list[bool | int] = sorted({t.side for t in loose} | ({held.side} if held else set()))
    if held is not None:
        return [True, False, *sides]
    if len(loose) == 1:
        return [False, True, *sides]
    # Both sides' Fireballs are loose: true could be either; a side names one.
    return [False, *sides] if loose else []


def _fireball_choices_text(state: State, j: int) -> Text:
    """What ``j``'s throw may say of its ball, for a refusal: ``"say 'fireball' true,
    false or 0"``, or that no Fireball is about."""
    values = fireball_values(state, j)
    if not values:
        return _("say 'fireball': false, or leave it out")
    return _("say 'fireball' {values}", values=either([json_text(v) for v in values]))


def _throw_shapes(state: State, j: int) -> list[JSON]:
    side = state.setup.side_of(j)
    foes = on_court(state, 1 - side)
    # Whether the ball thrown is a Fireball: the holder's is (unless it threw
    # another ball); a loose one only if the host says this wizard picked it up.
    # Every value `_fireball` takes is offered, the likelier first: besides true and
    # false, the side of each Fireball this wizard may have thrown (its own, or a loose
    # one), which names it (a picker leaves out the one that only names again what
    # true does: see panel.ball_choices).
    values = fireball_values(state, j)
    fire: JSON = {"fireball": values} if values else {}
    shapes: list[JSON] = []
    if foes:
        # A wizard with Butter Fingers holds no ball: its throw shape offers only false.
        holders = [f for f in foes if not has(state, f, "butter_fingers")]
        butter = [f for f in foes if f not in holders]
        for targets, holding in ((holders, [False, True]), (butter, [False])):
            if targets:
                shapes.append({"type": "throw", "thrower": [j], "target": targets,
                               "range": [1, 2, 3], "target_holding_ball": holding, **fire})
        shapes.append({"type": "hit", "thrower": [j], "target": foes, **fire})
    catchers = [f for f in foes if cannot_catch(state, f) is None]
    if catchers:
        back = [w for w in state.setup.rosters[1 - side] if w in state.off]
        # The holder of a Fireball may throw another ball, which can be caught.
        other = {"fireball": [False]} if has(state, j, "fireball") else {}
        shapes.append({"type": "catch", "thrower": [j], "catcher": catchers,
                       "returning": [*back, None], **other})
    mates = [m for m in on_court(state, side) if m != j and cannot_receive(state, m) is None]
    if mates:
        shapes.append({"type": "pass", "thrower": [j], "to": mates, **fire})
    return shapes


#: The kinds of cast whose shapes ``legal`` keeps apart: Fireball (one held ball),
#: Teleport (a ball and/or one wizard) and the rest (the reach and the markers).
_CAST_GROUPS = (None, ("teleport",), ("fireball",))


def _cast_shapes(state: State, j: int) -> list[JSON]:
    """One ``cast`` and one ``cast_roll`` shape per group of spells that reach alike:
    Fireball, Teleport, and the other spells split only where the team's markers
    left of a kind name fewer wizards than the rest."""
    side = state.setup.side_of(j)
    spells = ready(state, side)
    everyone = on_court(state, 0) + on_court(state, 1)
    shapes: list[JSON] = []
    for group in _CAST_GROUPS:
        own = [s for s in spells if (s in group if group else
                                     s not in ("dispel", "fireball", "teleport"))]
        for kind in ("cast", "cast_roll"):
            alike: dict[tuple[Any, ...], list[str]] = {}
            for spell in own:
                low, high = target_bounds(state, j, spell, kind)
                candidates = tuple(w for w in everyone if _reachable(state, j, spell, w))
                if high == 0:
                    candidates = ()
                if len(candidates) >= low:
                    alike.setdefault((low, high, candidates), []).append(spell)
            for (low, high, candidates), names in alike.items():
                bounds: JSON = {"min_targets": low} if low else {}
                if high is not None:
                    bounds["max_targets"] = high
                shapes.append({"type": kind, "caster": [j], "spell": names,
                               "targets": list(candidates), **bounds})
    if "dispel" not in spells:
        return shapes
    # A failed Dispel is a cast that names nobody.
    shapes.append({"type": "cast", "caster": [j], "spell": ["dispel"], "targets": [],
                   "max_targets": 0})
    if state.setup.wizards[j].magic == 0:
        return shapes  # a Magic of 0 reaches no wizard to dispel
    for w in everyone:
        on = sorted(set(effects(state, w)), key=SPELLS.index)
        if on:
            shapes.append({"type": "dispel", "caster": [j], "target": [w], "spell": on})
    for w in everyone:
        on = sorted(set(effects(state, w)), key=SPELLS.index)
        if on:
            shapes.append({"type": "cast_roll", "caster": [j], "spell": ["dispel"],
                           "targets": [w], "effect": on, "min_targets": 1,
                           "max_targets": 1})
    return shapes


def target_bounds(state: State, caster: int, spell: str, kind: str) -> tuple[int, int | None]:
    """How few and how many wizards a ``kind`` cast of ``spell`` by ``caster`` names.

    The caster's Magic (when known) is the most; Fireball goes on exactly one
    held ball; Teleport moves a ball and/or one wizard; a rolled cast, and a
    Dispel that worked, name at least one. A failed Dispel names nobody.
    """
    magic = state.setup.wizards[caster].magic
    low = 1 if kind == "cast_roll" or spell == "fireball" else 0
    high = magic
    if spell in ("fireball", "teleport"):
        high = 1 if high is None else min(high, 1)
    if spell == "fireball" and kind == "cast":
        high = 1  # on the caster's own ball even at Magic 0 (it reaches a ball)
    if spell == "dispel":
        low, high = (0, 0) if kind == "cast" else (1, 1)
    if spell not in NO_TOKEN:
        # Each wizard the spell takes holds one of the team's markers of its kind.
        # (A wizard carrying the effect already takes none and may be named besides;
        # `legal` offers a count any choice of wizards within it makes good.)
        room = markers_left(state, state.setup.side_of(caster), spell)
        high = room if high is None else min(high, room)
    return low, high


def markers_left(state: State, side: int, spell: str) -> int:
    """How many of ``side``'s markers of ``spell``'s kind are not on a wizard or ball."""
    return max(0, MARKERS - len(markers(state, side, CARD_OF[spell].id)))


def _reachable(state: State, caster: int, spell: str, target: int) -> bool:
    """Whether ``spell`` cast by ``caster`` may name ``target`` (on the court)."""
    if spell != "fireball":
        return True
    if has(state, target, "butter_fingers"):
        return False  # it holds no ball
    if has(state, target, "fireball"):
        return False  # its ball carries a Fireball already: one a ball
    # At Magic 0 a Fireball reaches only the caster's own ball.
    return state.setup.wizards[caster].magic != 0 or target == caster


def resolve(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    """Check ``action`` and return the event to log, every roll filled in."""
    kind = action_type(action, ACTIONS)
    if state.winner is not None:
        raise IllegalAction(_("the match is over: {side} won. Undo to change the last "
                              "action, or start a new match",
                              side=state.setup.sides[state.winner]))
    if kind == "end_activation":
        check_fields(action, ())
        return {"type": "end_activation"}
    if kind in _RESOLVE_THROWS:
        return _RESOLVE_THROWS[kind](state, action, rng)
    return _resolve_cast(state, action, rng)


def _jersey(state: State, action: Mapping[str, Any], key: str) -> int:
    j = integer(action, key, 0, JERSEY_MAX)
    assert j is not None
    if j not in state.setup.wizards:
        raise IllegalAction(_("no wizard wears #{j}; the rosters are {first} and {second}",
                              j=j, first=_roster_text(state, 0),
                              second=_roster_text(state, 1)))
    return j


def _court_text(state: State) -> object:
    """Who is on the court, by side: ``"Owls #21 #58, Newts #45"``."""
    return joined([joined([state.setup.sides[side],
                           jerseys(on_court(state, side), _("nobody"))], " ")
                   for side in (0, 1)])


def _roster_text(state: State, side: int) -> str:
    jerseys = " ".join(f"#{j}" for j in state.setup.rosters[side])
    return f"{state.setup.sides[side]} ({jerseys})"


def _flag(action: Mapping[str, Any], key: str) -> bool:
    value = action.get(key, False)
    if not isinstance(value, bool):
        raise InvalidAction(f"field '{key}' must be true or false; "  # i18n: not said
                            f"got {json_text(value)}")
    return value


def allowed_now(state: State) -> Text:
    """What the active wizard may still record, for a refusal to end with:
    ``"#21 may still cast"``, or ``"end the activation"`` when nothing is left."""
    j = active(state)
    kinds = [k for k in open_actions(state) if k != "throw" or cannot_throw(state, j) is None]
    if not kinds:
        return _("nothing is left for #{j}: end the activation", j=j)
    return _("#{j} may still {actions}, or end the activation", j=j,
             actions=either([VERB[k] for k in kinds]))


def _require_active(state: State, j: int, doing: str) -> None:
    """``j`` may act now: it is its activation and it is on the court, unfrozen."""
    now = active(state)
    if j != now:
        side = state.setup.sides[state.setup.side_of(now)]
        raise IllegalAction(_("it is #{now}'s activation ({side}): #{j} cannot {doing} now; "
                              "{allowed}", now=now, side=side, j=j, doing=VERB[doing],
                              allowed=allowed_now(state)))
    if j in state.off:
        raise IllegalAction(_("#{j} is off the court and cannot {doing}: {allowed}", j=j,
                              doing=VERB[doing], allowed=allowed_now(state)))
    if has(state, j, "freeze"):
        raise IllegalAction(_("#{j} is frozen and cannot {doing} (a frozen wizard has no "
                              "actions): {allowed}", j=j, doing=VERB[doing],
                              allowed=allowed_now(state)))


def _require_budget(state: State, use: str) -> None:
    """The active wizard's activation has ``use`` ("throw", "pass", "cast") left."""
    reason = budget_refusal(state, use)
    if reason:
        raise IllegalAction(reason)


def _thrower_and_target(state: State, action: Mapping[str, Any],
                        target_key: str) -> tuple[int, int]:
    thrower = _thrower(state, action)
    target = _jersey(state, action, target_key)
    foes = jerseys(on_court(state, 1 - state.setup.side_of(thrower)), _("none"))
    if target == thrower:
        raise IllegalAction(_("#{thrower} cannot throw at itself: a throw goes at an "
                              "opponent on the court: {foes}", thrower=thrower, foes=foes))
    if state.setup.side_of(target) == state.setup.side_of(thrower):
        raise IllegalAction(_("#{target} is #{thrower}'s teammate: a throw to a teammate "
                              "is a 'pass'", target=target, thrower=thrower))
    if target in state.off:
        raise IllegalAction(_("#{target} is off the court; opponents on it: {foes}",
                              target=target, foes=foes))
    return thrower, target


def _thrower(state: State, action: Mapping[str, Any], use: str = "throw") -> int:
    """The active wizard, able to throw, with its activation's throw (or an action) left."""
    thrower = _jersey(state, action, "thrower")
    _require_active(state, thrower, "pass" if use == "pass" else "throw")
    _require_budget(state, use)
    reason = cannot_throw(state, thrower)
    if reason:
        raise IllegalAction(_("{reason}: {allowed}", reason=reason, allowed=allowed_now(state)))
    return thrower


def _resolve_pass(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    """A throw to a teammate: no roll; a Fireball on the ball goes with it."""
    check_fields(action, ("thrower", "to", "fireball", "fireball_side"))
    thrower = _thrower(state, action, "pass")
    fireball = _fireball(state, action, thrower)
    to = _jersey(state, action, "to")
    side = state.setup.side_of(thrower)
    receivers = jerseys([m for m in on_court(state, side)
                         if m != thrower and cannot_receive(state, m) is None], _("nobody"))
    if to == thrower:
        raise IllegalAction(_("#{thrower} cannot pass to itself: a pass goes to a teammate; "
                              "who can take one: {receivers}", thrower=thrower,
                              receivers=receivers))
    if state.setup.side_of(to) != side:
        raise IllegalAction(_("#{to} is an opponent: a throw at #{to} is a 'throw' or 'hit'",
                              to=to))
    if to in state.off:
        raise IllegalAction(_("#{to} is off the court; teammates who can take a pass: "
                              "{receivers}", to=to, receivers=receivers))
    reason = cannot_receive(state, to)
    if reason:
        raise IllegalAction(_("{reason}; teammates who can: {receivers}", reason=reason,
                              receivers=receivers))
    return {"type": "pass", "thrower": thrower, "to": to, **fireball}


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
        team = state.setup.sides[side]
        why = (_("it plays for {side}", side=state.setup.sides[1 - side])
               if state.setup.side_of(j) != side else _("it is on the court"))
        if not back:
            raise IllegalAction(_("#{j} cannot come back: {why}, and nobody of {team} is off "
                                  "the court; leave 'returning' out", j=j, why=why,
                                  team=team))
        raise IllegalAction(_("#{j} cannot come back: {why}; {team} may bring back "
                              "{back}, or nobody ('returning': null)", j=j, why=why,
                              team=team, back=either([f"#{w}" for w in back])))
    return j


def _resolve_hit(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    check_fields(action, ("thrower", "target", "fireball", "fireball_side"))
    thrower, target = _thrower_and_target(state, action, "target")
    return {"type": "hit", "thrower": thrower, "target": target,
            **_fireball(state, action, thrower)}


def _resolve_catch(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    check_fields(action, ("thrower", "catcher", "returning", "fireball", "fireball_side"))
    thrower, catcher = _thrower_and_target(state, action, "catcher")
    fireball = _fireball(state, action, thrower)
    if fireball.get("fireball"):
        raise IllegalAction(_("#{thrower}'s ball is a Fireball: it cannot be caught (a "
                              "Fireball is dodged or hits; say 'fireball': false if "
                              "#{thrower} threw another ball)", thrower=thrower))
    reason = cannot_catch(state, catcher)
    if reason:
        side = state.setup.side_of(catcher)
        able = jerseys([f for f in on_court(state, side) if cannot_catch(state, f) is None],
                       _("nobody"))
        raise IllegalAction(_("{reason}; who can catch #{thrower}'s throw: {able}",
                              reason=reason, thrower=thrower, able=able))
    return {"type": "catch", "thrower": thrower, "catcher": catcher,
            "returning": _returning(state, action, catcher), **fireball}


def _resolve_throw(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    check_fields(action, ("thrower", "target", "range", "target_holding_ball", "rolls",
                          "result", "returning", "fireball", "fireball_side"))
    thrower, target = _thrower_and_target(state, action, "target")
    fire = _fireball(state, action, thrower)
    zones = integer(action, "range", 1, 3)
    assert zones is not None
    holding = _flag(action, "target_holding_ball")
    if holding and has(state, target, "butter_fingers"):
        raise IllegalAction(_("#{target} has Butter Fingers and cannot be holding a ball: "
                              "say 'target_holding_ball': false (a wizard with Butter "
                              "Fingers holds no ball)", target=target))
    rolls = action.get("rolls")
    if rolls is not None and (not isinstance(rolls, Mapping) or set(rolls) - {"throw", "dodge"}):
        raise InvalidAction("field 'rolls' must be "  # i18n: not said
                            "{\"throw\": [...], \"dodge\": [...]}")
    rolls = rolls or {}
    fireball = fire.get("fireball", False)
    frozen = has(state, target, "freeze")
    attack = throw_pool(state, thrower, zones) if not fireball else Pool(())
    dodge = dodge_pool(state, target, holding) if not frozen else Pool(())
    event = {
        "type": "throw", "thrower": thrower, "target": target, "range": zones,
        "target_holding_ball": holding, **fire,
        "rolls": {"throw": roll(state, attack, rolls.get("throw"), "rolls.throw", rng),
                  "dodge": roll(state, dodge, rolls.get("dodge"), "rolls.dodge", rng)},
    }
    result = throw_outcome(state, event)["result"]
    if "result" in action and action["result"] != result:
        raise IllegalAction(_("those rolls give {result}, not {said}: leave 'result' out, "
                              "or give the rolls that made it", result=json_text(result),
                              said=json_text(action["result"])))
    event["result"] = result
    if result == "catch":
        event["returning"] = _returning(state, action, target)
    elif "returning" in action:
        raise InvalidAction(_("field 'returning' is only for a throw that is caught; this "
                              "one was {result}: leave 'returning' out",
                              result=_RESULT_WORDS[result]))
    return event


_RESULT_WORDS = {"hit": _("a hit"), "shield": _("a hit the Shield took"),
                 "dodge": _("dodged")}


def _fireball(state: State, action: Mapping[str, Any], thrower: int) -> JSON:
    """Whether the ball ``thrower`` throws is a Fireball, as the event records it.

    The Fireball is on a ball. The wizard holding it throws it unless the host
    says ``"fireball": false`` (it threw another ball and dropped this one). A
    loose Fireball (its holder dropped it) is thrown only when the host says
    ``"fireball": true``: the companion cannot see who picked it up. With both
    sides' Fireballs loose, ``true`` could be either: the host names it by its
    side, ``"fireball": 0`` or ``1`` (either may name a loose one anyway).
    Returns ``{"fireball": bool}`` when a Fireball is involved, and for a loose
    one thrown its ``fireball_side``; else ``{}`` (so the events of a match
    without one stay as they were).
    """
    said = action.get("fireball")
    if "fireball" in action and not (isinstance(said, bool)
                                     or (type(said) is int and said in (0, 1))):
        raise InvalidAction(_("field 'fireball' says which ball was thrown: true (the "
                              "Fireball ball), false (another ball), or 0 or 1 (the side "
                              "whose Fireball it was); got {said}", said=json_text(said)))
    if "fireball_side" in action:
        # A resolved event names the side of the Fireball it threw.
        side = action["fireball_side"]
        if said is not True or type(side) is not int or side not in (0, 1):
            raise InvalidAction("field 'fireball_side' (0 or 1) comes with "  # i18n: not said
                                "'fireball': true, naming the side whose Fireball was "
                                f"thrown; or give the side as 'fireball' alone; "
                                f"got {json_text(side)}")
        said = side
    held = next((t for t in state.tokens if t.jersey == thrower and t.spell == "fireball"),
                None)
    loose = loose_fireballs(state)
    if isinstance(said, bool) or said is None:
        if held is not None:
            return {"fireball": said is not False}
        if not said:
            return {}
        if len(loose) > 1:
            names = either([joined([t.side, f"({state.setup.sides[t.side]})"], " ")
                            for t in loose])
            raise IllegalAction(_("both sides' Fireballs are on loose balls: say which one "
                                  "#{thrower} threw with 'fireball' {names}, or false for "
                                  "another ball", thrower=thrower, names=names))
        if loose:
            return {"fireball": True, "fireball_side": loose[0].side}
        raise IllegalAction(_("#{thrower}'s ball cannot be a Fireball: {where} (a Fireball "
                              "is cast on a held ball, and stays on it until thrown or until "
                              "its card returns); say 'fireball': false, or leave it out",
                              thrower=thrower, where=_fireballs_text(state)))
    token = next((t for t in state.tokens if t.spell == "fireball" and t.side == said), None)
    name = state.setup.sides[said]
    if token is None or token.jersey not in (None, thrower):
        raise IllegalAction(_("#{thrower} cannot have thrown the {side} Fireball: {where}; "
                              "{choices}", thrower=thrower, side=name,
                              where=_fireballs_text(state),
                              choices=_fireball_choices_text(state, thrower)))
    if token.jersey == thrower:
        return {"fireball": True}
    return {"fireball": True, "fireball_side": said}


def _fireballs_text(state: State) -> object:
    """Where the Fireballs are: ``"the Owls Fireball is on the ball #21 holds"``."""
    where = [_("the {side} Fireball is on the ball #{j} holds", side=state.setup.sides[t.side],
               j=t.jersey) if t.jersey is not None else
             _("the {side} Fireball is on a loose ball", side=state.setup.sides[t.side])
             for t in state.tokens if t.spell == "fireball"]
    return joined(where, "; ") or _("no Fireball is on a ball now")


def _resolve_cast(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    kind = action["type"]
    fields = {"cast": ("caster", "spell", "targets", "min_targets", "max_targets"),
              "cast_roll": ("caster", "spell", "targets", "effect", "rolls", "affected",
                            "min_targets", "max_targets"),
              "dispel": ("caster", "target", "spell")}[kind]
    check_fields(action, fields)
    caster = _jersey(state, action, "caster")
    spell = "dispel" if kind == "dispel" else choice(action, "spell", SPELLS, None, "field")
    if spell is None:
        raise InvalidAction(f"missing field 'spell' "  # i18n: not said
                            f"(one of {', '.join(SPELLS)})")
    _echo_bounds(state, action, caster, spell, kind)
    _require_active(state, caster, "cast")
    _require_budget(state, "cast")
    side = state.setup.side_of(caster)
    _require_ready(state, side, spell)
    if kind == "dispel":
        target = _jersey(state, action, "target")
        effect = choice(action, "spell", SPELLS, None, "field")
        _require_effect(state, target, effect)
        _require_reach(state, caster, [target], spell)
        return {"type": "dispel", "caster": caster, "target": target, "spell": effect}
    targets = _targets(state, action.get("targets"), spell)
    if kind == "cast_roll" and state.setup.wizards[caster].magic == 0:
        raise IllegalAction(_magic_zero_roll(caster, spell))
    if spell == "fireball" and kind == "cast" and targets == [caster]:
        pass  # the caster's own ball: a Magic of 0 reaches a ball
    else:
        # Every wizard named counts against the reach, the caster too: a rebound
        # is the result of a roll, not a wizard to name beyond the reach.
        _require_reach(state, caster, targets, spell)
    _require_markers(state, side, spell, targets)
    if spell == "fireball" and not targets:
        raise IllegalAction(_("Fireball goes on a held ball: name the wizard holding it (the "
                              "caster's own ball, at any Magic)"))
    if kind == "cast":
        if spell == "dispel" and targets:
            raise InvalidAction(_("say which effect Dispel removed with the 'dispel' action "
                                  "(a failed Dispel is a cast with no targets)"))
        return {"type": "cast", "caster": caster, "spell": spell, "targets": targets}
    if not targets:
        raise InvalidAction(_("a rolled cast needs at least one target wizard "
                              "(a Teleport of a ball alone is a 'cast')"))
    event: JSON = {"type": "cast_roll", "caster": caster, "spell": spell, "targets": targets}
    if spell == "dispel":
        if len(targets) != 1:
            raise InvalidAction(_("Dispel cancels one effect on one wizard: give one target"))
        effect = choice(action, "effect", SPELLS, None, "field")
        _require_effect(state, targets[0], effect)
        event["effect"] = effect
    elif "effect" in action:
        raise InvalidAction(_("field 'effect' is for Dispel only"))
    event["rolls"] = _cast_rolls(state, event, action.get("rolls"), rng)
    affected = cast_outcome(state, event)["affected"]
    if "affected" in action and action["affected"] != affected:
        raise IllegalAction(_("those rolls affect {affected}, not {said}: leave 'affected' "
                              "out, or give the rolls that made it",
                              affected=json_text(affected), said=json_text(action["affected"])))
    event["affected"] = affected
    return event


def _magic_zero_roll(caster: int, spell: str) -> Text:
    """A rolled cast at Magic 0, refused with what to record instead."""
    if spell == "fireball":
        instead = _("its Fireball goes on its own ball with no roll: record it as a 'cast' "
                    "with targets [{caster}]", caster=caster)
    elif spell == "teleport":
        instead = _("a Teleport of a ball alone is recorded as a 'cast' with no targets")
    else:
        instead = _("record what the spell did as a 'cast' (no targets: it reached nobody)")
    return _("#{caster}'s Magic is 0: its Magic reaches no wizard, so there is nothing to "
             "roll for; {instead}", caster=caster, instead=instead)


def _require_markers(state: State, side: int, spell: str, targets: list[int]) -> None:
    """Each wizard a spell takes holds one of the team's three markers of its kind
    (a paired card's faces share theirs); a cast that would need a fourth is refused."""
    if spell in NO_TOKEN:
        return
    card = CARD_OF[spell]
    lying = markers(state, side, card.id)
    # A wizard carrying the effect already (from either side) takes no second marker:
    # an effect counts once, and a second cast of it places nothing.
    needed = [t for t in targets if not has(state, t, spell)]
    if len(lying) + len(needed) <= MARKERS:
        return
    kind = "/".join(TITLES[f] for f in card.faces)
    team = state.setup.sides[side]
    room = MARKERS - len(lying)
    carried = len(targets) - len(needed)
    parts: list[object] = [N_("{team} have {n} {kind} marker", "{team} have {n} {kind} markers",
                              MARKERS, team=team, kind=kind)]
    if lying:
        parts = [N_("{markers}; {n} lies on {where}", "{markers}; {n} lie on {where}",
                    len(lying), markers=parts[0], where=jerseys(lying))]
    cast = N_("a {spell} on {n} wizard", "a {spell} on {n} wizards", len(targets),
              spell=TITLES[spell])
    if carried:
        cast = N_("{cast} ({n} of them carries it already and takes none)",
                  "{cast} ({n} of them carry it already and take none)", carried, cast=cast)
    if not room:
        most: Text = _("none is free")
    elif carried:
        most = N_("name at most {n} wizard besides those",
                  "name at most {n} wizards besides those", room)
    else:
        most = N_("name at most {n} wizard", "name at most {n} wizards", room)
    raise IllegalAction(_("{markers}: {cast} needs {needed}; {most}", markers=parts[0],
                          cast=cast, needed=len(needed), most=most))


def _ready_text(state: State, side: int) -> Text:
    """What ``side`` may cast now, for a refusal to end with: ``"ready now: Dispel,
    Freeze, Slow/Speed"`` (a paired card by its two faces), or that none is."""
    cards = [c for c in state.setup.cards[side] if card_status(state, side, c) is None]
    if not cards:
        return _("none of the {side} cards is ready now", side=state.setup.sides[side])
    return _("ready now: {cards}", cards=", ".join("/".join(TITLES[f] for f in CARD_OF[c].faces)
                                                    for c in cards))


def _require_ready(state: State, side: int, spell: str) -> None:
    card = CARD_OF[spell]
    name = TITLES[spell]
    if card.id not in state.setup.cards[side]:
        bought = ", ".join("/".join(TITLES[f] for f in CARD_OF[c].faces)
                           for c in state.setup.cards[side]) or _("none")
        raise IllegalAction(_("{side} did not buy the {spell} card; their cards: {bought} "
                              "({ready})", side=state.setup.sides[side], spell=name,
                              bought=bought, ready=_ready_text(state, side)))
    cast = card_status(state, side, card.id)
    if cast is not None:
        end = returns_after(state, cast)
        to_go = end - state.order.turn
        when = _("when this activation ends") if to_go == 0 else \
            N_("when activation {end} ends ({n} more after this one)",
               "when activation {end} ends ({n} more after this one)", to_go, end=end)
        recharging = _("{spell} is recharging", spell=name) if cast.spell == spell else \
            _("{spell} is recharging (its {face} face was cast)", spell=name,
              face=TITLES[cast.spell])
        raise IllegalAction(_("{recharging}: cast by #{caster}, it returns {when}; {ready}",
                              recharging=recharging, caster=cast.caster, when=when,
                              ready=_ready_text(state, side)))


def _require_effect(state: State, target: int, effect: str | None) -> None:
    if effect is None:
        carried = sorted(set(effects(state, target)), key=SPELLS.index)
        which = (_("#{target} carries {effects}", target=target,
                   effects=either([f'"{s}"' for s in carried])) if carried
                 else _dispellable_text(state))
        raise InvalidAction(_("say which effect Dispel cancels, by its spell id: {which}",
                              which=which))
    if target in state.off:
        raise IllegalAction(_("#{target} is off the court: Dispel reaches only wizards on "
                              "it; {effects}", target=target, effects=_dispellable_text(state)))
    if not has(state, target, effect):
        on = _effects_text(state, target)
        if on:
            raise IllegalAction(_("#{target} has no {spell} to cancel; Dispel can cancel "
                                  "its {effects}", target=target, spell=TITLES[effect],
                                  effects=on))
        raise IllegalAction(_("#{target} has no {spell} to cancel, nor any effect; "
                              "{effects}", target=target, spell=TITLES[effect],
                              effects=_dispellable_text(state)))


def _effects_text(state: State, jersey: int) -> object:
    """``jersey``'s effects in card order, ``"Slow and Shield"``; empty when none."""
    on = [TITLES[s] for s in sorted(set(effects(state, jersey)), key=SPELLS.index)]
    if len(on) < 2:
        return "".join(on)
    return _("{some} and {last}", some=joined(on[:-1]), last=on[-1])


def _dispellable_text(state: State) -> Text:
    """The effects a Dispel may cancel now, wizard by wizard, or what to record instead."""
    carrying = [joined([f"#{w}", on], " ") for side in (0, 1) for w in on_court(state, side)
                if (on := _effects_text(state, w))]
    if not carrying:
        return _("no wizard on the court carries an effect (a Dispel that cancels nothing "
                 "is a 'cast' with no targets)")
    return _("effects to cancel: {effects}", effects=joined(carrying))


def _echo_bounds(state: State, action: Mapping[str, Any], caster: int, spell: str,
                 kind: str) -> None:
    """``min_targets`` and ``max_targets``, as ``legal`` offers them, may come back with a
    cast: each must be what the shape for ``spell`` gave (a client's premise), and
    changes nothing."""
    low, high = target_bounds(state, caster, spell, kind)
    for key, offered in (("min_targets", low), ("max_targets", high)):
        if key not in action:
            continue
        value = action[key]
        if offered is None:
            raise InvalidAction(_("field '{key}' is for a spell whose reach is known; "
                                  "#{caster} has no Magic stat: leave it out", key=key,
                                  caster=caster))
        if value != offered or type(value) is not int:
            magic = state.setup.wizards[caster].magic
            why: Text = _("#{caster}'s Magic is {magic}", caster=caster, magic=magic) \
                if magic is not None else _("#{caster} has no Magic stat", caster=caster)
            left = markers_left(state, state.setup.side_of(caster), spell)
            if spell not in (*NO_TOKEN, "fireball") and (magic is None or left < magic):
                # The team's markers, not the reach, set the most.
                why = N_("{why}; its team has {n} {spell} marker",
                         "{why}; its team has {n} {spell} markers", left, why=why,
                         spell=TITLES[spell])
            raise IllegalAction(_("'{key}' says {value}, but a {kind} of {spell} by #{caster} "
                                  "names {bounds} ({why})", key=key, value=json_text(value),
                                  kind=kind, spell=TITLES[spell], caster=caster,
                                  bounds=_bounds_text(low, high), why=why))


def _bounds_text(low: int, high: int | None) -> Text:
    if high is None:
        return N_("at least {n} wizard", "at least {n} wizards", low) if low else \
            _("any wizards")
    if low == high:
        return N_("exactly {n} wizard", "exactly {n} wizards", low)
    return _("{low} to {high} wizards", low=low, high=high)


def _require_reach(state: State, caster: int, targets: list[int], spell: str) -> None:
    """The caster's Magic (when known) is how many connected spaces a spell reaches;
    Teleport moves one wizard (and/or a ball)."""
    magic = state.setup.wizards[caster].magic
    if spell == "teleport" and len(targets) > 1:
        raise IllegalAction(_("Teleport moves a ball and/or one wizard: name at most one "
                              "wizard; {count} named", count=len(targets)))
    if spell == "fireball" and magic == 0 and targets and targets != [caster]:
        raise IllegalAction(_("#{caster}'s Magic is 0: its Fireball reaches only its own "
                              "ball (name #{caster})", caster=caster))
    if magic == 0 and targets:
        ball = (_("a Fireball on its own ball names #{caster}", caster=caster)
                if spell == "fireball" else
                _("a Teleport of a ball alone names nobody") if spell == "teleport" else
                _("a spell that reached nobody names nobody"))
        raise IllegalAction(_("#{caster}'s Magic is 0: its spells reach no wizard, only a "
                              "ball; {count} named: record the cast with 'targets': [] "
                              "({ball})", caster=caster, count=len(targets), ball=ball))
    if magic is not None and len(targets) > magic:
        raise IllegalAction(N_("#{caster}'s Magic is {n}: its spells reach at most {n} wizard "
                               "(the Magic is the number of connected spaces a spell covers, "
                               "the caster counted when named); {count} named: name at most "
                               "{n}",
                               "#{caster}'s Magic is {n}: its spells reach at most {n} "
                               "wizards (the Magic is the number of connected spaces a spell "
                               "covers, the caster counted when named); {count} named: name "
                               "at most {n}", magic, caster=caster, count=len(targets)))


def _targets(state: State, value: object, spell: str) -> list[int]:
    if value is None:
        value = []
    if not isinstance(value, list):
        raise InvalidAction(_("field 'targets' must be a list of jersey numbers"))
    targets = []
    for item in value:
        j = _jersey(state, {"targets": item}, "targets")
        if j in targets:
            raise InvalidAction(_("#{j} is in 'targets' twice", j=j))
        if j in state.off:
            raise IllegalAction(_("#{j} is off the court: spells reach only wizards on it; "
                                  "leave #{j} out (on the court: {court})", j=j,
                                  court=_court_text(state)))
        targets.append(j)
    if spell == "fireball" and len(targets) > 1:
        raise IllegalAction(_("Fireball goes on one held ball: give the one wizard holding "
                              "it"))
    if spell == "fireball" and targets and has(state, targets[0], "butter_fingers"):
        raise IllegalAction(_("#{j} has Butter Fingers and holds no ball: Fireball goes "
                              "on a held ball (name the wizard holding it)", j=targets[0]))
    if spell == "fireball" and targets and has(state, targets[0], "fireball"):
        holder = targets[0]
        on = next(t for t in state.tokens if t.jersey == holder and t.spell == "fireball")
        raise IllegalAction(_("the ball #{holder} holds carries the {side} Fireball already, "
                              "and a ball carries one Fireball: cast it on another held ball",
                              holder=holder, side=state.setup.sides[on.side]))
    return targets


def _cast_rolls(state: State, event: JSON, given: object,
                rng: random.Random) -> JSON:
    caster = event["caster"]
    if given is not None and (not isinstance(given, Mapping)
                              or set(given) - {"cast", "resist", "rebound"}):
        raise InvalidAction("field 'rolls' must be {\"cast\": [...], "  # i18n: not said
                            "\"resist\": {jersey: [...]}, \"rebound\": [...]}")
    given = given or {}
    resist_given = given.get("resist") or {}
    if not isinstance(resist_given, Mapping):
        raise InvalidAction("'rolls.resist' must be an object of dice by jersey")  # i18n: not said
    resisters = [r for t in event["targets"] if (r := resister_of(state, event, t)) is not None]
    # Nobody resists a spell on teammates: no cast is rolled (a match file from
    # before this may still give the caster's cast dice; they are kept, unused).
    cast_given = given.get("cast")
    if resisters or cast_given not in (None, []):
        cast = roll(state, pool(state, caster, "cast"), cast_given, "rolls.cast", rng)
    else:
        cast = []
    rolls: JSON = {"cast": cast, "resist": {}}
    extra = set(map(str, resist_given)) - set(map(str, resisters))
    if extra:
        raise InvalidAction(_("'rolls.resist' has a roll for #{j}, who does not resist this "
                              "cast (teammates do not)", j=sorted(extra)[0]))
    for r in resisters:
        value = resist_given.get(str(r), resist_given.get(r))
        rolls["resist"][str(r)] = roll(state, pool(state, r, "resist"), value,
                                        f"rolls.resist.{r}", rng)  # i18n: not said
    event = {**event, "rolls": rolls}
    if rebounds(state, event):
        rolls["rebound"] = roll(state, pool(state, caster, "resist"), given.get("rebound"),
                                 "rolls.rebound", rng)
    elif given.get("rebound") is not None:
        raise InvalidAction(_("'rolls.rebound' is only for a spell that rebounded: leave it "
                              "out"))
    return rolls


_RESOLVE_THROWS = {"throw": _resolve_throw, "hit": _resolve_hit, "catch": _resolve_catch,
                   "pass": _resolve_pass}
