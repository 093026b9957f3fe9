"""Alakazoo matches the tests share: a four-player midgame and a finish with the jury.

Both are games the rulebook allows: each card on one portal at most, three displays
a turn at most, one action a turn before the displays, a no_rune only after a roll, and
no display the Magic Power the record allows cannot pay for.
"""

from __future__ import annotations

FOUR = {"game": "alakazoo", "players": ["Annabelle", "Bartholomew", "Cleo", "Dimitri"],
        "options": {"portals": [1, 5, 3, 4], "first_player": 0}}


def displays(*pairs: tuple[int, int]) -> list[dict]:
    return [{"type": "display", "space": s, "creature": c} for s, c in pairs]


END = {"type": "end_turn"}
COLUMN = {"type": "column"}


def magic(n: int) -> dict:
    """A roll of ``n`` dice that all show the Magic Power symbol: ``n`` tokens."""
    return {"type": "roll", "faces": ["Magic"] * n}


#: Two rounds to gather Magic Power (each player rolls three Magic Power symbols, 1 + 3,
#: then takes a column), five turns of a 4-player match: Spell Dice, displays, Dark
#: Power, the Helper's trick and swap; then (shown live) Bartholomew's device roll.
#: Each display is paid for by the Magic Power the record allows (RULINGS, third round).
MIDGAME = [
    *[magic(3), END] * 4, *[COLUMN, END] * 4,
    {"type": "roll", "faces": ["Fire", "Magic"]}, *displays((5, 1), (1, 1)), END,
    {"type": "roll", "faces": ["Water", "Magic"]}, *displays((5, 5), (2, 2)),
    {"type": "dark_power", "reason": "no_rune"}, END,
    {"type": "dark_power", "reason": "hand"}, {"type": "dark_power", "reason": "magic_power"},
    *displays((5, 3)), END,
    {"type": "dark_power", "reason": "helper"}, *displays((9, 4)), END,
    {"type": "swap", "space": 5, "player": 1}, END,
    {"type": "roll", "dice": 3},
]
#: Annabelle rolls three Magic Power symbols every turn and displays what they pay for
#: (two, one, two, one, two, one: rows one creature, all different, nothing), completing
#: her portal in her sixth turn (the final round); the others, their actions not
#: recorded, display once or three times each: the game ends when the turn comes back.
FINISH = [
    magic(3), *displays((1, 1), (2, 1)), END, END, END, END,
    magic(3), *displays((3, 1)), END, END, END, END,
    magic(3), *displays((4, 2), (5, 3)), END, END, END, END,
    magic(3), *displays((6, 4)), END, END, END, END,
    magic(3), *displays((7, 1), (8, 1)), END, END, END, END,
    magic(3), *displays((9, 6)), END,
    *displays((1, 5), (2, 5), (3, 5)), END,
    *displays((4, 3)), END,
    *displays((9, 4)), END,
]
#: FINISH[:COMPLETED] ends with Annabelle's turn that completed her portal.
COMPLETED = 36
