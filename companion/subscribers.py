"""A list of callbacks to tell about new values, for the table and the panel."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


class Subscribers(Generic[T]):
    """Callbacks called in order with each new value.

    They run on the publishing thread (the table's writer), so each must only
    hand the value on (enqueue, notify), never block. One that raises is
    logged and the others are still called: a broken output never stops the
    table.
    """

    def __init__(self) -> None:
        self._callbacks: list[Callable[[T], None]] = []

    def add(self, callback: Callable[[T], None]) -> Callable[[], None]:
        """Subscribe ``callback``; returns a function that unsubscribes it (idempotent)."""
        self._callbacks.append(callback)

        def remove() -> None:
            if callback in self._callbacks:
                self._callbacks.remove(callback)

        return remove

    def notify(self, value: T) -> None:
        for callback in list(self._callbacks):
            try:
                callback(value)
            except Exception:
                log.exception("subscriber %r failed", callback)
