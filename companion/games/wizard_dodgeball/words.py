"""Words Wizard Dodgeball's messages share: the actions by name, and lists said in the
reader's language (companion/i18n.py says each part at output).

Spell names are said as printed on the English cards in every language (a proper
name on a card in the players' hands: docs/glossary/*.md, "Wizard Dodgeball"), so
``cards.TITLES`` are not translated; the words around them are.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from companion.i18n import C_, Text, _

#: An action as a verb after "cannot" / "may still" (``"#21 cannot pass now"``).
VERB = {"throw": C_("verb", "throw"), "pass": C_("verb", "pass"), "cast": C_("verb", "cast")}


def joined(items: Sequence[object], sep: str = ", ") -> str:
    """``items`` one after another with ``sep`` between (punctuation every shipped
    language writes alike), each said in the reader's language (a :class:`Text` stays
    one); ``""`` when empty."""
    if not items:
        return ""
    first = items[0]
    out: str = first if isinstance(first, str) else str(first)
    for item in items[1:]:
        # Not a catalog message: no language needs other words for a comma; its parts
        # are said each in the reader's language.
        out = Text("{a}" + sep + "{b}", {"a": out, "b": item})
    return out


def either(items: Sequence[object]) -> str:
    """``"a, b or c"`` in the reader's language (``items`` not empty)."""
    if len(items) == 1:
        return joined(items)
    return _("{some} or {last}", some=joined(items[:-1]), last=items[-1])


def jerseys(numbers: Iterable[int | None], none: str = "") -> str:
    """``"#21 #58"`` (a loose ball for None), or ``none`` when there is none."""
    said = [f"#{j}" if j is not None else _("a loose ball") for j in numbers]
    return joined(said, " ") if said else none
