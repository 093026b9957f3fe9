"""A director's word reaches the table's own history (issue 35, item 1): a correction at
the hall, or the result the director kept over the table's change, is a revision of the
same result on the table too. Real tables (companion/table.py on stores in files) hear
the hall's offer topic as the runtime does (Offers, then Table.apply_rulings) and publish
their results back; the hall stops sending a ruling once the table's results show it."""

from __future__ import annotations

import json
import logging

import pytest

from companion.offers import Offers
from companion.store import Store
from tests.hall.night_support import CATALOG, ClubHall, PlayedTable
from tests.hall.test_night_revisions import create, game_at, start, winner_line


@pytest.fixture
def club(tmp_path):
    hall = ClubHall(tmp_path)
    tables = {t: PlayedTable(hall, t) for t in ("t1", "t2")}
    yield hall, tables
    for table in tables.values():
        table.close()
    hall.close()


def history_of(table: PlayedTable, pairing: str) -> dict:
    """The table's history line (as GET /api/history serves it) of the hall's game."""
    return next(m.to_json() for m in table.store.history()
                if (table.store.start_of(m.id).get("event") or {}).get("pairing") == pairing)


def rulings_to(hall: ClubHall, table: str) -> list[dict]:
    return (hall.outbox.offers().get(table) or {}).get("rulings", [])


def test_a_correction_at_the_hall_is_a_revision_in_the_tables_history(club):
    hall, tables = club
    eid = create(hall)
    game = game_at(start(hall, eid), "t1")
    pia, quo = game["players"]
    t1 = tables["t1"]
    t1.start()
    t1.win(0)
    assert history_of(t1, game["id"])["winner"] == 0 and rulings_to(hall, "t1") == []
    answer = hall.director.post(f"/api/events/{eid}/pairings/{game['id']}/result",
                                {"ranks": [2, 1], "reason": "the score sheet"}, eid=eid)
    assert answer.status_code == 200
    [ruling] = rulings_to(hall, "t1")
    assert ruling["kind"] == "corrected" and ruling["match"] == t1.table.match_id
    [fix] = answer.get_json()["corrections"]
    assert fix["at_table"] == {"table": "t1", "taken": False, "gone": False}  # told
    t1.hear()
    line = history_of(t1, game["id"])
    assert line["winner"] == 1 and line["players"] == [pia, quo]
    assert line["ruling"]["kind"] == "corrected" and line["ruling"]["reason"] == "the score sheet"
    assert line["ruling"]["was"] == 0
    # The table's results carry it: the hall is answered, and sends it no more.
    [entry] = [r for r in t1.table.snapshot.results if r["match"] == ruling["match"]]
    assert entry["ruling"]["id"] == ruling["id"] and entry["standing"]["places"] == [1, 0]
    assert rulings_to(hall, "t1") == []
    state = hall.director.event(eid)
    assert winner_line(state, quo) == 1 and state["held"] == []
    assert state["corrections"][0]["at_table"] == {"table": "t1", "taken": True,
                                                   "gone": False}
    assert hall.leaderboard()[quo] == (1, 1) and hall.leaderboard()[pia] == (1, 0)
    # The table's own ratings follow too: Quo leads its board.
    from companion.ratings import table_ratings
    assert table_ratings(t1.store, CATALOG).board("center-court")[0].name == quo
    # The ruling comes again (a broker's retained copy): it is taken once.
    version = t1.store.version
    t1.offers.receive(json.dumps({"rulings": [ruling]}).encode())
    assert t1.table.apply_rulings(t1.offers.rulings) is None and t1.store.version == version


def test_the_result_the_director_kept_is_the_tables_result_too(club):
    """The table changed a result a later round was paired on; the director kept the old
    one: the table's history shows the kept result, said to be the director's."""
    hall, tables = club
    eid = create(hall)
    first = game_at(start(hall, eid), "t1")
    pia = first["players"][0]
    for table in tables.values():
        table.start()
        table.win(0)
    start(hall, eid)
    t1 = tables["t1"]
    t1.table.undo()
    t1.win(1)  # Quo wins at the table now: held for the director
    assert rulings_to(hall, "t1") == []  # nothing while the director has not chosen
    assert history_of(t1, first["id"])["winner"] == 1
    answer = hall.director.post(f"/api/events/{eid}/pairings/{first['id']}/revision",
                                {"choice": "keep"}, eid=eid)
    assert answer.status_code == 200
    [ruling] = rulings_to(hall, "t1")
    assert ruling["kind"] == "kept"
    t1.hear()
    line = history_of(t1, first["id"])
    assert line["winner"] == 0 and line["ruling"]["kind"] == "kept"
    assert rulings_to(hall, "t1") == []
    state = hall.director.event(eid)
    assert state["held"] == [] and winner_line(state, pia) == 1
    assert hall.leaderboard()[pia] == (1, 1)


def test_play_at_the_table_after_a_ruling_is_the_tables_result_again_and_held(club):
    """A ruling holds while the match stays as it was: an undo at the table puts the
    table's own play back in charge, and the hall holds that for the director."""
    hall, tables = club
    eid = create(hall)
    game = game_at(start(hall, eid), "t1")
    t1 = tables["t1"]
    t1.start()
    t1.win(0)
    hall.director.post(f"/api/events/{eid}/pairings/{game['id']}/result",
                       {"ranks": [2, 1], "reason": "sheet"}, eid=eid)
    t1.hear()
    assert history_of(t1, game["id"])["ruling"] is not None
    t1.table.undo()
    t1.win(0)  # Pia wins again at the table
    line = history_of(t1, game["id"])
    assert line["winner"] == 0 and line["ruling"] is None
    [held] = hall.director.event(eid)["held"]
    assert held["pairing"] == game["id"]
    t1.hear()  # nothing new while the director has not chosen
    assert history_of(t1, game["id"])["winner"] == 0
    # The director keeps the correction: a new word, so a new ruling the table takes.
    answer = hall.director.post(f"/api/events/{eid}/pairings/{game['id']}/revision",
                                {"choice": "keep"}, eid=eid)
    assert answer.status_code == 200
    [ruling] = rulings_to(hall, "t1")
    assert ruling["kind"] == "corrected" and ruling["reason"] == "sheet"
    t1.hear()
    line = history_of(t1, game["id"])
    assert line["winner"] == 1 and line["ruling"]["id"] == ruling["id"]
    assert rulings_to(hall, "t1") == []


def test_a_ruling_the_hall_may_not_give_changes_nothing_and_is_logged_once(tmp_path, caplog):
    from companion.table import Table

    store = Store(tmp_path / "companion.db")
    table = Table(store, CATALOG)
    table.start({"game": "center-court", "players": ["Łukasz", "Σοφία"],
                 "options": {"sets": 1}})
    for _ in range(200):
        if table.snapshot.match["status"] != "active":
            break
        table.act({"type": "point", "winner": 0})
    friendly = table.match_id
    forged = {"id": "e-1-3", "epoch": store.epoch, "match": friendly, "event": "e-1",
              "pairing": "r1-1", "kind": "corrected", "reason": "",
              "standing": {"teams": [[0], [1]], "places": [1, 0]}}
    offers = Offers(CATALOG)
    version = store.version
    caplog.set_level(logging.WARNING)
    for _ in range(2):
        offers.receive(json.dumps({"rulings": [forged]}).encode())
        assert table.apply_rulings(offers.rulings) is None
    assert store.version == version and store.history()[0].winner == 0
    assert [r.getMessage() for r in caplog.records].count(
        "the hall's ruling cannot be taken: ruling e-1-3 on match 1: that match was not "
        "played for the hall's game r1-1 of event e-1") == 1
    store.close()


def test_an_offer_carrying_rulings_is_the_same_offer(club):
    """Rulings ride on the offer topic: the offer stays usable and unchanged, and a
    message of rulings alone is no offer."""
    hall, tables = club
    eid = create(hall, rounds=2)
    state = start(hall, eid)
    game = game_at(state, "t1")
    t1 = tables["t1"]
    t1.start()
    t1.win(0)
    tables["t2"].start()
    tables["t2"].win(0)
    hall.director.post(f"/api/events/{eid}/pairings/{game['id']}/result",
                       {"ranks": [2, 1], "reason": "sheet"}, eid=eid)
    state = start(hall, eid)
    payload = hall.outbox.offers()["t1"]
    nxt = game_at(state, "t1")
    assert payload["offer"] == nxt["offer"] and len(payload["rulings"]) == 1
    offers = Offers(CATALOG)
    offers.receive(json.dumps(payload).encode())
    assert offers.current is not None and offers.current.id == nxt["offer"]
    assert offers.problem is None and len(offers.rulings) == 1
    offers.receive(json.dumps({"rulings": payload["rulings"]}).encode())
    assert offers.current is None and offers.problem is None
    t1.hear()
    assert "rulings" not in hall.outbox.offers()["t1"]
    assert hall.outbox.offers()["t1"]["offer"] == nxt["offer"]


def test_rulings_survive_a_restart_of_the_table(tmp_path):
    """Kept in the table's database: a table started again shows the corrected result."""
    from companion.table import Table

    path = tmp_path / "companion.db"
    with Store(path) as store:
        table = Table(store, CATALOG)
        table.start({"game": "center-court", "players": ["Ann", "Bob"], "options": {"sets": 1},
                     "event": {"id": "e-1", "name": "N", "round": 1, "pairing": "r1-1",
                               "offer": "o-1"}})
        while table.snapshot.match["status"] == "active":
            table.act({"type": "point", "winner": 0})
        ruling = {"id": "e-1-4", "epoch": store.epoch, "match": table.match_id,
                  "event": "e-1", "pairing": "r1-1", "kind": "corrected", "reason": "sheet",
                  "standing": {"teams": [[0], [1]], "places": [1, 0]}}
        offers = Offers(CATALOG)
        offers.receive(json.dumps({"rulings": [ruling]}).encode())
        assert table.apply_rulings(offers.rulings) is not None
    with Store(path) as store:
        table = Table(store, CATALOG)
        [entry] = table.snapshot.results
        assert entry["ruling"] == {"id": "e-1-4", "kind": "corrected", "reason": "sheet"}
        assert store.history()[0].winner == 1


def test_a_second_correction_back_to_the_tables_own_result_is_laid_on_the_first(club):
    hall, tables = club
    eid = create(hall)
    game = game_at(start(hall, eid), "t1")
    t1 = tables["t1"]
    t1.start()
    t1.win(0)
    path = f"/api/events/{eid}/pairings/{game['id']}/result"
    hall.director.post(path, {"ranks": [2, 1], "reason": "sheet"}, eid=eid)
    t1.hear()
    assert history_of(t1, game["id"])["winner"] == 1
    hall.director.post(path, {"ranks": [1, 2], "reason": "the sheet was wrong"}, eid=eid)
    t1.hear()
    line = history_of(t1, game["id"])
    assert line["winner"] == 0 and line["ruling"]["reason"] == "the sheet was wrong"
    assert rulings_to(hall, "t1") == []


@pytest.mark.parametrize("standing", [
    {"teams": [["a", 1], [0]], "places": [0, 1]},
    {"teams": [[[0]], [[1]]], "places": [0, 1]},
    {"teams": "01", "places": [0, 1]},
    {"teams": [[0], [1]], "places": [0, "1"]},
    {"teams": [[0], [1]], "places": [1, 1]},
    {"teams": [[0, 1]], "places": [0]},
    {"teams": [[0], [1]], "places": [0, 1], "tiebreaks": [float("inf"), 0]},
    {"teams": [[0], [1]], "places": [0, 1], "tiebreaks": [True, 0]},
    {"places": [0, 1]},
    {},
])
def test_a_ruling_of_any_shape_is_refused_with_a_reason_never_an_error(standing):
    from companion.errors import InvalidAction
    from companion.rulings import Ruling, ruled_standing

    start = {"players": ["Ann", "Bob"], "event": {"id": "e-1", "pairing": "r1-1"}}
    ruling = Ruling("e-1-2", 1, 1, "e-1", "r1-1", "corrected", "", standing)
    with pytest.raises(InvalidAction, match="ruling e-1-2 on match 1: its"):
        ruled_standing(ruling, start, "finished", {"teams": [[0], [1]], "places": [0, 1]})


@pytest.mark.parametrize("item", [
    None, [], "x", {"id": "e-1-2"}, {"id": "../x", "epoch": 1, "match": 1, "event": "e-1",
                                     "pairing": "r1-1", "kind": "corrected",
                                     "standing": {}},
    {"id": "e-1-2", "epoch": 1, "match": 1, "event": "e-1", "pairing": "r1-1",
     "kind": "won", "standing": {}},
    {"id": "e-1-2", "epoch": 1, "match": 0, "event": "e-1", "pairing": "r1-1",
     "kind": "kept", "standing": {}},
    {"id": "e-1-2", "epoch": 1, "match": 1, "event": "e-1", "pairing": "r1-1",
     "kind": "kept", "standing": {}, "reason": "x" * 201},
    {"id": "e-1-2", "epoch": 1, "match": 1, "event": "e-1", "pairing": "r1-1",
     "kind": "kept", "standing": {}, "more": 1},
])
def test_an_unusable_ruling_is_said_and_the_others_taken(item):
    from companion.rulings import parse_rulings

    good = {"id": "e-1-3", "epoch": 1, "match": 2, "event": "e-1", "pairing": "r1-2",
            "kind": "kept", "standing": {"teams": [[0], [1]], "places": [0, 1]}}
    found, problems = parse_rulings([item, good])
    assert [r.id for r in found] == ["e-1-3"] and len(problems) == 1
    assert parse_rulings({"not": "a list"}) == ([], ["'rulings' must be a list"])


def test_a_table_with_a_new_database_is_sent_no_rulings_of_its_old_one(club):
    """A table whose database was set aside (a new epoch) cannot take a ruling on a match
    of the old one: the hall stops sending it, so it never blocks newer ones."""
    from tests.hall.night_support import results_message

    hall, tables = club
    eid = create(hall)
    game = game_at(start(hall, eid), "t1")
    tables["t1"].start()
    tables["t1"].win(0)
    hall.director.post(f"/api/events/{eid}/pairings/{game['id']}/result",
                       {"ranks": [2, 1], "reason": "sheet"}, eid=eid)
    assert len(rulings_to(hall, "t1")) == 1
    hall.feed("table-companion/t1/results", results_message("t1", [], epoch=99))
    assert rulings_to(hall, "t1") == []
    assert hall.director.event(eid)["corrections"][0]["at_table"] == {
        "table": "t1", "taken": False, "gone": True}


def test_a_ruling_on_a_match_older_than_the_tables_results_is_taken_and_not_sent_again(
        club):
    """The table's results list its last 50 matches: a ruling on an older one is answered
    by the ids of the rulings it took, sent with them."""
    from companion.topics import RESULTS_KEPT

    hall, tables = club
    eid = create(hall)
    game = game_at(start(hall, eid), "t1")
    t1 = tables["t1"]
    t1.start()
    t1.win(0)
    played = t1.table.match_id
    for _ in range(RESULTS_KEPT):  # friendlies push it out of the list
        t1.table.start({"game": "center-court", "players": ["Zed", "Yan"],
                        "options": {"sets": 1}})
        t1.win(0)
    assert all(r["match"] != played for r in t1.table.snapshot.results)
    hall.director.post(f"/api/events/{eid}/pairings/{game['id']}/result",
                       {"ranks": [2, 1], "reason": "sheet"}, eid=eid)
    [ruling] = rulings_to(hall, "t1")
    t1.hear()
    assert next(m for m in t1.store.history() if m.id == played).winner == 1
    assert ruling["id"] in t1.table.snapshot.rulings
    assert rulings_to(hall, "t1") == []
