"""Wizard Dodgeball's kit: its rules with its panel, its OLED board and its hall card."""

from __future__ import annotations

from companion.games.wizard_dodgeball import GAME, card, oled, panel
from companion.kit import Kit, Oled, Panel

KIT = Kit(GAME, Panel(panel.board, panel.SCREENS, setup_rows=panel.setup_rows,
                      fit_draft=panel.fit_draft),
          Oled(oled.board, status_top=44), card=card.card, tiebreaks=card.tiebreaks)
