"""The games' pure rules, one folder per game (``companion/games/<game>/``).

Each folder's package holds the game's :class:`~companion.games.base.Game`
(its ``GAME``) and its pure modules; ``card.py`` reads its view for the hall,
``panel.py`` and ``oled.py`` are its faces. The list of games is
:mod:`companion.catalog`.
"""

from __future__ import annotations

from companion.games.base import Game

__all__ = ["Game"]
