"""Property (issue 35): whatever happens, in whatever order (tables playing the hall's
offers and friendlies, undoing past the win, redoing, renaming and merging players, the
director correcting results and deciding on held revisions, rounds paired), the event's
standings and the club's leaderboard are what a fresh computation from the final results
gives, and every copy of a result agrees: the table's history (the director's rulings
carried back to it), the event, the CSV, the leaderboard and the ratings."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError
from companion.ratings import rate
from companion.store import Finished
from hall.director.model import Player, Result
from hall.director.standings import standings
from hall.revisions import standing_of
from tests.hall.night_support import ClubHall, PlayedTable

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
TABLES = ("t1", "t2", "t3")

steps = st.lists(st.tuples(
    st.sampled_from(["play"] * 5 + ["next"] * 2 + ["undo", "redo", "rename", "merge",
                                                   "friendly", "correct", "decide",
                                                   "hear"]),
    st.sampled_from(TABLES), st.integers(0, 99)), min_size=12, max_size=40)


def still() -> float:
    return 1764050000.0


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(steps)
def test_every_copy_of_every_result_is_a_fresh_computation_of_the_final_results(plan):
    with tempfile.TemporaryDirectory() as tmp:
        hall = ClubHall(Path(tmp), clock=still)
        tables = {t: PlayedTable(hall, t) for t in TABLES}
        try:
            answer = hall.director.post("/api/events", {
                "name": "Prop", "game": "center-court", "options": {"sets": 1},
                "format": "swiss", "rounds": 3, "players": PLAYERS, "tables": list(TABLES)})
            eid = answer.get_json()["id"]
            hall.director.post(f"/api/events/{eid}/rounds", {}, eid=eid)
            fresh = iter(f"New{i}" for i in range(1000))
            for what, t, n in plan:
                if what == "play":  # a table that has an offer to play, or a match on
                    ready = [x for x in TABLES if tables[x].offer() or (
                        tables[x].table.snapshot.match or {}).get("status") == "active"]
                    t = ready[n % len(ready)] if ready else t
                act(hall, eid, tables[t], what, n, fresh)
            settle(hall, eid, tables)
            check(hall, eid, tables, Path(tmp))
        finally:
            for table in tables.values():
                table.close()
            hall.close()


def act(hall: ClubHall, eid: str, table: PlayedTable, what: str, n: int, fresh) -> None:
    state = hall.director.event(eid)
    match = table.table.snapshot.match
    try:
        if what == "play":
            offer = table.offer()
            if offer and "offer" in offer and (match is None or match["status"] != "active"):
                with contextlib.suppress(CompanionError):  # played here: never twice
                    table.start()
            if table.table.snapshot.match is not None:
                table.win(n % 2)
        elif what == "friendly" and (match is None or match["status"] != "active"):
            table.table.start({"game": "center-court", "players": ["Zed", PLAYERS[n % 6]],
                               "options": {"sets": 1}})
            table.win(n % 2)
        elif what == "undo" and match is not None and match["can_undo"]:
            table.table.undo()
        elif what == "redo" and match is not None and match["can_redo"]:
            table.table.redo()
        elif what == "rename":
            names = [p.name for p in table.store.players()]
            if names:
                table.table.rename_player(names[n % len(names)], next(fresh))
        elif what == "merge":
            names = [p.name for p in table.store.players()]
            if len(names) > 1:
                table.table.merge_players(names[n % len(names)],
                                          names[(n + 1) % len(names)])
        elif what == "correct":
            done = [g for g in state["pairings"] if g["result"] and not g["bye"]]
            if done:
                g = done[n % len(done)]
                hall.director.post(f"/api/events/{eid}/pairings/{g['id']}/result",
                                   {"ranks": [[1, 2], [2, 1], [1, 1]][n % 3],
                                    "reason": f"sheet {n}"}, eid=eid)
        elif what == "hear":  # the hall's offer topic reaches the table: its rulings
            table.hear()
        elif what == "next":
            hall.director.post(f"/api/events/{eid}/rounds", {}, eid=eid)
        elif what == "decide" and state["held"]:
            held = state["held"][0]
            choice = ["apply", "keep", "repair"][n % 3]
            hall.director.post(f"/api/events/{eid}/pairings/{held['pairing']}/revision",
                               {"choice": choice}, eid=eid)
    except CompanionError:
        pass  # refused by the table (a merge of two players of one match): nothing changed


def settle(hall: ClubHall, eid: str, tables: dict[str, PlayedTable]) -> None:
    """The director decides every held revision (apply it where they may, else keep),
    and every table hears the hall (its rulings), until nothing waits on either side."""
    for _ in range(40):
        state = hall.director.event(eid)
        if state["held"]:
            held = state["held"][0]
            path = f"/api/events/{eid}/pairings/{held['pairing']}/revision"
            choice = "apply" if held["can_apply"] else "keep"
            assert hall.director.post(path, {"choice": choice}, eid=eid).status_code == 200
            continue
        offers = hall.outbox.offers()
        if not any((offers.get(t) or {}).get("rulings") for t in tables):
            return
        for table in tables.values():
            table.hear()
    raise AssertionError("the hall and the tables did not settle")


def counted(folder: Path, eid: str) -> dict[str, tuple[dict, str, str | None]]:
    """Each game's counted result as hall.db holds it: (result, source, origin)."""
    db = sqlite3.connect(folder / "hall.db")
    try:
        latest: dict[str, tuple[dict, str, str | None]] = {}
        for pairing, result, source, origin in db.execute(
                "SELECT pairing, result, source, origin FROM event_results WHERE event = ?"
                " AND state = 'applied' ORDER BY seq", (eid,)):
            first = latest.get(pairing, (None, None, None))[2]
            latest[pairing] = (json.loads(result), source, first or origin)
        return latest
    finally:
        db.close()


def check(hall: ClubHall, eid: str, tables: dict[str, PlayedTable], folder: Path) -> None:
    state = hall.director.event(eid)
    games = counted(folder, eid)
    results = [Result.from_json(r) for r, _, _ in games.values() if r is not None]
    # The event's standings and its CSV: the standings of its final results, fresh.
    again = standings([Player(p["name"], p["rating"], p["start_points"])
                       for p in state["players"]], results)
    assert [s.to_json() for s in again] == state["standings"]
    rows = list(csv.reader(io.StringIO(
        hall.director.get(f"/api/events/{eid}/standings.csv").get_data(as_text=True))))
    assert [(r[1], float(r[2])) for r in rows[1:]] == [(s.name, s.points) for s in again]
    # Each copy of a table's result: the table's history places the seats as the event
    # does, the director's corrections and the results they kept included (their rulings
    # reached the table's history). The hall sends none still.
    by_origin = {m_key(t, m): m for t in tables.values() for m in t.store.finished()}
    for pairing, (result, _, origin) in games.items():
        if result is None or origin is None:
            continue
        kept = by_origin.get(origin)
        if kept is None:
            continue  # undone at the table after the director kept a result: no match
        assert [p + 1 for p in places(kept.standing)] == result["ranks"], (pairing, kept)
        line = next(m for m in tables[origin.split("/")[0]].store.history()
                    if m.id == kept.id)
        assert line.winners == tuple(i for i, r in enumerate(result["ranks"]) if r == 1)
    assert not any((o or {}).get("rulings") for o in hall.outbox.offers().values())
    # The leaderboard and ratings: the tables' friendlies and the event's games, rated
    # afresh in the order played.
    matches = []
    for t, table in tables.items():
        for m in table.store.finished():
            if m.event is None:
                matches.append((m.started_at, t, m.id, m.game, m.players, m.standing))
    for i, (result, _, origin) in enumerate(games.values()):
        if result is None or len(result["players"]) < 2:
            continue
        r = Result.from_json(result)
        where = origin.split("/") if origin else ["", "0", str(i)]
        at = by_origin[origin].started_at if origin in by_origin else still()
        matches.append((at, where[0], int(where[2]), "center-court", r.players,
                        standing_of(r)))
    matches.sort(key=lambda m: (m[0], m[1], m[2]))
    expected = rate([Finished(i + 1, g, tuple(p), s, at)
                     for i, (at, _, _, g, p, s) in enumerate(matches)])
    got = json.loads(hall.results.players().data)
    board = next(g for g in got["games"] if g["game"] == "center-court")
    assert sorted((r["name"], r["matches"], r["wins"]) for r in board["players"]) == sorted(
        (r.name, r.matches, r.wins) for r in expected.board("center-court"))
    assert got["matches"] == len(matches)


def m_key(table: PlayedTable, m) -> str:
    return f"{table.id}/{table.table.snapshot.epoch}/{m.id}"


def places(standing: dict) -> list[int]:
    """Each seat's place from 0 in a table's standing."""
    out: dict[int, int] = {}
    for team, place in zip(standing["teams"], standing["places"], strict=True):
        for i in team:
            out[i] = place
    return [out[i] for i in sorted(out)]
