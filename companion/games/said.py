"""Lists and sentences of marked messages kept translatable (companion/i18n.py): the
one place the games and the hall join words whose number is known only at the time.

``", ".join`` or ``" ".join`` of messages would leave plain English: these nest them
instead, so each part is said in the reader's language where the whole is said (a
chart's summary of one sentence per set, the wizards who may still act, the pairs
that meet again)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.i18n import Text, _


def sentences(said: Sequence[Text | str]) -> Text | str:
    """``said`` one after the other, a space between two (``"A. B."``); "" for none."""
    if not said:
        return ""
    whole = said[-1]
    for first in reversed(said[:-1]):
        whole = _("{sentence} {more}", sentence=first, more=whole)
    return whole



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


def listed(items: Sequence[object]) -> str:
    """``items`` one after the other, ``"a; b; c"``, each said in the reader's language
    and the separator too (French writes ``" ; "``); ``""`` for none."""
    if not items:
        return ""
    first = items[0]
    out: str = first if isinstance(first, str) else str(first)
    for item in items[1:]:
        out = _("{items}; {item}", items=out, item=item)
    return out
