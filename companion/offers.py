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
refused (:class:`OfferChanged`), and nothing starts.
"""

from __future__ import annotations

import json
import logging
import math
import random
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.catalog import Catalog
from companion.errors import IllegalAction, InvalidAction
from companion.games.base import JSON
from companion.match import ID_PATTERN, StartRecord
from companion.subscribers import Subscribers
from companion.table import Snapshot, Table

log = logging.getLogger(__name__)

#: The largest offer payload read (bytes); a longer one is refused unread.
MAX_OFFER = 8 * 1024
#: What a start on an offer that is no longer the hall's latest is refused with.
OFFER_CHANGED = "the hall's offer changed: look at it again"
#: What a second start of the offer the table's match was started from is refused with.
STARTED = "this offer of the hall's was started already: its match is the one on the table"
#: The fields an offer's payload may hold.
FIELDS = frozenset({"offer", "event", "game", "options", "players", "sent_at"})
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

    @property
    def event(self) -> Mapping[str, Any]:
        return self.record["event"]

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.record["players"])

    def to_json(self) -> JSON:
        """As ``GET /api/offer`` shows it (docs/api.md)."""
        return {"offer": self.id, "game": self.record["game"],
                "players": list(self.record["players"]),
                "options": dict(self.record.get("options") or {}),
                "event": dict(self.event), "sent_at": self.sent_at}


def parse_offer(payload: bytes, catalog: Catalog) -> Offer:
    """The offer in ``payload`` (an MQTT message's bytes) of a game of ``catalog``, or
    InvalidAction saying why it cannot be used. Never anything else, whatever the bytes."""
    if len(payload) > MAX_OFFER:
        raise InvalidAction(f"an offer is at most {MAX_OFFER} bytes; this one has "
                            f"{len(payload)}")
    try:
        body = json.loads(payload.decode("utf-8"))
    except UnicodeDecodeError:
        raise InvalidAction("an offer must be UTF-8 text") from None
    except json.JSONDecodeError as err:
        raise InvalidAction(f"an offer must be JSON ({err.msg} at character "
                            f"{err.pos + 1})") from None
    except RecursionError:
        raise InvalidAction("an offer must be JSON nested a few levels at most") from None
    if not isinstance(body, dict):
        raise InvalidAction("an offer must be a JSON object")
    extra = sorted(set(body) - FIELDS)
    if extra:
        raise InvalidAction(f"an offer has no field {extra[0]!r}")
    for key in ("offer", "event", "game", "players"):
        if key not in body:
            raise InvalidAction(f"the offer has no {key!r}")
    offer_id = body["offer"]
    if not isinstance(offer_id, str) or not ID_PATTERN.fullmatch(offer_id):
        raise InvalidAction("the offer's 'offer' must be 1-64 of A-Z, a-z, 0-9, _ and -")
    event = body["event"]
    if not isinstance(event, dict):
        raise InvalidAction("the offer's 'event' must be a JSON object")
    extra = sorted(set(event) - EVENT_FIELDS)
    if extra:
        raise InvalidAction(f"the offer's event has no field {extra[0]!r}")
    sent_at = body.get("sent_at")
    if sent_at is not None and (isinstance(sent_at, bool) or not isinstance(sent_at, int | float)
                                or not math.isfinite(sent_at)):
        raise InvalidAction("the offer's 'sent_at' must be a Unix time (a number)")
    record = {"game": body["game"], "players": body["players"],
              "options": body.get("options"), "event": {**event, "offer": offer_id}}
    # The check a start makes, on a throwaway generator: its device decisions (a coin
    # flip) are made again, for real, when the offer is started.
    start = StartRecord.create(record, random.Random(0), catalog)
    checked = {"game": start.game, "players": list(start.players),
               "options": record["options"] or {}, "event": dict(start.event or {})}
    return Offer(offer_id, checked, None if sent_at is None else float(sent_at))


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
        self._unusable: bytes | None = None  # the last unusable payload logged
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

    def subscribe(self, subscriber: Callable[[Offers], None]) -> Callable[[], None]:
        """Call ``subscriber(self)`` after every change; returns the unsubscriber."""
        return self._subscribers.add(subscriber)

    def receive(self, payload: bytes) -> None:
        """The offer topic's message: an offer, or empty (withdrawn). Never raises."""
        offer: Offer | None = None
        problem: str | None = None
        if payload:
            try:
                offer = parse_offer(payload, self.catalog)
            except InvalidAction as err:
                problem = str(err)
            except Exception as err:  # a fault of ours: the offer is unusable, said so
                log.exception("reading the hall's offer failed")
                problem = f"it could not be read ({type(err).__name__})"
        with self._lock:
            if problem is not None and payload != self._unusable:
                self._unusable = payload
                log.warning("the hall's offer cannot be used: %s", problem)
            elif problem is None:
                self._unusable = None
            changed = (offer, problem) != (self._offer, self._problem)
            self._offer, self._problem = offer, problem
        if changed:
            if offer is not None:
                log.info("the hall offers %s (offer %s)", " v ".join(offer.players), offer.id)
            self._subscribers.notify(self)

    def forget(self) -> None:
        """No offer until the broker says one again (the connection is gone)."""
        with self._lock:
            changed = self._offer is not None or self._problem is not None
            self._offer = self._problem = None
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
        return table.start(dict(offer.record))

    def to_json(self) -> JSON:
        """``{"offer": the usable offer or null, "problem": why the hall's latest
        cannot be used, or null}`` (``GET /api/offer``)."""
        with self._lock:
            return {"offer": None if self._offer is None else self._offer.to_json(),
                    "problem": self._problem}
