"""The games a companion plays, each named once with its faces: a :class:`Catalog`.

A game is a folder, ``companion/games/<game>/``: its pure rules (a
:class:`~companion.games.base.Game`, ``GAME`` in the package) and, in its
``kit.py``, the :class:`~companion.kit.Kit` that joins them to its faces (its
panel, its OLED board, its hall card, its standing). :data:`FOLDERS` lists
the folders, one line a game, and :func:`build` loads them into a catalog.

A catalog is a value: the composition root (app/runtime.py for a table,
hall/run.py for the hall, app/cli.py for the command line) builds one and
hands it to what it starts (the table, the panel's context, the web app, the
hall), and the generic code (the panel, the OLED, the headline and MQTT
summary, the standings, the web API, the history) reads a game only through
the catalog it was given. Nothing here is module state: a test that plays a
game of its own builds a catalog with it (``build().plus(load(package))``)
and gives that to its table; no other test sees it.

A face a kit leaves out is None, and the generic code uses its generic one:
a panel built from the game's ``legal`` offers, a board of names and scores,
a card of names and scores. A folder without a ``kit.py`` plays on the
generic faces alone. A match of any game in the catalog always plays and
resumes; the serial scoreboard's ``STATE`` line is the view itself and needs
no face.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Any

from companion.errors import InvalidAction, UnknownGame
from companion.games.base import JSON, Game
from companion.i18n import _
from companion.kit import Kit

#: The games' folders under companion/games/, a line each, in the order a setup screen
#: offers them.
FOLDERS = (
    "center_court",
    "wizard_dodgeball",
    "alakaslam",
    "alakazoo",
)


class Catalog:
    """Games by their contract id, each with its kit, in the order a setup screen offers
    them. Immutable: :meth:`plus` makes another catalog.

    ValueError for two kits of one id. Iterating a catalog gives the ids; ``id in
    catalog`` says whether it plays that game.
    """

    def __init__(self, kits: Iterable[Kit]) -> None:
        found: dict[str, Kit] = {}
        for kit in kits:
            if kit.id in found:
                raise ValueError(f"a game {kit.id!r} is already in the catalog")
            found[kit.id] = kit
        #: Every kit by game id.
        self.kits: Mapping[str, Kit] = MappingProxyType(found)
        #: The games by id: what code that needs only the rules reads.
        self.games: Mapping[str, Game] = MappingProxyType({i: k.game for i, k in found.items()})

    def plus(self, *kits: Kit) -> Catalog:
        """This catalog with ``kits`` after its own (ValueError for an id it has)."""
        return Catalog((*self.kits.values(), *kits))

    def __iter__(self) -> Iterator[str]:
        return iter(self.kits)

    def __len__(self) -> int:
        return len(self.kits)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self.kits

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Catalog) and dict(self.kits) == dict(other.kits)

    def __hash__(self) -> int:
        return hash(tuple(self.kits))

    def __repr__(self) -> str:
        return f"<Catalog {', '.join(self.kits)}>"  # i18n: not said

    def kit(self, game_id: object) -> Kit | None:
        """The game's kit; None for a game this catalog does not know."""
        return self.kits.get(game_id) if isinstance(game_id, str) else None

    def game(self, game_id: object) -> Game:
        """The game with this id; InvalidAction naming the known ids when ``game_id`` is
        not a string, UnknownGame (an InvalidAction too) when no game has it."""
        if isinstance(game_id, str) and game_id in self.kits:
            return self.kits[game_id].game
        known = ", ".join(self.kits)
        if not isinstance(game_id, str):
            raise InvalidAction(_('"game" must be a game id (a string), one of: {known}',
                                  known=known))
        raise UnknownGame(_("unknown game {game}; known games: {known}", game=repr(game_id),
                            known=known))

    def title(self, game_id: str) -> str:
        """The game's name; its id for a game this catalog does not know (a stored
        match of a game taken out, a hall older than the table)."""
        kit = self.kit(game_id)
        return kit.game.title if kit else game_id

    def rematch(self, match: Mapping[str, Any]) -> JSON:
        """The start record for the same players and options as ``match`` (the state's
        ``match`` JSON or a stored start record), device decisions made again."""
        game = self.game(match["game"])
        return {"game": game.id, "players": list(match["players"]),
                "options": game.again(match["options"])}


def load(package: str) -> Kit:
    """The kit of the game package ``package`` (a dotted name): its ``kit`` module's
    ``KIT``, else the package's ``GAME`` with every face generic."""
    try:
        module = importlib.import_module(f"{package}.kit")
    except ModuleNotFoundError as err:
        if err.name != f"{package}.kit":
            raise  # the kit is there and fails to import: say so, do not hide it
        return Kit(importlib.import_module(package).GAME)
    kit: Kit = module.KIT
    return kit


def build(folders: Iterable[str] = FOLDERS) -> Catalog:
    """The catalog of the game folders ``folders`` under companion/games/ (all of
    :data:`FOLDERS` unless told)."""
    return Catalog(load(f"companion.games.{folder}")  # i18n: not said
                   for folder in folders)


__all__ = ["FOLDERS", "Catalog", "build", "load"]
