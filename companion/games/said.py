"""Sentences and lists of marked messages kept translatable (companion/i18n.py).

A chart's summary says a number of sentences known only when the match is read (one
per set, one per reason): joining them with ``" ".join`` would leave plain English.
These nest the messages instead, so each is said in the reader's language where the
whole is said, and a language may put its own separator between them."""

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


def listed(items: Sequence[Text | str]) -> Text | str:
    """``items`` as a list in a sentence, a comma between two (``"a, b, c"``)."""
    if not items:
        return ""
    whole = items[-1]
    for first in reversed(items[:-1]):
        whole = _("{item}, {more}", item=first, more=whole)
    return whole
