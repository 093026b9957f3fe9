"""The club night end to end on a real Mosquitto: the hall (its own process, killed and
restarted), its director over HTTP, and four tables played by the test that publish what
a table publishes. No score is typed on the hall."""

from __future__ import annotations

import pytest

from hall.director.model import Player, Result
from hall.director.standings import standings
from tests.hall.hall_support import HallProcess, Sender
from tests.hall.night_support import PIN, HttpDirector, OfferWatch, SimTable
from tests.mqtt_support import mosquitto  # noqa: F401 (a fixture)

EIGHT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
TABLES = ["t1", "t2", "t3", "t4"]


def winner_of(players: list[str]) -> int:
    """Who the test lets win: not always the first seat, so the standings spread."""
    return sum(map(len, players)) % 2


@pytest.fixture
def club(mosquitto):  # noqa: F811
    sender = Sender(mosquitto)
    tables = {t: SimTable(sender, t) for t in TABLES}
    watch = OfferWatch(mosquitto.port)
    yield sender, tables, watch
    watch.close()
    for table in tables.values():
        table.close()
    sender.close()


def play(tables: dict[str, SimTable], watch: OfferWatch, which: list[str]) -> None:
    """The tables ``which`` each start their offer (a press) and play it out; the hall
    withdraws each offer once its result is in (or offers the table its next game)."""
    for t in which:
        offer = watch.offers[t]
        assert offer is not None, t
        tables[t].start(offer)
        tables[t].finish(winner_of(offer["players"]))
        watch.until(lambda offers, t=t, o=offer["offer"]:
                    offers.get(t) is None or offers[t]["offer"] != o)


def test_a_swiss_night_is_played_by_the_tables_through_a_hall_crash_and_a_broker_restart(
        mosquitto, club, tmp_path):  # noqa: F811
    _, tables, watch = club
    data = tmp_path / "hall"
    hall = HallProcess("--mqtt", mosquitto.url, "--data", str(data), "--director-pin", PIN)
    try:
        director = HttpDirector(hall.url)
        status, event = director.request("POST", "/api/events", {
            "name": "Tuesday Swiss", "game": "center-court", "options": {"sets": 1},
            "format": "swiss", "rounds": 3, "players": EIGHT, "tables": TABLES})
        assert status == 200, event
        eid = event["id"]

        # Round 1: four games, four tables, every offer published retained.
        director.change(f"/api/events/{eid}/rounds", {}, eid)
        offers = watch.until(lambda o: all(o.get(t) for t in TABLES))
        assert sorted(n for t in TABLES for n in offers[t]["players"]) == sorted(EIGHT)
        play(tables, watch, TABLES)
        state = director.event(eid)
        assert [p["status"] for p in state["pairings"]] == ["done"] * 4
        assert {p["result"]["source"] for p in state["pairings"]} == {"table"}

        # Round 2: two tables finish, then the hall is killed mid-round.
        director.change(f"/api/events/{eid}/rounds", {}, eid)
        watch.until(lambda o: all(o.get(t) and o[t]["event"]["round"] == 2 for t in TABLES))
        play(tables, watch, ["t1", "t2"])
        before = director.event(eid)
        hall.proc.kill()  # SIGKILL: no goodbye, nothing flushed
        hall.proc.communicate(timeout=20)
        # The broker goes too, losing every retained offer and result (no persistence).
        mosquitto.kill()
        watch.offers.clear()
        mosquitto.start()
        watch.subscribed(2)  # back on the broker before the hall clears t1's and t2's offers
        hall = HallProcess("--mqtt", mosquitto.url, "--data", str(data), "--director-pin", PIN)
        director = HttpDirector(hall.url)
        assert director.event(eid) == before
        # The hall offers again what is pending (t3, t4) and clears what is not (t1, t2).
        offers = watch.until(lambda o: all(t in o for t in TABLES))
        assert offers["t1"] is None and offers["t2"] is None
        pending = {p["table"]: p["offer"] for p in before["pairings"] if p["status"] != "done"}
        assert {t: offers[t]["offer"] for t in ("t3", "t4")} == pending
        # The tables come back and publish their results again: nothing counts twice.
        for table in tables.values():
            table.publish_results()
        play(tables, watch, ["t3", "t4"])

        # Round 3, then the end.
        director.change(f"/api/events/{eid}/rounds", {}, eid)
        watch.until(lambda o: all(o.get(t) and o[t]["event"]["round"] == 3 for t in TABLES))
        play(tables, watch, TABLES)
        for table in tables.values():
            table.publish_results()  # a reconnection's copy again, after the round
        final = director.change(f"/api/events/{eid}/rounds", {}, eid)
    finally:
        hall.stop()
    assert final["finished"] is True and final["winner"] == final["standings"][0]["name"]
    lines = {s["name"]: s for s in final["standings"]}
    assert all(lines[n]["played"] == 3 for n in EIGHT)
    assert sum(s["points"] for s in final["standings"]) == 12  # 12 games, each counted once
    # The standings are what the tables' results give, recomputed from scratch.
    results = []
    for table in tables.values():
        for entry in table.table.snapshot.results:
            event = table.events[entry["match"]]
            places = entry["standing"]["places"]
            results.append(Result(event["round"], tuple(entry["players"]),
                                  tuple(p + 1 for p in places), game=event["pairing"]))
    assert len(results) == 12
    again = standings([Player(n) for n in EIGHT], results)
    assert [(s.name, s.points, s.buchholz) for s in again] == [
        (s["name"], s["points"], s["buchholz"]) for s in final["standings"]]
    # Nobody met anyone twice.
    assert all(len(set(s["opponents"])) == 3 for s in final["standings"])


def test_a_knockout_is_seeded_by_the_club_leaderboard_the_hall_keeps(mosquitto, tmp_path):  # noqa: F811
    """The ratings are the hall's own club leaderboard (hall/results.py), of the event's
    game: Ann beat everyone at table t9 before, so she is seed 1; a newcomer is seeded as
    the field's average."""
    from companion.topics import results_payload
    from hall.run import Hall

    with Hall(mosquitto.url, host="127.0.0.1", port=0, prefix="table-companion",
              data=tmp_path, director_pin=PIN) as hall:
        played = [{"match": i, "game": "center-court", "players": ["Ann", other],
                   "standing": {"teams": [[0], [1]], "places": [0, 1]},
                   "started_at": 1764000000.0 + i}
                  for i, other in enumerate(["Bob", "Cy", "Dee", "Bob", "Cy"], start=1)]
        played.append({"match": 6, "game": "center-court", "players": ["Bob", "Cy"],
                       "standing": {"teams": [[0], [1]], "places": [0, 1]},
                       "started_at": 1764000010.0})
        hall.results.receive("t9", results_payload("t9", 1, played).encode())
        director = HttpDirector(hall.urls[0])
        status, event = director.request("POST", "/api/events", {
            "name": "Cup", "game": "center-court", "format": "elimination",
            "players": ["Dee", "Cy", "New", "Bob", "Ann"], "tables": ["t1", "t2"]})
        assert status == 200, event
        rating = {p["name"]: p["rating"] for p in event["players"]}
        assert rating["Ann"] > rating["Bob"] > rating["Cy"] and rating["Ann"] > rating["Dee"]
        known = [rating[n] for n in ("Ann", "Bob", "Cy", "Dee")]
        assert abs(rating["New"] - sum(known) / 4) < 0.1
        state = director.change(f"/api/events/{event['id']}/rounds", {}, event["id"])
        # Eight places for five: the top three seeds have byes; Ann is seed 1.
        byes = [p["players"][0] for p in state["pairings"] if p["bye"]]
        assert byes[0] == "Ann" and len(byes) == 3
