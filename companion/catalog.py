"""The one list of games, each named once with its faces.

A :class:`Kit` holds a game's pure rules (:class:`~companion.games.base.Game`)
and the faces that show it: its panel pieces (:class:`Panel`), its OLED board
(:class:`Oled`) and its hall card (``card(view) -> Card``). The generic code
(the panel, the OLED, the headline and MQTT summary, the web API, the
history) reads a game only through :func:`kit` and :data:`GAMES`.

A face a kit leaves out is None, and the generic code uses its generic one:
a panel built from the game's ``legal`` offers, a board of names and scores,
a card of names and scores. A match of any game in the catalog always plays
and resumes; the serial scoreboard's ``STATE`` line is the view itself and
needs no face.

Adding a game is one folder (``companion/games/<game>/``) and one
:func:`register` call at the end of this module (README.md, "How to add a
game"); a test registers a game of its own the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from companion.errors import InvalidAction
from companion.games import alakaslam, alakazoo, center_court, wizard_dodgeball
from companion.games.alakaslam import card as alakaslam_card
from companion.games.alakaslam import oled as alakaslam_oled
from companion.games.alakaslam import panel as alakaslam_panel
from companion.games.alakazoo import card as alakazoo_card
from companion.games.alakazoo import oled as alakazoo_oled
from companion.games.alakazoo import panel as alakazoo_panel
from companion.games.base import JSON, Card, Game
from companion.games.center_court import card as center_court_card
from companion.games.center_court import oled as center_court_oled
from companion.games.center_court import panel as center_court_panel
from companion.games.wizard_dodgeball import card as wizard_dodgeball_card
from companion.games.wizard_dodgeball import oled as wizard_dodgeball_oled
from companion.games.wizard_dodgeball import panel as wizard_dodgeball_panel
from companion.inputs import Input
from companion.ui.base import Binding, Builder, Draft, Outcome, ScreenSpec, Ui, screens

#: Where a board's last status line begins when a kit does not say (the lowest
#: line's top): a short notice covers that line and never the score above.
STATUS_TOP = 47


@dataclass(frozen=True)
class Panel:
    """A game's pieces of the panel.

    - ``board(ui, match)``: the board's keys while the match runs (BACK is
      added by the generic panel: the menu; holding BACK is undo).
    - ``screens``: the game's own screens by name (bare builders are drafts,
      closed by any change from elsewhere); names are unique across games.
    - ``finished(match)``: keys the board adds once the match is over.
    - ``setup_rows(ui, draft, first_row)``: setup rows beyond the option menus.
    - ``fit_draft(draft)``: the draft with options kept in step with the players.
    """

    board: Callable[[Ui, Mapping[str, Any]], dict[Input, Binding]]
    screens: Mapping[str, Builder | ScreenSpec] = field(default_factory=dict)
    finished: Callable[[Mapping[str, Any]], dict[Input, Binding]] | None = None
    setup_rows: Callable[[Ui, Draft, int], list[tuple[str, Outcome]]] | None = None
    fit_draft: Callable[[Draft], Draft] | None = None


@dataclass(frozen=True)
class Oled:
    """A game's faces on the OLED.

    - ``board(draw, match)``: the scoreboard, drawn on a blank frame above the
      soft keys.
    - ``drawn``: the game's panel screens drawn their own way (not as a list
      or a row of choices), by screen name: ``(draw, ui, screen, match)``.
    - ``status_top``: where the board's last status line begins (a short
      notice covers it, never the score above).
    """

    board: Callable[..., None]
    drawn: Mapping[str, Callable[..., None]] = field(default_factory=dict)
    status_top: int = STATUS_TOP


@dataclass(frozen=True)
class Kit:
    """One game: its rules and the faces it brings (None: the generic face)."""

    game: Game
    panel: Panel | None = None
    oled: Oled | None = None
    card: Callable[[JSON], Card] | None = None
    #: ``tiebreaks(view)``: each team's value (in the order of
    #: companion/standings.py's teams) for a club night's game tiebreak, from a finished
    #: match's view; None (or no function): the game gives none.
    tiebreaks: Callable[[JSON], list[float] | None] | None = None

    @property
    def id(self) -> str:
        return self.game.id

    @cached_property
    def screens(self) -> dict[str, ScreenSpec]:
        """The kit's own panel screens, by name (each a :class:`ScreenSpec`)."""
        return screens(self.panel.screens) if self.panel else {}

    def __repr__(self) -> str:
        return f"<Kit {self.id}>"


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
    """The game with this id, or InvalidAction naming the known ids."""
    if isinstance(game_id, str) and game_id in KITS:
        return KITS[game_id].game
    known = ", ".join(KITS)
    if not isinstance(game_id, str):
        raise InvalidAction(f'"game" must be a game id (a string), one of: {known}')
    raise InvalidAction(f"unknown game {game_id!r}; known games: {known}")


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


register(Kit(center_court.GAME,
             Panel(center_court_panel.board, center_court_panel.SCREENS),
             Oled(center_court_oled.board, status_top=44),
             center_court_card.card, center_court_card.tiebreaks))
register(Kit(wizard_dodgeball.GAME,
             Panel(wizard_dodgeball_panel.board, wizard_dodgeball_panel.SCREENS,
                   setup_rows=wizard_dodgeball_panel.setup_rows),
             Oled(wizard_dodgeball_oled.board, status_top=44),
             wizard_dodgeball_card.card, wizard_dodgeball_card.tiebreaks))
register(Kit(alakaslam.GAME,
             Panel(alakaslam_panel.board, alakaslam_panel.SCREENS,
                   setup_rows=alakaslam_panel.setup_rows, fit_draft=alakaslam_panel.fit_draft),
             Oled(alakaslam_oled.board, {"slam-cards": alakaslam_oled.picker}, status_top=46),
             alakaslam_card.card, alakaslam_card.tiebreaks))
register(Kit(alakazoo.GAME,
             Panel(alakazoo_panel.board, alakazoo_panel.SCREENS, finished=alakazoo_panel.finished,
                   setup_rows=alakazoo_panel.setup_rows, fit_draft=alakazoo_panel.fit_draft),
             Oled(alakazoo_oled.board, {"zoo-space": alakazoo_oled.picker,
                                        "zoo-jury": alakazoo_oled.jury}, status_top=47),
             alakazoo_card.card, alakazoo_card.tiebreaks))

__all__ = ["GAMES", "KITS", "Kit", "Oled", "Panel", "get_game", "kit", "register", "rematch",
           "unregister"]
