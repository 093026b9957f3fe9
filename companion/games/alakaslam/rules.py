"""What may happen now, and checking an action against the rules.

``resolve`` turns an action into the event to log: the same action with
every default filled in and each Enchantment's bound player named, so
``apply`` (events.py) needs no rule of its own beyond the court.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.errors import IllegalAction, InvalidAction
from companion.games.alakaslam.court import CARDS, ENCHANTS, STRAIGHT
from companion.games.alakaslam.options import CHARACTERS
from companion.games.alakaslam.state import (
    REASONS,
    SHOT_ABILITY,
    State,
    acts_as,
    hand_size,
    has_point_ability,
)
from companion.games.base import JSON, action_type, check_fields, choice, integer

ACTIONS = ("serve", "shot", "point", "mulligan", "ability", "copy")
CORNERS = ("red", "blue")
MAX_CARDS = 3


def legal(state: State) -> list[JSON]:
    """The action shapes allowed now; empty once the match is won."""
    if state.winner is not None:
        return []
    s = state.setup
    everyone = list(range(len(s.names)))
    shapes: list[JSON] = []
    if state.due == "serve":
        shapes.append({"type": "serve", "player": list(s.side_players(state.serving_side)),
                       "corner": list(CORNERS)})
        can = [p for p in everyone if hand_size(state, p) > 1]
        if can:
            shapes.append({"type": "mulligan", "player": can})
        simons = [p for p in everyone if s.characters[p] == "simon"]
        if simons:
            shapes.append({"type": "copy", "player": simons,
                           "character": [c for c in s.characters if c != "simon"]})
    else:
        shapes.append({"type": "shot", "player": list(s.side_players(state.hitting_side))})
    able = [p for p in everyone if has_point_ability(state, p) and not state.ability_used[p]
            and _ability_turn(state, p) is None]
    if able:
        shapes.append({"type": "ability", "player": able})
    shapes.append({"type": "point", "winner": [0, 1], "reason": list(REASONS)})
    return shapes


def resolve(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    """The checked event for ``action``; InvalidAction or IllegalAction says what to do."""
    del rng  # nothing is rolled during play
    kind = action_type(action, ACTIONS)
    if state.winner is not None:
        raise IllegalAction(f"the match is won by {side_name(state, state.winner)}: "
                            "only undo is possible now")
    return {"serve": _serve, "shot": _shot, "point": _point, "mulligan": _mulligan,
            "ability": _ability, "copy": _copy}[kind](state, action)


def side_name(state: State, side: int) -> str:
    """The side's players' names joined, e.g. ``Ann/Bea``."""
    return "/".join(state.setup.names[p] for p in state.setup.side_players(side))


def _name(state: State, player: int) -> str:
    return state.setup.names[player]


def _player(state: State, action: Mapping[str, Any], key: str = "player",
            what: str = "field") -> int:
    return integer(action, key, 0, len(state.setup.names) - 1, what)


def _point(state: State, action: Mapping[str, Any]) -> JSON:
    check_fields(action, ("winner", "reason"))
    winner = integer(action, "winner", 0, 1)
    reason = choice(action, "reason", REASONS, "no_return", "field")
    return {"type": "point", "winner": winner, "reason": reason}


def _before_serve(state: State, what: str) -> None:
    if state.due != "serve":
        raise IllegalAction(f"{what} comes before the serve; the rally is under way "
                            f"({side_name(state, state.hitting_side)} to hit)")


def _mulligan(state: State, action: Mapping[str, Any]) -> JSON:
    check_fields(action, ("player",))
    p = _player(state, action)
    _before_serve(state, "a mulligan")
    if hand_size(state, p) <= 1:
        raise IllegalAction(f"{_name(state, p)}'s hand is down to 1 card: no more "
                            "mulligans; serve instead")
    return {"type": "mulligan", "player": p}


def _copy(state: State, action: Mapping[str, Any]) -> JSON:
    check_fields(action, ("player", "character"))
    p = _player(state, action)
    character = choice(action, "character", tuple(CHARACTERS), None, "field")
    if character is None:
        raise InvalidAction(f"missing field 'character' (one of: {', '.join(CHARACTERS)})")
    s = state.setup
    if s.characters[p] != "simon":
        raise IllegalAction(f"{_name(state, p)} plays {CHARACTERS[s.characters[p]]}: only "
                            "Simon copies a character")
    _before_serve(state, "Simon's copy")
    in_play = [c for c in s.characters if c != "simon"]
    if character not in in_play:
        raise IllegalAction(f"Simon copies a character in play: one of "
                            f"{', '.join(in_play)}")
    return {"type": "copy", "player": p, "character": character}


def _ability(state: State, action: Mapping[str, Any]) -> JSON:
    check_fields(action, ("player",))
    p = _player(state, action)
    who = acts_as(state, p)
    if who == SHOT_ABILITY:
        raise IllegalAction(f"{_name(state, p)}'s Laurie ability is part of a shot: send "
                            "the shot with \"ability\": true")
    if not has_point_ability(state, p):
        raise IllegalAction(f"{_name(state, p)} ({CHARACTERS[who]}) has no once-per-point "
                            "ability to use here")
    if state.ability_used[p]:
        raise IllegalAction(f"{_name(state, p)} has used the ability this point already; "
                            "it is back next point")
    wait = _ability_turn(state, p)
    if wait is not None:
        raise IllegalAction(wait)
    return {"type": "ability", "player": p}


def _ability_turn(state: State, p: int) -> str | None:
    """Why ``p`` cannot use the ability now, or None.

    Toots's ability is used on her own turn: while her side serves or hits.
    Josephias's (taking from the discard) belongs to his draw, after his
    side's shot, so it has no turn to wait for.
    """
    if acts_as(state, p) != "toots":
        return None
    side = state.serving_side if state.due == "serve" else state.hitting_side
    if state.setup.teams[p] == side:
        return None
    doing = "serve" if state.due == "serve" else "hit"
    if len(state.setup.side_players(side)) == 1:
        doing += "s"
    return (f"{_name(state, p)} can use Toots's ability only on their own turn: "
            f"{side_name(state, side)} {doing} now")


def _serve(state: State, action: Mapping[str, Any]) -> JSON:
    # "enchant" as in a shot: a serve may carry an Enchantment too.
    check_fields(action, ("player", "corner", "cards", "support", "enchant"))
    p = _player(state, action)
    corner = choice(action, "corner", CORNERS, None, "field")
    if corner is None:
        raise InvalidAction('missing field \'corner\' ("red" or "blue")')
    if state.due != "serve":
        raise IllegalAction(f"no serve is due: {side_name(state, state.hitting_side)} "
                            "hits the ball in play (a shot)")
    if state.setup.teams[p] != state.serving_side:
        servers = state.setup.side_players(state.serving_side)
        who = " or ".join(state.setup.names[q] for q in servers)
        why = " (they lost the last one)" if state.last_point else ""
        raise IllegalAction(f"{side_name(state, state.serving_side)} serve this point{why}: "
                            f"the server is {who}"
                            if len(servers) > 1 else
                            f"{who} serves this point, not {state.setup.names[p]}")
    event: JSON = {"type": "serve", "player": p, "corner": corner}
    event.update(_hitters(state, action, p, ability=False))
    return event


def _shot(state: State, action: Mapping[str, Any]) -> JSON:
    check_fields(action, ("player", "cards", "support", "enchant", "ability"))
    p = _player(state, action)
    ability = action.get("ability", False)
    if type(ability) is not bool:
        raise InvalidAction("field 'ability' must be true or false")
    if state.due != "shot":
        raise IllegalAction(f"a serve is due: {side_name(state, state.serving_side)} serves")
    if state.setup.teams[p] != state.hitting_side:
        hitters = state.setup.side_players(state.hitting_side)
        raise IllegalAction(f"{side_name(state, state.hitting_side)} hit now: the player "
                            f"at the ball is {' or '.join(_name(state, q) for q in hitters)}"
                            if len(hitters) > 1 else
                            f"{_name(state, hitters[0])} hits now, not {_name(state, p)}")
    if ability:
        who = acts_as(state, p)
        if who != SHOT_ABILITY:
            raise IllegalAction(f"{_name(state, p)} ({CHARACTERS[who]}) has no shot ability; "
                                "leave out \"ability\"")
        if state.ability_used[p]:
            raise IllegalAction(f"{_name(state, p)} has used Laurie's ability this point "
                                "already: play a normal shot")
    event: JSON = {"type": "shot", "player": p}
    event.update(_hitters(state, action, p, ability=ability))
    event["ability"] = ability
    return event


def _cards(value: object, who: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) and c in CARDS
                                              for c in value):
        raise InvalidAction(f"{who}'s 'cards' must be a list of card strings: "
                            f"{', '.join(CARDS)}")
    return list(value)


def _hitters(state: State, action: Mapping[str, Any], p: int, *, ability: bool) -> JSON:
    """The checked cards of the player at the ball and of the Support, with bindings."""
    s = state.setup
    out: JSON = {}
    if "cards" not in action:
        raise InvalidAction(f"missing field 'cards': {_name(state, p)}'s cards, e.g. "
                            "[\"R2\", \"B1\"]")
    cards = _cards(action["cards"], _name(state, p))
    out["cards"] = cards
    mate = s.teammate(p)
    support = action.get("support")
    hitters = [(p, cards, action.get("enchant"), "enchant")]
    if support is None:
        if mate is not None:
            raise IllegalAction(f"{_name(state, p)}'s side has two players: the Support "
                                f"plays too, as \"support\": {{\"player\": {mate}, "
                                "\"cards\": [...]}")
    else:
        if not isinstance(support, Mapping):
            raise InvalidAction("'support' must be an object: {\"player\": q, \"cards\": [...]}")
        check_fields({"type": "support", **support}, ("player", "cards", "enchant"))
        q = _player(state, support, what="support field")
        if mate is None:
            raise IllegalAction(f"{_name(state, p)} has no teammate: leave out 'support'")
        if q != mate:
            raise IllegalAction(f"the Support is {_name(state, p)}'s teammate "
                                f"{_name(state, mate)} (player {mate})")
        if "cards" not in support:
            raise InvalidAction("missing field 'support.cards': the Support's cards")
        scards = _cards(support["cards"], _name(state, q))
        hitters.append((q, scards, support.get("enchant"), "support.enchant"))
        out["support"] = {"player": q, "cards": scards}
    bound: list[int] = []
    for i, (who, hand, enchant, key) in enumerate(hitters):
        target = _check_hand(state, who, hand, enchant, key,
                             ability=ability and i == 0)
        if target is not None:
            if target in bound and s.format == "doubles":
                raise IllegalAction(f"two teammates cannot enchant the same opponent: "
                                    f"{_name(state, target)} is enchanted already; "
                                    "name the other opponent")
            bound.append(target)
            (out if i == 0 else out["support"])["enchant"] = target
    return out


def _check_hand(state: State, who: int, cards: list[str], enchant: object, key: str,
                *, ability: bool) -> int | None:
    """Check one player's cards in a shot; the opponent their Enchantment binds."""
    s = state.setup
    name = _name(state, who)
    if not 1 <= len(cards) <= MAX_CARDS:
        raise IllegalAction(f"{name} plays 1 to {MAX_CARDS} cards in a shot; got {len(cards)}")
    if ability and len(cards) != 1:
        raise IllegalAction(f"{name} uses Laurie's ability: play exactly 1 card")
    if STRAIGHT in cards and acts_as(state, who) != "austin":
        raise IllegalAction(f"only Austin plays a Hit-2 straight: {name} plays \"S2\" as "
                            "\"R2\" or \"B2\"")
    spells = [c for c in cards if c in ENCHANTS]
    if len(spells) > 1:
        raise IllegalAction(f"{name} plays at most one Enchantment in a shot; got "
                            f"{', '.join(spells)}")
    if "E1" in spells and s.format == "doubles":
        raise IllegalAction("Enchant-1 cards are removed from the deck in doubles: "
                            "play another card")
    if not ability:
        _obey(state, who, cards, spells)
    if not spells:
        if enchant is not None:
            raise InvalidAction(f"'{key}' names whom an Enchantment binds; {name} plays none")
        return None
    opponents = s.side_players(1 - s.teams[who])
    if enchant is None:
        if len(opponents) > 1:
            raise InvalidAction(f"name the opponent {name}'s Enchantment binds: '{key}': "
                                f"{' or '.join(str(o) for o in opponents)}")
        return opponents[0]
    if type(enchant) is not int or enchant not in opponents:
        raise InvalidAction(f"'{key}' must be an opposing player: "
                            f"{' or '.join(str(o) for o in opponents)}")
    return enchant


def _obey(state: State, who: int, cards: list[str], spells: list[str]) -> None:
    """Refuse cards that break every Enchantment on ``who`` (any one may be obeyed)."""
    mine = [b for b in state.bindings if b.player == who]
    if not mine:
        return
    if any(len(cards) == b.cards and not (b.no_enchant and spells) for b in mine):
        return
    name = _name(state, who)
    under = " and ".join(("Rich's " if b.no_enchant else "") + f"Enchant-{b.cards}"
                         for b in mine)
    if any(b.no_enchant for b in mine):
        # Each way out in full: "2 cards, no Enchantment, or 3 cards".
        ways = ", or ".join(f"{b.cards} cards" + (", no Enchantment" if b.no_enchant else "")
                            for b in mine)
    else:
        ways = " or ".join(str(b.cards) for b in mine) + " cards"
    raise IllegalAction(f"{name} is under {under}: play exactly {ways}")

