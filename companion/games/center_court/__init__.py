"""Center Court: the tennis card game, scored as real tennis.

The companion keeps the score, the server, the Service Die serves and the
volley value of a rally; the players keep their cards. The rules applied
(docs/rules.md, after shared/RULINGS.md):

- A serve of 1, 2, 5 or 6 rolls the Service Die (faces 1, 1, 2, 5, 6, 6); a
  roll equal to the card is a fault. A 3 or a 4 needs no roll and never
  faults. Two faults in a row are a double fault: the receiver wins the point.
- A volley of value V is returned with k = 1 + |v - V| cards of value v.
- Games, sets and the match as in tennis, with the options ``sets`` (1, 3,
  5), ``no_ad``, ``final_set`` (tiebreak, advantage, match-tiebreak) and
  ``first_server`` (0, 1 or "coin").
- The server changes every game; a tiebreak counts as one game for that
  (so whoever received its first point serves the next set's first game),
  and inside it the service goes 1, 2, 2, 2, ...
"""

from __future__ import annotations

from companion.games.base import Game
from companion.games.center_court.events import EVENT_WORDS, apply
from companion.games.center_court.options import OPTIONS, again, prepare
from companion.games.center_court.rules import legal, resolve
from companion.games.center_court.state import GAME_ID, setup
from companion.games.center_court.timeline import timeline
from companion.games.center_court.view import summary, turn, view, winner

__all__ = ["GAME", "GAME_ID"]

GAME = Game(
    id=GAME_ID,
    title="Center Court",  # i18n: not said (the game's name, as on its box)
    seats=(2, 2),
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
)
