"""Issue 35 for real: a Mosquitto with the README's TLS, users and ACL, ``companion hall``
with a director, and two ``companion run --sim`` tables driven through their host pages
and simulated buttons. Each Medium and High item is replayed: an undo past the match
point, a rename mid-match, "Again" then End while the hall is down, a director's
correction (made while its table is off and the broker lost its retained messages: it
reaches the table's own history), a game being played moved; at the end every copy of
every result is equal (each table's history, the event and its CSV, the leaderboard)."""

from __future__ import annotations

import csv
import io
import json
import urllib.request
from typing import Any

import pytest

from tests.hall.test_night_tables import (
    SHORT,
    TableProcess,
    four_tables_acl,
    start_hall,
    until,
)
from tests.hall.test_night_tables import USERS as ALL_USERS
from tests.mqtt_support import Mosquitto

pytestmark = pytest.mark.slow

TABLES = ["table-1", "table-2"]
USERS = {t: ALL_USERS[t] for t in [*TABLES, "hall"]}
FOUR = ["Pia", "Quo", "Rex", "Sal"]


@pytest.fixture
def club(tmp_path):
    with Mosquitto(tmp_path / "broker", users=ALL_USERS, acl=four_tables_acl(),
                   tls=True) as broker:
        tables: dict[str, TableProcess] = {}
        try:
            for t in TABLES:
                tables[t] = TableProcess(tmp_path / t, broker, t)
                tables[t].launch()
            for table in tables.values():
                table.ready()
            yield broker, tables
        finally:
            for table in tables.values():
                table.stop()


def game(state: dict[str, Any], table: str) -> dict[str, Any]:
    return next(p for p in state["pairings"] if p["table"] == table)


def change(director, path: str, body: dict[str, Any], eid: str) -> dict[str, Any]:
    """A director's change, made again on the event's newest version when a table moved
    it on meanwhile (its result, its summary): as the page does after a 409."""
    for _ in range(10):
        status, answer = director.request("POST", path, {
            **body, "version": director.event(eid)["version"]})
        if status != 409 or "changed meanwhile" not in answer.get("error", ""):
            assert status == 200, answer
            return answer
    raise AssertionError(answer)


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=20) as answer:
        return json.loads(answer.read())


def test_every_copy_of_every_result_stays_equal_through_what_issue_35_found(club, tmp_path):
    broker, tables = club
    data = tmp_path / "hall"
    hall, director = start_hall(broker, data)
    try:
        status, event = director.request("POST", "/api/events", {
            "name": "One result", "game": "center-court", "options": SHORT,
            "format": "swiss", "rounds": 2, "players": FOUR, "tables": TABLES})
        assert status == 200, event
        eid = event["id"]
        state = change(director, f"/api/events/{eid}/rounds", {}, eid)
        one, two = game(state, "table-1"), game(state, "table-2")
        t1, t2 = tables["table-1"], tables["table-2"]

        # High: table-1's match point is undone (BACK held) and the other player wins.
        t1.start_offer(one["offer"], "press")
        t1.points(0)
        until(lambda: game(director.event(eid), "table-1")["status"] == "done",
              "table-1's first result")
        t1.call("POST", "/api/undo")
        t1.points(1)
        until(lambda: (game(director.event(eid), "table-1")["result"] or {}).get("ranks")
              == [2, 1], "the event to follow the new winner")

        # Medium: a player renamed at table-2 mid-match. The hall goes down before the
        # match ends, so its offer stays on the broker: "Again" (OK on the finished
        # board) then End must not bring it back to be played a second time.
        t2.start_offer(two["offer"], "tap")
        t2.points(0, 2)
        renamed = f"{two['players'][0]} Smith"
        t2.call("POST", "/api/players/rename", {"name": two["players"][0], "to": renamed})
        hall.proc.kill()
        hall.proc.communicate(timeout=20)
        t2.points(0)
        t2.call("POST", "/api/sim/button", {"button": "ok"})  # Again: a rematch
        again = t2.state()["match"]
        assert again["status"] == "active" and again["event"] is None
        t2.call("POST", "/api/match/end")
        offer = t2.call("GET", "/api/offer")
        assert offer["offer"]["offer"] == two["offer"] and offer["played"] is not None
        status, answer = t2.host.call("POST", "/api/offer/start", {"offer": two["offer"]})
        assert status == 409 and "played at this table already" in answer["error"]
        assert t2.state()["match"] is None  # nothing started
        hall, director = start_hall(broker, data)
        state = until(lambda: (s := director.event(eid)) and game(s, "table-2")["status"]
                      == "done" and s, "table-2's result after the rename")
        assert game(state, "table-2")["players"][0] == renamed
        assert game(state, "table-2")["result"]["ranks"] == [1, 2]

        # Medium: the director's correction reaches the leaderboard and ratings, and the
        # table's own history (item 1): made while table-2 is off and the broker has lost
        # its retained messages, it reaches the table once both are back.
        state = director.event(eid)
        fixed = game(state, "table-2")
        t2.kill()
        broker.kill()
        broker.start()
        change(director, f"/api/events/{eid}/pairings/{fixed['id']}/result",
                        {"ranks": [2, 1], "reason": "the score sheet"}, eid)
        t2.start()
        line = until(lambda: next((m for m in t2.call("GET", "/api/history")
                                   if m["ruling"] is not None), None),
                     "table-2's history to show the director's correction")
        assert line["ruling"]["kind"] == "corrected" and line["winner"] == 1
        assert line["ruling"]["reason"] == "the score sheet" and line["ruling"]["was"] == 0

        # Round 2; table-2's game is moved while played, once abandoned: its table told.
        round_one = director.event(eid)["pairings"]
        state = change(director, f"/api/events/{eid}/rounds", {}, eid)
        three, four = game(state, "table-1"), game(state, "table-2")
        t2.start_offer(four["offer"], "tap")
        until(lambda: game(director.event(eid), "table-2")["status"] == "playing",
              "table-2 playing")
        status, answer = director.request(
            "POST", f"/api/events/{eid}/pairings/{four['id']}/move",
            {"table": None, "version": director.event(eid)["version"]})
        assert status == 409 and "abandoned" in answer["error"]
        change(director, f"/api/events/{eid}/pairings/{four['id']}/move",
                        {"table": None, "abandoned": True}, eid)
        until(lambda: (t2.call("GET", "/api/offer")["notice"] or "").startswith(
            "the director moved"), "table-2 told")
        t2.points(0)  # finished anyway: never counted
        change(director, f"/api/events/{eid}/pairings/{four['id']}/result", {"ranks": [1, 2]},
                        eid)
        t1.start_offer(three["offer"], "press")
        t1.points(1)
        until(lambda: game(director.event(eid), "table-1")["status"] == "done",
              "table-1's round 2")
        final = change(director, f"/api/events/{eid}/rounds", {}, eid)
        assert final["finished"] and final["held"] == []
        assert any("not counted" in n["text"] for n in final["notes"])

        # Every copy equal: the event's results, its CSV, each table's history.
        results = {p["id"]: p["result"] for p in [*round_one, *final["pairings"]]}
        rows = list(csv.reader(io.StringIO(urllib.request.urlopen(
            f"{hall.url}/api/events/{eid}/standings.csv", timeout=20).read().decode())))
        assert [(r[1], float(r[2])) for r in rows[1:]] == [
            (s["name"], s["points"]) for s in final["standings"]]
        seen = set()
        for table in tables.values():
            for m in table.call("GET", "/api/history"):
                if m["status"] != "finished":
                    continue
                start = json.loads(urllib.request.urlopen(
                    f"{table.host.url}/api/matches/{m['id']}/export", timeout=20)
                    .read().decode().splitlines()[0])
                ev = start.get("event") or {}
                if ev.get("id") != eid or ev["pairing"] == four["id"]:
                    continue  # a friendly; the moved game
                ranks = results[ev["pairing"]]["ranks"]
                assert ranks.index(1) == m["winner"], (m, ranks)
                seen.add(ev["pairing"])
        assert seen == {one["id"], three["id"], fixed["id"]}
        # The leaderboard: each of the event's games once, as the event counts them.
        board = get_json(f"{hall.url}/api/players")
        games = next(g for g in board["games"] if g["game"] == "center-court")
        lines = {r["name"]: (r["matches"], r["wins"]) for r in games["players"]}
        for s in final["standings"]:
            wins = s["points"]  # no draws and no byes here: a point is a win
            assert lines[s["name"]] == (s["played"], wins), (s, lines)
        # The friendly rematch was abandoned: nothing else is counted.
        assert board["matches"] == 4
    finally:
        code, _, err = hall.stop()
    assert code == 0, err
