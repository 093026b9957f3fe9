"""The clock that ends the panel's messages on their own.

A message on the OLED ("Undone", "Changed from a phone", a refusal) is news
about one moment: after :data:`~companion.panel.MESSAGE_SECONDS` it goes, so
it never sits over the board for the rest of a match. The panel decides what
may end and when (:meth:`~companion.panel.Panel.expire`); this only keeps the
time, on a timer thread that hands each check to the table's writer thread.
"""

from __future__ import annotations

import contextlib
import threading

from companion.panel import MESSAGE_SECONDS, Panel, PanelState
from companion.table import TableRunner


class NoticeClock:
    """Asks ``panel`` to end its message when its time is up. Subscribe :meth:`shown`
    to the panel's states (it runs on the writer thread); :meth:`close` is idempotent."""

    def __init__(self, panel: Panel, runner: TableRunner) -> None:
        self._panel, self._runner = panel, runner
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()
        self._closed = False

    def shown(self, state: PanelState) -> None:
        """A new panel state: if it has a message that ends on its own, make sure a
        check is coming (one at a time; the check sets the next one itself)."""
        if state.ui.message is not None and not state.ui.lasting:
            self._check_in(MESSAGE_SECONDS, only_if_idle=True)

    def _check_in(self, seconds: float, only_if_idle: bool = False) -> None:
        with self._lock:
            if self._closed or (only_if_idle and self._timer is not None):
                return
            self._timer = threading.Timer(seconds, self._due)
            self._timer.daemon = True
            self._timer.start()

    def _due(self) -> None:
        with self._lock:
            self._timer = None
        with contextlib.suppress(RuntimeError):  # the runner closed: shutting down
            self._runner.submit(lambda _: self._check())

    def _check(self) -> None:  # on the writer thread
        left = self._panel.expire()
        if left is not None:
            self._check_in(left)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
