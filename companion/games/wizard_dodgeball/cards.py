"""The spell cards: ids, faces, costs, and what each effect changes."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Card:
    """A spell card: its id (the first face), its faces and its advanced cost."""

    id: str
    faces: tuple[str, ...]
    cost: int


CARDS = (
    Card("dispel", ("dispel",), 1),
    Card("fireball", ("fireball",), 1),
    Card("freeze", ("freeze",), 1),
    Card("shield", ("shield",), 1),
    Card("teleport", ("teleport",), 1),
    Card("butter_fingers", ("butter_fingers", "sticky_fingers"), 2),
    Card("magic_drain", ("magic_drain", "magic_boost"), 2),
    Card("shrink", ("shrink", "enlarge"), 2),
    Card("slow", ("slow", "speed"), 2),
    Card("weak", ("weak", "strong"), 2),
)
CARD_OF = {face: card for card in CARDS for face in card.faces}
SPELLS = tuple(CARD_OF)
#: Spells that leave no token (Teleport moves, Dispel removes).
NO_TOKEN = frozenset({"teleport", "dispel"})
#: Spells that a resist roll of doubles stops instead of rebounding.
NO_REBOUND = frozenset({"teleport", "dispel"})
#: The effect that adds (plus) or removes (minus) one die from a stat's roll.
PLUS_DIE = {"throw": "strong", "dodge": "shrink", "cast": "magic_boost", "resist": "magic_boost"}
MINUS_DIE = {"throw": "weak", "dodge": "enlarge", "cast": "magic_drain", "resist": "magic_drain"}
MOVE_CHANGE = {"shrink": -2, "enlarge": 2}
SHORT = {
    "dispel": "DSP", "fireball": "FIR", "freeze": "FRZ", "shield": "SHD", "teleport": "TEL",
    "butter_fingers": "BUT", "sticky_fingers": "STK", "magic_drain": "DRN",
    "magic_boost": "BST", "shrink": "SHR", "enlarge": "ENL", "slow": "SLO", "speed": "SPD",
    "weak": "WEK", "strong": "STR",
}
TITLES = {s: s.replace("_", " ").title() for s in SPELLS}
