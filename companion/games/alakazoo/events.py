"""Applying a resolved event: the state after it (pure, deterministic)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.alakazoo.state import (
    DARK_MAX,
    DARK_REASONS,
    SCORES,
    Pass,
    State,
    Stats,
    full,
)
from companion.games.base import with_item
from companion.i18n import C_

#: The words for each kind of event, by its type (what an undo took back is said with
#: them: companion/undone.py).
EVENT_WORDS = {"display": C_("event", "display"), "roll": C_("event", "roll"),
               "column": C_("event", "column"), "helper": C_("event", "helper"),
               "swap": C_("event", "swap"), "dark_power": C_("event", "dark power"),
               "end_turn": C_("event", "end turn")}


def apply(state: State, event: Mapping[str, Any]) -> State:
    """The state after a resolved event (see rules.resolve)."""
    kind = event["type"]
    p = event["by"]
    if kind == "display":
        return _display(state, p, event["space"] - 1, event["creature"])
    if kind == "dark_power":
        reason = event["reason"]
        state, gained = _gain(state, p, reason)
        # The Helper's hand trick recorded by its Dark Power is the turn's action.
        kept = (reason,) if reason in ("magic_power", "hand") else ()
        return replace(state, action="helper" if reason == "helper" else state.action,
                       no_runes=state.no_runes + (reason == "no_rune"),
                       penalties=state.penalties + kept,
                       last={"type": "dark_power", "player": p, "reason": reason,
                             "gained": gained})
    if kind == "swap":
        return _swap(state, p, event)
    if kind == "roll":
        faces = tuple(event["faces"])
        return replace(state, action="roll", roll=(faces, event["device"]),
                       stats=_count(state, p, rolls=state.stats[p].rolls + 1),
                       last={"type": "roll", "player": p, "faces": list(faces),
                             "device": event["device"]})
    if kind == "column":
        return replace(state, action="column",
                       stats=_count(state, p, columns=state.stats[p].columns + 1),
                       last={"type": "column", "player": p})
    if kind == "helper":
        trick = event["trick"]
        gained = False
        if trick == "hand":
            state, gained = _gain(state, p, "helper")
        return replace(state, action="helper",
                       stats=_count(state, p, tricks=state.stats[p].tricks + 1),
                       last={"type": "helper", "player": p, "trick": trick, "gained": gained})
    return _end_turn(state, p)


def _count(state: State, player: int, **changes: Any) -> tuple[Stats, ...]:
    return with_item(state.stats, player, replace(state.stats[player], **changes))


def _gain(state: State, player: int, reason: str) -> tuple[State, bool]:
    """+1 Dark Power for ``reason``; at the cap more is ignored (and not counted)."""
    if state.dark[player] >= DARK_MAX:
        return state, False
    dark = list(state.stats[player].dark)
    dark[DARK_REASONS.index(reason)] += 1
    return replace(state, dark=with_item(state.dark, player, state.dark[player] + 1),
                   stats=_count(state, player, dark=tuple(dark))), True


def _known(state: State, creature: int) -> tuple[int, ...]:
    """The deck's known creatures once ``creature`` is on a portal (it is in the deck)."""
    return state.deck if creature in state.deck else (*state.deck, creature)


def _display(state: State, p: int, space: int, creature: int) -> State:
    portal = with_item(state.portals[p], space, creature)
    scored = []
    if creature == state.setup.portals[p]:
        scored.append("own")
    firsts = state.firsts
    if firsts[space] is None:
        scored.append("first")
        firsts = with_item(firsts, space, p)
    ender = state.ender
    if ender is None and full(portal):
        scored.append("complete")
        ender = p
    won = tuple(w + (s in scored) for w, s in zip(state.stats[p].won, SCORES, strict=True))
    return replace(state, portals=with_item(state.portals, p, portal), firsts=firsts, ender=ender,
                   points=with_item(state.points, p, state.points[p] + len(scored)),
                   displays=state.displays + 1, deck=_known(state, creature),
                   stats=_count(state, p, won=won),
                   last={"type": "display", "player": p, "space": space + 1,
                         "creature": creature, "scored": scored})


def _swap(state: State, p: int, event: Mapping[str, Any]) -> State:
    space = event["space"] - 1
    mine = state.portals[p][space]
    portals = list(state.portals)
    last: dict[str, Any] = {"type": "swap", "player": p, "space": space + 1, "gave": mine}
    gained = False
    if "player" in event:
        o = event["player"]
        theirs = state.portals[o][space]
        portals[p] = with_item(portals[p], space, theirs)
        portals[o] = with_item(portals[o], space, mine)
        state, gained = _gain(state, p, "helper")
        last.update(other=o, got=theirs)
    else:
        portals[p] = with_item(portals[p], space, event["creature"])
        last.update(other=None, got=event["creature"])
        state = replace(state, deck=_known(state, event["creature"]))
    last["gained"] = gained
    return replace(state, portals=tuple(portals), action="helper",
                   stats=_count(state, p, swaps=state.stats[p].swaps + 1), last=last)


def _end_turn(state: State, p: int) -> State:
    """The turn passes on, through forced passes, to the next player who can act.

    The game ends when, in the final round, the turn would come back to the
    first player, or when every player in a row had to pass with Dark Power
    kept (nobody can ever act again).
    """
    s = state.setup
    n = len(s.names)
    dark = list(state.dark)
    stats = list(state.stats)
    passes: list[Pass] = []
    rounds = state.round
    ended = None
    nxt = p
    while True:
        nxt = (nxt + 1) % n
        if nxt == s.first_player:
            if state.ender is not None:
                ended = "final_round"
                break
            rounds += 1
        if dark[nxt] < DARK_MAX:
            break
        passes.append(Pass(player=nxt, reset=s.reset))
        stats[nxt] = replace(stats[nxt], forced_passes=stats[nxt].forced_passes + 1)
        if s.reset:
            dark[nxt] = 0
        elif len(passes) >= n:
            ended = "stuck"
            break
    # The Magic Power the record allows the player is carried to their next turn.
    tokens = list(state.tokens)
    tokens[p] = state.magic_power(p)
    return replace(state, current=None if ended else nxt, round=rounds, dark=tuple(dark),
                   tokens=tuple(tokens),
                   ended=ended, action=None, displays=0, roll=None, no_runes=0, penalties=(),
                   passes=tuple(passes), stats=tuple(stats),
                   last={"type": "end_turn", "player": p,
                         "passes": [{"player": x.player, "reset": x.reset} for x in passes],
                         "ended": ended})
