"""Doubles and Alakazoo tables for real, on the fixtures of test_night_tables.py: a
Mosquitto with the README's ACL, ``companion hall`` and four ``companion run --sim``
tables. The director runs two events at once over the hall's API, one round each: an
AlakaSLAM doubles Swiss of 8 players on two tables, and an Alakazoo Swiss of 7 players
at a table of 4 and a table of 3. Each table starts its offer with one press or tap,
with the players in the seats the game's options give them; its host plays the match
out; the results come back by themselves, with sides and with places.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.hall.night_support import HttpDirector
from tests.hall.test_night_tables import (  # noqa: F401 (club: the fixture)
    EIGHT,
    TableProcess,
    by_table,
    club,
    start_hall,
    until,
    wait_done,
)

pytestmark = pytest.mark.slow

#: Doubles: seats 0 and 2 are side 0 (CONTRACT.md's AlakaSLAM ``teams``), two points win.
DOUBLES = {"characters": ["austin", "laurie", "rich", "toots"], "teams": [0, 1, 0, 1],
           "target": 2}
SEVEN = ["Ivy", "Jo", "Kim", "Lu", "Max", "Ned", "Oz"]


def create(director: HttpDirector, body: dict[str, Any]) -> dict[str, Any]:
    status, event = director.request("POST", "/api/events", {
        "format": "swiss", "rounds": 1, **body})
    assert status == 200, event
    return director.change(f"/api/events/{event['id']}/rounds", {}, event["id"])


def slam_side(view: dict[str, Any], name: str) -> int:
    return next(p["side"] for p in view["players"] if p["name"] == name)


def play_zoo(table: TableProcess, shown: int) -> dict[str, Any]:
    """Each seat in turn displays up to ``shown`` of its own creature (fewer for later
    seats, so the leaders' totals differ), takes Dark Power to 3 and ends its turn; then the turns
    pass until the match ends (nobody can act)."""
    state = table.state()
    count = len(state["match"]["players"])
    for i in range(count):
        creature = state["match"]["view"]["players"][i]["creature"]
        for space in range(1, max(0, shown - i) + 1):
            table.call("POST", "/api/action", {"type": "display", "space": space,
                                               "creature": creature})
        for _ in range(3):
            table.call("POST", "/api/action", {"type": "dark_power", "reason": "hand"})
        state = table.call("POST", "/api/action", {"type": "end_turn"})
    for _ in range(50):
        if state["match"]["status"] != "active":
            break
        state = table.call("POST", "/api/action", {"type": "end_turn"})
    assert state["match"]["status"] != "active", state["match"]["view"]
    return state["match"]


def test_a_doubles_and_an_alakazoo_tables_round_played_by_companions(club, tmp_path):  # noqa: F811
    broker, tables = club
    hall, director = start_hall(broker, tmp_path / "hall")
    try:
        doubles = create(director, {"name": "Doubles", "game": "alakaslam",
                                    "options": DOUBLES, "players": EIGHT,
                                    "tables": ["table-1", "table-2"]})
        zoo = create(director, {"name": "Zoo", "game": "alakazoo", "lineup": "tables",
                                "options": {"dark_power_reset": False}, "players": SEVEN,
                                "tables": ["table-3", "table-4"]})
        assert doubles["lineup"] == "doubles" and zoo["lineup"] == "tables"

        # Doubles: each table starts its offer with one press or tap; the match has the
        # offer's players in its seats, each team on the side the options give it.
        winners: set[str] = set()
        for (t, p), how in zip(sorted(by_table(doubles).items()), ("press", "tap"),
                               strict=True):
            match = tables[t].start_offer(p["offer"], how)
            assert match["players"] == p["players"] and len(p["players"]) == 4
            view = match["view"]
            assert view["format"] == "doubles"
            assert [slam_side(view, n) for n in p["players"]] == [0, 1, 0, 1]
            teams = {frozenset(x) for x in doubles["teams"]}
            assert frozenset(p["players"][0::2]) in teams
            assert frozenset(p["players"][1::2]) in teams
            winner = 1 if t == "table-1" else 0
            for _ in range(DOUBLES["target"]):
                state = tables[t].call("POST", "/api/action", {"type": "point",
                                                               "winner": winner})
            assert state["match"]["status"] != "active"
            winners |= set(p["players"][winner::2])

        # Alakazoo: a table of 4 and a table of 3, seated in the offer's order.
        seats = {t: len(p["players"]) for t, p in by_table(zoo).items()}
        assert sorted(seats.values()) == [3, 4]
        places: dict[str, list[int]] = {}
        for (t, p), how in zip(sorted(by_table(zoo).items()), ("tap", "press"), strict=True):
            match = tables[t].start_offer(p["offer"], how)
            assert match["players"] == p["players"]
            final = play_zoo(tables[t], 2)  # two: the most a first turn pays for
            totals = [x["total"] for x in final["view"]["players"]]
            places[t] = [1 + sum(o > mine for o in totals) for mine in totals]

        # The results come back by themselves.
        state = wait_done(director, doubles["id"], ["table-1", "table-2"])
        assert {p["result"]["source"] for p in state["pairings"]} == {"table"}
        points = {s["name"]: s["points"] for s in state["standings"]}
        assert {n for n, v in points.items() if v == 1} == winners and len(winners) == 4
        assert all(points[n] == 0 for n in EIGHT if n not in winners)
        for s in state["standings"]:  # Buchholz: the two opponents, never the partner
            assert s["buchholz"] == (0 if s["name"] in winners else 2)

        state = wait_done(director, zoo["id"], ["table-3", "table-4"])
        for t, p in by_table(state).items():
            assert p["result"]["ranks"] == places[t]
        assert sorted(s["played"] for s in state["standings"]) == [1] * 7

        # One round each: starting the next finishes each event; no offer is left.
        for event in (doubles, zoo):
            final = director.change(f"/api/events/{event['id']}/rounds", {}, event["id"])
            assert final["finished"] is True
        until(lambda: all(table.offer() is None for table in tables.values()),
              "every offer withdrawn")
    finally:
        code, _, err = hall.stop()
    assert code == 0, err
