"""Alakazoo matches the tests share: a four-player midgame and a finish with the jury."""

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
    *displays((5, 5), (2, 2)), {"type": "dark_power", "reason": "no_rune"}, END,
    {"type": "dark_power", "reason": "hand"}, {"type": "dark_power", "reason": "no_rune"},
    *displays((5, 3)), END,
    {"type": "dark_power", "reason": "helper"}, *displays((9, 4)), END,
    {"type": "swap", "space": 5, "player": 1}, END,
    {"type": "roll", "dice": 3},
]
#: Annabelle completes her portal (rows: one creature, all different, nothing; the final
#: round), then the others display once each: the game ends when the turn comes back.
FINISH = [
    *displays((1, 1), (2, 1), (3, 1), (4, 2), (5, 3), (6, 4), (7, 1), (8, 1), (9, 6)), END,
    *displays((1, 5), (2, 5), (3, 5)), END,
    *displays((5, 3)), END,
    *displays((9, 4)), END,
]
