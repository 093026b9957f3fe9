"""A table's life as Home Assistant sees it, on a real Mosquitto: its sensors render
every summary the table publishes without a template error and show the right
values, from the first start (no match: unknown, not an empty text) through a
match, a rename (the new device appears, the old one goes) and retirement (the
device goes)."""

from __future__ import annotations

import json

from companion.topics import (
    DISCOVERY_PREFIX,
    HA_TEXT_MARK,
    SENSORS,
    Topics,
    discovery_node,
    retired_topics,
)
from tests.mqtt.home_assistant import UNAVAILABLE, UNKNOWN, HomeAssistant
from tests.mqtt.support import START, TIMEOUT, Listener, companion, on_broker

A, B = Topics("table-companion", "a"), Topics("table-companion", "b")
NODE_A, NODE_B = discovery_node("a"), discovery_node("b")


def expected(listener: Listener, topics: Topics) -> dict[str, str]:
    """What each sensor must show for the newest summary on ``topics``."""
    summary = listener.json(topics.summary)
    return {key: summary[field] or UNKNOWN for key, _, field, _ in SENSORS}


def wait_version(listener: Listener, topics: Topics, version: int) -> None:
    """Wait until the newest summary on ``topics`` is of ``version``."""
    listener.wait_for(lambda: json.loads(listener.last(topics.summary) or b"{}").get(
        "version") == version, f"the summary of version {version} on {topics.summary}")


def test_a_tables_life_renders_in_home_assistant_without_a_template_error(tmp_path,
                                                                          mosquitto):
    def connect(client):
        client.connect("127.0.0.1", mosquitto.port)

    with HomeAssistant(connect) as ha, Listener(mosquitto, ["table-companion/#"]) as seen:
        with companion(on_broker(mosquitto, table="a", name="Table A"), tmp_path) as c:
            assert c.publisher.wait_status(lambda s: s == "connected", TIMEOUT)
            # No match: the texts that are empty read unknown.
            ha.wait_shown(NODE_A, {"game": "No match", "status": "idle", "players": UNKNOWN,
                                   "score": UNKNOWN, "turn": UNKNOWN})
            c.runner.call(lambda t: t.start(START))
            for button in ("prev", "next", "prev"):  # points to Ann, Bob, Ann
                c.press(button).result(TIMEOUT)
            version = c.table.version
            wait_version(seen, A, version)
            ha.wait_shown(NODE_A, expected(seen, A))
            shown = ha.shown(NODE_A)
            assert (shown["game"], shown["status"], shown["players"]) == (
                "Center Court", "active", "Ann v Bob")
            assert shown["score"] != UNKNOWN and shown["turn"] in ("Ann", "Bob")
            # Every summary was rendered, in order (the table may skip to the newest).
            scores = ha.sensors[f"{NODE_A}_score"].states
            assert scores[0] == UNKNOWN and scores[-1] == shown["score"], scores
        # A clean stop: unavailable, values kept.
        ha.wait_for(lambda: set(ha.shown(NODE_A).values()) == {UNAVAILABLE}, "a unavailable")

        # Renamed: table b takes the match over; a's device goes, with no sensor of it
        # ever reading its cleared summary.
        with companion(on_broker(mosquitto, table="b", name="Table B"), tmp_path) as c:
            assert c.publisher.wait_status(lambda s: s == "connected", TIMEOUT)
            version = c.table.version
            wait_version(seen, B, version)
            ha.wait_for(lambda: NODE_A in ha.removed_devices, "a's device removed")
            ha.wait_shown(NODE_B, expected(seen, B))
            assert ha.shown(NODE_B)["players"] == "Ann v Bob"
            assert ha.shown(NODE_A) == {}
            config = json.loads(seen.last(B.summary))["table"]
            assert config["name"] == "Table B"
        ha.wait_for(lambda: set(ha.shown(NODE_B).values()) == {UNAVAILABLE}, "b unavailable")

        # Retired for good: its topics cleared in the order the README's steps clear them.
        retire = Listener(mosquitto, ["retire/none"])
        for topic in retired_topics(B, DISCOVERY_PREFIX):
            retire.client.publish(topic, b"", qos=1, retain=True).wait_for_publish(TIMEOUT)
        retire.close()
        ha.wait_for(lambda: NODE_B in ha.removed_devices, "b's device removed")
        assert ha.sensors == {}
        assert ha.errors == []


def test_players_named_as_home_assistants_words_are_shown_by_name(tmp_path, mosquitto):
    """A player called "None" or "unavailable" is whose turn it is: the turn sensor shows
    the name (and a mark that draws nothing), not unknown or unavailable."""
    def connect(client):
        client.connect("127.0.0.1", mosquitto.port)

    start = {"game": "center-court", "players": ["unavailable", "None"],
             "options": {"sets": 3, "first_server": 0}}
    with HomeAssistant(connect) as ha, \
            companion(on_broker(mosquitto, table="a"), tmp_path) as c:
        assert c.publisher.wait_status(lambda s: s == "connected", TIMEOUT)
        c.runner.call(lambda t: t.start(start))
        turns = []
        for name in ("unavailable", "None"):
            ha.wait_for(lambda name=name: ha.shown(NODE_A).get("turn") == name + HA_TEXT_MARK,
                        f"{name}'s turn shown")
            turns.append(ha.shown(NODE_A)["turn"])
            for _ in range(4):  # a game to the server: the other one serves next
                c.runner.call(lambda t: t.act({"type": "point", "winner": 0}))
        assert ha.shown(NODE_A)["players"] == "unavailable v None"
        assert not {UNKNOWN, UNAVAILABLE, "None"} & set(turns)
        assert ha.errors == []
