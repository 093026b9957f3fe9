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
from companion.i18n import N_, Text, _
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
REASON_WORDS = {"no_return": _("no return"), "declined": _("declined"), "out": _("out"),
                "net": _("net"), "bad_serve": _("bad serve")}


def point_said(side: str, reason: str, number: int | None = None, *,
               pair: bool = False) -> Text:
    """Who won a point and why, as every output says it (the OLED, the phones' board in
    alakaslam.js, the chart): ``"Ann scores: no return"``, a ``pair`` taking the plural
    (``"Ann & Bea score: net"``); with its ``number``: ``"Ann scores point 3: net"``.
    The side named is the one that won it."""
    said = {"side": side, "reason": REASON_WORDS.get(reason, reason)}
    if number is None:
        return _("{side} score: {reason}", **said) if pair else _("{side} scores: {reason}",
                                                                  **said)
    return (_("{side} score point {number}: {reason}", number=number, **said) if pair else
            _("{side} scores point {number}: {reason}", number=number, **said))


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


def _point_refusal(state: State, winner: int, reason: str) -> Text:
    """Why the record contradicts a point for ``winner`` by ``reason``, and what it allows."""
    if state.due == "serve":
        said = {"receivers": side_name(state, 1 - state.serving_side),
                "side": side_name(state, winner)}
        return (_("a bad serve gives the point to the receivers, {receivers}; {side} serve "
                  "this point: give {side} the point for another reason (no return, "
                  "declined, out or net)", **said) if _pair(state, winner) else
                _("a bad serve gives the point to the receivers, {receivers}; {side} serves "
                  "this point: give {side} the point for another reason (no return, "
                  "declined, out or net)", **said))
    last = side_name(state, 1 - state.hitter)
    if winner == state.hitting_side and reason != "bad_serve":
        said = {"last": last, "reason": REASON_WORDS[reason], "side": side_name(state, winner)}
        return (_("{last} hit last and the ball landed in: a point ({reason}) goes to {last}, "
                  "not to {side}, who are to hit", **said) if _pair(state, winner) else
                _("{last} hit last and the ball landed in: a point ({reason}) goes to {last}, "
                  "not to {side}, who is to hit", **said))
    return _("the serve of this point was recorded and landed in: not a bad serve; give "
             "{side} the point for no return, declined, out or net", side=last)


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
        raise InvalidAction(_("missing field 'character': whom Simon copies, {choices}",
                              choices=_character_choices(in_play)))
    if s.characters[p] != "simon":
        raise IllegalAction(_("{name} plays {character}: only Simon copies a character",
                              name=_name(state, p), character=CHARACTERS[s.characters[p]]))
    why = _copy_refusal(state, p)
    if why is not None:
        raise IllegalAction(why)
    if character not in in_play:
        raise IllegalAction(_("Simon copies a character in play, and {character} is not: "
                              "'character' {choices}", character=CHARACTERS[character],
                              choices=_character_choices(in_play)))
    return {"type": "copy", "player": p, "character": character}


def _copy_refusal(state: State, p: int) -> Text | None:
    """Why Simon (``p``) may not copy now, or None: he copies before the serve, and not
    once he has used the copied ability this point (a new copy replaces an unused one)."""
    if state.due != "serve":
        copied = state.copies[p]
        if copied:
            return _("Simon copies before the serve; the rally is under way: {name} keeps "
                     "{character} until the point ends", name=_name(state, p),
                     character=CHARACTERS[copied])
        return _("Simon copies before the serve; the rally is under way: {name} copied "
                 "nobody this point and plays Simon until it ends", name=_name(state, p))
    if state.ability_used[p]:
        return _("{name} has used {character}'s ability this point: no new copy until the "
                 "next point", name=_name(state, p), character=CHARACTERS[acts_as(state, p)])
    return None


def _ability(state: State, action: Mapping[str, Any]) -> JSON:
    check_fields(action, ("player",))
    p = _player(state, action)
    who = acts_as(state, p)
    if who == SHOT_ABILITY:
        raise IllegalAction(_("{name}'s Laurie ability is part of a shot: send the serve or "
                              "shot with {field} (as the Support, {support})",
                              name=_name(state, p), field='"ability": true',
                              support='"support": {..., "ability": true}'))
    if not has_point_ability(state, p):
        raise IllegalAction(_("{name} ({character}) has no once-per-point ability to use here",
                              name=_name(state, p), character=CHARACTERS[who]))
    if state.ability_used[p]:
        raise IllegalAction(_("{name} has used the ability this point already; it is back "
                              "next point", name=_name(state, p)))
    wait = _ability_turn(state, p)
    if wait is not None:
        raise IllegalAction(wait)
    return {"type": "ability", "player": p}


def _ability_turn(state: State, p: int) -> Text | None:
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
        now = (_serves_now(state, state.serving_side) if state.due == "serve" else
               _("{side} are to hit now", side=side_name(state, side)) if _pair(state, side)
               else _("{side} is to hit now", side=side_name(state, side)))
        return _("{name} can use Josephias's ability (a card from the discard instead of the "
                 "draw) only in their side's draw phase, after their side's serve or shot is "
                 "recorded and until the other side's shot: {now}", name=_name(state, p),
                 now=now)
    if who != "toots" or state.due != "serve":
        return None
    serving = state.serving_side
    if side == serving:
        return None
    return _("{name} can use Toots's ability only on their own turn: {now}; it is {name}'s "
             "to use once the serve is recorded", name=_name(state, p),
             now=_serves_now(state, serving))


def _pair(state: State, side: int) -> bool:
    """Whether ``side`` is two players (its verbs take the plural: "Ann & Bea serve")."""
    return len(state.setup.side_players(side)) > 1


def _serves_now(state: State, side: int) -> Text:
    """``Ann & Bea serve now`` (a pair), ``Ann serves now`` (one player)."""
    name = side_name(state, side)
    return (_("{side} serve now", side=name) if _pair(state, side) else
            _("{side} serves now", side=name))


def _serve(state: State, action: Mapping[str, Any]) -> JSON:
    # "enchant" as in a shot: a serve may carry an Enchantment, and Laurie's ability.
    check_fields(action, ("player", "corner", "cards", "support", "enchant", "ability"))
    p = _player(state, action)
    corner = choice(action, "corner", CORNERS, None, "field")
    if corner is None:
        raise InvalidAction(_("missing field 'corner' ({choices})",
                              choices=_or(['"red"', '"blue"'])))
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
        raise InvalidAction(_("field '{key}' must be true or false", key=key))
    if not ability:
        return False
    acting = acts_as(state, who)
    if acting != SHOT_ABILITY:
        raise IllegalAction(_("{name} ({character}) has no shot ability; leave out "
                              "\"{key}\"", name=_name(state, who),
                              character=CHARACTERS[acting], key=key))
    if state.ability_used[who]:
        raise IllegalAction(_("{name} has used Laurie's ability this point already: play a "
                              "normal hit", name=_name(state, who)))
    return True


def _cards(value: object, who: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) and c in CARDS
                                              for c in value):
        raise InvalidAction(_("{name}'s 'cards' must be a list of card strings: {cards}",
                              name=who, cards=", ".join(CARDS)))
    return list(value)


def _hitters(state: State, action: Mapping[str, Any], p: int) -> JSON:
    """The checked cards of the player at the ball and of the Support, with bindings
    and Laurie's ability (``ability``, ``support.ability``: true when used)."""
    s = state.setup
    out: JSON = {}
    if "cards" not in action:
        raise InvalidAction(_("missing field 'cards': {name}'s cards, e.g. {example}",
                              name=_name(state, p), example='["R2", "B1"]'))
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
            raise IllegalAction(_("{name}'s side has two players: the Support plays too, "
                                  "as {example}", name=_name(state, p),
                                  example=f'"support": {{"player": {mate}, "cards": [...]}}'))
    else:
        if not isinstance(support, Mapping):
            raise InvalidAction(_("'support' must be an object: {example}",
                                  example='{"player": q, "cards": [...]}'))
        check_fields({"type": "support", **support}, ("player", "cards", "enchant", "ability"))
        q = _player(state, support, what=_("support field"))
        if mate is None:
            raise IllegalAction(_("{name} has no teammate: leave out 'support'",
                                  name=_name(state, p)))
        if q != mate:
            raise IllegalAction(_("the Support is {name}'s teammate {mate} (player {number})",
                                  name=_name(state, p), mate=_name(state, mate),
                                  number=mate))
        if "cards" not in support:
            raise InvalidAction(_("missing field 'support.cards': the Support's cards"))
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
        raise IllegalAction(_("{name} plays 1 to {most} cards in a shot; got {count}",
                              name=name, most=MAX_CARDS, count=len(cards)))
    held = held_at_most(state, who)
    if len(cards) > held:
        at_serve = hand_size(state, who)
        what = (N_("{n} card (the hand after mulligans)", "{n} cards (the hand after "
                   "mulligans)", held) if held == at_serve and state.mulligans[who] else
                N_("{n} card (the hand after the refill)", "{n} cards (the hand after the "
                   "refill)", held) if held == at_serve else
                N_("at most {n} card (the hand at the serve, {at_serve}, and what was drawn "
                   "since, less what was played)", "at most {n} cards (the hand at the "
                   "serve, {at_serve}, and what was drawn since, less what was played)",
                   held, at_serve=at_serve))
        counts = sorted({b.cards for b in state.bindings if b.player == who
                         and b.cards <= held} if not ability else ())
        play = (_("play exactly {counts}", counts=_or([str(c) for c in counts])) if counts
                else _("play 1 to {most}", most=min(held, MAX_CARDS)))
        raise IllegalAction(_("{name} holds {what}: {count} cannot be played; {play}",
                              name=name, what=what, count=len(cards), play=play))
    if ability and len(cards) != 1:
        raise IllegalAction(_("{name} uses Laurie's ability: play exactly 1 card", name=name))
    if STRAIGHT in cards and acts_as(state, who) != "austin":
        raise IllegalAction(_("only Austin plays a Hit-2 straight: {name} plays {straight} as "
                              "{red} or {blue}", name=name, straight='"S2"', red='"R2"',
                              blue='"B2"'))
    spells = [c for c in cards if c in ENCHANTS]
    if len(spells) > 1:
        raise IllegalAction(_("{name} plays at most one Enchantment in a shot; got {cards}",
                              name=name, cards=", ".join(spells)))
    if "E1" in spells and s.format == "doubles":
        raise IllegalAction(_("Enchant-1 cards are removed from the deck in doubles: play "
                              "another card"))
    if not ability:
        _obey(state, who, cards, spells)
    if not spells:
        if enchant is not None:
            raise InvalidAction(_("'{key}' names whom an Enchantment binds; {name} plays none",
                                  key=key, name=name))
        return None
    opponents = _opponents(state, who)
    free = [o for o in opponents if o != taken]
    if enchant is None:
        if len(free) > 1:
            raise InvalidAction(_("name the opponent {name}'s Enchantment binds: '{key}': "
                                  "{choices}", name=name, key=key,
                                  choices=_choices(state, free)))
        return free[0]
    if type(enchant) is not int or enchant not in opponents:
        raise InvalidAction(_("'{key}' must be an opposing player: {choices}", key=key,
                              choices=_choices(state, free)))
    if enchant == taken:
        raise IllegalAction(_("two teammates cannot enchant the same opponent: {name} is "
                              "enchanted already; '{key}': {choices}",
                              name=_name(state, enchant), key=key,
                              choices=_choices(state, free)))
    return enchant


def _or(items: Sequence[str]) -> str:
    """``a or b or c``, each ``or`` said in the reader's language."""
    if len(items) < 2:
        return items[0] if items else ""
    return _("{first} or {rest}", first=items[0], rest=_or(items[1:]))


def _and(items: Sequence[str]) -> str:
    """``a and b``, each ``and`` said in the reader's language."""
    if len(items) < 2:
        return items[0] if items else ""
    return _("{first} and {rest}", first=items[0], rest=_and(items[1:]))


def _choices(state: State, players: list[int]) -> str:
    """Players as the field takes them, each with the name a player reads:
    ``2 (Cid) or 3 (Dee)``."""
    return _or([f"{o} ({_name(state, o)})" for o in players])


def _character_choices(characters: Sequence[str]) -> str:
    """Characters as the field takes them, each with its name: ``"rich" (Rich) or
    "austin" (Austin)``."""
    return _or([f'"{c}" ({CHARACTERS[c]})' for c in characters])


def _stuck(state: State, who: int) -> Text | None:
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
    return N_("{name} is under {under} and holds at most {n} card: no shot can obey it; "
              "give {side} the point (no return)", "{name} is under {under} and holds at "
              "most {n} cards: no shot can obey it; give {side} the point (no return)", held,
              name=_name(state, who), under=_under(mine), side=side_name(state, other))


def _under(bindings: Sequence[Binding]) -> str:
    """The Enchantments on a player in words: ``Rich's Enchant-2 and Enchant-3``."""
    return _and([_("Rich's Enchant-{n}", n=b.cards) if b.no_enchant else
                 f"Enchant-{b.cards}" for b in bindings])  # i18n: not said (as printed)


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
    ways: str
    if any(counts.values()):
        # Each way out in full: "2 cards, no Enchantment, or 3 cards".
        ways = _either([N_("{n} card, no Enchantment", "{n} cards, no Enchantment", n)
                        if no_e else N_("{n} card", "{n} cards", n)
                        for n, no_e in counts.items()])
    else:
        ways = N_("{counts} card", "{counts} cards", max(counts),
                  counts=_or([str(n) for n in counts]))
    raise IllegalAction(_("{name} is under {under}: play exactly {ways}", name=name,
                          under=under, ways=ways))


def _either(ways: Sequence[str]) -> str:
    """Ways out each said in full, ``2 cards, no Enchantment, or 3 cards``."""
    if len(ways) < 2:
        return ways[0] if ways else ""
    return _("{first}, or {rest}", first=ways[0], rest=_either(ways[1:]))

