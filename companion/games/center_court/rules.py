"""Center Court's rules: what may happen now, and checking an action into an event (the
Service Die rolled here, once)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.errors import IllegalAction
from companion.games.base import (
    JSON,
    action_type,
    check_fields,
    integer,
)
from companion.games.center_court.state import (
    CARD_VALUES,
    CARDS_PER_VALUE,
    ROLLED_SERVES,
    SERVICE_DIE,
    State,
    server,
)
from companion.i18n import _

ACTIONS = ("serve", "return", "point")


def return_count(volley: int, card: int) -> int:
    """Cards of value ``card`` needed to return a volley of value ``volley``."""
    return 1 + abs(card - volley)


def valid_returns(volley: int) -> list[tuple[int, int]]:
    """Every way to return ``volley``: (card value, number of cards), by value.

    The formula fixes the rulebook table's two misprints: against 4 it
    offers 5-5, and against 6 it asks 4-4-4 (the table says 2-2-2).
    """
    if volley not in CARD_VALUES:
        raise ValueError(f"a volley value is 1-6, not {volley!r}")
    return [(card, return_count(volley, card)) for card in CARD_VALUES]


def format_return(card: int, count: int) -> str:
    """A return as players say it: ``"5-5"`` for two fives."""
    return "-".join([str(card)] * count)


def legal(state: State) -> list[JSON]:
    """What may happen now; nothing once the match is won.

    Every shape can be sent back as it is, one value picked for ``card`` or
    ``winner``: ``player`` (who serves, or who returns) is accepted back as the
    premise it states.
    """
    if state.winner is not None:
        return []
    point = {"type": "point", "winner": [0, 1]}
    if state.rally is None:
        return [{"type": "serve", "card": list(CARD_VALUES), "player": server(state)}, point]
    return [{"type": "return", "card": list(CARD_VALUES), "player": state.rally.to_return},
            point]


def resolve(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    """Check ``action`` and return the event to log (a serve's roll filled in)."""
    kind = action_type(action, ACTIONS)
    if state.winner is not None:
        raise IllegalAction(_("the match is over: {name} won. Undo to change the last point, "
                              "or start a new match", name=state.players[state.winner]))
    if kind == "point":
        check_fields(action, ("winner",))
        return {"type": "point", "winner": integer(action, "winner", 0, 1)}
    if kind == "serve":
        return _resolve_serve(state, action, rng)
    return _resolve_return(state, action)


def _resolve_serve(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    check_fields(action, ("card", "roll", "player"))
    card = integer(action, "card", 1, 6)
    roll = integer(action, "roll", 1, 6, required=False)
    if state.rally is not None:
        raise IllegalAction(
            _("the ball is in play: record a return or who won the point, not a serve")
        )
    _check_player(state, action, server(state), serving=True)
    if card not in ROLLED_SERVES:
        if roll is not None:
            raise IllegalAction(_("a serve of {card} is never rolled for; leave out 'roll'",
                                  card=card))
    elif roll is None:
        roll = rng.choice(SERVICE_DIE)
    elif roll not in SERVICE_DIE:
        raise IllegalAction(_("the Service Die cannot show {roll}: its faces are 1, 1, 2, 5, 6, 6",
                              roll=roll))
    return {"type": "serve", "card": card, "roll": roll}


def _check_player(state: State, action: Mapping[str, Any], due: int, *,
                  serving: bool) -> None:
    """An optional ``player`` (as ``legal`` offers it) must be the one who serves
    (``serving``) or returns now."""
    player = integer(action, "player", 0, 1, required=False)
    if player is not None and player != due:
        names = {"name": state.players[due], "other": state.players[player], "index": due}
        raise IllegalAction(
            _("{name} serves now, not {other} (player {index}, as 'legal' offers it)", **names)
            if serving else
            _("{name} returns now, not {other} (player {index}, as 'legal' offers it)", **names))


def _resolve_return(state: State, action: Mapping[str, Any]) -> JSON:
    check_fields(action, ("card", "count", "player"))
    card = integer(action, "card", 1, 6)
    count = integer(action, "count", 1, CARDS_PER_VALUE, required=False)
    if state.rally is None:
        raise IllegalAction(_("no ball is in play: the next thing is a serve"))
    _check_player(state, action, state.rally.to_return, serving=False)
    needed = return_count(state.rally.volley, card)
    if count is not None and count != needed:
        raise IllegalAction(_("to return {volley} with {card}s, play {needed} ({cards}), "
                              "not {count}", volley=state.rally.volley, card=card, needed=needed,
                              cards=format_return(card, needed), count=count))
    return {"type": "return", "card": card, "count": needed}

