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
from companion.i18n import N_, Text, _

ACTIONS = ("display", "dark_power", "swap", "roll", "column", "helper", "end_turn")
#: What a refusal names when the turn's action (or a penalty) rules one out.
WHAT = {"column": _("no column or discard now"), "helper": _("no Magic Helper trick now"),
        "swap": _("no Magic Helper swap now"), "roll": _("no Spell Dice roll now")}


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
        raise IllegalAction(_("the game is over ({result}): only undo is possible now",
                              result=_result(state)))
    fields = {"display": ("space", "creature"), "dark_power": ("reason",),
              "swap": ("space", "player", "creature"), "roll": ("dice", "faces", "device"),
              "column": (), "helper": ("trick",), "end_turn": ()}[kind]
    check_fields(action, (*fields, "by"))
    by = integer(action, "by", 0, len(state.setup.names) - 1, required=False)
    if by is not None and by != state.current:
        raise IllegalAction(_("it is {name}'s turn, not {other}'s",
                              name=name(state, state.mover), other=name(state, by)))
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
        _check_action_free(state, "column")
        _check_penalties_allow(state, "column")
    elif kind == "helper":
        event.update(_helper(state, action))
    return event


def name(state: State, player: int) -> str:
    return state.setup.names[player]


def space_list(spaces: list[int]) -> str:
    return ", ".join(map(str, spaces)) or _("none")


def _result(state: State) -> Text:
    won = [name(state, p) for p in winners(state)]
    if len(won) == 1:
        return _("{name} wins", name=won[0])
    return _("{names} and {name} share the win", names=", ".join(won[:-1]), name=won[-1])


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
        where = (_("empty spaces: {spaces}", spaces=space_list(empty)) if empty else
                 _("the portal is full: nothing more to display; end the turn"))
        raise IllegalAction(_("{name}'s space {space} already shows {creature}; {where}",
                              name=name(state, p), space=s,
                              creature=state.setup.creature(shown), where=where))
    refusal = no_display(state)
    if refusal is not None:
        raise IllegalAction(refusal)
    _check_card(state, s, c, "display")
    return {"space": s, "creature": c}


def no_display(state: State) -> Text | None:
    """Why the current player can display no more this turn, and what they may do; None
    while a display is still paid for (or the game is over). The API's refusal of a
    display, and the words the panel and the host page show in its place (the view's
    ``no_display``)."""
    p = state.current
    most, n = state.max_displays, state.displays
    if p is None or n < most:
        return None
    cap = (MAX_MAGIC - (HELPER_COST if state.action == "helper" else 0)) // DISPLAY_COST
    if most >= cap:
        if state.action == "helper":
            return N_("{name} has displayed {n} element this turn: each display spends 2 "
                      "Magic Power and a player holds at most 6, of which the Magic Helper "
                      "spent 1 this turn, so {most} is the most in this turn; end the turn",
                      "{name} has displayed {n} elements this turn: each display spends 2 "
                      "Magic Power and a player holds at most 6, of which the Magic Helper "
                      "spent 1 this turn, so {most} is the most in this turn; end the turn",
                      n, name=name(state, p), most=most)
        return N_("{name} has displayed {n} element this turn: each display spends 2 Magic "
                  "Power and a player holds at most 6, so {most} is the most in one turn; "
                  "end the turn",
                  "{name} has displayed {n} elements this turn: each display spends 2 Magic "
                  "Power and a player holds at most 6, so {most} is the most in one turn; "
                  "end the turn", n, name=name(state, p), most=most)
    # Below the turn's most only after its action or a display: with neither, the
    # bound holds at least the 3 a roll not entered could give.
    held = state.magic_power()
    return N_("{name} can hold at most {n} Magic Power token now ({how}) and a display "
              "spends 2: no display now; end the turn",
              "{name} can hold at most {n} Magic Power tokens now ({how}) and a display "
              "spends 2: no display now; end the turn",
              held, name=name(state, p), how=magic_power_text(state))


def magic_power_text(state: State) -> Text:
    """How the record bounds the current player's Magic Power, in words."""
    p = state.mover
    gain: Text
    if state.action == "roll" and state.roll is not None:
        dice = len(state.roll[0])
        gain = (N_("a roll of {n} die less {less} 'no_rune'",
                   "a roll of {n} dice less {less} 'no_rune'", dice, less=state.no_runes)
                if state.no_runes else N_("a roll of {n} die", "a roll of {n} dice", dice))
    elif state.action is None:
        gain = _("3 if the turn's action was a roll not entered")
    elif state.action == "helper":
        gain = _("nothing from the Magic Helper")
    else:
        gain = _("nothing from the column")
    text = _("{kept} kept from earlier turns, {gain}", kept=state.tokens[p], gain=gain)
    if state.displays:
        text = _("{text}, {spent} spent on displays", text=text,
                 spent=state.displays * DISPLAY_COST)
    if state.action == "helper":
        text = _("{text}, 1 on the Helper", text=text)
    return text


def _check_card(state: State, space: int, creature: int, what: str) -> None:
    """Refuse bringing a card of ``creature`` for ``space`` (1-9) onto the current portal
    (``what``: "display", "swap") when it cannot be in a hand: it lies on a portal (each
    card exists once), or its creature is out of the deck."""
    which = state.setup.creature(creature)
    who = name(state, state.mover)
    holder = state.shown_on(space - 1, creature)
    if holder is not None:
        free = ", ".join(map(state.setup.creature, _in_hand(state, space - 1))) or _("none")
        params = {"creature": which, "space": space, "holder": name(state, holder),
                  "name": who, "free": free}
        raise IllegalAction(
            _("the {creature} for space {space} is on {holder}'s portal and each card "
              "exists once: {name} cannot display a second one; free for space {space}: "
              "{free}", **params) if what == "display" else
            _("the {creature} for space {space} is on {holder}'s portal and each card "
              "exists once: {name} cannot swap in a second one; free for space {space}: "
              "{free}", **params))
    if not state.in_deck(creature):
        known = ", ".join(state.setup.creature(c) for c in sorted(state.deck))
        why = (_("it was put back in the box") if state.setup.boxed is not None else
               _("a {players}-player deck holds {n} creatures",
                 players=len(state.setup.names), n=state.setup.deck_size))
        raise IllegalAction(_("no {creature} card is in this game: {why}; the creatures in "
                              "play: {known}", creature=which, why=why, known=known))


def _dark_power(state: State, action: Mapping[str, Any]) -> JSON:
    reason = choice(action, "reason", DARK_REASONS, None, "field")
    if reason is None:
        raise InvalidAction(_("missing field 'reason' (one of: {reasons})",
                              reasons=", ".join(DARK_REASONS)))
    if reason == "helper":
        _check_action_free(state, "helper")
        _check_helper_paid(state)
        _check_penalties_allow(state, "helper")
        _check_hand_trick(state)
    if reason == "no_rune":
        _check_no_rune(state)
    if reason == "magic_power":
        _check_too_much_magic(state)
    if reason == "hand" and state.action == "roll":
        raise IllegalAction(_("no 'hand' Dark Power now: {name}'s action this turn is a "
                              "Spell Dice roll, which brings no card into the hand; more "
                              "than 4 cards follows a column or the Magic Helper",
                              name=name(state, state.mover)))
    return {"reason": reason}


def _check_too_much_magic(state: State) -> None:
    """More than 6 Magic Power only where the record leaves it possible: in a turn
    whose action is a roll (or not recorded) that could take the bound past 6."""
    p = state.mover
    who = name(state, p)
    if state.action == "helper":
        raise IllegalAction(_("no 'magic_power' Dark Power now: {name}'s action this turn "
                              "is the Magic Helper, which brings no Magic Power; more than 6 "
                              "tokens follows a Spell Dice roll", name=who))
    if state.action not in (None, "roll"):
        raise IllegalAction(_("no 'magic_power' Dark Power now: {name}'s action this turn "
                              "is a column, which brings no Magic Power; more than 6 tokens "
                              "follows a Spell Dice roll", name=who))
    could = state.tokens[p] + state.gain()
    if could <= MAX_MAGIC:
        raise IllegalAction(N_("no 'magic_power' Dark Power now: {name} can hold at most {n} "
                               "Magic Power token this turn ({kept} kept from earlier turns, "
                               "and what this turn's roll could give), never more than 6",
                               "no 'magic_power' Dark Power now: {name} can hold at most {n} "
                               "Magic Power tokens this turn ({kept} kept from earlier turns, "
                               "and what this turn's roll could give), never more than 6",
                               could, name=who, kept=state.tokens[p]))


def _check_no_rune(state: State) -> None:
    """A ``no_rune`` penalty follows this turn's roll: one per die that showed a rune."""
    who = name(state, state.mover)
    if state.roll is None:
        raise IllegalAction(_("no 'no_rune' Dark Power now: {name} has not rolled the Spell "
                              "Dice this turn, and the penalty comes from a rolled rune; "
                              "record the roll first (the table's own dice as \"faces\")",
                              name=who))
    runes = state.rune_dice()
    faces = " ".join(state.roll[0])
    magic = state.setup.faces[0]
    if runes == 0:
        raise IllegalAction(_("no 'no_rune' Dark Power: {name}'s roll ({faces}) showed only "
                              "{magic}, the Magic Power symbol, and no rune; display or end "
                              "the turn", name=who, faces=faces, magic=magic))
    if state.no_runes >= runes:
        raise IllegalAction(N_("no more 'no_rune' Dark Power: {name}'s roll ({faces}) showed "
                               "{n} rune and {recorded} has been recorded, one per rune die "
                               "at most; display or end the turn",
                               "no more 'no_rune' Dark Power: {name}'s roll ({faces}) showed "
                               "{n} runes and {recorded} have been recorded, one per rune "
                               "die at most; display or end the turn",
                               runes, name=who, faces=faces, recorded=state.no_runes))
    if no_runes_left(state) == 0:
        p = state.mover
        most = state.tokens[p] + len(state.roll[0]) - (MAX_MAGIC + 1)
        raise IllegalAction(N_(
            "no more 'no_rune' Dark Power: {name} took a 'magic_power' Dark Power this turn, "
            "so the roll took the Magic Power past 6: with {kept} tokens kept from earlier "
            "turns and {dice} dice, at most {n} die gave no token; undo the 'magic_power' "
            "penalty if it was wrong",
            "no more 'no_rune' Dark Power: {name} took a 'magic_power' Dark Power this turn, "
            "so the roll took the Magic Power past 6: with {kept} tokens kept from earlier "
            "turns and {dice} dice, at most {n} dice gave no token; undo the 'magic_power' "
            "penalty if it was wrong", max(0, most), name=who, kept=state.tokens[p],
            dice=len(state.roll[0])))


def _helper(state: State, action: Mapping[str, Any]) -> JSON:
    trick = choice(action, "trick", TRICKS, None, "field")
    if trick is None:
        raise InvalidAction(_("missing field 'trick': \"hand\" (a hand card swapped with "
                              "another player's hand, +1 Dark Power) or \"column\" (a hand "
                              "card discarded for one from a column)"))
    _check_action_free(state, "helper")
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
    whose = (_("{name}'s portal is complete", name=others[0]) if len(others) == 1 else
             _("every other portal ({names}) is complete", names=", ".join(others)))
    raise IllegalAction(_("no Magic Helper hand trick now: {whose}, and in the final round "
                          "the Helper cannot be used against a player with all 9 elements; "
                          "instead {name} may use the Helper's column trick (a hand card for "
                          "one from a column) or swap an element of the portal with a hand "
                          "card", whose=whose, name=name(state, p)))


def _action_done(state: State) -> Text | None:
    """Why the turn's one action (roll, column or Magic Helper) is no longer possible."""
    who = name(state, state.mover)
    if state.action is not None:
        return _("{done}: one action per turn (roll the Spell Dice, take a column or "
                 "discard, or the Magic Helper); display or end the turn",
                 done=_done(state.action, who))
    if state.displayed:
        return _("{name} has displayed this turn: the turn's action comes before displaying; "
                 "undo the display to record it first, or end the turn", name=who)
    return None


def _done(action: str, who: str) -> Text:
    """What the turn's action recorded was, in a refusal."""
    if action == "roll":
        return _("{name} has rolled the Spell Dice this turn", name=who)
    if action == "column":
        return _("{name} has taken a column (or discarded) this turn", name=who)
    return _("{name} has used the Magic Helper this turn", name=who)


def _check_action_free(state: State, what: str) -> None:
    """Refuse the action ``what`` (a key of :data:`WHAT`) once the turn's one is spent."""
    why = _action_done(state)
    if why is not None:
        raise IllegalAction(_("{what}: {why}", what=WHAT[what], why=why))


def _helper_refusal(state: State) -> Text | None:
    """Why the Magic Helper cannot be paid for now, or None: it spends one Magic Power
    token the player owns (RB, action 3), and as the turn's action it rolls none, so
    the token must be one the record lets them keep from earlier turns."""
    p = state.mover
    if state.tokens[p] >= HELPER_COST:
        return None
    return _("no Magic Helper now: it spends 1 Magic Power token, and {name} can hold none "
             "now (none kept from earlier turns, as the table recorded them, and a turn whose "
             "action is the Helper rolls none); roll the Spell Dice, take a column, display or "
             "end the turn", name=name(state, p))


def _check_helper_paid(state: State) -> None:
    why = _helper_refusal(state)
    if why is not None:
        raise IllegalAction(why)


def _check_penalties_allow(state: State, action: str, dice: int = 0) -> None:
    why = _penalties_refusal(state, action, dice)
    if why is not None:
        raise IllegalAction(why)


def _penalties_refusal(state: State, action: str, dice: int = 0) -> Text | None:
    """Why the turn's action (``action``: a roll of ``dice``, "column", "helper") would
    leave a penalty already recorded this turn impossible (RULINGS, third round: more
    than 4 cards follows a column or the Helper, more than 6 Magic Power a roll that
    could take the bound past 6), or None."""
    p = state.mover
    who = name(state, p)
    if "hand" in state.penalties and action == "roll":
        return _("no Spell Dice roll now: {name} took a 'hand' Dark Power this turn, and "
                 "more than 4 cards follows a column or the Magic Helper (a roll brings no "
                 "card); record the column or the Helper, or undo the penalty", name=who)
    if "magic_power" not in state.penalties:
        return None
    if action == "helper":
        return _("no Magic Helper now: {name} took a 'magic_power' Dark Power this turn, "
                 "and more than 6 tokens follows a Spell Dice roll (the Magic Helper brings "
                 "no Magic Power); record the roll, or undo the penalty", name=who)
    if action != "roll":
        return _("no column now: {name} took a 'magic_power' Dark Power this turn, and more "
                 "than 6 tokens follows a Spell Dice roll (a column brings no Magic Power); "
                 "record the roll, or undo the penalty", name=who)
    kept = state.tokens[p]
    if kept + dice > MAX_MAGIC:
        return None
    need = MAX_MAGIC + 1 - kept
    params = {"name": who, "kept": kept, "need": need, "most": MAX_DICE}
    if need >= MAX_DICE:
        return N_("no roll of {n} die now: {name} took a 'magic_power' Dark Power this turn, "
                  "and with {kept} tokens kept from earlier turns only a roll of {need} dice "
                  "or more takes the Magic Power past 6; roll {need} dice, or undo the penalty",
                  "no roll of {n} dice now: {name} took a 'magic_power' Dark Power this turn, "
                  "and with {kept} tokens kept from earlier turns only a roll of {need} dice "
                  "or more takes the Magic Power past 6; roll {need} dice, or undo the penalty",
                  dice, **params)
    return N_("no roll of {n} die now: {name} took a 'magic_power' Dark Power this turn, and "
              "with {kept} tokens kept from earlier turns only a roll of {need} dice or more "
              "takes the Magic Power past 6; roll {need} to {most} dice, or undo the penalty",
              "no roll of {n} dice now: {name} took a 'magic_power' Dark Power this turn, and "
              "with {kept} tokens kept from earlier turns only a roll of {need} dice or more "
              "takes the Magic Power past 6; roll {need} to {most} dice, or undo the penalty",
              dice, **params)


def no_runes_left(state: State) -> int:
    """The ``no_rune`` penalties this turn's roll still allows: one per rune die, and,
    after a 'magic_power' penalty, no more than leave its tokens past 6."""
    left = state.rune_dice() - state.no_runes
    if "magic_power" in state.penalties and state.roll is not None:
        p = state.mover
        left = min(left, state.tokens[p] + len(state.roll[0]) - (MAX_MAGIC + 1)
                   - state.no_runes)
    return max(0, left)


def _swap_refusal(state: State, other: int, space: int | None) -> Text | None:
    """Why the Helper cannot exchange with ``other`` (on ``space``, if given), or None."""
    if other == state.current:
        return _("the Helper exchanges with another player's portal; for a card in hand "
                 "send \"creature\" instead of \"player\"")
    if state.final_round and full(state.portals[other]):
        open_ = [name(state, o) for o, portal in enumerate(state.portals)
                 if o != state.current and not full(portal)]
        if open_:
            return _("{name}'s portal is complete: in the final round the Helper cannot be "
                     "used against it; swap with a player whose portal is not complete "
                     "({names}) or swap with a hand card (send \"creature\" instead of "
                     "\"player\")", name=name(state, other), names=", ".join(open_))
        return _("{name}'s portal is complete: in the final round the Helper cannot be used "
                 "against it; every other portal is complete: swap with a hand card (send "
                 "\"creature\" instead of \"player\")", name=name(state, other))
    if space is not None and state.portals[other][space - 1] is None:
        return _("{name}'s space {space} is empty: nothing to exchange",
                 name=name(state, other), space=space)
    return None


def _swap(state: State, action: Mapping[str, Any]) -> JSON:
    s = _space(action)
    has_player, has_creature = "player" in action, "creature" in action
    if has_player == has_creature:
        raise InvalidAction(_("a swap names either \"player\" (an element on their portal, "
                              "+1 Dark Power) or \"creature\" (a card from the hand)"))
    # Malformed fields are refused first, whatever the state.
    o = integer(action, "player", 0, len(state.setup.names) - 1) if has_player else None
    c = None if has_player else _creature(action)
    p = state.mover
    mine = state.portals[p]
    _check_action_free(state, "swap")
    _check_helper_paid(state)
    _check_penalties_allow(state, "helper")
    if mine[s - 1] is None:
        filled = [i + 1 for i, x in enumerate(mine) if x is not None]
        raise IllegalAction(
            _("{name}'s space {space} is empty: the Helper exchanges an element on the "
              "portal; swap one of the filled spaces ({spaces}) instead", name=name(state, p),
              space=s, spaces=space_list(filled)) if filled else
            _("{name}'s space {space} is empty: the Helper exchanges an element on the "
              "portal; {name} has none yet: display first, or use a Helper trick with a hand "
              "card", name=name(state, p), space=s))
    shown = mine[s - 1]
    assert shown is not None   # refused just above when the space is empty
    own = state.setup.creature(shown)
    if o is not None:
        why = _swap_refusal(state, o, s)
        if why is not None:
            raise IllegalAction(why)
        if state.portals[o][s - 1] == mine[s - 1]:
            raise IllegalAction(_("both spaces {space} show {creature}: the swap would "
                                  "change nothing", space=s, creature=own))
        return {"space": s, "player": o}
    assert c is not None   # read above whenever "player" is not given
    if c == shown:
        raise IllegalAction(_("{name}'s space {space} already shows {creature}: the swap "
                              "needs a card of another creature", name=name(state, p), space=s,
                              creature=own))
    _check_card(state, s, c, "swap")
    return {"space": s, "creature": c}


def _roll(state: State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    faces = state.setup.faces
    if ("dice" in action) == ("faces" in action):
        raise InvalidAction(_("a roll gives either \"dice\" (1-{most}: the device rolls "
                              "that many) or \"faces\" (what the table's own dice show)",
                              most=MAX_DICE))
    device = action.get("device", "faces" not in action)
    if type(device) is not bool:
        raise InvalidAction(_("field 'device' must be true or false"))
    if "faces" in action:
        given = action["faces"]
        if not isinstance(given, list) or not 1 <= len(given) <= MAX_DICE:
            raise InvalidAction(_("field 'faces' must list 1 to {most} faces, one per die",
                                  most=MAX_DICE))
        for f in given:
            if f not in faces or not isinstance(f, str):
                raise InvalidAction(_("a Spell Die has no face {face}; its faces: {faces}",
                                      face=repr(f), faces=", ".join(faces)))
        _check_action_free(state, "roll")
        _check_penalties_allow(state, "roll", len(given))
        return {"faces": list(given), "device": device}
    if not device:
        raise InvalidAction(_("with \"dice\" the device rolls; a roll of the table's own "
                              "dice gives \"faces\" instead"))
    n = integer(action, "dice", 1, MAX_DICE)
    _check_action_free(state, "roll")  # before rolling: a refusal rolls nothing
    _check_penalties_allow(state, "roll", n)
    return {"faces": [rng.choice(faces) for _ in range(n)], "device": True}
