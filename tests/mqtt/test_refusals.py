"""A refusal is heard: a real Mosquitto with the README's ACL refuses what a table may not
publish (MQTT v5: a PUBACK saying "Not authorized"), and the table says so once per
episode with the ACL line it lacks, shows it on the info screen and in its summary (the
hall's card), and tries again what matters (its retained topics, a rename's clearing)
instead of counting it done.

Two ways a club gets it wrong: a table renamed to table-2 whose new user may not clear
table-1's topics, and a table renamed in its config whose user is still table-1's.
"""

from __future__ import annotations

import json
import logging
import threading

import pytest

from companion.topics import Topics, discovery_topics, retired_topics
from companion.ui.oled import render
from hall.cards import Board
from tests.mqtt.support import START, TIMEOUT, Listener, companion, on_broker
from tests.mqtt.test_offers import readme_acl
from tests.mqtt_support import Mosquitto

USERS = {"table-1": "pw-1", "table-2": "pw-2", "hall": "pw-hall",
         "homeassistant": "pw-ha"}
T1, T2 = Topics("table-companion", "table-1"), Topics("table-companion", "table-2")
OLD = retired_topics(T1, "homeassistant")  # the nine a rename to another id clears


@pytest.fixture
def club(tmp_path):
    with Mosquitto(tmp_path / "broker", users=USERS, acl=readme_acl()) as broker:
        yield broker


def as_table(broker: Mosquitto, table: str, user: str):
    return on_broker(broker, table, username=user)


def watcher(broker: Mosquitto) -> Listener:
    """What Home Assistant's user reads: every table's topics and every config."""
    return Listener(broker, ["table-companion/#", "homeassistant/#"],
                    username="homeassistant", password=USERS["homeassistant"])


def warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "drivers.mqtt" and r.levelno == logging.WARNING]


def played_as_table_1(broker: Mosquitto, data, seen: Listener) -> None:
    """Table 1 as the README sets it up: its user, a match, its nine retained topics."""
    with companion(as_table(broker, "table-1", "table-1"), data, USERS["table-1"]) as c:
        assert c.publisher.wait_status(lambda s: s == "connected", TIMEOUT)
        c.runner.call(lambda t: t.start(START))
        seen.wait_for(lambda: all(seen.last(t) for t in OLD), "table-1's retained topics")
        assert c.publisher.refusals.scopes() == []


def record(data) -> list[str]:
    return [k["table"] for k in json.loads((data / "mqtt_published.json").read_text())]


def test_a_rename_whose_clearing_is_refused_is_said_kept_and_tried_until_taken(
        tmp_path, club, caplog, monkeypatch):
    monkeypatch.setattr("drivers.mqtt.REFUSED_RETRY", 0.3)
    data = tmp_path / "data"
    seen = watcher(club)
    played_as_table_1(club, data, seen)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="drivers.mqtt"), \
            companion(as_table(club, "table-2", "table-2"), data, USERS["table-2"]) as c:
        # The new id is published; each of table-1's nine topics is refused to table-2.
        assert c.publisher.wait_status(lambda s: s == "old id not cleared: not authorized",
                                       TIMEOUT)
        seen.wait_for(lambda: seen.last(T2.availability) == b"online", "table-2 online")
        # Tried again and again (each try publishes `online` again): said once all the same.
        seen.wait_for(lambda: len(seen.on(T2.availability)) >= 4, "three tries more")
        said = warnings(caplog)
        assert len(said) == 2, said  # one per ACL line it lacks, not one per message
        assert "topic write table-companion/table-1/#" in said[0] + said[1]
        assert "topic write homeassistant/sensor/table_companion_table-1/#" in said[0] + said[1]
        assert all("user 'table-2'" in w and "Not authorized" in w for w in said)
        assert "cleared the retained topics" not in caplog.text
        # Nothing of table-1 was cleared, and it is not forgotten: still to clear.
        assert all(seen.last(t) for t in OLD)
        assert record(data) == ["table-1", "table-2"]
        # The hall's card of table-2 says what the broker refuses, and what to add.
        seen.wait_for(lambda: json.loads(seen.last(T2.summary) or b"{}").get("refused"),
                      "the summary saying it")
        board = Board("table-companion")
        board.receive(T2.summary, seen.last(T2.summary))
        card = json.loads(board.json_text())["tables"][0]
        assert {r["acl"] for r in card["summary"]["refused"]} == {
            "topic write table-companion/table-1/#",
            "topic write homeassistant/sensor/table_companion_table-1/#"}
        assert all(r["reason"] == "Not authorized" for r in card["summary"]["refused"])

        # The club puts the ACL right (for a while) and reloads it: the next try clears.
        acl = club.folder / "acl"
        acl.write_text(acl.read_text().replace(
            "user table-2\n", "user table-2\ntopic write table-companion/table-1/#\n"
            "topic write homeassistant/sensor/table_companion_table-1/#\n"))
        club.process.send_signal(1)  # SIGHUP: Mosquitto reads its ACL again
        seen.wait_for(lambda: all(seen.last(t) == b"" for t in OLD), "table-1 cleared")
        assert c.publisher.wait_status(lambda s: s == "connected", TIMEOUT)
        seen.wait_for(lambda: json.loads(seen.last(T2.summary))["refused"] == [],
                      "the summary with nothing refused")
    assert "cleared the retained topics of table 'table-1'" in caplog.text
    assert caplog.text.count("the broker takes the clearing of its old id") == 2
    assert record(data) == ["table-2"]
    seen.close()


def test_a_table_whose_user_may_not_write_its_topics_says_so_and_keeps_its_old_card(
        tmp_path, club, caplog):
    data = tmp_path / "data"
    seen = watcher(club)
    played_as_table_1(club, data, seen)
    caplog.clear()
    # Renamed in its config, its user still table-1's: nothing of table-2 may be written.
    with caplog.at_level(logging.INFO, logger="drivers.mqtt"), \
            companion(as_table(club, "table-2", "table-1"), data, USERS["table-1"]) as c:
        assert c.publisher.wait_status(lambda s: s == "may not publish: not authorized",
                                       TIMEOUT)
        c.runner.call(lambda t: t.abandon())  # an event refused too: the same episode
        # Shown on the info screen (OLED) as the broker's status.
        shown = threading.Condition()
        c.oled.frames.add(lambda image: (shown.acquire(), shown.notify_all(), shown.release()))
        c.press("next").result(TIMEOUT)  # Info (no match on the table now)

        def showing() -> bool:
            state, frame = c.panel.state, c.oled.device.image
            return (state.screen.items == ("may not publish: not authorized",)
                    and frame is not None and frame.tobytes() == render(state, c.ctx).tobytes())

        with shown:
            assert shown.wait_for(showing, TIMEOUT)
        # One line per ACL line it lacks (its topics, its Home Assistant configs), however
        # many messages were refused.
        said = sorted(w for w in warnings(caplog) if "refuses" in w)
        assert len(said) == 2, said
        assert "topic write homeassistant/sensor/table_companion_table-2/#" in said[0]
        assert "topic write table-companion/table-2/#" in said[1]
        assert "user 'table-1'" in said[1] and "is [mqtt] username right?" in said[1]
        # The old id is not cleared while the new one is refused: its card stays.
        assert all(seen.last(t) for t in OLD)
        assert seen.last(T2.availability) is None
        assert record(data) == ["table-1", "table-2"]
        assert "cleared" not in caplog.text
    seen.close()


def test_home_assistant_configs_refused_are_said_on_the_tables_card(tmp_path, caplog):
    # The README's ACL without the Home Assistant line for table-1 (from the broker's
    # start: no reload to wait for).
    acl = readme_acl().replace("topic write homeassistant/sensor/table_companion_table-1/#\n",
                               "")
    with Mosquitto(tmp_path / "broker", users=USERS, acl=acl) as broker:
        check_home_assistant_refused(tmp_path, broker, caplog)


def check_home_assistant_refused(tmp_path, club: Mosquitto, caplog) -> None:
    seen = watcher(club)
    with caplog.at_level(logging.INFO, logger="drivers.mqtt"), \
            companion(as_table(club, "table-1", "table-1"), tmp_path / "data",
                      USERS["table-1"]) as c:
        assert c.publisher.wait_status(lambda s: s == "HA refused: not authorized",
                                       TIMEOUT)
        seen.wait_for(lambda: json.loads(seen.last(T1.summary) or b"{}").get("refused"),
                      "the summary saying it")
        (entry,) = json.loads(seen.last(T1.summary))["refused"]
        assert entry == {"what": "its Home Assistant configs", "reason": "Not authorized",
                         "acl": "topic write homeassistant/sensor/table_companion_table-1/#"}
        assert not any(seen.last(t) for t in discovery_topics("table-1"))
        (said,) = [w for w in warnings(caplog) if "refuses" in w]
        assert "discovery = false" in said
    seen.close()
