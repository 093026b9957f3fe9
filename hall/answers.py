"""The hall's ``GET /api/tables`` answers: made once per change of the board, kept within bounds.

The board's view (hall/cards.py :class:`BoardView`) is put together once per
change; each answer drawn from it (the whole list, or a page: ``after``,
``limit``) is made once per change too, as a :class:`web.reads.Body` (strong
ETag, 304, gzip once), and served from memory until the board changes. Any
number of screens asking the same thing cost one making.

What a client can make the hall hold is bounded: only the newest change's
answers are kept, at most :data:`KEPT` of them and :data:`KEPT_BYTES` of
bodies (counted twice: a gzip copy may be made of each), the least recently
asked for going first; and making an answer not kept yet counts against a
:class:`web.reads.CostBudget` (per client address and in all), so asking
for page after new page cannot keep the hall's interpreter from its MQTT
thread. Connections, and the time to send a request, are bounded per address
by the server (app/connections.py), as for a table.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from urllib.parse import urlencode

from hall.cards import Board, BoardView
from web.reads import Body, CostBudget

#: Answers kept at most (of the newest change).
KEPT = 64
#: Bytes of kept bodies at most, each counted twice (its gzip copy); the newest is kept
#: whatever its size (the whole list of 500 tables is far below).
KEPT_BYTES = 4 * 1024 * 1024


def make_answer(view: BoardView, after: str | None, limit: int | None) -> Body:
    """The body of ``GET /api/tables`` with these parameters (None: not given)."""
    if after is None and limit is None:
        return Body(view.text.encode())
    text, more = view.page(after, limit)
    headers: tuple[tuple[str, str], ...] = ()
    if more is not None and limit is not None:
        query = urlencode({"after": more, "limit": limit})
        headers = (("Link", f'</api/tables?{query}>; rel="next"'),)  # i18n: not said
    return Body(text.encode(), headers=headers)


class TableAnswers:
    """The answers of ``GET /api/tables`` over ``board``. Safe from any thread."""

    def __init__(self, board: Board, budget: CostBudget | None = None, *,
                 kept: int = KEPT, kept_bytes: int = KEPT_BYTES) -> None:
        self.board = board
        self.budget = budget if budget is not None else CostBudget()
        self.kept, self.kept_bytes = kept, kept_bytes
        self._lock = threading.Lock()
        self._answers: OrderedDict[tuple[str | None, int | None], Body] = OrderedDict()
        #: The change number of the answers kept, and their bytes (counted twice).
        self._version = -1
        self._bytes = 0

    @property
    def held(self) -> tuple[int, int]:
        """``(answers, bytes)`` kept now (bytes counted as :data:`KEPT_BYTES` counts them)."""
        with self._lock:
            return len(self._answers), self._bytes

    def tables(self, after: str | None, limit: int | None) -> Body:
        """The answer to ``after`` and ``limit`` as of the board's newest change.

        web.reads.Refused when it is not kept and making it would go past the
        budget (an answer kept is served whatever the budget).
        """
        view = self.board.view()
        key = (after, limit)
        with self._lock:
            if view.version > self._version:  # older answers are never asked for again
                self._answers.clear()
                self._version, self._bytes = view.version, 0
            known = self._answers.get(key) if view.version == self._version else None
            if known is not None:
                self._answers.move_to_end(key)
                return known
        with self.budget.making():
            body = make_answer(view, after, limit)
        with self._lock:
            if view.version != self._version:  # the board moved on meanwhile: not kept
                return body
            known = self._answers.get(key)
            if known is not None:  # made twice at once: the first one stays
                return known
            self._answers[key] = body
            self._bytes += 2 * len(body.data)
            while len(self._answers) > 1 and (len(self._answers) > self.kept
                                              or self._bytes > self.kept_bytes):
                _, gone = self._answers.popitem(last=False)
                self._bytes -= 2 * len(gone.data)
            return body
