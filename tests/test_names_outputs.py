"""Names in any script reach every output whole: the serial scoreboard's STATE line (an
ASCII line, names escaped in its JSON) and the MQTT payloads (UTF-8 JSON) that the
hall and Home Assistant read."""

from __future__ import annotations

import json
import random

import pytest

from companion.store import Store
from companion.table import Table
from companion.topics import TableInfo, event_payload, summary_payload
from drivers.serial_pad import state_lines
from tests.support import CATALOG

NAMES = [["Łukasz", "Dvořák"], ["Işık", "Σοφία"], ["Ольга", "李小龙"], ["דוד", "محمد علي"]]


@pytest.mark.parametrize("players", NAMES)
def test_names_in_any_script_reach_the_serial_line_and_the_broker_whole(players):
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(0))
        table.start({"game": "center-court", "players": players})
        table.act({"type": "point", "winner": 1})
        snapshot = table.snapshot
        state = snapshot.to_json()
    # Serial: one ASCII line per message, whatever the script of the names.
    line = state_lines(snapshot).split(b"\n")[0]
    assert line.isascii()
    _, version, body = line.decode("ascii").split(" ", 2)
    assert json.loads(body)["match"]["players"] == players and int(version) == snapshot.version
    # MQTT: UTF-8 JSON; the hall card (summary) names both players in their letters.
    summary = summary_payload(state, TableInfo("t1", "Table 1", None), CATALOG)
    assert json.loads(summary.encode("utf-8"))["players"] == " v ".join(players)
    event = json.loads(event_payload(state, snapshot.change).encode("utf-8"))
    assert event["version"] == snapshot.version
