"""Applying resolved events: activations, hits, catches, casts, recharge."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.base import JSON
from companion.games.wizard_dodgeball.cards import CARD_OF, NO_TOKEN, TITLES
from companion.games.wizard_dodgeball.dice import cast_outcome, throw_outcome
from companion.games.wizard_dodgeball.state import (
    USE_OF,
    Cast,
    State,
    Token,
    dispel_token,
    has,
    loose_fireballs,
    on_court,
    uses_speed,
)
from companion.games.wizard_dodgeball.words import jerseys, joined
from companion.i18n import C_, Text, _

#: The words for each kind of event, by its type (what an undo took back is said with
#: them, companion/undone.py, where the view's last play does not say it already).
EVENT_WORDS = {"throw": C_("event", "throw"), "pass": C_("event", "pass"),
               "hit": C_("event", "hit"), "catch": C_("event", "catch"),
               "cast": C_("event", "cast"), "cast_roll": C_("event", "cast roll"),
               "dispel": C_("event", "dispel"),
               "end_activation": C_("event", "end activation")}


def apply(state: State, event: Mapping[str, Any]) -> State:
    """The state after a resolved event."""
    kind = event["type"]
    if kind == "end_activation":
        return _end_activation(state)
    # Every other event is an action of the active wizard's activation. It takes
    # the action Speed gives when it would not fit without: then that action is
    # spent, whatever becomes of the Speed (a Dispel of it takes nothing back).
    state = replace(state, used=(*state.used, USE_OF[kind]))
    state = replace(state, speed_used=state.speed_used or uses_speed(state))
    if kind == "hit":
        state = _spend_fireball(state, event)
        thrower, target = event["thrower"], event["target"]
        return _hit(state, thrower, target, None,
                    {"type": "hit", "thrower": thrower, "target": target})
    if kind == "catch":
        state = _spend_fireball(state, event)
        return _catch(state, event["thrower"], event["catcher"], event["returning"],
                      {"type": "catch", "thrower": event["thrower"],
                       "catcher": event["catcher"]})
    if kind == "throw":
        return _throw(state, event)
    if kind == "pass":
        return _pass(state, event)
    return _spell(state, event)


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
            last = {"type": "end_activation",
                    "text": _("{jerseys} off: skipped", jerseys=jerseys(skipped)),
                    "skipped": skipped}
        return replace(state, order=order, off=state.off - {j}, returned=j in state.off,
                       used=(), speed_used=False, last=last)


def _close_slot(state: State, activation: int) -> State:
    """End activation ``activation``: cards due come back, their tokens go."""
    timers, expired = state.recharging.end_turn(activation)
    if not expired:
        return state
    gone = {(c.side, c.card) for c in expired}
    tokens = tuple(t for t in state.tokens if (t.side, CARD_OF[t.spell].id) not in gone)
    return replace(state, recharging=timers, tokens=tokens)


def _fireball_thrown(state: State, event: Mapping[str, Any]) -> tuple[State, Token | None]:
    """The Fireball token on the ball ``event`` throws (or None), after the thrower's
    own Fireball ball was dropped if it threw another one.

    ``fireball_side`` names the Fireball thrown (its side's); an event without it
    (a match file from before the field) throws the Fireball its thrower holds,
    else the first loose one.
    """
    thrower = event["thrower"]
    held = next((t for t in state.tokens if t.jersey == thrower and t.spell == "fireball"),
                None)
    said = event.get("fireball", held is not None)
    side = event.get("fireball_side", held.side if held is not None else None)
    if held is not None and (not said or held.side != side):
        state = _drop_fireball(state, thrower)  # it threw another ball
        if not said:
            return state, None
    elif not said:
        return state, None
    if held is not None and held.side == side:
        return state, held
    loose = [t for t in loose_fireballs(state) if side is None or t.side == side]
    return state, loose[0]


def _drop_fireball(state: State, jersey: int) -> State:
    """The ball ``jersey`` holds is dropped: a Fireball on it stays on the loose ball."""
    return replace(state, tokens=tuple(
        replace(t, jersey=None) if t.jersey == jersey and t.spell == "fireball" else t
        for t in state.tokens))


def _spend_fireball(state: State, event: Mapping[str, Any]) -> State:
    """A Fireball's token ends when the throw of its ball resolves."""
    state, token = _fireball_thrown(state, event)
    return state if token is None else _remove_token(state, token)


def _eliminate(state: State, jersey: int) -> State:
    """Off the court, and every effect on the wizard goes with it; a Fireball is on
    the ball, which stays on the court, loose."""
    state = _drop_fireball(state, jersey)
    return replace(state, off=state.off | {jersey},
                   tokens=tuple(t for t in state.tokens if t.jersey != jersey))


def _score(state: State, side: int) -> State:
    target = state.setup.target   # None in the elimination variant: no points
    if target is None:
        return state
    score = (state.score[0] + 1, state.score[1]) if side == 0 else \
        (state.score[0], state.score[1] + 1)
    state = replace(state, score=score)
    if score[side] >= target:
        state = replace(state, winner=side)
    return state


def _check_out(state: State) -> State:
    """Elimination variant: a side with nobody on the court has lost."""
    if state.setup.variant == "elimination" and state.winner is None:
        for side in (0, 1):
            if not on_court(state, side):
                return replace(state, winner=1 - side)
    return state


def _hit(state: State, thrower: int, target: int, score: str | None, last: JSON) -> State:
    """``thrower`` hit ``target`` (``score``: the totals of a rolled throw, "4v3")."""
    if has(state, target, "shield"):
        state = _remove_shield(state, target)
        text = _("#{thrower} hit #{target}: shield", thrower=thrower, target=target) \
            if score is None else _("#{thrower} hit #{target} ({score}): shield",
                                    thrower=thrower, target=target, score=score)
        return replace(state, last={**last, "result": "shield", "text": text})
    state = _eliminate(state, target)
    state = _count(state, state.setup.side_of(thrower), "hits")
    state = _score(state, state.setup.side_of(thrower))
    text = _("#{thrower} hit #{target}: out", thrower=thrower, target=target) \
        if score is None else _("#{thrower} hit #{target} ({score}): out", thrower=thrower,
                                target=target, score=score)
    return _check_out(replace(state, last={**last, "result": "hit", "text": text}))


def _catch(state: State, thrower: int, catcher: int, returning: int | None,
           last: JSON) -> State:
    # Only a wizard holding no ball catches, and it holds one ball at a time: a
    # catcher the companion had holding the Fireball ball had dropped it.
    state = _drop_fireball(state, catcher)
    state = _eliminate(state, thrower)
    text = _("#{catcher} caught #{thrower}", catcher=catcher, thrower=thrower)
    if returning is not None:
        state = replace(state, off=state.off - {returning})
        text = _("#{catcher} caught #{thrower}, #{returning} back", catcher=catcher,
                 thrower=thrower, returning=returning)
    state = _count(state, state.setup.side_of(catcher), "catches")
    state = _score(state, state.setup.side_of(catcher))
    return _check_out(replace(state, last={**last, "text": text, "returning": returning}))


def _count(state: State, side: int, what: str) -> State:
    """One more of ``what`` (a Tally field) for ``side``."""
    old = state.tally[side]
    new = replace(old, **{what: getattr(old, what) + 1})
    return replace(state, tally=(new, state.tally[1]) if side == 0 else (state.tally[0], new))


def _throw(state: State, event: Mapping[str, Any]) -> State:
    outcome = throw_outcome(state, event)
    thrower, target = event["thrower"], event["target"]
    throw, dodge = event["rolls"]["throw"], event["rolls"]["dodge"]
    score = f"{outcome['attack']}v{outcome['defence']}"
    last = {"type": "throw", "thrower": thrower, "target": target, "range": event["range"],
            "throw": throw, "dodge": dodge, **outcome}
    state = _spend_fireball(state, event)
    if not event["target_holding_ball"]:
        # The target held no ball: if it had the Fireball ball, it had dropped it.
        state = _drop_fireball(state, target)
    result = outcome["result"]
    if result in ("hit", "shield"):
        return _hit(state, thrower, target, score, last)
    if result == "catch":
        return _catch(state, thrower, target, event.get("returning"), last)
    if outcome["triples"] and event["target_holding_ball"]:
        text = _("#{target} dodged #{thrower} ({score}) triples", target=target,
                 thrower=thrower, score=score)
    else:
        text = _("#{target} dodged #{thrower} ({score})", target=target, thrower=thrower,
                 score=score)
    return replace(state, last={**last, "text": text})


def _pass(state: State, event: Mapping[str, Any]) -> State:
    """The ball goes to a teammate, and a Fireball on it goes along."""
    thrower, to = event["thrower"], event["to"]
    state, fire = _fireball_thrown(state, event)
    # A wizard holds one ball at a time: to take the pass, the receiver let go of
    # any ball it held, and a Fireball on it stays on the loose ball.
    state = _drop_fireball(state, to)
    tokens = tuple(replace(t, jersey=to) if t is fire else t for t in state.tokens)
    text = _("#{thrower} passed to #{to} (Fireball)", thrower=thrower, to=to) if fire else \
        _("#{thrower} passed to #{to}", thrower=thrower, to=to)
    return replace(state, tokens=tokens, last={"type": "pass", "thrower": thrower, "to": to,
                                               "fireball": fire is not None, "text": text})


def _cast_card(state: State, caster: int, spell: str) -> State:
    """The card leaves the hand until the end of the caster's next slot."""
    side = state.setup.side_of(caster)
    cast = Cast(side, CARD_OF[spell].id, spell, caster)
    until = state.order.turn + len(state.order.order)
    history = (cast, *(c for c in state.cast_history if (c.side, c.spell) != (side, spell)))
    return replace(state, recharging=state.recharging.start(cast, until), cast_history=history)


def _remove_token(state: State, token: Token) -> State:
    """The state with one token fewer."""
    tokens = list(state.tokens)
    tokens.remove(token)
    return replace(state, tokens=tuple(tokens))


def _remove_shield(state: State, jersey: int) -> State:
    """A Shield on ``jersey`` absorbed a failure and goes."""
    shield = next(t for t in state.tokens if t.jersey == jersey and t.spell == "shield")
    return _remove_token(state, shield)


def _spell(state: State, event: Mapping[str, Any]) -> State:
    """A cast, rolled or recorded: the card goes, Shields absorb failed resists,
    the effect takes hold on the rest (a Dispel removes its effect instead)."""
    kind, caster = event["type"], event["caster"]
    if kind == "dispel":
        # "It worked": the Dispel's one target failed to resist, as a recorded cast.
        event = {"caster": caster, "spell": "dispel", "targets": [event["target"]],
                 "effect": event["spell"]}
    spell = event["spell"]
    outcome = cast_outcome(state, event)
    affected, shields = outcome["affected"], outcome["shields"]
    state = _cast_card(state, caster, spell)
    state = _count(state, state.setup.side_of(caster), "casts")
    for j in shields:
        state = _remove_shield(state, j)
    side = state.setup.side_of(caster)
    if spell == "dispel":
        for j in affected:
            state = _remove_token(state, dispel_token(state, j, event["effect"], side))
    elif spell not in NO_TOKEN:
        # A wizard holds one marker of a kind: one that carries the effect
        # already (from either side) takes no second; it counts once.
        state = replace(state, tokens=state.tokens + tuple(
            Token(j, spell, side) for j in affected if not has(state, j, spell)))
    if spell == "butter_fingers":
        # Butter Fingers drops the ball: a Fireball on it stays on the loose ball.
        for j in affected:
            state = _drop_fireball(state, j)
    last = {"type": kind, **outcome, "caster": caster, "spell": spell,
            "targets": list(event["targets"]),
            **({"effect": event["effect"]} if "effect" in event else {}),
            "text": _spell_text(event, kind, outcome)}
    return replace(state, last=last)


def _spell_text(event: Mapping[str, Any], kind: str, outcome: Mapping[str, Any]) -> Text:
    """One short line for the OLED; the phone shows each roll from the other fields."""
    caster, spell = event["caster"], event["spell"]
    affected, shields = outcome["affected"], outcome["shields"]
    absorbed = joined([_("#{j} shield", j=j) for j in shields])
    if kind == "dispel":
        effect, target = TITLES[event["effect"]], event["targets"][0]
        if affected:
            head = _("#{caster} dispelled {effect} on #{target}", caster=caster, effect=effect,
                     target=target)
        else:
            head = _("#{caster} Dispel {effect} on #{target}", caster=caster, effect=effect,
                     target=target)
        return _("{head}: {shields}", head=head, shields=absorbed) if absorbed else head
    on = jerseys(affected)
    if kind == "cast":
        if on and absorbed:
            return _("#{caster} {spell} on {on}, {shields}", caster=caster,
                     spell=TITLES[spell], on=on, shields=absorbed)
        if on:
            return _("#{caster} {spell} on {on}", caster=caster, spell=TITLES[spell], on=on)
        return _("#{caster} {spell}: {news}", caster=caster, spell=TITLES[spell],
                 news=absorbed or _("no effect"))
    news: object
    if spell == "dispel":
        news = _("worked") if affected else (absorbed or _("resisted"))
    else:
        parts = [p for p in (_("on {on}", on=on) if on else "", absorbed) if p]
        news = joined(parts) or _("resisted")
        if outcome["rebound"]:
            news = _("rebound, {news}", news=news)
    # A cast on teammates alone rolls nothing: no total to show.
    if outcome["cast"] is not None:
        return _("#{caster} {spell} {total}: {news}", caster=caster, spell=TITLES[spell],
                 total=outcome["cast"], news=news)
    return _("#{caster} {spell}: {news}", caster=caster, spell=TITLES[spell], news=news)
