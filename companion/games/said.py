"""Sentences of marked messages kept translatable (companion/i18n.py).

A chart's summary says a number of sentences known only when the match is read (one
per set): joining them with ``" ".join`` would leave plain English.
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

