"""Alakazoo's kit: its rules with its panel, its OLED board, space picker and jury, its
hall card, its standing (every player for themselves) and its club lineups (tables)."""

from __future__ import annotations

from companion.games.alakazoo import GAME, card, club, oled, panel
from companion.kit import Kit, Lineups, Oled, Panel

KIT = Kit(GAME,
          Panel(panel.board, panel.SCREENS, finished=panel.finished,
                setup_rows=panel.setup_rows, fit_draft=panel.fit_draft),
          Oled(oled.board, {"zoo-space": oled.picker, "zoo-jury": oled.jury}, status_top=47),
          card=card.card, standing=card.standing, tiebreaks=card.tiebreaks,
          lineups=Lineups(club.LINEUPS, seated=club.seated))
