"""The games the companion knows, by their contract id."""

from __future__ import annotations

from companion.errors import InvalidAction
from companion.games import alakaslam, alakazoo, center_court, wizard_dodgeball
from companion.games.base import Game

GAMES: dict[str, Game] = {g.id: g for g in (center_court.GAME, wizard_dodgeball.GAME,
                                              alakaslam.GAME, alakazoo.GAME)}


def get_game(game_id: object) -> Game:
    """The game with this id, or InvalidAction naming the built ids."""
    if isinstance(game_id, str) and game_id in GAMES:
        return GAMES[game_id]
    built = ", ".join(GAMES)
    if not isinstance(game_id, str):
        raise InvalidAction(f'"game" must be a game id (a string), one of: {built}')
    raise InvalidAction(f"unknown game {game_id!r}; known games: {built}")


__all__ = ["GAMES", "Game", "get_game"]
