"""The games the companion knows, by their contract id."""

from __future__ import annotations

from companion.errors import InvalidAction
from companion.games import center_court, wizard_dodgeball
from companion.games.base import Game

GAMES: dict[str, Game] = {g.id: g for g in (center_court.GAME, wizard_dodgeball.GAME)}


def get_game(game_id: object) -> Game:
    """The game with this id, or InvalidAction naming the known ids."""
    if isinstance(game_id, str) and game_id in GAMES:
        return GAMES[game_id]
    shown = game_id if isinstance(game_id, str) else repr(game_id)
    raise InvalidAction(f"unknown game {shown!r}; known games: {', '.join(GAMES)}")


__all__ = ["GAMES", "Game", "get_game"]
