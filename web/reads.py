"""The reads that cost something: made once per change, served from memory, and bounded.

Play comes first. A read never takes the writer's lock (the store reads on
connections of its own, companion/store.py), and what a read draws from the
store is made once per change and kept: the history (brought up to date a
change at a time, never read whole again), its pages and searches, the
rematch, and each stored match's board, timeline and match file (kept while
the match is unchanged). Any number of phones asking the same thing after a
change cost one making; the rest are bytes from memory.

Each answer made here carries a strong ``ETag`` (a digest of its bytes): a
client that sends it back in ``If-None-Match`` gets 304 and no body
(werkzeug's conditional responses). A body
of 1 KB or more goes gzip-compressed to a client that accepts it, compressed
once and kept. ``Vary: Accept-Encoding`` and ``Cache-Control: no-cache`` (use
the copy, but ask first) go with each.

An answer that carries words (a timeline's labels, a board's, a player's chart) is
made and kept once per language asked for (web/i18n.py :func:`said`): its key holds
the language, its ETag is of its own bytes, and ``Vary`` names what chose the
language. The match files carry none and are kept once; the history is kept once, and
a page of it once per language where a game's summary line has words.

However many readers ask, they cannot starve the table's writer of the
interpreter: :class:`ReadGate` lets reads through one at a time and each
client address only a few waiting; past that the answer is 429 (that
address) or 503 (everyone) with ``Retry-After``, at once, so waiting reads
never hold all of the server's threads. The requests that are play (every
change, the state and the streams: :func:`plays_first`) pass the gate by,
and the server puts them ahead of the reads queued for a worker
(app/server.py).
"""

from __future__ import annotations

import bisect
import gzip
import hashlib
import json
import math
import threading
import time
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import accumulate
from operator import sub
from typing import Any
from urllib.parse import urlencode

from flask import Response, request

from companion import matchfile
from companion.catalog import Catalog
from companion.errors import StoreError, UnknownPlayer
from companion.games.chart import Chart, Series
from companion.i18n import ENGLISH, N_, Text, _, translate
from companion.integrity import replay_stored
from companion.names import fold, name_key
from companion.ratings import KeptRatings, Rating, Ratings, kept_table_ratings
from companion.store import ABANDONED, ACTIVE, FINISHED, MatchSummary, StoredMatch, iso_utc
from companion.table import Table, match_json
from companion.timeline import timeline
from web.guard import SECURITY_HEADERS
from web.i18n import current, of_environ, said
from web.memory import give_back

#: Bodies this big or bigger are sent gzip-compressed to a client that accepts it.
GZIP_FROM = 1024
#: Rows of the history one page holds at most (``limit``).
MAX_PAGE = 500
#: The longest search text (``q``).
MAX_QUERY = 100
#: Answers kept: pages of the history and the rematch (of the newest version), and
#: things drawn from stored matches (each while its match is unchanged).
PAGES_KEPT = 64
DRAWN_KEPT = 64
#: Seconds without a read after which what is kept is let go (Reads.forget).
FORGET_AFTER = 10.0


#: Reads that are play, not looking back: the state a phone shows and its streams, and
#: the hall's offer of the next match (held in memory: nothing to make).
PLAY_READS = frozenset({"/api/state", "/api/events", "/api/sim/events", "/api/offer"})


#: Play reads made from memory, waiting on nothing (no lock, no disk, no other thread):
#: the state's JSON, encoded once for each version. Not the hall's offer: it is read
#: under the offers' lock, which the broker's thread holds while it takes an offer in
#: (its log line included), and only the host's pages ask for it (every 3 s, and at
#: each change of the table).
AT_ONCE = frozenset({"/api/state"})


def answered_at_once(method: str, path: str) -> bool:
    """Whether a request's answer is made by the server's loop itself, not a worker:
    one that waits on nothing (:data:`AT_ONCE`). Handing it to a worker and back costs
    two threads woken, more than making it; every phone asks for the state."""
    return method in ("GET", "HEAD") and path in AT_ONCE


def plays_first(method: str, path: str) -> bool:
    """Whether a request is play: every change (the host's, the simulator's buttons, a
    login) and the phones' state and streams. The rest are reads that can wait."""
    return method not in ("GET", "HEAD") or path in PLAY_READS


class ReadGate:
    """WSGI middleware: reads answered ``running`` at a time, each address holding a few.

    Every read of the API that is not play (:func:`plays_first`) waits here for one of
    ``running`` places before the app sees it, so however many readers ask,
    only that many threads want the interpreter besides the table's writer
    and the requests that are play (a thread waiting on a lock does not). An
    address with ``per_address`` reads waiting or being answered gets 429 for
    its next; when ``waiting`` reads wait in all, or one has waited ``wait``
    seconds, the answer is 503; both at once, with ``Retry-After``, so
    waiting reads never hold all of the server's threads for reads (app/server.py
    has 8 for them, and 8 more for play), and the refused connection's
    next request is left unread that long. One at a time: a second reader
    thread busy in the interpreter beside the first only makes the writer
    wait longer for its turn (tests/bench/bench_reads.py). Safe from any thread.
    """

    def __init__(self, app: Callable[..., Any], running: int = 1, waiting: int = 10,
                 per_address: int = 8, wait: float = 3.0) -> None:
        self.app = app
        self.running, self.waiting, self.per_address, self.wait = (running, waiting,
                                                                   per_address, wait)
        self._busy = 0
        self._queued = 0
        self._by_address: dict[str, int] = {}
        self._changed = threading.Condition()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        path = environ.get("PATH_INFO", "")
        if plays_first(environ.get("REQUEST_METHOD", ""), path) or not path.startswith("/api/"):
            # Play, and the pages and their static files: those are cheap to answer, and
            # a phone opening a page asks for several at once; a burst of phones opening
            # the scoreboard together must not get 503 for a script. They are still
            # behind every change in the server's queue (app/server.py) and bounded per
            # address by the connection limits (app/connections.py).
            return self.app(environ, start_response)
        address = environ.get("REMOTE_ADDR") or "?"
        refused = self._enter(address)
        if refused is not None:
            return refusal(environ, *refused, RETRY_AFTER)(environ, start_response)
        try:
            # The answer is made by now (these reads' bodies are bytes in memory, a static
            # file an open file): sending it is the server's loop's, not a place's.
            return self.app(environ, start_response)
        finally:
            self._leave(address)

    def _enter(self, address: str) -> tuple[int, Text] | None:
        with self._changed:
            if self._by_address.get(address, 0) >= self.per_address:
                return (429, _("too many requests from {address} at once (at most {reads} "
                               "reads): wait for their answers, then ask again",
                               address=address, reads=self.per_address))
            if self._busy >= self.running and self._queued >= self.waiting:
                return 503, BUSY
            self._by_address[address] = self._by_address.get(address, 0) + 1
            self._queued += 1
            try:
                turn = self._changed.wait_for(lambda: self._busy < self.running, self.wait)
            finally:
                self._queued -= 1
            if not turn:
                self._forget(address)
                return 503, BUSY
            self._busy += 1
            return None

    def _leave(self, address: str) -> None:
        with self._changed:
            self._busy -= 1
            self._forget(address)
            self._changed.notify()

    def _forget(self, address: str) -> None:
        left = self._by_address[address] - 1
        if left:
            self._by_address[address] = left
        else:
            del self._by_address[address]


def refusal(environ: dict[str, Any], status: int, message: str, retry_after: int) -> Response:
    """``{"error": message}`` (said in the request's language) with ``status`` and
    ``Retry-After``, and the security headers (it is made outside Flask, before
    web/guard.py sees the answer); and under the server
    (app/server.py) the connection's next request is answered only after that time, so a
    client that asks again at once anyway costs nothing meanwhile."""
    response = Response(json.dumps({"error": translate(message, of_environ(environ))}),
                        status=status, mimetype="application/json",
                        headers={"Retry-After": str(retry_after),  # i18n: not said
                                 **dict(SECURITY_HEADERS)})
    rest = environ.get("companion.rest")
    if callable(rest):
        rest(retry_after)
    return response


BUSY = _("the table is busy answering other readers: try again in a moment")
#: Seconds a refused reader is told to wait (and its connection is left unread).
RETRY_AFTER = 1


class Refused(Exception):
    """An answer not made now: ``status`` (429: this address; 503: everyone), the message,
    and the seconds to wait."""

    def __init__(self, status: int, message: Text, retry_after: int) -> None:
        super().__init__(message)
        self.status, self.retry_after = status, retry_after


class CostBudget:
    """How much of the interpreter making answers may take, in all and per address.

    A leaky bucket of processor seconds each: what making an answer took is
    added, and ``share`` (in all) or ``per_address`` (one address) of every
    second drains away. While a bucket holds more than ``burst`` seconds, a
    request that would make an answer is refused (Refused 503, or 429 for
    the address's own) and one served from memory is not: the readers
    together cannot take the table's writer's interpreter, however many ask
    for things no one asked for before. Safe from any thread.
    """

    def __init__(self, share: float = 0.05, per_address: float = 0.025,
                 burst: float = 0.25) -> None:
        self.share, self.per_address, self.burst = share, per_address, burst
        self._lock = threading.Lock()
        self._total = (0.0, time.monotonic())
        self._by_address: dict[str, tuple[float, float]] = {}

    def _level(self, bucket: tuple[float, float], rate: float, now: float) -> float:
        level, since = bucket
        return max(0.0, level - rate * (now - since))

    def check(self, address: str) -> None:
        """Refused when making an answer now would go past the budget."""
        now = time.monotonic()
        with self._lock:
            mine = self._level(self._by_address.get(address, (0.0, now)), self.per_address,
                               now)
            if mine > self.burst:
                raise Refused(429, _("{address} asked for too much work at once: answers "
                                     "already made are served, new ones again in a moment",
                                     address=address),
                              math.ceil((mine - self.burst) / self.per_address))
            total = self._level(self._total, self.share, now)
            if total > self.burst:
                raise Refused(503, BUSY, math.ceil((total - self.burst) / self.share))

    def spent(self, address: str, seconds: float) -> None:
        """Count ``seconds`` of work done for ``address``."""
        now = time.monotonic()
        with self._lock:
            self._total = (self._level(self._total, self.share, now) + seconds, now)
            mine = self._level(self._by_address.get(address, (0.0, now)), self.per_address, now)
            self._by_address[address] = (mine + seconds, now)
            if len(self._by_address) > 1024:  # forget the drained ones
                self._by_address = {a: b for a, b in self._by_address.items()
                                    if self._level(b, self.per_address, now) > 0}

    @contextmanager
    def making(self) -> Iterator[None]:
        """Check, then count the processor time the block takes, for this request's address."""
        address = request.remote_addr or "?"
        self.check(address)
        began = time.thread_time()
        try:
            yield
        finally:
            self.spent(address, time.thread_time() - began)


@dataclass
class Body:
    """An answer made once: its bytes, type, headers and ETag; gzipped when first asked."""

    data: bytes
    mimetype: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()
    #: The language its words are said in (None: it has no words).
    language: str | None = None
    digest: str = ""
    _gzipped: bytes | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        self.digest = hashlib.blake2b(self.data, digest_size=12).hexdigest()

    def gzipped(self) -> bytes:
        with self._lock:  # compressed once, however many ask at the same moment
            if self._gzipped is None:
                # Level 1: most of the saving for a fraction of the time (a 1 MB history).
                self._gzipped = gzip.compress(self.data, 1, mtime=0)
            return self._gzipped

    def response(self) -> Response:
        """This body for the current request: gzip-compressed or as it is, with its
        strong ETag, made conditional by werkzeug (``make_conditional``: 304 and no
        body for a client whose ``If-None-Match`` names the ETag it would get)."""
        response = Response(mimetype=self.mimetype, headers=dict(self.headers))
        response.headers.update({
            "Vary": VARY if self.language is None else SAID_VARY,  # i18n: not said
            "Cache-Control": "no-cache"})  # i18n: not said
        if len(self.data) >= GZIP_FROM and request.accept_encodings["gzip"]:
            response.set_data(self.gzipped())
            response.headers["Content-Encoding"] = "gzip"  # i18n: not said
            response.set_etag(f"{self.digest}-gz")
        else:
            response.set_data(self.data)
            response.set_etag(self.digest)
        response.make_conditional(request)  # in place: 304 and no body on a match
        return response


#: What chooses an answer's bytes: its encoding, and for one with words its language
#: (web/i18n.py: the browser's languages, the cookie of the page's choice).
VARY, SAID_VARY = "Accept-Encoding", "Accept-Encoding, Accept-Language, Cookie"  # i18n: not said


def json_body(value: Any, headers: tuple[tuple[str, str], ...] = ()) -> Body:
    """``value`` as JSON, its words said in the request's language (kept per language)."""
    lang = current()
    return Body(json.dumps(said(value, lang), separators=(",", ":"),
                           ensure_ascii=False).encode(), headers=headers, language=lang)


class Rows:
    """The matches of the history as served, newest first, held column by column.

    Each column is one block of memory (``array``, ``bytes``), not an object or
    eight per match: what the history holds of 5,000 matches (about 2 MB) is
    then a dozen large blocks, which the C library's malloc gives back whole
    once the history is let go, rather than 40,000 small objects spread over
    Python's 1 MB arenas, where a few objects made by the load meanwhile keep
    each arena from the system long after the history is gone
    (docs/design.md, "Reads and play"). Made by :class:`RowsMaker`; never
    changed once made.
    """

    __slots__ = (
        "_entries",
        "_languages",
        "_neg",
        "_said",
        "_started",
        "_statuses",
        "_text_at",
        "_texts",
        "_words",
        "_words_at",
    )

    def __init__(self, neg: array[int], entries: array[int], started: array[float],
                 statuses: list[str], texts: bytes, text_at: array[int], words: bytes,
                 words_at: array[int], said: dict[int, Text],
                 languages: dict[tuple[int, str], bytes]) -> None:
        #: The ids, negated (rising, for bisect).
        self._neg = neg
        #: Each match's journal length, start time and status.
        self._entries, self._started, self._statuses = entries, started, statuses
        #: Each match's JSON text followed by a comma, one after the other, in UTF-8;
        #: ``_text_at`` holds where each begins, and the end.
        self._texts, self._text_at = texts, text_at
        #: What ``q`` searches in each (its players' names and its game's id and title,
        #: folded: companion.names.fold), in UTF-8, and where each begins, and the end.
        self._words, self._words_at = words, words_at
        #: The summary lines that have words to say (a message, companion/kept_text.py),
        #: by match id: :meth:`text_in` says them in each reader's language. The others
        #: are a bare score, the same in every language.
        self._said = said
        #: Those matches' JSON in each language asked for but English, made once, by
        #: (id, language): shared with the rows made from these (a changed match's go).
        self._languages = languages

    def __len__(self) -> int:
        return len(self._neg)

    def id(self, i: int) -> int:
        """The id of the match at ``i`` (0: the newest)."""
        return -self._neg[i]

    def status(self, i: int) -> str:
        return self._statuses[i]

    def ids_of(self, status: str) -> list[int]:
        """The ids of the matches with ``status``, newest first."""
        return [-self._neg[i] for i, s in enumerate(self._statuses) if s == status]

    def mark(self, i: int) -> tuple[str, int]:
        """What changes whenever the match at ``i`` does: its status and journal's length."""
        return self._statuses[i], self._entries[i]

    def index(self, match_id: int) -> int | None:
        """Where the match ``match_id`` is (None: not in the history)."""
        i = bisect.bisect_left(self._neg, -match_id)
        return i if i < len(self._neg) and self._neg[i] == -match_id else None

    @property
    def newest(self) -> int | None:
        """The newest match's id (None: there is none)."""
        return -self._neg[0] if self._neg else None

    def text(self, i: int) -> bytes:
        """The JSON of the match at ``i`` (``GET /api/history``'s row), UTF-8."""
        return self._texts[self._text_at[i]:self._text_at[i + 1] - 1]

    def text_in(self, i: int, lang: str) -> bytes:
        """The JSON of the match at ``i`` with its summary line said in ``lang``."""
        match_id = -self._neg[i]
        said = self._said.get(match_id)
        if said is None or lang == ENGLISH:
            return self.text(i)
        known = self._languages.get((match_id, lang))
        if known is None:
            value = json.loads(self.text(i))
            value["summary"] = translate(said, lang)
            known = self._languages.setdefault((match_id, lang), json.dumps(
                value, separators=(",", ":"), ensure_ascii=False).encode())
        return known

    def worded(self, indices: Iterable[int]) -> bool:
        """Whether a summary line of the matches at ``indices`` has words to say."""
        return bool(self._said) and any(-self._neg[i] in self._said for i in indices)

    def changed(self, ids: Iterable[int]) -> None:
        """Let go of what was said of the matches ``ids`` (they changed)."""
        gone = set(ids)
        for key in [k for k in self._languages if k[0] in gone]:
            self._languages.pop(key, None)

    def whole(self) -> bytes:
        """Every row as one JSON array (``GET /api/history`` with no parameters)."""
        if not self._texts:
            return b"[]"
        with memoryview(self._texts) as texts:  # one copy, not three
            return b"".join((b"[", texts[:-1], b"]"))

    def finished_marks(self, indices: Iterable[int] | None = None
                       ) -> tuple[tuple[float, int, int], ...]:
        """The finished matches (of those at ``indices``; None: all) in the order played,
        each as companion/ratings.py ``finished_mark`` tells it apart."""
        at = range(len(self)) if indices is None else indices
        return tuple(sorted((self._started[i], -self._neg[i], self._entries[i]) for i in at
                            if self._statuses[i] == FINISHED))

    def page(self, start: int, after: int | None, q: str, limit: int | None
             ) -> tuple[list[int], int | None]:
        """The rows from ``start`` on with an id above ``after`` matching every word of
        ``q``, at most ``limit``; and the cursor of the next page (None: no more)."""
        words = [w.encode() for w in fold(q).split()]
        found: list[int] = []
        for i in range(start, len(self)):
            if after is not None and -self._neg[i] <= after:
                break
            if words:
                said = self._words[self._words_at[i]:self._words_at[i + 1]]
                if not all(w in said for w in words):
                    continue
            if limit is not None and len(found) == limit:
                return found, -self._neg[found[-1]]
            found.append(i)
        return found, None

    def start(self, before: int | None) -> int:
        """Where the rows below the id ``before`` begin (None: from the newest)."""
        return 0 if before is None else bisect.bisect_right(self._neg, -before)


class RowsMaker:
    """:class:`Rows` made a match (or a run of another's) at a time, each column growing in
    one block: a history read from the store never holds its matches as objects."""

    def __init__(self, catalog: Catalog, languages: dict[tuple[int, str], bytes] | None = None
                 ) -> None:
        """``languages``: what the rows copied have said (:class:`Rows`), kept on."""
        self.catalog = catalog
        self._said: dict[int, Text] = {}
        self._languages = {} if languages is None else languages
        self._neg, self._entries = array("q"), array("q")
        self._started = array("d")
        self._statuses: list[str] = []
        self._texts, self._words = bytearray(), bytearray()
        self._text_lengths, self._words_lengths = array("q"), array("q")

    def add(self, m: MatchSummary) -> None:
        """The row of ``m``, its game's title read in the catalog (none for a game it
        does not know), after the rows added so far."""
        title = self.catalog.title(m.game) if m.game in self.catalog else ""
        words = fold("\n".join([*m.players, m.game, title])).encode()
        text = json.dumps(m.to_json(), separators=(",", ":"), ensure_ascii=False).encode()
        self._neg.append(-m.id)
        self._entries.append(m.entries)
        self._started.append(m.started_at)
        self._statuses.append(STATUSES.get(m.status, m.status))
        self._texts += text
        self._texts += b","
        self._text_lengths.append(len(text) + 1)
        self._words += words
        self._words_lengths.append(len(words))
        if isinstance(m.summary, Text):
            self._said[m.id] = m.summary

    def copy(self, rows: Rows, start: int, end: int) -> None:
        """The rows of ``rows`` from ``start`` to ``end`` (not included), as they are."""
        if start >= end:
            return
        if rows._said:  # the runs' ids are the ids from rows.id(end - 1) to rows.id(start)
            low, high = rows.id(end - 1), rows.id(start)
            self._said.update((k, v) for k, v in rows._said.items() if low <= k <= high)
        self._neg += rows._neg[start:end]
        self._entries += rows._entries[start:end]
        self._started += rows._started[start:end]
        self._statuses += rows._statuses[start:end]
        with memoryview(rows._texts) as texts:
            self._texts += texts[rows._text_at[start]:rows._text_at[end]]
        with memoryview(rows._words) as words:
            self._words += words[rows._words_at[start]:rows._words_at[end]]
        # Each length the difference of two offsets, taken in C (map of operator.sub).
        self._text_lengths.extend(map(sub, rows._text_at[start + 1:end + 1],
                                      rows._text_at[start:end]))
        self._words_lengths.extend(map(sub, rows._words_at[start + 1:end + 1],
                                       rows._words_at[start:end]))

    def made(self) -> Rows:
        """The rows added and copied, in that order."""
        return Rows(self._neg, self._entries, self._started, self._statuses,
                    bytes(self._texts), array("q", accumulate(self._text_lengths, initial=0)),
                    bytes(self._words), array("q", accumulate(self._words_lengths, initial=0)),
                    self._said, self._languages)


#: The statuses a match has, each one string shared by every row (the store reads a new
#: string for each).
STATUSES = {s: s for s in (ACTIVE, FINISHED, ABANDONED)}


def summary_marks(matches: Iterable[MatchSummary]) -> tuple[tuple[float, int, int], ...]:
    """The finished ones of ``matches`` in the order played, each as companion/ratings.py
    ``finished_mark`` tells it apart (as :meth:`Rows.finished_marks` does a row)."""
    return tuple(sorted((m.started_at, m.id, m.entries) for m in matches
                        if m.status == FINISHED))


@dataclass(frozen=True)
class History:
    """The history as of one committed change: its rows (newest first)."""

    epoch: int
    version: int
    rows: Rows
    #: The table's match when it was read (its changes are looked for next time).
    current: int | None
    #: The store's renames and merges when it was read (Store.roster): each rewrites names.
    roster: int = 0
    #: The finished matches in the order played, as the ratings tell them apart
    #: (companion/ratings.py finished_mark): start time, id, journal length.
    finished: tuple[tuple[float, int, int], ...] = ()


class Reads:
    """The costly reads of one table's store, each made once per change. Safe from any thread.

    What is kept is let go once no one has read for ``forget_after`` seconds
    (the history, its pages, the answers drawn from stored matches and from
    the ratings, the players' names), and its memory given back to the
    system (web/memory.py): what a burst of readers made does not stay with
    the table once they are gone (docs/design.md, "Reads and play"), and the
    next reader makes the history again (about 0.2 s of a core for 5,000
    matches). The ratings themselves are kept:
    rating every match again costs far more than they hold.
    """

    def __init__(self, table: Table, budget: CostBudget | None = None,
                 forget_after: float = FORGET_AFTER) -> None:
        self.table = table
        self.forget_after = forget_after
        #: When a read last came (time.monotonic()).
        self._asked = time.monotonic()
        #: Whether a thread waits to let go of what is kept (:meth:`_forget_when_idle`).
        self._watching = False
        self._watch_lock = threading.Lock()
        #: The table's games (its catalog): what the history and leaderboards name.
        self.catalog = table.catalog
        self.budget = budget if budget is not None else CostBudget()
        self._history: History | None = None
        self._history_lock = threading.Lock()
        self._pages: OrderedDict[tuple[Any, ...], Body] = OrderedDict()
        #: The (epoch, version) of the pages kept.
        self._pages_of: tuple[Any, ...] = ()
        self._drawn: OrderedDict[tuple[Any, ...], Body] = OrderedDict()
        self._lock = threading.Lock()
        #: The ratings kept up to date (companion/ratings.py KeptRatings).
        self._kept_ratings = KeptRatings()
        #: The ratings last made, the history they are of (the same history needs no
        #: check), and their serial number.
        self._ratings: tuple[Ratings, History | None, int] | None = None
        self._ratings_lock = threading.Lock()
        #: The players' names, and the history they are of (epoch, roster, newest id).
        self._names: tuple[tuple[int, int, int], list[str]] | None = None
        #: Answers drawn from the ratings, kept under the ratings' serial number.
        self._boards: OrderedDict[tuple[Any, ...], Body] = OrderedDict()

    # --- the history ------------------------------------------------------------------

    def history(self) -> History:
        """The history as of the table's version or newer, brought up to date once per change.

        A change only adds matches or changes the table's match, so only those
        are read again: new ids, the matches the history holds as active, its
        newest, and the table's match then and now (companion/table.py).
        """
        self._asked = time.monotonic()
        snapshot = self.table.snapshot
        known = self._history
        if known is not None and known.epoch == snapshot.epoch and \
                known.version >= snapshot.version:
            return known
        with self._history_lock:  # one reader reads it; the others then use it
            known = self._history
            if known is not None and known.epoch == snapshot.epoch and \
                    known.version >= snapshot.version:
                return known
            current = snapshot.match["id"] if snapshot.match else None
            store = self.table.store
            # Read before the rows: a rename between the two reads is seen next time.
            roster = store.roster
            if known is None or known.epoch != snapshot.epoch or known.roster != roster:
                # Each row made as it is read (store.summaries) into the columns: the
                # columns, not the rows and their decoded matches, are what it holds.
                maker = RowsMaker(self.catalog)
                version = store.summaries(0, (), maker.add)[0]
                rows = maker.made()
                finished = rows.finished_marks()
            else:
                old = known.rows
                newest = old.newest or 0
                watch = set(old.ids_of(ACTIVE))
                watch.update(i for i in (newest, known.current, current) if i is not None)
                version, summaries = store.summaries(newest, watch)
                added = [m for m in summaries if m.id > newest]
                # The changed matches where they are (one the history does not hold: left out).
                changed = sorted((i, m) for m in summaries if m.id <= newest
                                 and (i := old.index(m.id)) is not None)
                maker = RowsMaker(self.catalog, old._languages)
                for m in added:
                    maker.add(m)
                begin = 0
                for i, m in changed:
                    maker.copy(old, begin, i)
                    maker.add(m)
                    begin = i + 1
                maker.copy(old, begin, len(old))
                rows = maker.made()
                rows.changed(m.id for _i, m in changed)
                # The finished matches as the ratings read them: the same unless a result
                # came, went or changed (not at a point: the ratings' check stays cheap).
                finished = known.finished
                went = any(old.status(i) == FINISHED and old.mark(i) != (m.status, m.entries)
                           for i, m in changed)
                came = summary_marks([*added, *(m for i, m in changed
                                                if old.mark(i) != (m.status, m.entries))])
                if went or (came and finished and came[0] < finished[-1]):
                    finished = rows.finished_marks()  # the past changed: sorted again
                elif came:  # results played after the others: at the end
                    finished += came
            made = History(snapshot.epoch, version, rows, current, roster, finished)
            self._history = made
        self._watch()
        return made

    def history_page(self, before: int | None, after: int | None, q: str,
                     limit: int | None) -> Body:
        """``GET /api/history`` with these parameters (see docs/api.md)."""
        history = self.history()
        lang = current()
        key = ("history", history.epoch, history.version, before, after, q, limit, lang)

        def make() -> Body:
            rows = history.rows
            if before is None and after is None and limit is None and not fold(q).split():
                worded = rows.worded(range(len(rows)))
                if lang == ENGLISH or not worded:  # all of it as kept: English or no words
                    return Body(rows.whole(), language=lang if worded else None)
            found, more = rows.page(rows.start(before), after, q, limit)
            headers: tuple[tuple[str, str], ...] = ()
            if more is not None:
                asked = {"before": more, "after": after, "q": q or None, "limit": limit}
                query = urlencode({k: v for k, v in asked.items() if v is not None})
                headers = (("Link", f'</api/history?{query}>; rel="next"'),)  # i18n: not said
            # Its summary lines said in the reader's language, where a game's have words.
            worded = rows.worded(found)
            said = lang if worded else None
            return Body(b"[" + b",".join(rows.text_in(i, lang) for i in found) + b"]",
                        headers=headers, language=said)

        return self._kept(self._pages, PAGES_KEPT, key, make)

    def rematch(self) -> Body:
        """The start record of a rematch of the newest match (``GET /api/rematch``)."""
        history = self.history()
        key = ("rematch", history.epoch, history.version, current())
        newest = history.rows.newest
        return self._kept(self._pages, PAGES_KEPT, key, lambda: json_body(
            None if newest is None else self.catalog.rematch(self.table.store.start_of(newest))))

    # --- stored matches ---------------------------------------------------------------

    def board(self, match_id: int) -> Body:
        """A stored match replayed, as the state shows a match; StoreError if unknown."""
        return self._draw("board", match_id, current(), lambda s: json_body(
            match_json(replay_stored(s, self.catalog), s.id, s.status, self.catalog)))

    def timeline(self, match_id: int) -> Body:
        """A stored match's timeline; StoreError if unknown."""
        return self._draw("timeline", match_id, current(), lambda s: json_body(
            {"id": s.id, **timeline(replay_stored(s, self.catalog))}))

    def export(self, match_id: int) -> Body:
        """A stored match's match file; StoreError if unknown."""
        return self._draw("export", match_id, None, lambda s: Body(
            matchfile.export(s, self.catalog).encode(), "application/x-ndjson", (
                ("Content-Disposition",  # i18n: not said
                 f'attachment; filename="match-{match_id}.jsonl"'),)))

    def _draw(self, what: str, match_id: int, lang: str | None,
              draw: Callable[[StoredMatch], Body]) -> Body:
        """What ``draw`` makes of a stored match, kept while it is unchanged (per ``lang``,
        the language its words are said in; None: it has none)."""
        history = self.history()
        at = history.rows.index(match_id)
        if at is None:
            raise StoreError(_("there is no match {id}", id=match_id))
        key = (what, history.epoch, history.roster, match_id, history.rows.mark(at), lang)
        with self._lock:
            known = self._drawn.get(key)
        if known is not None:
            return known
        with self.budget.making():
            stored = self.table.store.load(match_id)
            body = draw(stored)
        # Kept under what was read: a change since the history was read is its own key.
        return self._keep(self._drawn, DRAWN_KEPT, (what, history.epoch, history.roster,
                                                     match_id,
                                                     (stored.status, len(stored.journal)),
                                                     lang),
                          body)

    # --- players and ratings ----------------------------------------------------------

    def ratings(self) -> Ratings:
        """The ratings of the finished matches (companion/ratings.py), brought up to date
        when the finished matches or the players' names change: not on every point.

        A match finished since costs its own update alone; only a change to the past
        (an undo of a result, a rename, a merge, an import among older matches) rates
        again, from the last checkpoint before it, in slices that leave the interpreter
        to the table's writer between them. Not charged to the reader who happens to ask
        first: made at most once per change, one reader making it while the others wait."""
        return self._rated()[1]

    def _rated(self) -> tuple[int, Ratings]:
        """The ratings and their serial number (one more whenever they change): the answers
        drawn from them are kept under it, so a point played (a new version, the same
        finished matches) makes none of them again."""
        history = self.history()
        known = self._ratings
        if known is not None and known[1] is history:  # nothing read since
            return known[2], known[0]
        with self._ratings_lock:
            known = self._ratings
            if known is not None and known[1] is history:
                return known[2], known[0]
            ratings = kept_table_ratings(self._kept_ratings, self.table.store, self.catalog,
                                         history.finished, (history.epoch, history.roster))
            serial = 0 if known is None else known[2] + (ratings is not known[0])
            self._ratings = (ratings, history, serial)
            return serial, ratings

    def players_page(self, game: str | None, offset: int, limit: int | None) -> Body:
        """``GET /api/players`` (docs/api.md): each game's leaderboard, or a page of one."""
        history = self.history()
        made, ratings = self._rated()
        # The names are the players' (most recently played first): they change when a match
        # starts (a new newest id) or a player is renamed (a new computation of the ratings).
        newest = history.rows.newest or 0
        key = ("players", made, newest, game, offset, limit, current())

        def make() -> Body:
            if game is not None:
                board = ratings.board(game)
                rows = board[offset:None if limit is None else offset + limit]
                headers: tuple[tuple[str, str], ...] = ()
                if limit is not None and offset + limit < len(board):
                    query = urlencode({"game": game, "offset": offset + limit, "limit": limit})
                    headers = (("Link", f'</api/players?{query}>; rel="next"'),)  # i18n: not said
                return json_body(leaderboard(self.catalog, game, rows, offset, len(board)),
                                 headers)
            return json_body({
                "games": [leaderboard(self.catalog, g, ratings.board(g)[:limit], 0,
                                      len(ratings.board(g)))
                          for g in self.catalog],
                "names": self.names(history)})

        return self._kept(self._boards, PAGES_KEPT, key, make)

    def names(self, history: History) -> list[str]:
        """The players' names, the most recently played first (Store.players): read again
        when a match starts or a player is renamed, not when a result comes."""
        key = (history.epoch, history.roster, history.rows.newest or 0)
        known = self._names
        if known is not None and known[0] == key:
            return known[1]
        names = [p.name for p in self.table.store.players()]
        self._names = (key, names)
        return names

    def ratings_of(self, game: str, names: list[str]) -> Body:
        """The leaderboard rows of ``names`` in ``game``, in that order (null: not rated yet
        in this game), for the scoreboard's ratings line."""
        keys = tuple(name_key(n) for n in names)
        made, ratings = self._rated()
        key = ("ratings", made, game, keys)  # no words: one for every language

        def make() -> Body:
            board = ratings.board(game)
            place = {r.key: (i, r) for i, r in enumerate(board)}
            rows = [None if k not in place else
                    {"place": place[k][0] + 1, **place[k][1].to_json()} for k in keys]
            return json_body({"game": game, "total": len(board), "players": rows})

        return self._kept(self._boards, PAGES_KEPT, key, make)

    def player(self, name: str) -> Body:
        """``GET /api/players/<name>``; UnknownPlayer if no one is called that."""
        made, ratings = self._rated()
        known = self.table.store.names()
        if name_key(name) not in known:
            raise UnknownPlayer(_("there is no player {name} at this table", name=repr(name)))
        key = ("player", made, name_key(name), current())
        return self._kept(self._boards, PAGES_KEPT, key, lambda: json_body(
            player_json(self.catalog, known[name_key(name)], ratings, known)))

    # --- what is kept -----------------------------------------------------------------

    def _kept(self, kept: OrderedDict[tuple[Any, ...], Body], size: int, key: tuple[Any, ...],
              make: Callable[[], Body]) -> Body:
        with self._lock:
            known = kept.get(key)
            if known is not None:
                kept.move_to_end(key)
                return known
        with self.budget.making():
            body = make()
        return self._keep(kept, size, key, body)

    def _keep(self, kept: OrderedDict[tuple[Any, ...], Body], size: int, key: tuple[Any, ...],
              body: Body) -> Body:
        with self._lock:
            if kept is self._pages and key[1:3] != self._pages_of:
                # Pages of an older version are never asked for again: only the newest kept.
                kept.clear()
                self._pages_of = key[1:3]
            known = kept.setdefault(key, body)  # made twice at once: the first one stays
            kept.move_to_end(key)
            while len(kept) > size:
                kept.popitem(last=False)
        self._watch()
        return known

    # --- letting go -------------------------------------------------------------------

    def _watch(self) -> None:
        """Make sure a thread will let go of what is kept once the reads stop."""
        with self._watch_lock:
            if self._watching:
                return
            self._watching = True
        threading.Thread(target=self._forget_when_idle, name="reads-forget",
                         daemon=True).start()

    def _forget_when_idle(self) -> None:
        """Wait until no read came for ``forget_after`` seconds, then :meth:`forget`."""
        while True:
            quiet = time.monotonic() - self._asked
            if quiet >= self.forget_after:
                break
            time.sleep(self.forget_after - quiet)
        with self._watch_lock:  # a keep from now on starts a new watch
            self.forget()
            self._watching = False
        # The store's reader connections hold pages of what was read (SQLite's cache).
        self.table.store.close_idle_readers()
        give_back()

    def holds(self) -> bool:
        """Whether anything is kept: the history, an answer or the players' names."""
        with self._lock:
            return bool(self._history is not None or self._names is not None or self._pages
                        or self._drawn or self._boards)

    def forget(self) -> None:
        """Let go of every answer kept, the history and the players' names (not the
        ratings); the next read makes what it needs again."""
        with self._lock:
            self._pages.clear()
            self._pages_of = ()
            self._drawn.clear()
            self._boards.clear()
            self._history = None
            self._names = None
        with self._ratings_lock:  # the ratings stay; the history they were checked against goes
            if self._ratings is not None:
                self._ratings = (self._ratings[0], None, self._ratings[2])


#: A player's page shows this many of their latest results per game, and of the players met.
RESULTS_SHOWN = 50
COMPANY_SHOWN = 5


def leaderboard(catalog: Catalog, game: str, rows: list[Rating], offset: int, total: int
                ) -> Any:
    """One game's leaderboard rows (from place ``offset + 1``) as ``/api/players`` sends it
    (its title from ``catalog``)."""
    return {"game": game, "title": catalog.title(game), "total": total, "offset": offset,
            "players": [{"place": offset + i + 1, **r.to_json()} for i, r in enumerate(rows)]}


def player_json(catalog: Catalog, name: str, ratings: Ratings, names: dict[str, str]) -> Any:
    """``GET /api/players/<name>``: the player's rating in each game played (its title from
    ``catalog``), its course, the latest results and the players met most often."""
    def shown(keys: Any) -> list[str]:
        return [names.get(k, k) for k in keys]

    games = []
    for game, r in ratings.of(name).items():
        board = ratings.board(game)
        games.append({
            "game": game, "title": catalog.title(game),
            "place": board.index(r) + 1, "of": len(board), **r.to_json(),
            # The shape every timeline chart has, so the phones draw it the same way.
            "chart": Chart(
                _("{name}: {game} rating", name=name, game=catalog.title(game)),
                _("match"), _("rating"),
                [Series(name, "player-0", [(i + 1, round(p.ordinal, 1))
                                           for i, p in enumerate(r.played)])],
                N_("{name}'s rating over {n} match of {game}, from {first} after the "
                   "first to {rating} now",
                   "{name}'s rating over {n} matches of {game}, from {first} after the "
                   "first to {rating} now", r.matches, name=name, game=catalog.title(game),
                   first=round(r.played[0].ordinal, 1),
                   rating=round(r.ordinal, 1))).to_json(),
            "results": [{"match": p.match, "at": iso_utc(p.at), "outcome": p.outcome,
                         "place": p.place + 1, "teams": p.teams,
                         "partners": shown(p.partners), "opponents": shown(p.opponents),
                         "rating": round(p.ordinal, 1)}
                        for p in reversed(r.played[-RESULTS_SHOWN:])],
            **{which: [{"name": names.get(k, k), "matches": n, "wins": w}
                       for k, n, w in r.company(which)[:COMPANY_SHOWN]]
               for which in ("partners", "opponents")},
        })
    return {"name": name, "games": games}
