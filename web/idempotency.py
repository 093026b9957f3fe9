"""Idempotency keys: a host request retried with the same key gets its first answer.

A host request may carry ``Idempotency-Key: <token>``. Its answer (the new
state, or the refusal) is remembered under the key; a retry with the same key
is answered the same without being applied again. The memory is touched only
on the table's writer thread, inside the same piece of work that applies the
change, so checking the key and applying the change are one step: a retry
queued behind its first attempt finds the first attempt's answer.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass

from companion.i18n import ENGLISH, Text, _, translate

#: Keys remembered (the newest); a host sends one at a time, so this is plenty.
REMEMBERED = 256
MAX_KEY = 255


@dataclass(frozen=True)
class Answer:
    """An HTTP answer made on the writer thread (no Flask there): status and JSON text."""

    status: int
    json_text: str
    #: Whether this is a remembered answer given again to a retry.
    replayed: bool = False

    @classmethod
    def refusal(cls, status: int, message: str, **more: object) -> Answer:
        """``{"error": message}`` and any ``more`` fields (a version mismatch: ``stale``,
        ``version``)."""
        return cls(status, json.dumps({"error": message, **more}, ensure_ascii=False))


def check_key(key: str) -> Text | None:
    """Why ``key`` is not a usable Idempotency-Key (None: it is)."""
    if not (0 < len(key) <= MAX_KEY and key.isascii() and key.isprintable() and " " not in key):
        return _("Idempotency-Key must be 1 to {most} visible ASCII characters (a random "
                 "UUID, say)", most=MAX_KEY)
    return None


class Answers:
    """The answers to the newest :data:`REMEMBERED` keyed requests. Writer thread only."""

    def __init__(self, size: int = REMEMBERED) -> None:
        self._size = size
        self._answers: OrderedDict[str, tuple[str, Answer]] = OrderedDict()

    def recall(self, key: str, request: str, lang: str = ENGLISH) -> Answer | None:
        """The answer given under ``key``, replayed; None if the key is new.

        ``request`` identifies what was asked (path and body): the same key
        with another request is refused (422) rather than answered wrongly, in ``lang``.
        """
        known = self._answers.get(key)
        if known is None:
            return None
        asked, answer = known
        if asked != request:
            return Answer.refusal(422, translate(_(
                "this Idempotency-Key was used for another request: use a new key for every "
                "new change"), lang))
        return Answer(answer.status, answer.json_text, replayed=True)

    def remember(self, key: str, request: str, answer: Answer) -> None:
        self._answers[key] = (request, answer)
        while len(self._answers) > self._size:
            self._answers.popitem(last=False)
