# i18n: words not marked yet (issue #40)
"""What may happen now, and checking an action against the rules.

``resolve`` turns an action into the event to log: the same action with
every default filled in and each Enchantment's bound player named, so
``apply`` (events.py) needs no rule of its own beyond the court.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import IllegalAction, InvalidAction
from companion.games.alakaslam.court import CARDS, ENCHANTS, STRAIGHT
from companion.games.alakaslam.options import CHARACTERS
from companion.games.alakaslam.state import (
    REASONS,
    SHOT_ABILITY,
    Binding,
    State,
    acts_as,
    hand_size,
    has_point_ability,
    held_at_most,
)
from companion.games.base import JSON, action_type, check_fields, choice, integer
from companion.i18n import _
from companion.names import TEAM_JOIN

ACTIONS = ("serve", "shot", "point", "mulligan", "ability", "copy")
CORNERS = ("red", "blue")
MAX_CARDS = 3


def legal(state: State) -> list[JSON]:
    """The action shapes allowed now; empty once the match is won.

    Every shape offers only values the rules accept: a point's winner and
    reasons follow the record (:func:`point_reasons`), so before the serve
    there is one point shape per side; Simon's copy only while he may still
    copy (:func:`_copy_refusal`).
    """
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
        simons = [p for p in everyone if s.characters[p] == "simon"
                  and _copy_refusal(state, p) is None]
        if simons:
            shapes.append({"type": "copy", "player": simons,
                           "character": [c for c in s.characters if c != "simon"]})
    else:
        hitters = list(s.side_players(state.hitter))
        # A side whose player cannot obey an Enchantment with the cards it can hold
        # has no shot: the point is the other side's (no return).
        if not any(_stuck(state, p) for p in hitters):
            shapes.append({"type": "shot", "player": hitters})
    able = [p for p in everyone if has_point_ability(state, p) and not state.ability_used[p]
            and _ability_turn(state, p) is None]
    if able:
        shapes.append({"type": "ability", "player": able})
    for side in (0, 1):
        reasons = point_reasons(state, side)
        if reasons:
            shapes.append({"type": "point", "winner": [side], "reason": list(reasons)})
    return shapes


def point_reasons(state: State, winner: int) -> tuple[str, ...]:
    """The reasons a point may be given to side ``winner`` for now (RULINGS, second round).

    Before the serve nothing of the point is recorded: any side, any reason,
    except that a bad serve is always the receivers' point. Once the serve
    is recorded (the ball is in play), the record says who hit last and that
    every recorded hit landed in: the point is theirs, and never for a bad
    serve (the serve was judged in).
    """
    if state.due == "serve":
        if winner == state.serving_side:
            return tuple(r for r in REASONS if r != "bad_serve")
        return REASONS
    if winner == state.hitting_side:
        return ()
    return tuple(r for r in REASONS if r != "bad_serve")


def resolve(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    """The checked event for ``action``; InvalidAction or IllegalAction says what to do."""
    del rng  # nothing is rolled during play
    kind = action_type(action, ACTIONS)
    if state.winner is not None:
        raise IllegalAction(_("the match is won by {side}: only undo is possible now",
                              side=side_name(state, state.winner)))
    return {"serve": _serve, "shot": _shot, "point": _point, "mulligan": _mulligan,
            "ability": _ability, "copy": _copy}[kind](state, action)


def side_name(state: State, side: int) -> str:
    """The side's players' names joined as the history joins them, ``Ann & Bea``."""
    return TEAM_JOIN.join(state.setup.names[p] for p in state.setup.side_players(side))


#: How a point's reason reads, on every output.
REASON_WORDS = {"no_return": "no return", "declined": "declined", "out": "out",
                "net": "net", "bad_serve": "bad serve"}


def point_said(side: str, reason: str, number: int | None = None, *,
               pair: bool = False) -> str:
    """Who won a point and why, as every output says it (the OLED, the phones' board in
    alakaslam.js, the chart): ``"Ann scores: no return"``, a ``pair`` taking the plural
    (``"Ann & Bea score: net"``); with its ``number``: ``"Ann scores point 3: net"``.
    The side named is the one that won it."""
    point = "" if number is None else f" point {number}"
    return f"{side} score{'' if pair else 's'}{point}: {REASON_WORDS.get(reason, reason)}"


def _name(state: State, player: int) -> str:
    return state.setup.names[player]


def _player(state: State, action: Mapping[str, Any], key: str = "player",
            what: str = "field") -> int:
    return integer(action, key, 0, len(state.setup.names) - 1, what)


def _point(state: State, action: Mapping[str, Any]) -> JSON:
    check_fields(action, ("winner", "reason"))
    winner = integer(action, "winner", 0, 1)
    reason = choice(action, "reason", REASONS, "no_return", "field")
    if reason not in point_reasons(state, winner):
        raise IllegalAction(_point_refusal(state, winner, reason))
    return {"type": "point", "winner": winner, "reason": reason}


def _point_refusal(state: State, winner: int, reason: str) -> str:
    """Why the record contradicts a point for ``winner`` by ``reason``, and what it allows."""
    said = reason.replace("_", " ")
    if state.due == "serve":
        receivers = 1 - state.serving_side
        return (f"a bad serve gives the point to the receivers, "
                f"{side_name(state, receivers)}; {side_name(state, winner)} "
                f"{_serves(state, winner)} this point: give {side_name(state, winner)} the "
                "point for another reason (no return, declined, out or net)")
    last = 1 - state.hitter
    if winner == state.hitting_side and reason != "bad_serve":
        return (f"{side_name(state, last)} hit last and the ball landed in: a point "
                f"({said}) goes to {side_name(state, last)}, not to "
                f"{side_name(state, winner)}, who {_is_to(state, winner)} to hit")
    return (f"the serve of this point was recorded and landed in: not a bad serve; "
            f"give {side_name(state, last)} the point for no return, declined, out or net")


def _before_mulligan(state: State) -> None:
    if state.due != "serve":
        raise IllegalAction(_("a mulligan comes before the serve; the rally is under way "
                              "({side} to hit)", side=side_name(state, state.hitter)))


def _mulligan(state: State, action: Mapping[str, Any]) -> JSON:
    check_fields(action, ("player",))
    p = _player(state, action)
    _before_mulligan(state)
    if hand_size(state, p) <= 1:
        side = state.serving_side
        said = {"name": _name(state, p), "side": side_name(state, side)}
        raise IllegalAction(
            _("{name}'s hand is down to 1 card: no more mulligans; serve instead", **said)
            if state.setup.teams[p] == side else
            _("{name}'s hand is down to 1 card: no more mulligans; keep it and receive: "
              "{side} serve", **said) if _pair(state, side) else
            _("{name}'s hand is down to 1 card: no more mulligans; keep it and receive: "
              "{side} serves", **said))
    return {"type": "mulligan", "player": p}


def _copy(state: State, action: Mapping[str, Any]) -> JSON:
    check_fields(action, ("player", "character"))
    p = _player(state, action)
    s = state.setup
    in_play = [c for c in s.characters if c != "simon"]
    character = choice(action, "character", tuple(CHARACTERS), None, "field")
    if character is None:
        raise InvalidAction(f"missing field 'character': whom Simon copies, "
                            f"{_character_choices(in_play)}")
    if s.characters[p] != "simon":
        raise IllegalAction(f"{_name(state, p)} plays {CHARACTERS[s.characters[p]]}: only "
                            "Simon copies a character")
    why = _copy_refusal(state, p)
    if why is not None:
        raise IllegalAction(why)
    if character not in in_play:
        raise IllegalAction(f"Simon copies a character in play, and {CHARACTERS[character]} "
                            f"is not: 'character' {_character_choices(in_play)}")
    return {"type": "copy", "player": p, "character": character}


def _copy_refusal(state: State, p: int) -> str | None:
    """Why Simon (``p``) may not copy now, or None: he copies before the serve, and not
    once he has used the copied ability this point (a new copy replaces an unused one)."""
    if state.due != "serve":
        copied = state.copies[p]
        keeps = (f"{_name(state, p)} keeps {CHARACTERS[copied]} until the point ends"
                 if copied else f"{_name(state, p)} copied nobody this point and plays "
                 "Simon until it ends")
        return f"Simon copies before the serve; the rally is under way: {keeps}"
    if state.ability_used[p]:
        return (f"{_name(state, p)} has used {CHARACTERS[acts_as(state, p)]}'s ability this "
                f"point: no new copy until the next point")
    return None


def _ability(state: State, action: Mapping[str, Any]) -> JSON:
    check_fields(action, ("player",))
    p = _player(state, action)
    who = acts_as(state, p)
    if who == SHOT_ABILITY:
        raise IllegalAction(f"{_name(state, p)}'s Laurie ability is part of a shot: send "
                            "the serve or shot with \"ability\": true (as the Support, "
                            "\"support\": {..., \"ability\": true})")
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

    Toots's ability is used on her side's turn (RULINGS, second round): from
    the start of the point when her side serves, else from the serve; and it
    goes on after her side's shot (she moves and draws) until the other
    side's shot is recorded. The record holds shots, not moves and draws, so
    once the serve is recorded every moment of the rally is her side's turn
    or its end; before it, only the serving side's.

    Josephias's (taking from the discard instead of drawing) replaces his
    draw phase, which comes only at the end of his side's turn: after his
    side's recorded serve or shot that kept the point going, until the other
    side's shot is recorded. Before the serve, and while his own side is to
    hit, it cannot be his draw. As with Toots, a point scored with the
    buttons alone records no shot, so it offers no window: the point buttons
    still work, and the discard reminder needs no record.
    """
    who = acts_as(state, p)
    side = state.setup.teams[p]
    if who == "josephias":
        if state.due == "shot" and state.hitting_side != side:
            return None
        now = (f"{side_name(state, state.serving_side)} "
               f"{_serves(state, state.serving_side)} now"
               if state.due == "serve" else
               f"{side_name(state, side)} {_is_to(state, side)} to hit now")
        return (f"{_name(state, p)} can use Josephias's ability (a card from the discard "
                f"instead of the draw) only in their side's draw phase, after their side's "
                f"serve or shot is recorded and until the other side's shot: {now}")
    if who != "toots" or state.due != "serve":
        return None
    serving = state.serving_side
    if side == serving:
        return None
    return (f"{_name(state, p)} can use Toots's ability only on their own turn: "
            f"{side_name(state, serving)} {_serves(state, serving)} now; it is "
            f"{_name(state, p)}'s to use once the serve is recorded")


def _pair(state: State, side: int) -> bool:
    """Whether ``side`` is two players (its verbs take the plural: "Ann & Bea serve")."""
    return len(state.setup.side_players(side)) > 1


def _serves(state: State, side: int) -> str:
    """``serve`` for a pair, ``serves`` for one player."""
    return "serve" if len(state.setup.side_players(side)) > 1 else "serves"


def _is_to(state: State, side: int) -> str:
    """``are`` for a pair, ``is`` for one player."""
    return "are" if len(state.setup.side_players(side)) > 1 else "is"


def _serve(state: State, action: Mapping[str, Any]) -> JSON:
    # "enchant" as in a shot: a serve may carry an Enchantment, and Laurie's ability.
    check_fields(action, ("player", "corner", "cards", "support", "enchant", "ability"))
    p = _player(state, action)
    corner = choice(action, "corner", CORNERS, None, "field")
    if corner is None:
        raise InvalidAction('missing field \'corner\' ("red" or "blue")')
    if state.due != "serve":
        side = side_name(state, state.hitter)
        raise IllegalAction(
            _("no serve is due: {side} hit the ball in play (a shot)", side=side)
            if _pair(state, state.hitter) else
            _("no serve is due: {side} hits the ball in play (a shot)", side=side))
    if state.setup.teams[p] != state.serving_side:
        servers = state.setup.side_players(state.serving_side)
        if len(servers) > 1:
            said = {"side": side_name(state, state.serving_side),
                    "first": _name(state, servers[0]), "second": _name(state, servers[1])}
            raise IllegalAction(
                _("{side} serve this point (they lost the last one): the server is {first} "
                  "or {second}", **said) if state.last_point else
                _("{side} serve this point: the server is {first} or {second}", **said))
        raise IllegalAction(_("{name} serves this point, not {other}",
                              name=_name(state, servers[0]), other=_name(state, p)))
    event: JSON = {"type": "serve", "player": p, "corner": corner}
    event.update(_hitters(state, action, p))
    return event


def _shot(state: State, action: Mapping[str, Any]) -> JSON:
    check_fields(action, ("player", "cards", "support", "enchant", "ability"))
    p = _player(state, action)
    if state.due != "shot":
        side = side_name(state, state.serving_side)
        raise IllegalAction(_("a serve is due: {side} serve", side=side)
                            if _pair(state, state.serving_side) else
                            _("a serve is due: {side} serves", side=side))
    if state.setup.teams[p] != state.hitting_side:
        hitters = state.setup.side_players(state.hitter)
        raise IllegalAction(
            _("{side} hit now: the player at the ball is {first} or {second}",
              side=side_name(state, state.hitter), first=_name(state, hitters[0]),
              second=_name(state, hitters[-1]))
            if len(hitters) > 1 else
            _("{name} hits now, not {other}", name=_name(state, hitters[0]),
              other=_name(state, p)))
    event: JSON = {"type": "shot", "player": p, "ability": False}
    event.update(_hitters(state, action, p))
    return event


def _laurie(state: State, who: int, part: Mapping[str, Any], key: str) -> bool:
    """Whether ``who`` uses Laurie's ability in this hit (``part[key]``), checked.

    Laurie (or Simon copying her) may use it on any hit of hers, once per
    point: the serve, a shot at the ball, or her cards as the Support.
    """
    ability = part.get("ability", False)
    if type(ability) is not bool:
        raise InvalidAction(f"field '{key}' must be true or false")
    if not ability:
        return False
    acting = acts_as(state, who)
    if acting != SHOT_ABILITY:
        raise IllegalAction(f"{_name(state, who)} ({CHARACTERS[acting]}) has no shot ability; "
                            f"leave out \"{key}\"")
    if state.ability_used[who]:
        raise IllegalAction(f"{_name(state, who)} has used Laurie's ability this point "
                            "already: play a normal hit")
    return True


def _cards(value: object, who: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) and c in CARDS
                                              for c in value):
        raise InvalidAction(f"{who}'s 'cards' must be a list of card strings: "
                            f"{', '.join(CARDS)}")
    return list(value)


def _hitters(state: State, action: Mapping[str, Any], p: int) -> JSON:
    """The checked cards of the player at the ball and of the Support, with bindings
    and Laurie's ability (``ability``, ``support.ability``: true when used)."""
    s = state.setup
    out: JSON = {}
    if "cards" not in action:
        raise InvalidAction(f"missing field 'cards': {_name(state, p)}'s cards, e.g. "
                            "[\"R2\", \"B1\"]")
    cards = _cards(action["cards"], _name(state, p))
    out["cards"] = cards
    mate = s.teammate(p)
    support = action.get("support")
    if (action.get("ability") is True and acts_as(state, p) != SHOT_ABILITY
            and mate is not None and acts_as(state, mate) == SHOT_ABILITY
            and isinstance(support, Mapping) and support.get("player") == mate
            and "ability" not in support):
        # "ability": true on a hit is Laurie's, also when she plays it as the Support.
        action = {k: v for k, v in action.items() if k != "ability"}
        support = {**support, "ability": True}
    hitters = [(p, cards, action.get("enchant"), "enchant",
                _laurie(state, p, action, "ability"))]
    if support is None:
        if mate is not None:
            raise IllegalAction(f"{_name(state, p)}'s side has two players: the Support "
                                f"plays too, as \"support\": {{\"player\": {mate}, "
                                "\"cards\": [...]}")
    else:
        if not isinstance(support, Mapping):
            raise InvalidAction("'support' must be an object: {\"player\": q, \"cards\": [...]}")
        check_fields({"type": "support", **support}, ("player", "cards", "enchant", "ability"))
        q = _player(state, support, what="support field")
        if mate is None:
            raise IllegalAction(f"{_name(state, p)} has no teammate: leave out 'support'")
        if q != mate:
            raise IllegalAction(f"the Support is {_name(state, p)}'s teammate "
                                f"{_name(state, mate)} (player {mate})")
        if "cards" not in support:
            raise InvalidAction("missing field 'support.cards': the Support's cards")
        scards = _cards(support["cards"], _name(state, q))
        hitters.append((q, scards, support.get("enchant"), "support.enchant",
                        _laurie(state, q, support, "support.ability")))
        out["support"] = {"player": q, "cards": scards}
    # In doubles two teammates cannot enchant the same opponent: whom one binds is not
    # the other's to bind. The Support's choice, when named, leaves the player at the
    # ball one opponent; the player at the ball's leaves the Support one.
    named = (hitters[1][2] if len(hitters) > 1 and hitters[0][2] is None
             and any(c in ENCHANTS for c in hitters[1][1]) else None)
    taken = named if s.format == "doubles" and named in _opponents(state, p) else None
    for i, (who, hand, enchant, key, ability) in enumerate(hitters):
        target = _check_hand(state, who, hand, enchant, key, ability=ability, taken=taken)
        part = out if i == 0 else out["support"]
        if target is not None:
            if s.format == "doubles":
                taken = target
            part["enchant"] = target
        elif i == 0:
            taken = None
        if ability:
            part["ability"] = True
    return out


def _opponents(state: State, who: int) -> tuple[int, ...]:
    s = state.setup
    return s.side_players(1 - s.teams[who])


def _check_hand(state: State, who: int, cards: list[str], enchant: object, key: str,
                *, ability: bool, taken: int | None = None) -> int | None:
    """Check one player's cards in a shot; the opponent their Enchantment binds.

    ``taken`` is the opponent a teammate's Enchantment binds in this hit (doubles):
    not this one's to bind, so when it leaves one opponent, that one is meant.
    """
    s = state.setup
    name = _name(state, who)
    stuck = None if ability else _stuck(state, who)
    if stuck:
        raise IllegalAction(stuck)
    if not 1 <= len(cards) <= MAX_CARDS:
        raise IllegalAction(f"{name} plays 1 to {MAX_CARDS} cards in a shot; got {len(cards)}")
    held = held_at_most(state, who)
    if len(cards) > held:
        at_serve = hand_size(state, who)
        cards_word = f"card{'s' * (held != 1)}"
        what = (f"{held} {cards_word} (the hand after "
                f"{'mulligans' if state.mulligans[who] else 'the refill'})" if held == at_serve
                else f"at most {held} {cards_word} (the hand at the serve, {at_serve}, and "
                     f"what was drawn since, less what was played)")
        counts = sorted({b.cards for b in state.bindings if b.player == who
                         and b.cards <= held} if not ability else ())
        play = (f"play exactly {' or '.join(map(str, counts))}" if counts else
                f"play 1 to {min(held, MAX_CARDS)}")
        raise IllegalAction(f"{name} holds {what}: {len(cards)} cannot be played; {play}")
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
    opponents = _opponents(state, who)
    free = [o for o in opponents if o != taken]
    if enchant is None:
        if len(free) > 1:
            raise InvalidAction(f"name the opponent {name}'s Enchantment binds: '{key}': "
                                f"{_choices(state, free)}")
        return free[0]
    if type(enchant) is not int or enchant not in opponents:
        raise InvalidAction(f"'{key}' must be an opposing player: "
                            f"{_choices(state, free)}")
    if enchant == taken:
        raise IllegalAction(f"two teammates cannot enchant the same opponent: "
                            f"{_name(state, enchant)} is enchanted already; '{key}': "
                            f"{_choices(state, free)}")
    return enchant


def _choices(state: State, players: list[int]) -> str:
    """Players as the field takes them, each with the name a player reads:
    ``2 (Cid) or 3 (Dee)``."""
    return " or ".join(f"{o} ({_name(state, o)})" for o in players)


def _character_choices(characters: Sequence[str]) -> str:
    """Characters as the field takes them, each with its name: ``"rich" (Rich) or
    "austin" (Austin)``."""
    return " or ".join(f'"{c}" ({CHARACTERS[c]})' for c in characters)


def _stuck(state: State, who: int) -> str | None:
    """Why no shot of ``who``'s can obey the Enchantments binding them, or None: each asks
    for more cards than the record lets them hold (:func:`held_at_most`), so the point is
    the other side's. Laurie's ability, unused, plays 1 card whatever binds her."""
    mine = [b for b in state.bindings if b.player == who]
    if not mine or (acts_as(state, who) == SHOT_ABILITY and not state.ability_used[who]):
        return None
    held = min(held_at_most(state, who), MAX_CARDS)
    if any(b.cards <= held for b in mine):
        return None
    other = 1 - state.setup.teams[who]
    return (f"{_name(state, who)} is under {_under(mine)} and holds at most {held} "
            f"card{'s' * (held != 1)}: no shot can obey it; give {side_name(state, other)} "
            "the point (no return)")


def _under(bindings: Sequence[Binding]) -> str:
    """The Enchantments on a player in words: ``Rich's Enchant-2 and Enchant-3``."""
    return " and ".join(("Rich's " if b.no_enchant else "") + f"Enchant-{b.cards}"
                        for b in bindings)


def _obey(state: State, who: int, cards: list[str], spells: list[str]) -> None:
    """Refuse cards that break every Enchantment on ``who`` (any one may be obeyed)."""
    mine = [b for b in state.bindings if b.player == who]
    if not mine:
        return
    if any(len(cards) == b.cards and not (b.no_enchant and spells) for b in mine):
        return
    name = _name(state, who)
    under = _under(mine)
    # Each count that satisfies, once; Rich's "no Enchantment" only where every
    # binding with that count is his (another's same count allows one).
    counts: dict[int, bool] = {}
    for b in mine:
        counts[b.cards] = counts.get(b.cards, True) and b.no_enchant
    if any(counts.values()):
        # Each way out in full: "2 cards, no Enchantment, or 3 cards".
        ways_text = ", or ".join(f"{n} card{'s' * (n != 1)}"
                                 + (", no Enchantment" if no_e else "")
                                 for n, no_e in counts.items())
    else:
        ways_text = " or ".join(map(str, counts)) + (" card" if list(counts) == [1] else
                                                     " cards")
    raise IllegalAction(f"{name} is under {under}: play exactly {ways_text}")

