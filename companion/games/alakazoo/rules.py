# i18n: words not marked yet (issue #40)
"""What may happen now, and checking an action against the rules.

``resolve`` turns an action into the event to log: the same action with the
acting player (``by``) filled in, and a device roll's faces, so that the
event is itself a valid action and replaying an export gives the same match.
Scoring and Dark Power follow from the state in ``apply`` (events.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.errors import IllegalAction, InvalidAction
from companion.games.alakazoo.options import (
    CREATURES,
    DISPLAY_COST,
    HELPER_COST,
    MAX_DICE,
    MAX_MAGIC,
    SPACES,
)
from companion.games.alakazoo.state import (
    DARK_REASONS,
    TRICKS,
    State,
    full,
    winners,
)
from companion.games.base import JSON, action_type, check_fields, choice, integer

ACTIONS = ("display", "dark_power", "swap", "roll", "column", "helper", "end_turn")
#: What each turn's action reads as in a refusal.
DONE = {"roll": "rolled the Spell Dice", "column": "taken a column (or discarded)",
        "helper": "used the Magic Helper"}


def legal(state: State) -> list[JSON]:
    """The action shapes allowed now; empty once the game is over.

    Every value of every list field of a shape may be combined with every
    other: a display offers one shape per set of spaces that take the same
    creatures (each card exists once), and so does a swap for a hand card.
    """
    if state.current is None:
        return []
    p = state.mover
    mine = state.portals[p]
    shapes: list[JSON] = []
    if state.displays < state.max_displays:
        empty = [s for s, c in enumerate(mine) if c is None]
        shapes += _by_creatures("display", state, empty)
    reasons = list(DARK_REASONS)
    if no_runes_left(state) == 0:
        reasons.remove("no_rune")
    # The penalties the record leaves possible: more than 6 Magic Power after a roll
    # (or an action not recorded) that could pass 6; more than 4 cards not after a roll.
    if state.action not in (None, "roll") or state.tokens[p] + state.gain() <= MAX_MAGIC:
        reasons.remove("magic_power")
    if state.action == "roll":
        reasons.remove("hand")
    # The turn's action, where it leaves this turn's penalties possible.
    free = _action_done(state) is None
    dice = [n for n in range(1, MAX_DICE + 1) if free and _penalties_refusal(state, "roll", n)
            is None]
    if dice:
        shapes.append({"type": "roll", "dice": dice})
    if free and _penalties_refusal(state, "column") is None:
        shapes.append({"type": "column"})
    if free and _penalties_refusal(state, "helper") is None and _helper_refusal(state) is None:
        tricks = list(TRICKS)
        if state.others_complete():
            # The hand trick is against another player: none may be its target.
            tricks.remove("hand")
            reasons.remove("helper")
        shapes.append({"type": "helper", "trick": tricks})
        filled = [s + 1 for s, c in enumerate(mine) if c is not None]
        # One shape per player: the spaces where both portals show different creatures.
        for o in range(len(state.portals)):
            if o == p or _swap_refusal(state, o, None) is not None:
                continue
            pairs = [s for s in filled if state.portals[o][s - 1] not in (None, mine[s - 1])]
            if pairs:
                shapes.append({"type": "swap", "space": pairs, "player": [o]})
        shapes += _by_creatures("swap", state, [s - 1 for s in filled])
    else:
        reasons.remove("helper")
    # At 3 a penalty is still recorded (the token is not taken, RB): a no_rune still
    # lowers the Magic Power bound, a penalty still binds the turn's action, the
    # Helper's hand trick is still the action. None when the record leaves no penalty
    # possible (after a roll whose runes are all recorded).
    if reasons:
        shapes.append({"type": "dark_power", "reason": reasons})
    shapes.append({"type": "end_turn"})
    return shapes


def _by_creatures(kind: str, state: State, spaces: list[int]) -> list[JSON]:
    """Shapes of ``kind`` (a display, or a swap for a hand card) on ``spaces`` (0-8): for
    each space the creatures whose card may come onto it, spaces taking the same grouped."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for s in spaces:
        creatures = tuple(_in_hand(state, s))
        if creatures:
            groups.setdefault(creatures, []).append(s + 1)
    return [{"type": kind, "space": where, "creature": list(creatures)}
            for creatures, where in groups.items()]


def _in_hand(state: State, space: int) -> list[int]:
    """The creatures whose card for ``space`` (0-8) may be in a hand: of the deck, and on
    no portal (each card exists once)."""
    return [c for c in range(1, CREATURES + 1)
            if state.in_deck(c) and state.shown_on(space, c) is None]


def resolve(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    """The checked event for ``action``; InvalidAction or IllegalAction says what to do."""
    kind = action_type(action, ACTIONS)
    if state.current is None:
        raise IllegalAction(f"the game is over ({_result(state)}): only undo is possible now")
    fields = {"display": ("space", "creature"), "dark_power": ("reason",),
              "swap": ("space", "player", "creature"), "roll": ("dice", "faces", "device"),
              "column": (), "helper": ("trick",), "end_turn": ()}[kind]
    check_fields(action, (*fields, "by"))
    by = integer(action, "by", 0, len(state.setup.names) - 1, required=False)
    if by is not None and by != state.current:
        raise IllegalAction(f"it is {name(state, state.mover)}'s turn, not "
                            f"{name(state, by)}'s")
    event: JSON = {"type": kind, "by": state.current}
    if kind == "display":
        event.update(_display(state, action))
    elif kind == "dark_power":
        event.update(_dark_power(state, action))
    elif kind == "swap":
        event.update(_swap(state, action))
    elif kind == "roll":
        event.update(_roll(state, action, rng))
    elif kind == "column":
        _check_action_free(state, "column or discard")
        _check_penalties_allow(state, "column")
    elif kind == "helper":
        event.update(_helper(state, action))
    return event


def name(state: State, player: int) -> str:
    return state.setup.names[player]


def space_list(spaces: list[int]) -> str:
    return ", ".join(map(str, spaces)) or "none"


def _result(state: State) -> str:
    won = winners(state)
    names = " and ".join(name(state, p) for p in won)
    return f"{names} {'share the win' if len(won) > 1 else 'wins'}"


def _space(action: Mapping[str, Any]) -> int:
    return integer(action, "space", 1, SPACES)


def _creature(action: Mapping[str, Any]) -> int:
    return integer(action, "creature", 1, CREATURES)


def _display(state: State, action: Mapping[str, Any]) -> JSON:
    s, c = _space(action), _creature(action)
    p = state.mover
    mine = state.portals[p]
    shown = mine[s - 1]
    if shown is not None:
        empty = [i + 1 for i, x in enumerate(mine) if x is None]
        where = (f"empty spaces: {space_list(empty)}" if empty else
                 "the portal is full: nothing more to display; end the turn")
        raise IllegalAction(f"{name(state, p)}'s space {s} already shows "
                            f"{state.setup.creature(shown)}; {where}")
    refusal = no_display(state)
    if refusal is not None:
        raise IllegalAction(refusal)
    _check_card(state, s, c, "display")
    return {"space": s, "creature": c}


def no_display(state: State) -> str | None:
    """Why the current player can display no more this turn, and what they may do; None
    while a display is still paid for (or the game is over). The API's refusal of a
    display, and the words the panel and the host page show in its place (the view's
    ``no_display``)."""
    p = state.current
    most, n = state.max_displays, state.displays
    if p is None or n < most:
        return None
    helper, turn = ((", of which the Magic Helper spent 1 this turn", "this")
                    if state.action == "helper" else ("", "one"))
    cap = (MAX_MAGIC - (HELPER_COST if state.action == "helper" else 0)) // DISPLAY_COST
    if most >= cap:
        return (f"{name(state, p)} has displayed {n} element{'s' * (n > 1)} this turn: each "
                f"display spends 2 Magic Power and a player holds at most 6{helper}, so {most} "
                f"is the most in {turn} turn; end the turn")
    # Below the turn's most only after its action or a display: with neither, the
    # bound holds at least the 3 a roll not entered could give.
    held = state.magic_power()
    return (f"{name(state, p)} can hold at most {held} Magic Power token{'s' * (held != 1)} "
            f"now ({magic_power_text(state)}) and a display spends 2: no display now; "
            "end the turn")


def magic_power_text(state: State) -> str:
    """How the record bounds the current player's Magic Power, in words."""
    p = state.mover
    start = state.tokens[p]
    if state.action == "roll" and state.roll is not None:
        dice = len(state.roll[0])
        gain = f"a roll of {dice} {'die' if dice == 1 else 'dice'}"
        if state.no_runes:
            gain += f" less {state.no_runes} 'no_rune'"
    elif state.action is None:
        gain = "3 if the turn's action was a roll not entered"
    else:
        gain = f"nothing from the {'Magic Helper' if state.action == 'helper' else 'column'}"
    parts = [f"{start} kept from earlier turns", gain]
    if state.displays:
        parts.append(f"{state.displays * DISPLAY_COST} spent on displays")
    if state.action == "helper":
        parts.append("1 on the Helper")
    return ", ".join(parts)


def _check_card(state: State, space: int, creature: int, what: str) -> None:
    """Refuse bringing a card of ``creature`` for ``space`` (1-9) onto the current portal
    (``what``: display, swap in) when it cannot be in a hand: it lies on a portal (each
    card exists once), or its creature is out of the deck."""
    which = state.setup.creature(creature)
    who = name(state, state.mover)
    holder = state.shown_on(space - 1, creature)
    if holder is not None:
        free = ", ".join(map(state.setup.creature, _in_hand(state, space - 1)))
        raise IllegalAction(f"the {which} for space {space} is on {name(state, holder)}'s "
                            f"portal and each card exists once: {who} cannot {what} a second "
                            f"one; free for space {space}: {free or 'none'}")
    if not state.in_deck(creature):
        known = ", ".join(state.setup.creature(c) for c in sorted(state.deck))
        why = ("it was put back in the box" if state.setup.boxed is not None else
               f"a {len(state.setup.names)}-player deck holds {state.setup.deck_size} "
               "creatures")
        raise IllegalAction(f"no {which} card is in this game: {why}; the creatures in "
                            f"play: {known}")


def _dark_power(state: State, action: Mapping[str, Any]) -> JSON:
    reason = choice(action, "reason", DARK_REASONS, None, "field")
    if reason is None:
        raise InvalidAction(f"missing field 'reason' (one of: {', '.join(DARK_REASONS)})")
    if reason == "helper":
        _check_action_free(state, "Magic Helper trick")
        _check_helper_paid(state)
        _check_penalties_allow(state, "helper")
        _check_hand_trick(state)
    if reason == "no_rune":
        _check_no_rune(state)
    if reason == "magic_power":
        _check_too_much_magic(state)
    if reason == "hand" and state.action == "roll":
        raise IllegalAction(f"no 'hand' Dark Power now: {name(state, state.mover)}'s action "
                            "this turn is a Spell Dice roll, which brings no card into the "
                            "hand; more than 4 cards follows a column or the Magic Helper")
    return {"reason": reason}


def _check_too_much_magic(state: State) -> None:
    """More than 6 Magic Power only where the record leaves it possible: in a turn
    whose action is a roll (or not recorded) that could take the bound past 6."""
    p = state.mover
    who = name(state, p)
    if state.action not in (None, "roll"):
        doing = "the Magic Helper" if state.action == "helper" else "a column"
        raise IllegalAction(f"no 'magic_power' Dark Power now: {who}'s action this turn is "
                            f"{doing}, which brings no Magic Power; more than 6 tokens "
                            "follows a Spell Dice roll")
    could = state.tokens[p] + state.gain()
    if could <= MAX_MAGIC:
        raise IllegalAction(f"no 'magic_power' Dark Power now: {who} can hold at most {could} "
                            f"Magic Power tokens this turn ({state.tokens[p]} kept from earlier "
                            "turns, and what this turn's roll could give), never more than 6")


def _check_no_rune(state: State) -> None:
    """A ``no_rune`` penalty follows this turn's roll: one per die that showed a rune."""
    who = name(state, state.mover)
    if state.roll is None:
        raise IllegalAction(f"no 'no_rune' Dark Power now: {who} has not rolled the Spell "
                            "Dice this turn, and the penalty comes from a rolled rune; record "
                            "the roll first (the table's own dice as \"faces\")")
    runes = state.rune_dice()
    faces = " ".join(state.roll[0])
    magic = state.setup.faces[0]
    if runes == 0:
        raise IllegalAction(f"no 'no_rune' Dark Power: {who}'s roll ({faces}) showed only "
                            f"{magic}, the Magic Power symbol, and no rune; display or end "
                            "the turn")
    if state.no_runes >= runes:
        raise IllegalAction(f"no more 'no_rune' Dark Power: {who}'s roll ({faces}) showed "
                            f"{runes} rune{'s' if runes > 1 else ''} and {state.no_runes} "
                            f"{'has' if state.no_runes == 1 else 'have'} been recorded, one "
                            "per rune die at most; display or end the turn")
    if no_runes_left(state) == 0:
        p = state.mover
        most = state.tokens[p] + len(state.roll[0]) - (MAX_MAGIC + 1)
        raise IllegalAction(
            f"no more 'no_rune' Dark Power: {who} took a 'magic_power' Dark Power this turn, "
            f"so the roll took the Magic Power past 6: with {state.tokens[p]} tokens kept "
            f"from earlier turns and {len(state.roll[0])} dice, at most {max(0, most)} "
            f"{'die' if most == 1 else 'dice'} gave no token; undo the 'magic_power' "
            "penalty if it was wrong")


def _helper(state: State, action: Mapping[str, Any]) -> JSON:
    trick = choice(action, "trick", TRICKS, None, "field")
    if trick is None:
        raise InvalidAction("missing field 'trick': \"hand\" (a hand card swapped with "
                            "another player's hand, +1 Dark Power) or \"column\" (a hand "
                            "card discarded for one from a column)")
    _check_action_free(state, "Magic Helper trick")
    _check_helper_paid(state)
    _check_penalties_allow(state, "helper")
    if trick == "hand":
        _check_hand_trick(state)
    return {"trick": trick}


def _check_hand_trick(state: State) -> None:
    """The hand trick swaps a card with another player's hand: refused in the final round
    when every other portal is complete, as the Helper cannot be used against one. (With
    one incomplete the companion cannot know whose hand was taken from: the table keeps it.)"""
    if not state.others_complete():
        return
    p = state.mover
    others = [name(state, o) for o in range(len(state.portals)) if o != p]
    whose = (f"{others[0]}'s portal is" if len(others) == 1 else
             f"every other portal ({', '.join(others)}) is")
    raise IllegalAction(f"no Magic Helper hand trick now: {whose} complete, and in the final "
                        "round the Helper cannot be used against a player with all 9 "
                        f"elements; instead {name(state, p)} may use the Helper's column "
                        "trick (a hand card for one from a column) or swap an element of "
                        "the portal with a hand card")


def _action_done(state: State) -> str | None:
    """Why the turn's one action (roll, column or Magic Helper) is no longer possible."""
    who = name(state, state.mover)
    if state.action is not None:
        return (f"{who} has {DONE[state.action]} this turn: one action per turn (roll the "
                "Spell Dice, take a column or discard, or the Magic Helper); display or end "
                "the turn")
    if state.displayed:
        return (f"{who} has displayed this turn: the turn's action comes before displaying; "
                "undo the display to record it first, or end the turn")
    return None


def _check_action_free(state: State, what: str) -> None:
    why = _action_done(state)
    if why is not None:
        raise IllegalAction(f"no {what} now: {why}")


def _helper_refusal(state: State) -> str | None:
    """Why the Magic Helper cannot be paid for now, or None: it spends one Magic Power
    token the player owns (RB, action 3), and as the turn's action it rolls none, so
    the token must be one the record lets them keep from earlier turns."""
    p = state.mover
    if state.tokens[p] >= HELPER_COST:
        return None
    return (f"no Magic Helper now: it spends 1 Magic Power token, and {name(state, p)} can "
            "hold none now (none kept from earlier turns, as the table recorded them, and a "
            "turn whose action is the Helper rolls none); roll the Spell Dice, take a "
            "column, display or end the turn")


def _check_helper_paid(state: State) -> None:
    why = _helper_refusal(state)
    if why is not None:
        raise IllegalAction(why)


def _check_penalties_allow(state: State, action: str, dice: int = 0) -> None:
    why = _penalties_refusal(state, action, dice)
    if why is not None:
        raise IllegalAction(why)


def _penalties_refusal(state: State, action: str, dice: int = 0) -> str | None:
    """Why the turn's action (``action``: a roll of ``dice``, "column", "helper") would
    leave a penalty already recorded this turn impossible (RULINGS, third round: more
    than 4 cards follows a column or the Helper, more than 6 Magic Power a roll that
    could take the bound past 6), or None."""
    p = state.mover
    who = name(state, p)
    if "hand" in state.penalties and action == "roll":
        return (f"no Spell Dice roll now: {who} took a 'hand' Dark Power this turn, and more "
                "than 4 cards follows a column or the Magic Helper (a roll brings no card); "
                "record the column or the Helper, or undo the penalty")
    if "magic_power" not in state.penalties:
        return None
    if action != "roll":
        doing = "the Magic Helper" if action == "helper" else "a column"
        return (f"no {'Magic Helper' if action == 'helper' else 'column'} now: {who} took a "
                "'magic_power' Dark Power this turn, and more than 6 tokens follows a Spell "
                f"Dice roll ({doing} brings no Magic Power); record the roll, or undo the "
                "penalty")
    kept = state.tokens[p]
    if kept + dice > MAX_MAGIC:
        return None
    need = MAX_MAGIC + 1 - kept
    return (f"no roll of {dice} {'die' if dice == 1 else 'dice'} now: {who} took a "
            f"'magic_power' Dark Power this turn, and with {kept} tokens kept from earlier "
            f"turns only a roll of {need} dice or more takes the Magic Power past 6; roll "
            f"{need}{'' if need >= MAX_DICE else f' to {MAX_DICE}'} dice, or undo the penalty")


def no_runes_left(state: State) -> int:
    """The ``no_rune`` penalties this turn's roll still allows: one per rune die, and,
    after a 'magic_power' penalty, no more than leave its tokens past 6."""
    left = state.rune_dice() - state.no_runes
    if "magic_power" in state.penalties and state.roll is not None:
        p = state.mover
        left = min(left, state.tokens[p] + len(state.roll[0]) - (MAX_MAGIC + 1)
                   - state.no_runes)
    return max(0, left)


def _swap_refusal(state: State, other: int, space: int | None) -> str | None:
    """Why the Helper cannot exchange with ``other`` (on ``space``, if given), or None."""
    if other == state.current:
        return ("the Helper exchanges with another player's portal; for a card in hand "
                "send \"creature\" instead of \"player\"")
    if state.final_round and full(state.portals[other]):
        open_ = [name(state, o) for o, portal in enumerate(state.portals)
                 if o != state.current and not full(portal)]
        instead = (f"swap with a player whose portal is not complete ({', '.join(open_)}) "
                   "or " if open_ else "every other portal is complete: ")
        return (f"{name(state, other)}'s portal is complete: in the final round the Helper "
                f"cannot be used against it; {instead}swap with a hand card (send "
                "\"creature\" instead of \"player\")")
    if space is not None and state.portals[other][space - 1] is None:
        return f"{name(state, other)}'s space {space} is empty: nothing to exchange"
    return None


def _swap(state: State, action: Mapping[str, Any]) -> JSON:
    s = _space(action)
    has_player, has_creature = "player" in action, "creature" in action
    if has_player == has_creature:
        raise InvalidAction("a swap names either \"player\" (an element on their portal, "
                            "+1 Dark Power) or \"creature\" (a card from the hand)")
    # Malformed fields are refused first, whatever the state.
    o = integer(action, "player", 0, len(state.setup.names) - 1) if has_player else None
    c = None if has_player else _creature(action)
    p = state.mover
    mine = state.portals[p]
    _check_action_free(state, "Magic Helper swap")
    _check_helper_paid(state)
    _check_penalties_allow(state, "helper")
    if mine[s - 1] is None:
        filled = [i + 1 for i, x in enumerate(mine) if x is not None]
        raise IllegalAction(f"{name(state, p)}'s space {s} is empty: the Helper exchanges an "
                            "element on the portal; "
                            + (f"swap one of the filled spaces ({space_list(filled)}) instead"
                               if filled else f"{name(state, p)} has none yet: display first, "
                               "or use a Helper trick with a hand card"))
    shown = mine[s - 1]
    assert shown is not None   # refused just above when the space is empty
    own = state.setup.creature(shown)
    if o is not None:
        why = _swap_refusal(state, o, s)
        if why is not None:
            raise IllegalAction(why)
        if state.portals[o][s - 1] == mine[s - 1]:
            raise IllegalAction(f"both spaces {s} show {own}: the swap would change nothing")
        return {"space": s, "player": o}
    assert c is not None   # read above whenever "player" is not given
    if c == shown:
        raise IllegalAction(f"{name(state, p)}'s space {s} already shows {own}: the swap "
                            "needs a card of another creature")
    _check_card(state, s, c, "swap in")
    return {"space": s, "creature": c}


def _roll(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    faces = state.setup.faces
    if ("dice" in action) == ("faces" in action):
        raise InvalidAction(f"a roll gives either \"dice\" (1-{MAX_DICE}: the device rolls "
                            "that many) or \"faces\" (what the table's own dice show)")
    device = action.get("device", "faces" not in action)
    if type(device) is not bool:
        raise InvalidAction("field 'device' must be true or false")
    if "faces" in action:
        given = action["faces"]
        if not isinstance(given, list) or not 1 <= len(given) <= MAX_DICE:
            raise InvalidAction(f"field 'faces' must list 1 to {MAX_DICE} faces, one per die")
        for f in given:
            if f not in faces or not isinstance(f, str):
                raise InvalidAction(f"a Spell Die has no face {f!r}; its faces: "
                                    f"{', '.join(faces)}")
        _check_action_free(state, "Spell Dice roll")
        _check_penalties_allow(state, "roll", len(given))
        return {"faces": list(given), "device": device}
    if not device:
        raise InvalidAction("with \"dice\" the device rolls; a roll of the table's own dice "
                            "gives \"faces\" instead")
    n = integer(action, "dice", 1, MAX_DICE)
    _check_action_free(state, "Spell Dice roll")  # before rolling: a refusal rolls nothing
    _check_penalties_allow(state, "roll", n)
    return {"faces": [rng.choice(faces) for _ in range(n)], "device": True}
