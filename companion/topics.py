"""What a table publishes on an MQTT broker: topic names and payloads.

Pure: no network and no MQTT library here. The table's publisher
(``drivers/mqtt.py``) sends these; the hall board (``hall/``) reads them.
docs/api.md ("MQTT") is the outside description of every topic below.

Under the prefix P (default ``table-companion``), table T publishes:

- ``P/T/state``, retained: the ``GET /api/state`` JSON, exactly.
- ``P/T/summary``, retained: :func:`summary_payload`, the table's card
  (:func:`companion.headline.headline`) with its name and page address;
  the hall board and Home Assistant read it.
- ``P/T/events``, QoS 1, not retained: one :func:`event_payload` per
  committed change.
- ``P/T/availability``, retained: ``online``, or ``offline`` (also the last
  will the broker sends when the table vanishes).
- ``P/T/results``, retained, QoS 1: :func:`results_payload`, the table's last
  finished matches with their standings; the hall's club leaderboard counts
  each (table, database, match) once, however often it comes.

Table T reads one topic: ``P/_hall/offers/T`` (:attr:`Topics.offer`), where the
hall offers it its next match (companion/offers.py); ``_hall`` is never a
table id, so it never meets a table's topics.

Nothing here carries the host PIN, a session or a CSRF token.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion import __version__
from companion.catalog import Catalog
from companion.games.base import JSON
from companion.headline import headline
from companion.i18n import C_, ENGLISH, _, translate

DEFAULT_PREFIX = "table-companion"
DISCOVERY_PREFIX = "homeassistant"
ONLINE, OFFLINE = "online", "offline"
STATE, SUMMARY, EVENTS, AVAILABILITY = "state", "summary", "events", "availability"
RESULTS = "results"
#: The hall's own branch of topics under the prefix (never a table id: ids begin with
#: a letter or digit), and its offers' leaf.
HALL, OFFERS = "_hall", "offers"
#: The topics under each table, in the order a fresh connection publishes them.
LEAVES = (AVAILABILITY, STATE, SUMMARY, RESULTS)
#: Every topic under a table (the retained ones and the events).
TABLE_LEAVES = (*LEAVES, EVENTS)
#: A table id: one topic level any broker ACL pattern can name (no wildcards, no "/").
TABLE_ID = re.compile(r"[a-z0-9](?:[a-z0-9_-]{0,30}[a-z0-9])?")
#: Longest prefix, in UTF-8 bytes: a topic stays far below MQTT's 65,535.
MAX_PREFIX = 200
#: Home Assistant sensors of each table: key, name, summary field, icon. The names are
#: what a person reads on Home Assistant's dashboard, so they are marked: MQTT discovery
#: has no translations of its own (a sensor has one ``name``), and a club's Home
#: Assistant is one installation in the club's language, the table's (:func:`discovery`'s
#: ``language``).
SENSORS = (
    ("game", C_("sensor", "Game"), "title", "mdi:dice-multiple"),
    ("status", C_("sensor", "Status"), "status", "mdi:list-status"),
    ("players", C_("sensor", "Players"), "players", "mdi:account-group"),
    ("score", C_("sensor", "Score"), "score", "mdi:scoreboard"),
    ("turn", C_("sensor", "Turn"), "turn", "mdi:account-arrow-right"),
)


def valid_table_id(text: str) -> bool:
    """Whether ``text`` is a table id: 1-32 of a-z, 0-9, ``-`` and ``_``, a letter
    or digit at each end."""
    return bool(TABLE_ID.fullmatch(text))


def prefix_problem(text: str) -> str | None:
    """Why ``text`` cannot be a topic prefix, or None when it can (a message: the
    configuration's check, said to a person by the command line in its language).

    Levels are separated by ``/``; none may be empty or hold a wildcard
    (``+``, ``#``) or a control character, and a prefix starting with ``$``
    would be a broker's own ($SYS) topic.
    """
    if not text:
        return _("must not be empty")
    if len(text.encode("utf-8")) > MAX_PREFIX:
        return _("must be at most {most} bytes", most=MAX_PREFIX)
    if text.startswith("$"):
        return _("must not start with $ (topics starting with $ are the broker's own)")
    if any(c in "+#" for c in text):
        return _("must not hold the wildcards + or #")
    if not text.isprintable():
        return _("must not hold control characters")
    if any(not level for level in text.split("/")):
        return _("must not start or end with / or hold an empty level (//)")
    return None


@dataclass(frozen=True)
class TableInfo:
    """Who a table is in the room: its id (topic level), display name and page."""

    id: str
    name: str
    #: The spectator page's address (None: no page served, or none reachable).
    url: str | None = None

    def to_json(self) -> JSON:
        return {"id": self.id, "name": self.name, "url": self.url}


@dataclass(frozen=True)
class Topics:
    """The topic names of one table under one prefix."""

    prefix: str
    table: str

    def leaf(self, leaf: str) -> str:
        """``P/T/leaf``."""
        return f"{self.prefix}/{self.table}/{leaf}"

    @property
    def state(self) -> str:
        return self.leaf(STATE)

    @property
    def summary(self) -> str:
        return self.leaf(SUMMARY)

    @property
    def events(self) -> str:
        return self.leaf(EVENTS)

    @property
    def availability(self) -> str:
        return self.leaf(AVAILABILITY)

    @property
    def offer(self) -> str:
        """``P/_hall/offers/T``: the hall's offer of this table's next match (retained;
        only the hall may write it), the one topic a table reads."""
        return f"{self.prefix}/{HALL}/{OFFERS}/{self.table}"

    @staticmethod
    def every(prefix: str, leaf: str) -> str:
        """The subscription that matches ``leaf`` of every table: ``P/+/leaf``."""
        return f"{prefix}/+/{leaf}"

    @staticmethod
    def parse(prefix: str, topic: str) -> tuple[str, str] | None:
        """``(table, leaf)`` of a topic under ``prefix``, or None if it is not one:
        the table a valid id, the leaf one of :data:`TABLE_LEAVES`."""
        head = prefix + "/"
        if not topic.startswith(head):
            return None
        parts = topic[len(head):].split("/")
        if len(parts) != 2 or not valid_table_id(parts[0]) or parts[1] not in TABLE_LEAVES:
            return None
        return parts[0], parts[1]


def dumps(value: Any) -> str:
    """Compact JSON, as every JSON payload here is sent."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def event_payload(state: JSON, change: JSON, at: float | None = None) -> str:
    """The ``events`` message of one committed change.

    ``state`` is the ``/api/state`` JSON after the change and ``change`` its
    :attr:`~companion.table.Snapshot.change`. Keys: ``version``, ``epoch``,
    ``op`` (start, event, undo, redo, abandon), ``match`` (id), ``game``
    (None after abandon), ``event`` (the resolved event, dice filled in; for
    undo the event taken back), ``at`` (Unix time of the commit).
    """
    match = state.get("match")
    return dumps({
        "version": state["version"], "epoch": state.get("epoch", 0),
        "op": change["op"], "match": change["match"],
        "game": match["game"] if match else None, "event": change.get("event"),
        "at": round(time.time() if at is None else at, 3),
    })


#: How many of its latest finished matches a table's ``results`` message holds.
RESULTS_KEPT = 50


def results_payload(table: str, epoch: int, results: list[JSON],
                    rulings: Sequence[str] = ()) -> str:
    """The retained ``results``: ``{"table", "epoch", "results": [...]}``, the table's
    last :data:`RESULTS_KEPT` finished matches, oldest first, each ``{"match" (id),
    "game", "players" (names), "standing" (companion/standings.py, with each team's game
    tiebreak when the game gives one), "started_at" (Unix
    time)}``, and ``"event"`` (its start record's) when it was played for the hall's
    event. It is the whole truth from its oldest match on: a match of this database
    with a higher id that it leaves out is not finished (undone, or never). With
    ``rulings``: the ids of the hall's rulings the table took lately (companion/rulings.py),
    a match older than the list's included."""
    body: JSON = {"table": table, "epoch": epoch, "results": results}
    if rulings:
        body["rulings"] = list(rulings)
    return dumps(body)


def summary_payload(state: JSON, table: TableInfo, catalog: Catalog,
                    refused: list[JSON] | None = None) -> str:
    """The retained ``summary``: :func:`~companion.headline.headline` of ``state`` (its
    game read in ``catalog``) plus ``table`` ({id, name, url}), ``version``, ``epoch``,
    ``event``: the hall's event the current match is played for (its start record's), or
    null, and
    ``refused``: what the broker refuses the table, ``[{"what", "reason", "acl"}]``
    (drivers/refusals.py; the hall's card says it), empty when nothing."""
    match = state.get("match")
    return dumps({"table": table.to_json(), "version": state["version"],
                  "epoch": state.get("epoch", 0), **headline(state, catalog),
                  "event": match.get("event") if match else None,
                  "refused": list(refused or [])})


#: Texts Home Assistant does not show as text: a rendered ``None`` is no value (unknown),
#: and ``unknown`` and ``unavailable`` are its own states. A player may be called so.
HA_RESERVED = ("None", "unknown", "unavailable")  # i18n: not said (Home Assistant's)
#: Put after such a text so that it stays text: U+2060 WORD JOINER, which draws nothing
#: and, not being white space, survives Home Assistant's strip() of a rendered template.
HA_TEXT_MARK = "\u2060"


def value_template(field: str) -> str:
    """The ``value_template`` of a sensor showing the summary's ``field``.

    An empty field renders ``None`` (Home Assistant shows unknown, not an
    empty text); a field that is one of :data:`HA_RESERVED` (a player named
    "None" whose turn it is) renders with :data:`HA_TEXT_MARK` after it, so
    it is shown as the name, never as unknown or unavailable.
    """
    reserved = ", ".join(f"'{word}'" for word in HA_RESERVED)
    mark = HA_TEXT_MARK.encode("unicode-escape").decode()  # as a Jinja string escape
    return (f"{{% set v = value_json.{field} %}}"  # i18n: not said (a Jinja template)
            f"{{{{ v | trim ~ '{mark}' if v is string "  # i18n: not said
            f"and v | trim in [{reserved}] else v or None }}}}")  # i18n: not said


def discovery_node(table_id: str) -> str:
    """Home Assistant's node id (and device identifier) for a table.

    The table id as it is: Home Assistant's ids allow ``[a-zA-Z0-9_-]``, and
    tables ``t-1`` and ``t_1`` must stay two devices.
    """
    return f"table_companion_{table_id}"


def discovery_topics(table_id: str, prefix: str = DISCOVERY_PREFIX) -> list[str]:
    """The discovery config topics of a table's sensors (to publish, or to clear)."""
    node = discovery_node(table_id)
    return [f"{prefix}/sensor/{node}/{key}/config" for key, *_ in SENSORS]


def retired_topics(topics: Topics, discovery_prefix: str | None) -> list[str]:
    """Every retained topic of one table identity, in the order to clear them.

    ``discovery_prefix`` None: that identity published no discovery configs.
    The configs go first: Home Assistant removes their sensors (and then the
    device) before the ``summary`` they read is cleared, so no template of a
    sensor ever renders an empty summary (it would log an error for each).
    The README's steps to retire a table clear the same topics in this order.
    """
    configs = [] if discovery_prefix is None else discovery_topics(topics.table,
                                                                   discovery_prefix)
    return [*configs, topics.leaf(RESULTS), topics.state, topics.summary, topics.availability]


def discovery(table: TableInfo, topics: Topics, prefix: str = DISCOVERY_PREFIX,
              language: str = ENGLISH) -> list[tuple[str, str]]:
    """Home Assistant MQTT discovery: ``(config topic, payload)`` per sensor, each
    sensor's name said in ``language`` (the table's: see :data:`SENSORS`).

    One device per table (identified by the table id) with the sensors in
    :data:`SENSORS`, each reading a field of the retained ``summary`` and
    unavailable while the table's availability is ``offline``. A field that
    is empty (no players, score or turn without a match) renders ``None``,
    which Home Assistant's MQTT sensor takes for unknown rather than showing
    an empty string; a name that is one of Home Assistant's own words is kept
    text (:func:`value_template`). Publish them retained; an empty retained
    payload on the same topics removes them.
    """
    node = discovery_node(table.id)
    device: JSON = {"identifiers": [node], "name": table.name,
                    "manufacturer": "Table Companion", "model": "Table Companion",
                    "sw_version": __version__}
    if table.url and table.url.startswith(("http://", "https://")):
        device["configuration_url"] = table.url
    out = []
    for (key, name, field, icon), topic in zip(SENSORS, discovery_topics(table.id, prefix),
                                               strict=True):
        out.append((topic, dumps({
            "name": translate(name, language),
            "unique_id": f"{node}_{key}",
            "state_topic": topics.summary,
            "value_template": value_template(field),
            "availability_topic": topics.availability,
            "payload_available": ONLINE,
            "payload_not_available": OFFLINE,
            "icon": icon,
            "device": device,
            "origin": {"name": "Table Companion", "sw_version": __version__},
        })))
    return out
