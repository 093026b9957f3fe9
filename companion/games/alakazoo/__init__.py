"""Alakazoo: whose turn, Dark Power, the portals, the final round and the Magic Jury.

The companion keeps whose turn it is (forced passes at 3 Dark Power
included), each player's Dark Power and points, what each portal displays,
who was first on each space and to complete, the final round, and the
jury's scoring at the end. It can roll the Spell Dice. Players keep their
cards, the columns and the Magic Power tokens: the penalties it cannot see
(a hand over 4, more than 6 Magic Power) are reminders, recorded as
``dark_power`` actions. The rules applied are shared/RULINGS.md "Alakazoo"
and the contract's Alakazoo section; docs/rules.md says them in full.
"""

from __future__ import annotations

from companion.games.alakazoo.events import EVENT_WORDS, apply
from companion.games.alakazoo.options import (
    CREATURES,
    DEFAULT_CREATURES,
    DEFAULT_FACES,
    MAX_CREATURE,
    MAX_DICE,
    MAX_FACE,
    OPTIONS,
    again,
    prepare,
)
from companion.games.alakazoo.rules import legal, resolve
from companion.games.alakazoo.state import DARK_MAX, DARK_REASONS, setup
from companion.games.alakazoo.timeline import timeline
from companion.games.alakazoo.view import summary, turn, view, winner
from companion.games.base import Game

GAME_ID = "alakazoo"

__all__ = ["DARK_REASONS", "DEFAULT_CREATURES", "DEFAULT_FACES", "GAME"]

GAME = Game(
    id=GAME_ID,
    title="Alakazoo",  # i18n: not said (the game's name, the same in every language)
    seats=(2, 4),
    options=OPTIONS,
    prepare=prepare,
    setup=setup,
    legal=legal,
    resolve=resolve,
    apply=apply,
    view=view,
    winner=winner,
    summary=summary,
    turn=turn,
    again=again,
    timeline=timeline,
    event_words=EVENT_WORDS,
    extras={"creatures": list(DEFAULT_CREATURES), "creature_count": CREATURES,
            "dice_faces": list(DEFAULT_FACES), "max_dice": MAX_DICE,
            "max_creature_name": MAX_CREATURE, "max_face": MAX_FACE,
            "dark_max": DARK_MAX, "dark_reasons": list(DARK_REASONS)},
    shared_wins=True,
)
