"""What a table publishes (companion/topics.py): topic names, payloads, Home Assistant discovery.

Pure: no broker here (the publisher's and the hall's tests use a real one).
The discovery payloads are checked against a JSON Schema written from Home
Assistant's documentation of MQTT discovery and of the MQTT sensor:

- https://www.home-assistant.io/integrations/mqtt/#discovery-topic (the config
  topic ``<discovery_prefix>/<component>/[<node_id>/]<object_id>/config``, ids
  of ``[a-zA-Z0-9_-]``; an empty retained payload removes the entity) and
  #discovery-messages (the abbreviations, ``device`` and ``origin``);
- https://www.home-assistant.io/integrations/sensor.mqtt/ ("Configuration
  Variables": every key a sensor takes, and the ``device`` map's keys).
"""

from __future__ import annotations

import json
import random
import re
import unicodedata

import jinja2
import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from companion import __version__
from companion.store import Store
from companion.table import Table, TableRunner
from companion.topics import (
    AVAILABILITY,
    DEFAULT_PREFIX,
    DISCOVERY_PREFIX,
    EVENTS,
    HA_RESERVED,
    HA_TEXT_MARK,
    MAX_PREFIX,
    OFFLINE,
    ONLINE,
    RESULTS,
    SENSORS,
    STATE,
    SUMMARY,
    TABLE_LEAVES,
    TableInfo,
    Topics,
    discovery,
    discovery_topics,
    event_payload,
    prefix_problem,
    summary_payload,
    valid_table_id,
    value_template,
)
from tests.support import CATALOG, ONE_OF_EACH
from web.app import create_app
from web.services import Services

# --- topic names ---------------------------------------------------------------------------

GOOD_IDS = ["a", "7", "t1", "table-7", "table_7", "a-b_c-9", "x" * 32, "0a"]
BAD_IDS = ["", "-a", "a-", "_a", "a_", "A", "Table1", "a/b", "+", "#", "a+", "a#b", "a b",
           "é", "x" * 33, "$sys", "a.b", "a\x00", "a\n"]


@pytest.mark.parametrize("text", GOOD_IDS)
def test_a_table_id_is_one_plain_topic_level(text):
    assert valid_table_id(text)


@pytest.mark.parametrize("text", BAD_IDS)
def test_anything_else_is_no_table_id(text):
    assert not valid_table_id(text)


def test_a_tables_topics_are_under_its_prefix_and_id():
    topics = Topics(DEFAULT_PREFIX, "t1")
    assert (topics.state, topics.summary, topics.events, topics.availability) == (
        "table-companion/t1/state", "table-companion/t1/summary",
        "table-companion/t1/events", "table-companion/t1/availability")
    assert Topics.every("club/hall-2", SUMMARY) == "club/hall-2/+/summary"


@pytest.mark.parametrize("prefix", ["table-companion", "a", "club/hall-2", "a/b/c/d",
                                    "Club Night", "été/tables", "x" * MAX_PREFIX])
def test_a_prefix_may_have_levels_spaces_and_any_printable_text(prefix):
    assert prefix_problem(prefix) is None


@pytest.mark.parametrize(("prefix", "why"), [
    ("", "empty"),
    ("$SYS", "broker's own"),
    ("$share/x", "broker's own"),
    ("club/+", "wildcards"),
    ("club/#", "wildcards"),
    ("a+b", "wildcards"),
    ("a//b", "empty level"),
    ("/club", "empty level"),
    ("club/", "empty level"),
    ("/", "empty level"),
    ("a\x00b", "control"),
    ("a\nb", "control"),
    ("x" * (MAX_PREFIX + 1), f"at most {MAX_PREFIX} bytes"),
    ("é" * (MAX_PREFIX // 2 + 1), f"at most {MAX_PREFIX} bytes"),  # 2 bytes each in UTF-8
])
def test_a_bad_prefix_is_refused_with_its_reason(prefix, why):
    assert why in prefix_problem(prefix)


IDS = st.from_regex(r"[a-z0-9](?:[a-z0-9_-]{0,30}[a-z0-9])?", fullmatch=True)
LEVEL = st.text(st.characters(categories=("L", "N", "P", "S"), exclude_characters="/+#")
                | st.just(" "), min_size=1, max_size=8).filter(lambda s: not s.startswith("$"))
PREFIXES = st.lists(LEVEL, min_size=1, max_size=4).map("/".join)


@given(prefix=PREFIXES, table=IDS, leaf=st.sampled_from(TABLE_LEAVES))
def test_every_topic_of_a_table_parses_back_to_its_table_and_leaf(prefix, table, leaf):
    assert prefix_problem(prefix) is None
    assert Topics.parse(prefix, Topics(prefix, table).leaf(leaf)) == (table, leaf)
    # ... and under no other prefix, however alike.
    assert Topics.parse(prefix + "x", Topics(prefix, table).leaf(leaf)) is None
    assert Topics.parse(prefix, Topics(prefix + "x", table).leaf(leaf)) is None


@pytest.mark.parametrize("topic", [
    "table-companion/t1",                    # no leaf
    "table-companion/t1/state/x",            # a level too many
    "table-companion/t1/",                   # an empty leaf
    "table-companion//state",                # an empty table id
    "table-companion/T1/state",              # not a table id
    "table-companion/+/state",               # a wildcard is not a table
    "table-companion/#",
    "table-companion/t1/config",             # not a leaf a table publishes
    "table-companionx/t1/state",             # another prefix that starts alike
    "other/t1/state",
    "$SYS/broker/uptime",
    "table-companion",
    "",
])
def test_what_is_not_a_tables_topic_parses_to_none(topic):
    assert Topics.parse(DEFAULT_PREFIX, topic) is None


def test_a_prefix_with_levels_parses_only_its_own_topics():
    assert Topics.parse("club/hall-2", "club/hall-2/t9/summary") == ("t9", SUMMARY)
    assert Topics.parse("club/hall-2", "club/t9/summary") is None
    assert Topics.parse("club", "club/hall-2/t9/summary") is None


# --- payloads: nothing secret, ever ----------------------------------------------------------

PIN = "913577"
SECRET_KEY = b"s" * 32
#: Keys no payload may hold, at any depth.
SECRET_WORDS = ("pin", "session", "csrf", "token", "cookie", "secret", "password")


def keys(value) -> set[str]:
    if isinstance(value, dict):
        return {k.lower() for k in value} | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


@pytest.fixture
def played(tmp_path):
    """Each game started and played a little by a logged-in host over the web app;
    yields ``(texts, secrets)``: every payload a table would publish for each
    state reached, and the secrets that were in play (PIN, CSRF token, cookie)."""
    with Store(tmp_path / "companion.db") as store, \
            TableRunner(Table(store, CATALOG, rng=random.Random(3))) as runner:
        app = create_app(Services(runner=runner, pin=PIN, secret_key=SECRET_KEY))
        try:
            client = app.test_client()
            login = client.post("/api/login", json={"pin": PIN})
            assert login.status_code == 200
            csrf = login.json["csrf"]
            cookie = client.get_cookie(app.session_interface.get_cookie_name(app))
            assert cookie is not None
            texts: list[str] = []
            info = TableInfo("t1", "Table 1", "http://192.0.2.7:8080/")

            def publishable() -> None:
                snapshot = runner.table.snapshot
                state = snapshot.to_json()
                texts.append(snapshot.json_text)
                texts.append(summary_payload(state, info, CATALOG))
                if snapshot.change is not None:
                    texts.append(event_payload(state, snapshot.change, at=0))

            for record in ONE_OF_EACH:
                post = lambda path, body: client.post(  # noqa: E731
                    path, json=body, headers={"X-CSRF-Token": csrf})
                assert post("/api/match", record).status_code == 200
                publishable()
                for shape in runner.table.snapshot.match["legal"][:3]:
                    # Each field's first choice: taken or refused, either is fine here.
                    action = {k: v[0] if isinstance(v, list) and v else v
                              for k, v in shape.items() if k != "max_targets"}
                    if post("/api/action", action).status_code == 200:
                        publishable()
                assert post("/api/undo", {}).status_code == 200
                publishable()
                assert post("/api/match/end", {}).status_code == 200
                publishable()
            texts += [payload for _, payload in discovery(info, Topics(DEFAULT_PREFIX, "t1"))]
            yield texts, [PIN, csrf, cookie.value, SECRET_KEY.decode()]
        finally:
            app.extensions["companion.broker"].close()


def test_no_payload_of_any_game_holds_a_pin_a_session_or_a_csrf_token(played):
    texts, secrets = played
    assert len(texts) > 4 * 5
    for text in texts:
        for secret in secrets:
            assert secret not in text
        assert not keys(json.loads(text)) & set(SECRET_WORDS), text


def test_a_summary_is_the_card_with_the_tables_name_and_page():
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(0))
        table.start(ONE_OF_EACH[0])
        table.act({"type": "point", "winner": 1})
        state = table.snapshot.to_json()
    info = TableInfo("t1", "Table 1", "http://192.0.2.7:8080/")
    summary = json.loads(summary_payload(state, info, CATALOG))
    assert summary["table"] == {"id": "t1", "name": "Table 1", "url": "http://192.0.2.7:8080/"}
    assert summary["version"] == state["version"] and summary["epoch"] == state["epoch"]
    assert summary["game"] == "center-court" and summary["score"] == "0-0 (0-15)"
    assert summary["players"] == "Ann v Bob" and summary["status"] == "active"


def test_an_event_says_what_changed_and_when():
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(0))
        table.start(ONE_OF_EACH[0])
        started = table.snapshot
        table.act({"type": "point", "winner": 0})
        pointed = table.snapshot
        table.undo()
        undone = table.snapshot
        table.abandon()
        ended = table.snapshot
    seen = [json.loads(event_payload(s.to_json(), s.change, at=1700000000.12345))
            for s in (started, pointed, undone, ended)]
    assert [e["op"] for e in seen] == ["start", "event", "undo", "abandon"]
    assert [e["version"] for e in seen] == [s.version for s in (started, pointed, undone, ended)]
    assert [e["game"] for e in seen] == ["center-court"] * 3 + [None]
    assert seen[1]["event"] == {"type": "point", "winner": 0} == seen[2]["event"]
    assert seen[0]["event"] is None and seen[0]["match"] == started.match["id"]
    assert all(e["at"] == 1700000000.123 for e in seen)
    assert set(seen[0]) == {"version", "epoch", "op", "match", "game", "event", "at"}


# --- Home Assistant discovery ----------------------------------------------------------------

#: Home Assistant's ``device`` map (sensor.mqtt, "device"): these keys only.
DEVICE_SCHEMA = {
    "type": "object",
    "properties": {
        "configuration_url": {"type": "string", "pattern": "^(https?|homeassistant)://"},
        "connections": {"type": "array", "items": {"type": "array", "minItems": 2,
                                                   "maxItems": 2,
                                                   "items": {"type": "string"}}},
        "hw_version": {"type": "string"},
        "identifiers": {"oneOf": [{"type": "string"},
                                  {"type": "array", "minItems": 1,
                                   "items": {"type": "string"}}]},
        "manufacturer": {"type": "string"},
        "model": {"type": "string"},
        "model_id": {"type": "string"},
        "name": {"type": "string"},
        "serial_number": {"type": "string"},
        "suggested_area": {"type": "string"},
        "sw_version": {"type": "string"},
        "via_device": {"type": "string"},
    },
    # "At least one of identifiers or connections must be present to identify the device."
    "anyOf": [{"required": ["identifiers"]}, {"required": ["connections"]}],
    "additionalProperties": False,
}
TOPIC = {"type": "string", "minLength": 1, "not": {"pattern": "[+#]"}}
TEMPLATE = {"type": "string", "pattern": r"\{\{.*\}\}"}
#: An MQTT sensor's discovery payload (sensor.mqtt, "Configuration Variables"), full key
#: names (the abbreviations are not used here).
SENSOR_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "availability": {"type": "array"},
        "availability_mode": {"enum": ["all", "any", "latest"]},
        "availability_template": TEMPLATE,
        "availability_topic": TOPIC,
        "default_entity_id": {"type": "string"},
        "device": DEVICE_SCHEMA,
        "device_class": {"type": ["string", "null"]},
        "enabled_by_default": {"type": "boolean"},
        "encoding": {"type": "string"},
        "entity_category": {"enum": ["diagnostic"]},
        "entity_picture": {"type": "string"},
        "expire_after": {"type": "integer", "minimum": 0},
        "force_update": {"type": "boolean"},
        "icon": {"type": "string", "pattern": "^mdi:[a-z0-9-]+$"},
        "json_attributes_template": TEMPLATE,
        "json_attributes_topic": TOPIC,
        "last_reset_value_template": TEMPLATE,
        "name": {"type": ["string", "null"]},
        "object_id": {"type": "string"},
        "options": {"type": "array", "items": {"type": "string"}},
        "payload_available": {"type": "string"},
        "payload_not_available": {"type": "string"},
        "platform": {"const": "sensor"},
        "qos": {"enum": [0, 1, 2]},
        "state_class": {"enum": ["measurement", "measurement_angle", "total",
                                 "total_increasing"]},
        "state_topic": TOPIC,
        "suggested_display_precision": {"type": "integer"},
        "unique_id": {"type": "string", "minLength": 1},
        "unit_of_measurement": {"type": ["string", "null"]},
        "value_template": TEMPLATE,
        # The discovery message's "origin" (mqtt, "Discovery messages"): name required.
        "origin": {"type": "object", "required": ["name"], "additionalProperties": False,
                   "properties": {"name": {"type": "string"}, "sw_version": {"type": "string"},
                                  "support_url": {"type": "string"}}},
    },
    "required": ["state_topic"],
    # A device is tied to an entity only with a unique_id; availability_topic and
    # availability are exclusive.
    "dependentRequired": {"device": ["unique_id"]},
    "not": {"required": ["availability", "availability_topic"]},
    "additionalProperties": False,
}
#: The discovery config topic with a node id; both ids of the character class HA allows.
CONFIG_TOPIC = re.compile(r"(?P<prefix>.+)/sensor/(?P<node>[a-zA-Z0-9_-]+)/"
                          r"(?P<object>[a-zA-Z0-9_-]+)/config")


def test_the_schema_itself_is_valid_and_refuses_what_home_assistant_would():
    Draft202012Validator.check_schema(SENSOR_SCHEMA)
    validator = Draft202012Validator(SENSOR_SCHEMA)
    assert validator.is_valid({"state_topic": "a/b"})
    for bad in ({"name": "x"}, {"state_topic": "a/+"}, {"state_topic": "a", "colour": 1},
                {"state_topic": "a", "device": {"name": "x"}, "unique_id": "u"},
                {"state_topic": "a", "device": {"identifiers": ["x"]}},
                {"state_topic": "a", "device": {"identifiers": ["x"], "maker": "y"},
                 "unique_id": "u"}):
        assert not validator.is_valid(bad), bad


@pytest.mark.parametrize("url", ["http://192.0.2.7:8080/", None, "ftp://x/", "javascript:1"])
def test_every_sensor_of_a_table_is_a_valid_discovery_payload(url):
    info = TableInfo("table-7", "Table 7 (window)", url)
    topics = Topics("club/hall-2", "table-7")
    validator = Draft202012Validator(SENSOR_SCHEMA)
    found = discovery(info, topics)
    assert [topic for topic, _ in found] == discovery_topics("table-7")
    assert len(found) == len(SENSORS)
    for (topic, payload), (key, *_rest) in zip(found, SENSORS, strict=True):
        config = json.loads(payload)
        errors = sorted(validator.iter_errors(config), key=str)
        assert not errors, [e.message for e in errors]
        parts = CONFIG_TOPIC.fullmatch(topic)
        assert parts and parts["prefix"] == DISCOVERY_PREFIX and parts["object"] == key
        # Read from the table's retained summary; unavailable while the table is offline.
        assert config["state_topic"] == topics.summary
        assert config["availability_topic"] == topics.availability
        assert (config["payload_available"], config["payload_not_available"]) == (ONLINE,
                                                                                  OFFLINE)
        assert config["device"]["name"] == "Table 7 (window)"
        assert config["device"]["sw_version"] == __version__
        # Only an http(s) page is offered as the device's configuration page.
        assert config["device"].get("configuration_url") == (url if url and
                                                             url.startswith("http") else None)


def test_each_sensor_reads_a_field_the_summary_has():
    with Store(":memory:") as store:
        table = Table(store, CATALOG)
        table.start(ONE_OF_EACH[3])
        summary = json.loads(summary_payload(table.snapshot.to_json(), TableInfo("t", "T"),
                                             CATALOG))
    for _, payload in discovery(TableInfo("t", "T"), Topics(DEFAULT_PREFIX, "t")):
        field = re.match(r"\{% set v = value_json\.(\w+) %\}",
                         json.loads(payload)["value_template"])[1]
        assert isinstance(summary[field], str) and summary[field]


def rendered(template: str, value: object) -> str:
    """What Home Assistant makes of ``template`` for a summary whose field is ``value``:
    rendered by jinja2 as it does, and stripped ("None" is then no value)."""
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False)
    field = re.match(r"\{% set v = value_json\.(\w+) %\}", template)[1]
    return env.from_string(template).render(value_json={field: value}).strip()


@pytest.mark.parametrize("name", ["None", "unknown", "unavailable"])
def test_a_name_that_is_a_home_assistant_word_is_shown_as_the_name(name):
    for _, payload in discovery(TableInfo("t", "T"), Topics(DEFAULT_PREFIX, "t")):
        shown = rendered(json.loads(payload)["value_template"], name)
        # Not Home Assistant's unknown or unavailable: the name, and a mark that draws
        # nothing.
        assert shown not in HA_RESERVED
        assert shown == name + HA_TEXT_MARK
        assert unicodedata.category(HA_TEXT_MARK) == "Cf" and not HA_TEXT_MARK.isspace()


@given(st.one_of(st.none(), st.just(""), st.text(min_size=1, max_size=30).filter(
    lambda t: t.strip() == t and t not in HA_RESERVED)))
def test_any_other_field_is_shown_as_it_is_and_an_empty_one_as_unknown(value):
    template = value_template("turn")
    assert rendered(template, value) == (value or "None")


def test_two_tables_are_two_devices_whose_sensors_never_share_an_id():
    first = discovery(TableInfo("t1", "Table"), Topics(DEFAULT_PREFIX, "t1"))
    second = discovery(TableInfo("t-1", "Table"), Topics(DEFAULT_PREFIX, "t-1"))
    configs = [json.loads(p) for _, p in first + second]
    unique_ids = [c["unique_id"] for c in configs]
    assert len(set(unique_ids)) == len(unique_ids) == 2 * len(SENSORS)
    assert len({t for t, _ in first + second}) == 2 * len(SENSORS)
    devices = {json.dumps(c["device"]["identifiers"]) for c in configs}
    assert len(devices) == 2
    # Ids that differ only where "-" became "_" stay apart ("t-1" and "t_1" are two tables).
    third = discovery(TableInfo("t_1", "Table"), Topics(DEFAULT_PREFIX, "t_1"))
    assert not {json.loads(p)["unique_id"] for _, p in third} & set(unique_ids)


@given(table=IDS, prefix=st.sampled_from([DISCOVERY_PREFIX, "ha", "home/assistant"]))
def test_the_config_topics_of_any_table_follow_home_assistants_layout(table, prefix):
    for topic in discovery_topics(table, prefix):
        parts = CONFIG_TOPIC.fullmatch(topic)
        assert parts and parts["prefix"] == prefix


def test_removal_is_an_empty_retained_payload_on_the_same_topics():
    """Home Assistant removes a discovered entity when its config topic gets an empty
    payload: a renamed table clears exactly the topics it published before."""
    old = [topic for topic, _ in discovery(TableInfo("old-name", "Old"),
                                           Topics(DEFAULT_PREFIX, "old-name"))]
    assert discovery_topics("old-name") == old
    assert not set(old) & set(discovery_topics("new-name"))


def test_leaves_are_the_five_a_table_publishes():
    assert set(TABLE_LEAVES) == {STATE, SUMMARY, EVENTS, AVAILABILITY, RESULTS}
