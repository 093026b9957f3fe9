"""The one list of games, each named once with its faces.

A game is a folder, ``companion/games/<game>/``: its pure rules (a
:class:`~companion.games.base.Game`, ``GAME`` in the package) and, in its
``kit.py``, the :class:`~companion.kit.Kit` that joins them to its faces (its
panel, its OLED board, its hall card, its standing). :data:`FOLDERS` lists
the folders, one line a game; the generic code (the panel, the OLED, the
headline and MQTT summary, the standings, the web API, the history) reads a
game only through :func:`kit` and :data:`GAMES`.

A face a kit leaves out is None, and the generic code uses its generic one:
a panel built from the game's ``legal`` offers, a board of names and scores,
a card of names and scores. A folder without a ``kit.py`` plays on the
generic faces alone. A match of any game in the catalog always plays and
resumes; the serial scoreboard's ``STATE`` line is the view itself and needs
no face. A test registers a game of its own with ``register(load(package))``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

from companion.errors import InvalidAction, UnknownGame
from companion.games.base import Game
from companion.kit import Kit

#: The games' folders under companion/games/, a line each, in the order a setup screen
#: offers them.
FOLDERS = (
    "center_court",
    "wizard_dodgeball",
    "alakaslam",
    "alakazoo",
)

#: Every game, by its contract id, in the order a setup screen offers them.
KITS: dict[str, Kit] = {}


def register(kit: Kit) -> Kit:
    """Add ``kit`` to the catalog. ValueError if its id is taken or one of its screen
    names is another kit's (a screen name says which game's screen is open)."""
    if kit.id in KITS:
        raise ValueError(f"a game {kit.id!r} is already in the catalog")
    taken = {name: other.id for other in KITS.values() for name in screen_names(other)}
    clash = sorted(set(screen_names(kit)) & set(taken))
    if clash:
        raise ValueError(f"{kit.id}: screen {clash[0]!r} is already {taken[clash[0]]}'s")
    KITS[kit.id] = kit
    return kit


def unregister(game_id: str) -> None:
    """Take a game out of the catalog (tests that register a game of their own)."""
    KITS.pop(game_id, None)


def screen_names(kit: Kit) -> tuple[str, ...]:
    """The names of the kit's own screens: on its panel and drawn on its OLED."""
    return (*kit.screens, *(name for name in (kit.oled.drawn if kit.oled else ())
                            if name not in kit.screens))


def kit(game_id: str) -> Kit | None:
    """The game's kit; None for a game the catalog does not know."""
    return KITS.get(game_id)


def get_game(game_id: object) -> Game:
    """The game with this id; InvalidAction naming the known ids when ``game_id`` is not a
    string, UnknownGame (an InvalidAction too) when no game has it."""
    if isinstance(game_id, str) and game_id in KITS:
        return KITS[game_id].game
    known = ", ".join(KITS)
    if not isinstance(game_id, str):
        raise InvalidAction(f'"game" must be a game id (a string), one of: {known}')
    raise UnknownGame(f"unknown game {game_id!r}; known games: {known}")


def rematch(match: Mapping[str, Any]) -> dict[str, Any]:
    """The start record for the same players and options as ``match`` (the state's
    ``match`` JSON or a stored start record), device decisions made again."""
    game = get_game(match["game"])
    return {"game": game.id, "players": list(match["players"]),
            "options": game.again(match["options"])}


class _Games(Mapping[str, Game]):
    """The catalog's games by id, read live (a game registered later is in it)."""

    def __getitem__(self, game_id: str) -> Game:
        return KITS[game_id].game

    def __iter__(self) -> Iterator[str]:
        return iter(KITS)

    def __len__(self) -> int:
        return len(KITS)


#: The games by id: what code that needs only the rules reads.
GAMES: Mapping[str, Game] = _Games()


def load(package: str) -> Kit:
    """The kit of the game package ``package`` (a dotted name): its ``kit`` module's
    ``KIT``, else the package's ``GAME`` with every face generic."""
    try:
        module = importlib.import_module(f"{package}.kit")
    except ModuleNotFoundError as err:
        if err.name != f"{package}.kit":
            raise  # the kit is there and fails to import: say so, do not hide it
        return Kit(importlib.import_module(package).GAME)
    return module.KIT


for _folder in FOLDERS:
    register(load(f"companion.games.{_folder}"))

__all__ = ["FOLDERS", "GAMES", "KITS", "get_game", "kit", "load", "register", "rematch",
           "unregister"]
