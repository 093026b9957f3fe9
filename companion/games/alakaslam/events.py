"""Applying a resolved event: the state after it (pure, deterministic)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.alakaslam.court import (
    enchant_value,
    judge,
    judge_serve,
    land,
    serve_start,
)
from companion.games.alakaslam.state import (
    Binding,
    Shot,
    State,
    acts_as,
    end_point,
    refill_size,
)
from companion.games.base import with_item
from companion.i18n import C_

#: What an undo or a redo says of each kind of event (companion/undone.py): "serve by
#: Ann", "point to Ann & Bea". A Support's cards travel inside its side's shot.
EVENT_WORDS = {"serve": C_("event", "serve"), "shot": C_("event", "shot"),
               "point": C_("event", "point"), "mulligan": C_("event", "mulligan"),
               "copy": C_("event", "copy"), "ability": C_("event", "ability")}


def apply(state: State, event: Mapping[str, Any]) -> State:
    """The state after a resolved event (see rules.resolve)."""
    kind = event["type"]
    if kind == "point":
        return end_point(state, event["winner"], event["reason"])
    if kind == "mulligan":
        p = event["player"]
        # The first mulligan fixes the refill the hand came from (state.hand_size).
        fixed = state.refilled[p]
        return replace(state, mulligans=with_item(state.mulligans, p, state.mulligans[p] + 1),
                       refilled=with_item(state.refilled, p, refill_size(state, p)
                                          if fixed is None else fixed))
    if kind == "copy":
        return replace(state, copies=with_item(state.copies, event["player"], event["character"]))
    if kind == "ability":
        return _used_ability(state, event["player"])
    return _hit(state, event)


def _used_ability(state: State, player: int) -> State:
    """``player`` used their once-per-point ability (counted for the stats too)."""
    return replace(state, ability_used=with_item(state.ability_used, player, True),
                   abilities=with_item(state.abilities, player, state.abilities[player] + 1))


def _hit(state: State, event: Mapping[str, Any]) -> State:
    """A serve or a shot: the combined landing decides; an in ball crosses to the other side."""
    p = event["player"]
    side = state.setup.teams[p]
    parts = [(p, event["cards"], event.get("enchant"))]
    # Laurie's ability on any hit of hers (at the ball or as the Support) counts in the
    # stats whether or not the point ends on it: mark it before the landing is judged.
    if event.get("ability"):
        state = _used_ability(state, p)
    if "support" in event:
        sup = event["support"]
        parts.append((sup["player"], sup["cards"], sup.get("enchant")))
        if sup.get("ability"):
            state = _used_ability(state, sup["player"])
    cards = [c for _, hand, _ in parts for c in hand]
    if event["type"] == "serve":
        start = serve_start(side, event["corner"], state.cols)
        end = land(start, cards, side)
        result = judge_serve(start, end, side, state.cols)
    else:
        assert state.ball is not None, "a shot is due only with the ball in play"  # i18n: not said
        start = state.ball
        end = land(start, cards, side)
        result = judge(end, side, state.cols)
    shot = Shot(side=side, players=tuple(q for q, _, _ in parts), start=start, end=end,
                result=result)
    if result != "in":
        return end_point(state, 1 - side, result, shot)
    # The hitting side has now hit once more: its Enchantments lapse; new ones bind.
    bindings = [b for b in state.bindings if state.setup.teams[b.player] != side]
    for who, hand, target in parts:
        for card in hand:
            n = enchant_value(card)
            if n is not None:
                assert target is not None, \
                    "resolve names whom an Enchantment binds"  # i18n: not said
                rich = n == 2 and acts_as(state, who) == "rich"
                bindings.append(Binding(player=target, cards=n, no_enchant=rich, by=who))
    return replace(state, due="shot", hitting_side=1 - side, ball=end, rally=state.rally + 1,
                   longest_rally=max(state.longest_rally, state.rally + 1),
                   bindings=tuple(bindings), last_shot=shot)
