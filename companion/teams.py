"""Who played with whom in a stored match: each side's seats, read from its start.

A match's sides are those its game's card shows (the kit's ``card`` face, the
hall card's rows: AlakaSLAM's doubles and Canadian sides, Wizard Dodgeball's
two teams, a row per player where everyone plays for themselves), drawn from
the match as it began: the start record's players and prepared options set
up by the game. A game whose kit brings no card has every player alone. The
history (companion/store.py MatchSummary) carries them, so every list of a
match's players (the pages' history, the spectators' "Last:" line, the
``companion history`` command) groups them alike.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.names import TEAM_JOIN

if TYPE_CHECKING:
    from companion.catalog import Catalog

log = logging.getLogger(__name__)

Teams = tuple[tuple[int, ...], ...]


def alone(count: int) -> Teams:
    """Every player a side of their own."""
    return tuple((i,) for i in range(count))


def teams(catalog: Catalog | None, game: str, players: Sequence[str],
          options: Mapping[str, Any]) -> Teams:
    """Each side's seats (player indexes) in the card's order, every seat in exactly one
    side; every player alone when the game's kit brings no card (or no catalog is
    given), or its card does not part the seats (logged: a card that groups seats
    wrongly is a bug of its game)."""
    if catalog is None:
        return alone(len(players))
    return _teams(catalog, game, len(players), json.dumps(options, sort_keys=True))


@functools.lru_cache(maxsize=512)
def _teams(catalog: Catalog, game: str, count: int, options: str) -> Teams:
    # Cached by game, number of players and options, not by names: who sits on which side
    # is the options' doing (a side's name is its players', and plays no part), so a
    # club's matches of the same options share one answer. The history reads every
    # stored match at its first read: 30-140 us each uncached on a PC (the game's setup,
    # view and card, measured with distinct options), Wizard Dodgeball the dearest.
    found = catalog.kit(game)
    if found is None or found.card is None:
        return alone(count)
    players = tuple(f"Player {i + 1}" for i in range(count))  # i18n: not said
    try:
        state = found.game.setup(players, json.loads(options))
        sides = tuple(tuple(seats) for _, _, seats, _ in found.card(found.game.view(state)).sides)
    except (KeyError, TypeError, ValueError, IndexError) as err:
        log.warning("%s's sides could not be read from a stored start (%s): each player alone",
                    game, err)
        return alone(count)
    if sorted(s for side in sides for s in side) != list(range(count)):
        log.warning("%s's card does not part its %d seats into sides (%s): each player alone",
                    game, count, sides)
        return alone(count)
    return sides


def label(players: Sequence[str], sides: Teams) -> str:
    """The players in words by side: ``Ann v Bob``, ``Ann & Cy v Bob & Dee``, ``Ann v
    Bob & Cy`` (Canadian doubles), ``Ann v Bob v Cy`` (everyone for themselves)."""
    return " v ".join(TEAM_JOIN.join(players[i] for i in side) for side in sides)
