"""JSON that comes from outside: a host's request, a director's, a match file, the hall's offer.

:func:`parse` reads such JSON into Python values or refuses it with a
ValueError whose text says why: text that is not JSON, ``NaN`` and
``Infinity`` (which JSON has not), arrays and objects nested deeper than
:data:`MAX_DEPTH` (checked on the text, so no nesting however deep reaches
the recursive parser), a number too long for Python to read, and a string
or key holding a lone surrogate (:class:`NotText`, naming the field).

What it returns is only JSON-shaped: each reader still checks every field's
type before it uses the value (:func:`companion.games.base.is_one_of`,
``integer``, ``choice``...).
"""

from __future__ import annotations

import json
from typing import Any

from companion.i18n import _

#: How deep arrays and objects may nest. Real bodies nest 4 levels at most (a
#: Dodgeball start record's dice); a hostile one nested thousands deep would
#: otherwise overflow the parser's recursion.
MAX_DEPTH = 32


class NotText(ValueError):
    """A JSON string held a lone surrogate (``"\\ud800"``): not a Unicode character.

    JSON's ``\\u`` escapes (and Python's decoder, which passes encoded
    surrogates through) let a sender write half of a UTF-16 pair; such a
    string cannot be encoded, stored or compared, so it is refused at the
    door instead of failing deep inside. ``where`` names the field.
    """

    def __init__(self, where: str) -> None:
        self.where = where
        super().__init__(_("{where} is not text: it holds a lone surrogate (half of a "
                           "UTF-16 pair, not a Unicode character)", where=where))


def parse(text: str | bytes) -> Any:
    """The JSON value of ``text``; ValueError saying why when it is not JSON, nests
    deeper than :data:`MAX_DEPTH`, or holds text that is not Unicode (NotText)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text.decode("utf-8", "replace") if isinstance(text, bytes) else text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                raise ValueError(_("the JSON nests deeper than {most} levels", most=MAX_DEPTH))
        elif char in "]}":
            depth -= 1
    # ValueError for what is not JSON, and for a number of more than 4,300 digits.
    value = json.loads(text, parse_constant=_no_constant)
    if (where := not_text(value)) is not None:
        raise NotText(where)
    return value


def _no_constant(name: str) -> Any:
    # Python's decoder takes NaN and Infinity, which JSON (RFC 8259) has not.
    raise ValueError(f"{name} is not a JSON value")


def _is_text(s: str) -> bool:
    if s.isascii():
        return True
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def not_text(value: Any) -> str | None:
    """The first field of ``value`` (parsed JSON, nested to any depth) whose text, or key,
    is not valid Unicode, as ``'players[1]'`` (``the body`` for a bare string); None
    when all of it is."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            if not _is_text(item):
                return repr(path) if path else _("the body")
        elif isinstance(item, list):
            stack.extend((v, f"{path}[{i}]") for i, v in reversed(list(enumerate(item))))
        elif isinstance(item, dict):
            for key in item:
                if not _is_text(key):
                    shown = key.encode("utf-8", "backslashreplace").decode()
                    return (_("the key {key} in {field}", key=repr(shown), field=repr(path))
                            if path else _("the key {key}", key=repr(shown)))
            stack.extend((v, f"{path}.{k}" if path else k) for k, v in reversed(item.items()))
    return None
