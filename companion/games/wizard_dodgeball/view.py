"""The match as every output shows it."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from companion.games.base import JSON
from companion.games.wizard_dodgeball.cards import CARD_OF, MOVE_CHANGE
from companion.games.wizard_dodgeball.state import (
    State,
    actions,
    actions_left,
    active,
    card_status,
    effects,
    loose_fireballs,
    on_court,
    open_actions,
    recharges,
    reminder,
    returns_after,
)
from companion.i18n import _


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
            "recent_casts": [{"spell": c.spell, "caster": c.caster}
                             for c in state.cast_history if c.side == side],
            "stats": asdict(state.tally[side]),
        })
    recharging = [{"side": c.side, "card": c.card, "spell": c.spell, "caster": c.caster,
                   "returns_after": t, "left": t - state.order.turn + 1}
                  for c, t in recharges(state)]
    return {
        "players": list(s.sides),
        "sides": sides,
        "active": {"side": s.side_of(j), "jersey": j},
        "activation": state.order.turn,
        "round": state.order.round,
        "winner": state.winner,
        "turn": s.turn,
        "spell_list": s.spell_list,
        "variant": s.variant,
        "target": s.target if s.variant == "points" else None,
        "actions": actions(state),
        "actions_left": actions_left(state),
        "open": open_actions(state),
        "used": list(state.used),
        "returned": state.returned,
        "reminder": reminder(state),
        "recharging": recharging,
        "order": [{"side": s.side_of(w), "jersey": w} for w in state.order.order],
        "loose_fireballs": sorted(t.side for t in loose_fireballs(state)),
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
    return _("{a} v {b} on court", a=len(on_court(state, 0)), b=len(on_court(state, 1)))
