"""The tables the hall board knows: one card per table, from untrusted MQTT messages.

Every message is treated as hostile until checked: its size is capped before
it is parsed, its topic is read with :meth:`Topics.parse` (a valid table id
or nothing), its JSON must have the shape of a summary
(:func:`companion.topics.summary_payload`), text is cut to length, a link is
kept only when it is an ``http``/``https`` address, and at most
:data:`MAX_TABLES` tables are kept (a new one on a full board takes the place
of the card heard from least recently, one not online first). A message that
fails is logged (at most once every :data:`COMPLAINT_EVERY` seconds, with a
count of the others) and ignored: it never changes a card.

Each change is numbered (the hall's own sequence, across all tables) and
handed to ``publish`` as one SSE message: ``table`` with the changed card,
``gone`` with ``{"id"}`` of a card removed (its table cleared its topics, or
gave its place on a full board), or ``tables`` with the whole list when
every card changes (the connection to the broker). A flood of tables costs
one small message each, never the whole list.

What is read is a :class:`BoardView`: the board as of one change number, its
cards' JSON (each encoded once, when it changed) put together once, when
first asked for after a change.
"""

from __future__ import annotations

import bisect
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from companion.games.base import JSON
from companion.headline import MAX_TEXT
from companion.i18n import C_, LANGUAGES, translate
from companion.topics import AVAILABILITY, OFFLINE, ONLINE, SUMMARY, Topics, dumps

log = logging.getLogger(__name__)

#: The hall's link to the broker before the first connection, and while connected with
#: nothing refused (``broker`` holds these English words: the pages compare them).
CONNECTING, CONNECTED = C_("broker", "connecting"), C_("broker", "connected")

#: Larger payloads are not parsed (a summary of any game is under 2 KB).
MAX_PAYLOAD = 64 * 1024
#: Tables kept at most; past this a new table takes the place of another (Board._make_room).
MAX_TABLES = 500
#: A malformed message is logged at most this often (seconds); the rest are counted.
COMPLAINT_EVERY = 10.0
#: Bounds of a card's parts: sides, score cells per side, a URL's length.
MAX_SIDES, MAX_CELLS, MAX_URL = 8, 16, 2048
#: The summary fields a card keeps (companion.headline.headline's keys).
TEXT_FIELDS = ("title", "status", "players", "score", "turn", "winner")
#: What the broker refuses a table, as its summary says (drivers/refusals.py): at most
#: this many entries of ``{"what", "reason", "acl"}`` are kept.
MAX_REFUSED = 6

#: The log's line when a full board gives a card's place to a new table.
_FULL = ("the hall shows at most %d tables: table %r took the place of %r, "  # i18n: not said
         "heard from least recently (more tables than places: can a client write other "
         "tables' topics? See the broker's ACL in README.md)")
#: Where each change goes: (version, event name, JSON text).
Publish = Callable[[int, str, str], None]


class Malformed(ValueError):
    """A message that is not what a table publishes; its text says why."""


def _text(value: Any, what: str, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str):
        raise Malformed(f"{what} is not text")  # i18n: not said
    value = value if len(value) <= limit else value[:limit - 1] + "…"
    try:
        # JSON can spell a lone surrogate ("\ud800"): no page or stream could
        # send it (UTF-8 has no such character), so the message is not a table's.
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise Malformed(
            f"{what} holds a lone surrogate (not Unicode text)") from None  # i18n: not said
    return value


def _texts(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or len(value) > MAX_CELLS:
        raise Malformed(f"{what} is not a list of at most {MAX_CELLS} texts")  # i18n: not said
    return [_text(v, what, 24) for v in value]


def safe_url(value: Any) -> str | None:
    """``value`` if it is an absolute http(s) address a page may link to, else None."""
    if not isinstance(value, str) or len(value) > MAX_URL or not value.isprintable():
        return None
    try:
        parts = urlsplit(value)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return value


def read_summary(payload: bytes) -> tuple[str | None, str | None, int, JSON]:
    """``(name, url, version, summary)`` of a summary payload; Malformed if it is not one.

    ``summary`` holds :func:`companion.headline.headline`'s fields, checked
    and cut to length; ``url`` is None unless it is an http(s) address.
    """
    try:
        body = json.loads(payload)
    except (ValueError, RecursionError) as err:
        raise Malformed(f"not JSON ({err})") from None  # i18n: not said
    if not isinstance(body, dict):
        raise Malformed("not a JSON object")  # i18n: not said
    table = body.get("table")
    if not isinstance(table, dict):
        raise Malformed("no table object")  # i18n: not said
    name = table.get("name")
    name = _text(name, "table.name", 64) if name is not None else None
    version = body.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise Malformed("version is not a whole number")  # i18n: not said
    game = body.get("game")
    if game is not None:
        game = _text(game, "game", 40)
    summary: JSON = {"game": game}
    for field in TEXT_FIELDS:
        summary[field] = _text(body.get(field), field)
    summary["columns"] = _texts(body.get("columns"), "columns")
    sides = body.get("sides")
    if not isinstance(sides, list) or len(sides) > MAX_SIDES:
        raise Malformed(f"sides is not a list of at most {MAX_SIDES}")  # i18n: not said
    summary["sides"] = []
    for side in sides:
        if not isinstance(side, dict):
            raise Malformed("a side is not an object")  # i18n: not said
        turn, winner = side.get("turn"), side.get("winner")
        if not isinstance(turn, bool) or not isinstance(winner, bool):
            raise Malformed("a side's turn or winner is not true or false")  # i18n: not said
        summary["sides"].append({"name": _text(side.get("name"), "a side's name"),
                                 "score": _texts(side.get("score"), "a side's score"),
                                 "turn": turn, "winner": winner})
    summary["refused"] = _refused(body.get("refused", []))
    return name, safe_url(table.get("url")), version, summary


def _refused(value: Any) -> list[JSON]:
    """The summary's ``refused`` list (absent: a table from before it was sent), checked."""
    if not isinstance(value, list) or len(value) > MAX_REFUSED:
        raise Malformed(f"refused is not a list of at most {MAX_REFUSED}")  # i18n: not said
    out = []
    for entry in value:
        if not isinstance(entry, dict):
            raise Malformed("a refusal is not an object")  # i18n: not said
        out.append({key: _text(entry.get(key), f"a refusal's {key}", 200)
                    for key in ("what", "reason", "acl")})
    return out


class Complaints:
    """Logs problems at most once every ``every`` seconds, counting the ones it kept quiet."""

    def __init__(self, every: float = COMPLAINT_EVERY,
                 clock: Callable[[], float] = time.monotonic, prefix: str = "ignored: ") -> None:
        self.every, self._clock, self._prefix = every, clock, prefix
        self._last = -every
        self.count = 0
        self._quiet = 0

    def __call__(self, message: str, *args: object) -> None:
        self.count += 1
        now = self._clock()
        if now - self._last < self.every:
            self._quiet += 1
            return
        quiet, self._quiet, self._last = self._quiet, 0, now
        log.warning(self._prefix + message + (f" ({quiet} more like it before this)"
                                              if quiet else ""), *args)


@dataclass(frozen=True)
class BoardView:
    """The board as of change number ``version``, encoded once and never changed.

    ``text`` is the whole ``GET /api/tables`` body, cards by name then id;
    :meth:`page` gives the cards in the order of their ids, a stable cursor:
    a table's id never changes, so cards that come or go never move the
    others from one page to another.
    """

    version: int
    #: The body's start, up to the cards:
    #: ``{"broker":...,"broker_words":...,"connected":...,"tables":[``.
    head: str
    #: Every card's table id, in order, and the card's JSON text in the same order.
    ids: tuple[str, ...]
    texts: tuple[str, ...]
    #: The whole list, by name then id.
    text: str

    @classmethod
    def of(cls, version: int, broker: str, connected: bool, cards: dict[str, JSON],
           texts: dict[str, str]) -> BoardView:
        # One stream for every screen, each in its own language: the status's words in
        # every shipped one (``broker`` itself stays the log's English, for programs).
        words = {lang: translate(broker, lang) for lang in LANGUAGES}
        head = dumps({"broker": broker, "broker_words": words, "connected": connected,
                      "tables": []})[:-2]
        ids = tuple(sorted(cards))
        by_name = sorted(ids, key=lambda t: (cards[t]["name"], t))
        return cls(version, head, ids, tuple(texts[t] for t in ids),
                   head + ",".join(texts[t] for t in by_name) + "]}")

    def page(self, after: str | None, limit: int | None) -> tuple[str, str | None]:
        """The body holding the cards whose ids come after ``after`` (all without it), in
        id order, at most ``limit``; and the id to ask after for the next page (None: no
        more)."""
        start = 0 if after is None else bisect.bisect_right(self.ids, after)
        end = len(self.ids) if limit is None else min(len(self.ids), start + limit)
        more = self.ids[end - 1] if end < len(self.ids) else None
        return self.head + ",".join(self.texts[start:end]) + "]}", more


class Board:
    """Every table's card, the hall's connection to the broker, and the change numbers.

    Fed by one thread (the MQTT client's: :meth:`receive`, :meth:`connection`);
    read by any (:meth:`json_text`, :meth:`first`). ``publish`` is called on
    the feeding thread after each change, in order.
    """

    def __init__(self, prefix: str, publish: Publish | None = None, *,
                 max_tables: int = MAX_TABLES, clock: Callable[[], float] = time.time) -> None:
        self.prefix = prefix
        self.max_tables = max_tables
        self._publish = publish or (lambda version, event, text: None)
        self._clock = clock
        self._lock = threading.Lock()
        self._cards: dict[str, JSON] = {}
        #: Each card's JSON text, made when the card changed.
        self._card_texts: dict[str, str] = {}
        self._view: BoardView | None = None
        self._version = 0
        self._broker: str = CONNECTING
        self._connected = False
        #: Every card's table, the one heard from least recently first.
        self._heard: OrderedDict[str, None] = OrderedDict()
        self.complain = Complaints()
        #: Said when a full board gives a card's place to a new table.
        self.full = Complaints(prefix="")

    # --- reading -----------------------------------------------------------------

    def _view_now(self) -> BoardView:
        """The view of the current change number (under the lock), made at most once."""
        view = self._view
        if view is None or view.version != self._version:
            view = self._view = BoardView.of(self._version, self._broker, self._connected,
                                             self._cards, self._card_texts)
        return view

    def view(self) -> BoardView:
        """The board as it is now: made once per change, whoever asks and however often."""
        with self._lock:
            return self._view_now()

    def json_text(self) -> str:
        """The ``GET /api/tables`` body: ``{"broker", "connected", "tables": [card...]}``."""
        return self.view().text

    def first(self) -> tuple[int, str]:
        """``(version, json_text())`` as one: the list as it was at that change number."""
        view = self.view()
        return view.version, view.text

    @property
    def connected(self) -> bool:
        return self._connected

    def __len__(self) -> int:
        return len(self._cards)

    # --- feeding -----------------------------------------------------------------

    def connection(self, connected: bool, status: str) -> None:
        """The hall's own link to the broker changed: ``status`` is its short text.

        On a new connection every card is last known (``fresh`` false) until
        its table's summary or availability arrives on it: a broker that lost
        a table's retained messages gives nothing, and that card must not
        pass for current while its table is still on its way back.
        """
        with self._lock:
            if (connected, status) == (self._connected, self._broker):
                return
            if connected and not self._connected:
                for table, card in self._cards.items():
                    if card["fresh"]:
                        card["fresh"] = False
                        self._card_texts[table] = dumps(card)
            self._connected, self._broker = connected, status
            self._version += 1
            version, text = self._version, self._view_now().text
        self._publish(version, "tables", text)

    def receive(self, topic: str, payload: bytes) -> None:
        """One MQTT message under the prefix; anything wrong with it is logged and ignored."""
        if len(payload) > MAX_PAYLOAD:
            self.complain("%d bytes on %r (more than %d)",  # i18n: not said
                          len(payload), topic[:200], MAX_PAYLOAD)
            return
        parsed = Topics.parse(self.prefix, topic)
        if parsed is None:
            self.complain("topic %r is not a table's", topic[:200])  # i18n: not said
            return
        table, leaf = parsed
        try:
            if leaf == SUMMARY:
                self._summary(table, payload)
            elif leaf == AVAILABILITY:
                self._availability(table, payload)
            else:
                self.complain("topic %r is not one the hall reads", topic[:200])  # i18n: not said
        except Malformed as err:
            self.complain("%s on %r", err, topic[:200])
        except Exception as err:  # no message may stop the hall's thread
            # Not a shape read_summary knows to refuse: still the message's fault (the
            # card was changed only after its JSON was made), so said and dropped.
            self.complain("%s on %r: %s", type(err).__name__, topic[:200], err)

    def _summary(self, table: str, payload: bytes) -> None:
        if not payload:  # the retained summary cleared: the table is gone
            self._forget(table)
            return
        name, url, version, summary = read_summary(payload)
        self._change(table, name=name or table, url=url, version=version, summary=summary)

    def _availability(self, table: str, payload: bytes) -> None:
        if payload in (ONLINE.encode(), OFFLINE.encode()):
            self._change(table, online=payload == ONLINE.encode())
        elif not payload:  # cleared (a renamed or retired table): gone with its summary
            self._forget(table)
        else:
            raise Malformed(f"availability is neither {ONLINE!r} nor {OFFLINE!r}")  # i18n: not said

    def _change(self, table: str, **fields: Any) -> None:
        with self._lock:
            card = self._cards.get(table)
            new = card is None
            if card is None:
                card = {"id": table, "name": table, "url": None, "online": None,
                        "version": None, "summary": None, "seen": None, "fresh": True}
            # The same message again (a retained one delivered on a new subscription,
            # or a table's republish after a reconnection) says the table is there,
            # not that it changed: the card keeps the time of its last change.
            changed = dict(card, **fields, fresh=True)
            if any(card.get(k) != v for k, v in fields.items()) or card["seen"] is None:
                changed["seen"] = round(self._clock(), 3)
            elif card["fresh"]:
                self._heard.move_to_end(table)
                return  # nothing new at all
            # Made before anything is kept: a card the pages could not be sent is
            # never stored, and the table's last good card stays.
            text = dumps(changed)
            text.encode("utf-8")
            messages = []
            if new and (gone := self._make_room(table)) is not None:
                self._version += 1
                messages.append((self._version, "gone", dumps({"id": gone})))
            self._cards[table] = changed
            self._card_texts[table] = text
            self._heard[table] = None
            self._heard.move_to_end(table)
            self._version += 1
            messages.append((self._version, "table", text))
        for message in messages:
            self._publish(*message)

    def _make_room(self, table: str) -> str | None:
        """The card that gives its place to new ``table`` on a full board (under the lock).

        The rule (README "The hall board"): the card heard from least recently
        among those not online (offline, or never said online), else the card
        heard from least recently. A burst of made-up tables from a client that
        may write other tables' topics can then not keep a table that arrives
        later off the board: it takes a place at its first message, and any
        table put out comes back with its next one.
        """
        if len(self._cards) < self.max_tables:
            return None
        victim = next((t for t in self._heard if self._cards[t]["online"] is not True),
                      next(iter(self._heard)))
        del self._cards[victim], self._card_texts[victim], self._heard[victim]
        self.full(_FULL, self.max_tables, table, victim)
        return victim

    def _forget(self, table: str) -> None:
        with self._lock:
            if self._cards.pop(table, None) is None:
                return
            del self._card_texts[table], self._heard[table]
            self._version += 1
            version = self._version
        self._publish(version, "gone", dumps({"id": table}))
