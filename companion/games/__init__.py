"""The games the companion knows, by their contract id."""

from __future__ import annotations

from companion.errors import InvalidAction
from companion.games import alakaslam, center_court, wizard_dodgeball
from companion.games.base import Game

GAMES: dict[str, Game] = {g.id: g for g in (center_court.GAME, wizard_dodgeball.GAME,
                                              alakaslam.GAME)}

#: Game ids the contract names that are not built yet, with their titles.
PLANNED: dict[str, str] = {"alakazoo": "Alakazoo"}


def get_game(game_id: object) -> Game:
    """The game with this id, or InvalidAction naming the built ids."""
    if isinstance(game_id, str) and game_id in GAMES:
        return GAMES[game_id]
    built = ", ".join(GAMES)
    if isinstance(game_id, str) and game_id in PLANNED:
        raise InvalidAction(f"{game_id} ({PLANNED[game_id]}) is planned but not built yet; "
                            f"built games: {built}")
    if not isinstance(game_id, str):
        raise InvalidAction(f'"game" must be a game id (a string), one of: {built}')
    raise InvalidAction(f"unknown game {game_id!r}; known games: {built}")


__all__ = ["GAMES", "PLANNED", "Game", "get_game"]
