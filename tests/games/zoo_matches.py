"""Alakazoo matches the tests share: a four-player midgame and a finish with the jury.

Both are games the rulebook allows: each card on one portal at most, three displays
a turn at most, one action a turn before the displays, a no_rune only after a roll.
"""

from __future__ import annotations

FOUR = {"game": "alakazoo", "players": ["Annabelle", "Bartholomew", "Cleo", "Dimitri"],
        "options": {"portals": [1, 5, 3, 4], "first_player": 0}}


def displays(*pairs: tuple[int, int]) -> list[dict]:
    return [{"type": "display", "space": s, "creature": c} for s, c in pairs]


END = {"type": "end_turn"}
#: Five turns of a 4-player match: Spell Dice, displays, Dark Power, the Helper's trick
#: and swap; then (shown live) Bartholomew's device roll.
MIDGAME = [
    {"type": "roll", "faces": ["Fire", "Magic"]}, *displays((5, 1), (1, 1)), END,
    {"type": "roll", "faces": ["Water", "Magic"]}, *displays((5, 5), (2, 2)),
    {"type": "dark_power", "reason": "no_rune"}, END,
    {"type": "dark_power", "reason": "hand"}, {"type": "dark_power", "reason": "magic_power"},
    *displays((5, 3)), END,
    {"type": "dark_power", "reason": "helper"}, *displays((9, 4)), END,
    {"type": "swap", "space": 5, "player": 1}, END,
    {"type": "roll", "dice": 3},
]
#: Annabelle completes her portal in her third turn, three displays a turn (rows: one
#: creature, all different, nothing; the final round), then the others display once each:
#: the game ends when the turn comes back.
FINISH = [
    *displays((1, 1), (2, 1), (3, 1)), END, END, END, END,
    *displays((4, 2), (5, 3), (6, 4)), END, END, END, END,
    *displays((7, 1), (8, 1), (9, 6)), END,
    *displays((1, 5), (2, 5), (3, 5)), END,
    *displays((4, 3)), END,
    *displays((9, 4)), END,
]
#: FINISH[:COMPLETED] ends with Annabelle's turn that completed her portal.
COMPLETED = 18
