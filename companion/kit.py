"""What a game brings: its rules and the faces that show them, as one :class:`Kit`.

Each game folder's ``kit.py`` builds its ``KIT`` from its pieces; the catalog
(:mod:`companion.catalog`) lists the folders. A face a kit leaves out is None,
and the generic code uses its generic one: a panel built from the game's
``legal`` offers, a board of names and scores, a card of names and scores, a
standing of one player against the others.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from companion.games.base import JSON, Card, Game, OptionSpec
from companion.inputs import Input
from companion.ui.base import (
    PANEL_SCREENS,
    Binding,
    Builder,
    Draft,
    Outcome,
    ScreenSpec,
    Ui,
    screens,
)

#: Where a board's last status line begins when a kit does not say (the lowest
#: line's top): a short notice covers that line and never the score above.
STATUS_TOP = 47


@dataclass(frozen=True)
class Panel:
    """A game's pieces of the panel.

    - ``board(ui, match)``: the board's keys while the match runs (BACK is
      added by the generic panel: the menu; holding BACK is undo).
    - ``screens``: the game's own screens by name (bare builders are drafts,
      closed by any change from elsewhere). The names are the game's own: the
      panel looks a screen up in the kit of the match on the table, so two games
      may both have a "cards" screen; none may take the name of one of the
      panel's own screens (:data:`~companion.ui.base.PANEL_SCREENS`).
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
class Lineups:
    """How a club night may seat the game (hall/lineups.py; docs/club-night.md "Teams
    and tables"): one player against one unless the game says more.

    - ``allowed``: the lineups it can be played as (``"singles"``, ``"doubles"``,
      ``"canadian"``, ``"tables"``), in the order a director is offered them.
    - ``fixed(options)``: the lineup its start options fix (AlakaSLAM's, by its
      number of characters), or None when they fix none; ValueError saying why,
      for options that can be played as none.
    - ``seated(options, seats)``: the options of one game of it at a table of
      ``seats`` players (Alakazoo's portals cut to the players there); None: the
      event's options as they are.
    - ``per_seat``: options that list one choice per seat (AlakaSLAM's
      ``characters``, whose number fixes the lineup): a director's form asks
      one of each per seat of the lineup chosen.
    """

    allowed: tuple[str, ...] = ("singles",)
    fixed: Callable[[Mapping[str, Any]], str | None] | None = None
    seated: Callable[[Mapping[str, Any], int], dict[str, Any]] | None = None
    per_seat: tuple[OptionSpec, ...] = ()


@dataclass(frozen=True)
class Kit:
    """One game: its rules and the faces it brings (None: the generic face).

    - ``card(view)``: the hall's and MQTT's card of a match (a
      :class:`~companion.games.base.Card`).
    - ``standing(view)``: how a finished match placed its teams, in the shape
      :mod:`companion.standings` describes (None while it runs).
    - ``tiebreaks(view)``: each team's value (in the order of the standing's
      teams) for a club night's game tiebreak, from a finished match's view;
      None (or no function): the game gives none.
    - ``lineups``: how a club night may seat it (:class:`Lineups`).
    """

    game: Game
    panel: Panel | None = None
    oled: Oled | None = None
    card: Callable[[JSON], Card] | None = None
    standing: Callable[[JSON], JSON | None] | None = None
    tiebreaks: Callable[[JSON], list[float] | None] | None = None
    lineups: Lineups = Lineups()

    def __post_init__(self) -> None:
        taken = sorted(set(self.screen_names) & set(PANEL_SCREENS))
        if taken:
            raise ValueError(f"{self.id}: screen {taken[0]!r} is one of the panel's own "
                             "screens; name it otherwise")

    @property
    def id(self) -> str:
        return self.game.id

    @property
    def screen_names(self) -> tuple[str, ...]:
        """The names of the kit's own screens: on its panel and drawn on its OLED."""
        drawn = self.oled.drawn if self.oled else ()
        own = self.panel.screens if self.panel else ()
        return (*own, *(name for name in drawn if name not in own))

    @cached_property
    def screens(self) -> dict[str, ScreenSpec]:
        """The kit's own panel screens, by name (each a :class:`ScreenSpec`)."""
        return screens(self.panel.screens) if self.panel else {}

    def __repr__(self) -> str:
        return f"<Kit {self.id}>"  # i18n: not said


__all__ = ["STATUS_TOP", "Kit", "Lineups", "Oled", "Panel"]
