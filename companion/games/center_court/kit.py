"""Center Court's kit: its rules with its panel, its OLED board and its hall card."""

from __future__ import annotations

from companion.games.center_court import GAME, card, oled, panel
from companion.kit import Kit, Oled, Panel

KIT = Kit(GAME, Panel(panel.board, panel.SCREENS), Oled(oled.board, status_top=44),
          card=card.card, tiebreaks=card.tiebreaks)
