"""What the broker refuses a table, kept by the ACL line that would grant it.

A broker's ACL can refuse a table what it publishes while its connection
stands: a table renamed in its config whose user may not write the new id's
topics, or may not clear the old id's, an ACL without the Home Assistant
line. MQTT v5 says so in the acknowledgement: Mosquitto answers a refused
QoS 1 publish with a PUBACK whose reason code is "Not authorized" (under
MQTT 3.1.1 it answers a plain PUBACK and drops the message: a refusal cannot
be seen, which is why the table speaks v5), and a refused subscription with
a SUBACK that says so. A QoS 0 publish has no acknowledgement; each of the
table's QoS 0 topics shares its ACL line with QoS 1 ones (``state`` and
``summary`` with ``availability``), which speak for it.

:class:`Refusals` keeps each topic's latest answer and groups the refused
topics by :class:`Scope`, the ACL line that grants them (the table's own
``P/T/#``, its Home Assistant configs, an old id being cleared, the hall's
offer topic). A scope is refused from the first refusal of one of its topics
until every topic of it refused is taken again: an *episode*, said once as
it starts (the reason and the ACL line to add) and once as it ends, however
many messages it refuses. Pure bookkeeping: the publisher (drivers/mqtt.py)
logs, shows and retries.

The hall's own publishes (the club night's offers, hall/listener.py) are
kept the same way by :class:`HallRefusals`: one scope, the hall's topics
``topic write P/_hall/#``.
"""

from __future__ import annotations

import abc
import logging
import threading
from dataclasses import dataclass
from typing import Generic, TypeVar

from companion.games.base import JSON
from companion.i18n import Text, _
from companion.topics import HALL, Topics, discovery_node

#: The scopes' kinds, the most telling first (the status shows the first refused);
#: HALL_OFFERS is the hall's writing of the offers, OFFERS a table's reading of its own.
OWN, DISCOVERY, OLD, OFFERS, HALL_OFFERS = "own", "discovery", "old", "offers", "hall-offers"
_ORDER = (OWN, DISCOVERY, OLD, OFFERS, HALL_OFFERS)
#: The most messages a client keeps waiting for their acknowledgement (by message id):
#: MQTT's ids are 16-bit, but a broker that never answers must not make a client hold
#: 65,535 payloads.
MAX_PENDING = 1024

log = logging.getLogger(__name__)

#: The reasons a broker gives for refusing a publish (MQTT v5 PUBACK reason codes, as
#: paho names them) in words a person reads; another is shown as paho names it.
REASONS = {"Not authorized": _("not authorized"), "Quota exceeded": _("quota exceeded"),
           "Topic Name invalid": _("topic name not valid"),
           "Payload format invalid": _("payload format not valid"),
           "Unspecified error": _("unspecified error"),
           "Implementation specific error": _("the broker's own error")}
V = TypeVar("V")


class Pending(Generic[V]):
    """What a client keeps by message id until the broker's acknowledgement of it is
    read, at most ``limit`` ids: past it the oldest is forgotten (its refusal, if one
    ever comes, is not heard; what the client holds is published again at its next
    connection anyway), counted and logged once per ``what`` episode. Not thread-safe:
    the caller holds its own lock."""

    def __init__(self, what: str, limit: int = MAX_PENDING) -> None:
        self.what, self.limit = what, limit
        self._items: dict[int, V] = {}
        #: How many were forgotten, in all.
        self.forgotten = 0
        self._said = False

    def put(self, mid: int, value: V) -> None:
        self._items.pop(mid, None)  # a reused id is the newest
        self._items[mid] = value
        while len(self._items) > self.limit:
            del self._items[next(iter(self._items))]
            self.forgotten += 1
            if not self._said:
                self._said = True
                log.warning("MQTT: more than %d %s wait for the broker's acknowledgement: "
                            "the oldest are forgotten (their refusals go unheard until "
                            "they are published again)", self.limit, self.what)

    def pop(self, mid: int, default: V | None = None) -> V | None:
        found = self._items.pop(mid, default)
        if not self._items:
            self._said = False  # the episode is over: said again if it comes back
        return found

    def __contains__(self, mid: object) -> bool:
        return mid in self._items

    def __len__(self) -> int:
        return len(self._items)


@dataclass(frozen=True)
class Scope:
    """The topics one ACL line grants a table: ``acl`` is that line (``topic write
    P/T/#``); ``what`` says in words what the table cannot do without it."""

    kind: str
    acl: str
    what: str


@dataclass(frozen=True)
class Change:
    """A scope's episode began (``reason``: the first refusal's, on ``topic``) or ended
    (``reason`` None)."""

    scope: Scope
    reason: str | None
    topic: str


class Episodes(abc.ABC):
    """Each topic's latest answer from the broker, and the episodes of the scopes they
    fall in (:meth:`scope`, given by the subclass). Thread-safe."""

    def __init__(self, username: str | None) -> None:
        self._lock = threading.Lock()
        self.username = username
        #: topic -> (scope, reason) of each topic whose latest answer was a refusal.
        self._refused: dict[str, tuple[Scope, str]] = {}

    @abc.abstractmethod
    def scope(self, topic: str) -> Scope:
        """The scope (the ACL line) that grants ``topic``: each client's own ACL lines."""

    def _who(self) -> Text:
        """Whom the ACL line must name."""
        return (_("user {name}", name=repr(self.username)) if self.username is not None
                else _("anonymous clients (before any `user` line)"))

    def answer(self, topic: str, reason: str | None) -> Change | None:
        """The broker's answer to a publish on (or subscription to) ``topic``: ``reason``
        the refusal's reason code, None when taken. The episode that began or ended, if
        one did."""
        scope = self.scope(topic)
        with self._lock:
            before = any(s == scope for s, _ in self._refused.values())
            if reason is not None:
                self._refused[topic] = (scope, reason)
            else:
                self._refused.pop(topic, None)
            after = any(s == scope for s, _ in self._refused.values())
        if after and not before:
            return Change(scope, reason, topic)
        if before and not after:
            return Change(scope, None, topic)
        return None

    def scopes(self) -> list[tuple[Scope, str]]:
        """Each refused scope with its reason, the most telling first."""
        with self._lock:
            found: dict[Scope, str] = {}
            for scope, reason in self._refused.values():
                found.setdefault(scope, reason)
        return sorted(found.items(), key=lambda item: (_ORDER.index(item[0].kind),
                                                       item[0].acl))

    def refuses(self, topics: list[str]) -> bool:
        """Whether the broker refused the latest publish on any of ``topics``."""
        with self._lock:
            return any(t in self._refused for t in topics)

    def to_json(self) -> list[JSON]:
        """What is refused, by scope: ``[{"what", "reason", "acl"}]``."""
        return [{"what": scope.what, "reason": reason, "acl": scope.acl}
                for scope, reason in self.scopes()]

    @staticmethod
    def ended(change: Change) -> str:
        """The log line of an episode that ended."""
        return f"the broker takes {change.scope.what} again ({change.scope.acl})"


class Refusals(Episodes):
    """The refusals of one table's publishes and subscription. Thread-safe.

    ``topics`` are the table's own (its offer topic with them);
    ``discovery_prefix`` where its Home Assistant configs go (None: none);
    ``username`` the broker user it connects as (None: anonymous).
    """

    def __init__(self, topics: Topics, discovery_prefix: str | None,
                 username: str | None) -> None:
        super().__init__(username)
        self.topics = topics
        self._own = f"{topics.prefix}/{topics.table}/"
        self._discovery = (f"{discovery_prefix}/sensor/{discovery_node(topics.table)}/"
                           if discovery_prefix is not None else None)

    def scope(self, topic: str) -> Scope:
        """The scope of a topic the table publishes, or of its offer topic."""
        if topic == self.topics.offer:
            return Scope(OFFERS, f"topic read {topic}", "the hall's offers")
        # A table's leaf P/T/leaf, or a config D/sensor/node/key/config: granted by the
        # line that names the level above it (P/T/#, D/sensor/node/#).
        config = topic.endswith("/config")
        base = topic.rsplit("/", 2 if config else 1)[0]
        acl = f"topic write {base}/#"
        if topic.startswith(self._own):
            return Scope(OWN, acl, "this table's messages")
        if self._discovery is not None and topic.startswith(self._discovery):
            return Scope(DISCOVERY, acl, "its Home Assistant configs")
        return Scope(OLD, acl, f"the clearing of its old id's topics ({base})")

    @property
    def retained(self) -> bool:
        """Whether a retained topic is refused (worth publishing again later): anything
        but the events (not retained) and the offer subscription (made at connection)."""
        with self._lock:
            return any(t != self.topics.events and s.kind != OFFERS
                       for t, (s, _) in self._refused.items())

    def status(self) -> str | None:
        """A short text for the info screen (None: nothing refused)."""
        found = self.scopes()
        if not found:
            return None
        scope, reason = found[0]
        said = REASONS.get(reason) or reason.lower()
        return {OWN: _("may not publish: {reason}", reason=said),
                DISCOVERY: _("HA refused: {reason}", reason=said),
                OLD: _("old id not cleared: {reason}", reason=said),
                OFFERS: _("offers refused: {reason}", reason=said)}[scope.kind]

    def began(self, change: Change, table: str, retry: float) -> str:
        """The log line of an episode that began: what is refused, why, what to do."""
        scope = change.scope
        fix = f"give {self._who()} `{scope.acl}` in the broker's ACL"
        if scope.kind == OWN:
            what = "the hall and Home Assistant see nothing of this table"
            if self.username is not None and self.username != table:
                fix += (f" (or is [mqtt] username right? The README's ACL names each "
                        f"table's user as its id, {table!r})")
        elif scope.kind == DISCOVERY:
            what = "Home Assistant does not show this table"
            fix += " (or set [mqtt] discovery = false)"
        elif scope.kind == OLD:
            what = ("the hall and Home Assistant keep showing the table under its old id; "
                    "it stays to clear")
            fix += (" until it is cleared, or clear the old id with its own user (README, "
                    "\"The hall board\")")
        else:
            what = "the hall's offers cannot reach this table"
            return f"the broker refuses {scope.what} ({change.topic}: {change.reason}): " \
                   f"{what}; {fix}"
        return (f"the broker refuses {scope.what} ({change.topic}: {change.reason}): {what}; "
                f"{fix}; trying again every {retry:g} s")


class HallRefusals(Episodes):
    """The refusals of the hall's publishes under ``prefix`` (the offers: one scope, the
    line ``topic write P/_hall/#``); ``username`` the hall's broker user."""

    def __init__(self, prefix: str, username: str | None) -> None:
        super().__init__(username)
        self.prefix = prefix

    def scope(self, topic: str) -> Scope:
        return Scope(HALL_OFFERS, f"topic write {self.prefix}/{HALL}/#",
                     "the club night's offers to the tables")

    def status(self) -> str | None:
        """The hall's connection status while something is refused (None: nothing): the
        reason and the ACL line that would grant it."""
        found = self.scopes()
        if not found:
            return None
        scope, reason = found[0]
        return _("offers refused: {reason} (give {who} `{acl}` in the broker's ACL)",
                 reason=REASONS.get(reason) or reason.lower(), who=self._who(),
                 acl=scope.acl)

    def began(self, change: Change, retry: float) -> str:
        """The log line of an episode that began: what is refused, why, what to do."""
        return (f"the broker refuses {change.scope.what} ({change.topic}: {change.reason}): "
                f"the tables do not get their games; give {self._who()} `{change.scope.acl}` "
                f"in the broker's ACL; trying again every {retry:g} s")
