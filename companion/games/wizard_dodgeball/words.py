"""Words Wizard Dodgeball's messages share: the actions by name and jerseys (lists are
companion/games/said.py's, said in the reader's language).

Spell names are said as printed on the English cards in every language (a proper
name on a card in the players' hands: docs/glossary/*.md, "Wizard Dodgeball"), so
``cards.TITLES`` are not translated; the words around them are.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.games.said import either, joined
from companion.i18n import C_, _

#: An action as a verb after "cannot" / "may still" (``"#21 cannot pass now"``).
VERB = {"throw": C_("verb", "throw"), "pass": C_("verb", "pass"), "cast": C_("verb", "cast")}


def jerseys(numbers: Iterable[int | None], none: str = "") -> str:
    """``"#21 #58"`` (a loose ball for None), or ``none`` when there is none."""
    said = [f"#{j}" if j is not None else _("a loose ball") for j in numbers]
    return joined(said, " ") if said else none


__all__ = ["VERB", "either", "jerseys", "joined"]
