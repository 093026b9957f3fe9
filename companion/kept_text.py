"""Words kept in a database and said, later, in each reader's language (issue #40).

A match's summary line (companion/store.py), a club night's pairing "why" and a note
to the director (hall/night.py) are made once, in English, as a
:class:`companion.i18n.Text`, and read for weeks after, by a phone in one language, a
TV or a terminal in another. So they are kept as what they are, a message and its
placeholders (:func:`kept`, a JSON text for the database; :func:`revived` reads it
back), and said in a language only where they are shown (companion/i18n.py's
``translate``, or ``said`` for every ``Text`` inside an answer's JSON). A value kept
before messages were (an English text in an old database) reads back as that text, as
it is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from companion.i18n import Text

#: The keys of a kept message (short: a round of 256 pairings keeps one per pairing).
_ID, _PARAMS, _PLURAL, _N, _CONTEXT = "m", "p", "pl", "n", "c"


def to_json(value: Any) -> Any:
    """``value`` as JSON data: a :class:`Text` as ``{"m": msgid, "p": {...}, ...}`` (its
    placeholders, themselves kept so), anything else as it is."""
    if not isinstance(value, Text):
        return value
    out: dict[str, Any] = {_ID: value.msgid}
    if value.params:
        out[_PARAMS] = {k: to_json(v) for k, v in value.params}
    if value.plural is not None:
        out[_PLURAL], out[_N] = value.plural, value.n
    if value.context is not None:
        out[_CONTEXT] = value.context
    return out


def from_json(value: Any) -> Any:
    """What :func:`to_json` gave, back: a :class:`Text` again (anything else as it is;
    data that is not a kept message, or a malformed one, is never an error)."""
    if not isinstance(value, Mapping) or not isinstance(value.get(_ID), str):
        return value
    params = value.get(_PARAMS) or {}
    plural, n, context = value.get(_PLURAL), value.get(_N), value.get(_CONTEXT)
    if not isinstance(params, Mapping) or not isinstance(plural, str | None) \
            or not isinstance(n, int | None) or not isinstance(context, str | None):
        return value
    try:
        return Text(value[_ID], {str(k): from_json(v) for k, v in params.items()},
                    plural, n, context)
    except (KeyError, IndexError, ValueError):  # placeholders its params do not fill
        return value[_ID]


def kept(text: str) -> str:
    """``text`` as the database keeps it (a JSON text; :func:`revived` reads it)."""
    return json.dumps(to_json(text), ensure_ascii=False, separators=(",", ":"))


def revived(column: str) -> str:
    """The text :func:`kept` made of it, a :class:`Text` again; a column written before
    the hall kept messages (its English words) as it is."""
    try:
        value = json.loads(column)
    except (ValueError, RecursionError):
        return column
    value = from_json(value)
    return value if isinstance(value, str) else column


__all__ = ["from_json", "kept", "revived", "to_json"]
