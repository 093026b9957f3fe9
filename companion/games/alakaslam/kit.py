"""AlakaSLAM's kit: its rules with its panel, its OLED board and card picker, its hall
card, its standing (a side is a team) and its club lineups (by its characters)."""

from __future__ import annotations

from companion.games.alakaslam import GAME, card, club, oled, panel
from companion.kit import Kit, Lineups, Oled, Panel

KIT = Kit(GAME,
          Panel(panel.board, panel.SCREENS, setup_rows=panel.setup_rows,
                fit_draft=panel.fit_draft),
          Oled(oled.board, {"slam-cards": oled.picker}, status_top=46),
          card=card.card, standing=card.standing, tiebreaks=card.tiebreaks,
          lineups=Lineups(club.LINEUPS, fixed=club.fixed, per_seat=club.PER_SEAT))
