"""The hall's offer of this table's next match: read, checked, kept, and started on a press.

A club's hall board may run a tournament; it offers each table its next
match as one retained MQTT message on the table's offer topic (docs/api.md,
"Offers from the hall"). :func:`parse_offer` reads one: the offer's own
fields, then its start record checked by :meth:`StartRecord.create`, the
very check a start makes (so an offer shown as startable starts).

:class:`Offers` keeps the latest one in memory and nothing else: receiving
an offer never changes the table. It only starts with :meth:`Offers.start`,
which one OK on the OLED or one tap on the host page calls with the id of
the offer shown (the premise): an offer withdrawn or replaced meanwhile is
refused (:class:`OfferChanged`), and nothing starts. An offer is played once:
one the table finished a match of (its store says so) is refused too, whether
the hall is there to withdraw it or not (:func:`played_here`).

Any of these messages may carry the hall's ``rulings`` (companion/rulings.py):
its director's word on matches this table finished for its events, which
:attr:`Offers.rulings` holds for the table to lay on its history (they never
start anything, nor change an offer).

The hall may also tell the table that the game it plays was moved elsewhere
(a *withdrawal notice*, ``{"withdrawn": offer id, "reason": text}``): no offer
then, and :attr:`Offers.notice` says why, for the host page and the OLED.
"""

from __future__ import annotations

import json
import logging
import random
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.catalog import Catalog
from companion.errors import IllegalAction, InvalidAction
from companion.games.base import JSON
from companion.i18n import Text, _, message
from companion.json_input import NotText, not_text
from companion.match import ID_PATTERN, StartRecord
from companion.names import TEAM_JOIN
from companion.rulings import Ruling, parse_rulings
from companion.subscribers import Subscribers
from companion.table import Snapshot, Table

log = logging.getLogger(__name__)

#: The largest offer payload read (bytes); a longer one is refused unread.
MAX_OFFER = 8 * 1024
#: The latest ``sent_at`` an offer may carry: a Unix time (seconds), in the year 2286.
MAX_TIME = 10**10
#: What a start on an offer that is no longer the hall's latest is refused with.
OFFER_CHANGED = _("the hall's offer changed: look at it again")
#: What a second start of the offer the table's match was started from is refused with.
STARTED = _("this offer of the hall's was started already: its match is the one on the "
            "table")
#: The fields an offer's payload may hold.
FIELDS = frozenset({"offer", "event", "game", "options", "players", "sent_at"})
#: The longest withdrawal notice kept (characters).
MAX_NOTICE = 200
#: How a team's players are joined where a game is said in words.
JOIN = TEAM_JOIN


def played_here(match: int) -> Text:
    """What a start of an offer the table has finished ``match`` of is refused with."""
    return _("this offer was played at this table already (match {match}): a second play "
             "would not count", match=match)


def label(players: Sequence[str], sides: Sequence[int] = ()) -> str:
    """A game in words: ``Ann v Bob``, ``Ann & Cy v Bob & Dee`` (``sides``: each seat's
    side in a team game), ``Ann, Bob, Cy, Dee`` (every player for themselves)."""
    if len(players) == 1:
        return players[0]
    if not sides:
        return " v ".join(players) if len(players) == 2 else ", ".join(players)
    teams = {s: [p for p, t in zip(players, sides, strict=True) if t == s]
             for s in sorted(set(sides))}
    return " v ".join(JOIN.join(t) for t in teams.values())


def seat_sides(players: Sequence[str], options: Mapping[str, Any]) -> tuple[int, ...]:
    """Each seat's side when the prepared ``options`` seat teams (a ``teams`` option
    giving every seat a side, two sides or more, some side of two: doubles, one
    against two); ``()`` for one against one or every player for themselves."""
    teams = options.get("teams")
    if not isinstance(teams, list | tuple) or len(teams) != len(players) \
            or not all(type(t) is int for t in teams) or len(set(teams)) < 2 \
            or len(set(teams)) == len(teams):
        return ()
    return tuple(teams)
#: The fields of the event the offer names (its ``offer`` is the offer's id).
EVENT_FIELDS = frozenset({"id", "name", "round", "pairing"})


class OfferChanged(IllegalAction):
    """A start on an offer that was withdrawn or replaced since it was shown (409)."""


@dataclass(frozen=True)
class Offer:
    """One usable offer: its id, the start record it starts, when the hall sent it."""

    id: str
    #: ``{"game", "players", "options", "event"}``: what Table.start is given.
    record: Mapping[str, Any]
    #: The hall's clock when it sent the offer (Unix time; informative), or None.
    sent_at: float | None = None
    #: Each seat's side in a team game (:func:`seat_sides`), ``()`` otherwise.
    sides: tuple[int, ...] = ()

    @property
    def event(self) -> Mapping[str, Any]:
        return self.record["event"]

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.record["players"])

    @property
    def label(self) -> str:
        """Who plays, in words: ``Ann v Bob``, ``Ann & Bob v Hal & Zoë``."""
        return label(self.players, self.sides)

    def to_json(self) -> JSON:
        """As ``GET /api/offer`` shows it (docs/api.md)."""
        return {"offer": self.id, "game": self.record["game"],
                "players": list(self.record["players"]), "sides": list(self.sides),
                "label": self.label,
                "options": dict(self.record.get("options") or {}),
                "event": dict(self.event), "sent_at": self.sent_at}


def parse_offer(payload: bytes, catalog: Catalog) -> Offer:
    """The offer in ``payload`` (an MQTT message's bytes) of a game of ``catalog``, or
    InvalidAction saying why it cannot be used. Never anything else, whatever the bytes."""
    if len(payload) > MAX_OFFER:
        raise InvalidAction(_("an offer is at most {most} bytes; this one has {size}",
                              most=MAX_OFFER, size=len(payload)))
    try:
        body = json.loads(payload.decode("utf-8"))
    except UnicodeDecodeError:
        raise InvalidAction(_("an offer must be UTF-8 text")) from None
    except json.JSONDecodeError as err:
        raise InvalidAction(_("an offer must be JSON ({problem} at character {position})",
                              problem=err.msg, position=err.pos + 1)) from None
    except RecursionError:
        raise InvalidAction(_("an offer must be JSON nested a few levels at most")) from None
    except ValueError:
        # Not a JSONDecodeError (caught above): a whole number longer than Python turns
        # into an int (sys.get_int_max_str_digits(), 4300 by default).
        raise InvalidAction(_("an offer's numbers must have at most {most} digits",
                              most=sys.get_int_max_str_digits())) from None
    if not isinstance(body, dict):
        raise InvalidAction(_("an offer must be a JSON object"))
    if (where := not_text(body)) is not None:
        raise InvalidAction(_("the offer's {problem}", problem=message(NotText(where))))
    extra = sorted(set(body) - FIELDS)
    if extra:
        raise InvalidAction(_("an offer has no field {field}", field=repr(extra[0])))
    for key in ("offer", "event", "game", "players"):
        if key not in body:
            raise InvalidAction(_("the offer has no {field}", field=repr(key)))
    offer_id = body["offer"]
    if not isinstance(offer_id, str) or not ID_PATTERN.fullmatch(offer_id):
        raise InvalidAction(_("the offer's 'offer' must be 1-64 of A-Z, a-z, 0-9, _ and -"))
    event = body["event"]
    if not isinstance(event, dict):
        raise InvalidAction(_("the offer's 'event' must be a JSON object"))
    extra = sorted(set(event) - EVENT_FIELDS)
    if extra:
        raise InvalidAction(_("the offer's event has no field {field}", field=repr(extra[0])))
    sent_at = body.get("sent_at")
    # Compared, never converted first: a 4,000-digit whole number is JSON too, and no float.
    if sent_at is not None and (isinstance(sent_at, bool) or not isinstance(sent_at, int | float)
                                or not 0 <= sent_at <= MAX_TIME):
        raise InvalidAction(_("the offer's 'sent_at' must be a Unix time (a number "
                              "0-{most})", most=MAX_TIME))
    record = {"game": body["game"], "players": body["players"],
              "options": body.get("options"), "event": {**event, "offer": offer_id}}
    # The check a start makes, on a throwaway generator: its device decisions (a coin
    # flip) are made again, for real, when the offer is started.
    start = StartRecord.create(record, random.Random(0), catalog)
    checked = {"game": start.game, "players": list(start.players),
               "options": record["options"] or {}, "event": dict(start.event or {})}
    return Offer(offer_id, checked, None if sent_at is None else float(sent_at),
                 seat_sides(start.players, start.options))


def parse_notice(body: Any) -> str | None:
    """The reason of a withdrawal notice (``{"withdrawn": offer id, "reason": text}``),
    None when ``body`` is not one."""
    if not isinstance(body, dict) or set(body) != {"withdrawn", "reason"}:
        return None
    reason = body["reason"]
    if not isinstance(body["withdrawn"], str) or not isinstance(reason, str):
        return None
    reason = " ".join(reason.split())
    if not reason or not reason.isprintable():
        return None
    return reason if len(reason) <= MAX_NOTICE else reason[:MAX_NOTICE - 1] + "…"


class Offers:
    """The hall's latest offer to this table, as the broker last said it. Thread-safe.

    :meth:`receive` takes each message of the offer topic (on the MQTT
    client's thread); :meth:`forget` drops the offer when the broker is gone
    (the table cannot know it still stands). Subscribers are told of every
    change, on the thread that made it: they must only hand it on. An offer is of
    a game of ``catalog`` (the table's), or it cannot be used.
    """

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._lock = threading.Lock()
        self._offer: Offer | None = None
        self._problem: str | None = None
        self._notice: str | None = None
        self._unusable: bytes | None = None  # the last unusable payload logged
        self._rulings: tuple[Ruling, ...] = ()
        self._bad_rulings: bytes | None = None  # the last payload whose rulings were logged
        self._subscribers: Subscribers[Offers] = Subscribers()

    @property
    def current(self) -> Offer | None:
        """The usable offer, or None."""
        with self._lock:
            return self._offer

    @property
    def problem(self) -> str | None:
        """Why the hall's latest offer cannot be used, or None."""
        with self._lock:
            return self._problem

    @property
    def notice(self) -> str | None:
        """What the hall said when it withdrew the game this table plays (moved
        elsewhere), or None."""
        with self._lock:
            return self._notice

    @property
    def rulings(self) -> tuple[Ruling, ...]:
        """The hall's rulings its latest message carried (kept while the broker is away:
        they stand until the hall sends others)."""
        with self._lock:
            return self._rulings

    def subscribe(self, subscriber: Callable[[Offers], None]) -> Callable[[], None]:
        """Call ``subscriber(self)`` after every change; returns the unsubscriber."""
        return self._subscribers.add(subscriber)

    def receive(self, payload: bytes) -> None:
        """The offer topic's message: an offer, a withdrawal notice, or empty (withdrawn).
        Never raises."""
        offer: Offer | None = None
        problem: str | None = None
        fault: Exception | None = None
        whole = payload
        payload, rulings, bad = split_rulings(payload)
        with self._lock:
            ruled = tuple(rulings) != self._rulings
            self._rulings = tuple(rulings)
            if bad and whole != self._bad_rulings:
                self._bad_rulings = whole
                log.warning("the hall's rulings cannot all be taken: %s", "; ".join(bad))
        notice = _notice(payload)
        if notice is not None:
            with self._lock:
                changed = (self._offer, self._problem, self._notice) != (None, None, notice)
                self._offer = self._problem = None
                self._notice = notice
            if changed or ruled:
                log.info("the hall says: %s", notice)
                self._subscribers.notify(self)
            return
        if payload:
            try:
                offer = parse_offer(payload, self.catalog)
            except InvalidAction as err:
                problem = message(err)
            except Exception as err:  # a fault of ours: the offer is unusable, said so
                fault = err
                problem = _("it could not be read ({fault})", fault=type(err).__name__)
        with self._lock:
            if problem is not None and payload != self._unusable:
                # Once per payload, as a refusal is: a retained offer comes again at
                # every connection, and its traceback would each time.
                self._unusable = payload
                log.warning("the hall's offer cannot be used: %s", problem, exc_info=fault)
            elif problem is None:
                self._unusable = None
            changed = (offer, problem, None) != (self._offer, self._problem, self._notice)
            self._offer, self._problem, self._notice = offer, problem, None
        if changed and offer is not None:
            log.info("the hall offers %s (offer %s)", " v ".join(offer.players), offer.id)
        if changed or ruled:
            self._subscribers.notify(self)

    def forget(self) -> None:
        """No offer until the broker says one again (the connection is gone)."""
        with self._lock:
            changed = (self._offer, self._problem, self._notice) != (None, None, None)
            self._offer = self._problem = self._notice = None
        if changed:
            self._subscribers.notify(self)

    def start(self, table: Table, offer_id: object) -> Snapshot:
        """Start the offer whose id is ``offer_id`` through the table's start; on the
        table's writer thread. OfferChanged (nothing started) unless it is the latest."""
        offer = self.current
        if offer is None or not isinstance(offer_id, str) or offer.id != offer_id:
            raise OfferChanged(OFFER_CHANGED)
        match = table.snapshot.match
        if match is not None and (match.get("event") or {}).get("offer") == offer.id:
            # Finished and still offered: the hall has not seen the result yet.
            raise OfferChanged(STARTED)
        played = table.store.offer_played(offer.id)
        if played is not None:  # "Again", End, and the offer back: never a second play
            raise OfferChanged(played_here(played))
        return table.start(dict(offer.record))

    def to_json(self, played: Mapping[str, int] | None = None) -> JSON:
        """``{"offer": the usable offer or null, "problem": why the hall's latest
        cannot be used, or null, "played": the id of this table's finished match of it,
        or null (``played``: the table's finished matches by offer), "notice": the
        hall's word on withdrawing the game played here, or null}`` (``GET /api/offer``)."""
        with self._lock:
            offer = self._offer
            return {"offer": None if offer is None else offer.to_json(),
                    "problem": self._problem,
                    "played": None if offer is None or played is None
                    else played.get(offer.id),
                    "notice": self._notice}


def played_offers(results: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """The offers a table's last finished matches (Snapshot.results) were started from,
    each with its match id."""
    out: dict[str, int] = {}
    for r in results:
        offer = (r.get("event") or {}).get("offer")
        if isinstance(offer, str):
            out.setdefault(offer, r["match"])
    return out


def split_rulings(payload: bytes) -> tuple[bytes, list[Ruling], list[str]]:
    """``(the message without its rulings, the usable rulings, why others are not)`` of
    an offer topic's message: ``{"rulings": [...]}`` alone is no offer (``b""``), and
    a message without rulings is returned as it is, for the offer's own checks."""
    if not payload or len(payload) > MAX_OFFER or b'"rulings"' not in payload:
        return payload, [], []
    try:
        body = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return payload, [], []
    if not isinstance(body, dict) or "rulings" not in body:
        return payload, [], []
    rulings, problems = parse_rulings(body.pop("rulings"))
    rest = json.dumps(body, ensure_ascii=False).encode() if body else b""
    return rest, rulings, problems


def _notice(payload: bytes) -> str | None:
    if not payload or len(payload) > MAX_OFFER or b'"withdrawn"' not in payload:
        return None
    try:
        return parse_notice(json.loads(payload.decode("utf-8")))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
