"""AlakaSLAM: the score, who serves and hits, the shot calculator and Enchantments.

The companion keeps the score (first to ``target``, 3 by default), the side
to serve (the side that lost the last point) and to hit, the ball's cell
(computed from the cards of each shot), the Enchantments binding players,
once-per-point abilities, Simon's copy and mulligans. Players keep their
hands and positions: draws and refills are reminders in the view, never
enforced. The rules applied are shared/RULINGS.md "AlakaSLAM" and the
contract's AlakaSLAM section; court.py holds the geometry.
"""

from __future__ import annotations

from companion.games.alakaslam.court import CARDS
from companion.games.alakaslam.events import EVENT_WORDS, apply
from companion.games.alakaslam.options import CHARACTERS, OPTIONS, again, prepare
from companion.games.alakaslam.rules import legal, resolve
from companion.games.alakaslam.state import setup
from companion.games.alakaslam.timeline import timeline
from companion.games.alakaslam.view import summary, turn, view, winner
from companion.games.base import Game

GAME_ID = "alakaslam"

__all__ = ["CARDS", "CHARACTERS", "GAME"]

GAME = Game(
    id=GAME_ID,
    title="AlakaSLAM",  # i18n: not said (the game's name, the same in every language)
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
    extras={"characters": dict(CHARACTERS), "cards": list(CARDS)},
)
