"""The club night's API on the hall: the director's login, premises, refusals, offers out
and results back (the night fed the tables' payloads directly; tests/hall/test_night_mqtt.py
goes through a real Mosquitto)."""

from __future__ import annotations

import json
import threading

import pytest

from hall.app import create_hall_app, hall_broker
from hall.cards import Board
from hall.director_api import Director
from hall.night import Night
from tests.hall.night_support import (
    PIN,
    PREFIX,
    DirectorClient,
    Outbox,
    finished,
    results_message,
    summary_message,
)
from tests.support import CATALOG

EIGHT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


class Hall:
    """A hall app over a night in ``folder``, publishing to an :class:`Outbox`."""

    def __init__(self, folder, ratings=None, catalog=CATALOG) -> None:
        self.outbox = Outbox()
        self.night = Night(folder, PREFIX, self.outbox, ratings, catalog=catalog)
        #: Each table's finished matches, as its retained ``results`` list them.
        self.played: dict[str, list] = {}
        board = Board(PREFIX)
        self.broker = hall_broker(board.first, 4, 1.0, 2)
        self.app = create_hall_app(board, self.broker, night=self.night,
                                   director=Director.with_pin(PIN),
                                   secret_key=b"k" * 32)

    def client(self):
        return self.app.test_client()

    def close(self) -> None:
        self.broker.close()
        self.night.close()


@pytest.fixture
def hall(tmp_path, catalog):
    h = Hall(tmp_path, catalog=catalog)
    yield h
    h.close()


@pytest.fixture
def director(hall):
    return DirectorClient(hall.client())


def swiss(director, players=EIGHT, tables=("t1", "t2", "t3", "t4"), rounds=3, **more):
    answer = director.post("/api/events", {"name": "Tuesday Swiss", "game": "center-court",
                                           "options": {"sets": 1}, "format": "swiss",
                                           "rounds": rounds, "players": list(players),
                                           "tables": list(tables), **more})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def play_round(hall, event, winner=0):
    """Every table of the round reports its offer's match as won by seat ``winner``: its
    retained ``results`` list every match it finished, each with its own id."""
    offers = hall.outbox.offers()
    for table in event["tables"]:
        offer = offers.get(table)
        if offer is not None:
            played = hall.played.setdefault(table, [])
            played.append(finished(offer, winner, len(played) + 1))
            hall.night.results(table, results_message(table, played))


# --- the door ------------------------------------------------------------------------------


def test_without_a_login_the_hall_reads_but_changes_nothing(hall, director):
    event = swiss(director)
    stranger = hall.client()
    assert stranger.get("/api/events").get_json()["events"][0]["id"] == event["id"]
    assert stranger.get(f"/api/events/{event['id']}").status_code == 200
    for path in ("/api/events", f"/api/events/{event['id']}/rounds",
                 f"/api/events/{event['id']}/players"):
        answer = stranger.post(path, json={"version": event["version"]})
        assert answer.status_code == 403
        assert answer.get_json()["error"] == ("only the director can do that: log in with "
                                              "the director PIN")
    assert director.event(event["id"])["version"] == event["version"]


def test_a_change_needs_the_csrf_header_and_a_same_site_page(hall, director):
    event = swiss(director)
    path = f"/api/events/{event['id']}/rounds"
    body = {"version": event["version"]}
    answer = director.client.post(path, json=body)
    assert answer.status_code == 403 and "X-CSRF-Token" in answer.get_json()["error"]
    answer = director.client.post(path, json=body, headers={
        "X-CSRF-Token": director.csrf, "Origin": "http://evil.example"})
    assert answer.status_code == 403 and "another site" in answer.get_json()["error"]
    answer = director.client.post(path, json=body, headers={
        "X-CSRF-Token": director.csrf, "Host": "evil.example"})
    assert answer.status_code == 400 and "unknown host name" in answer.get_json()["error"]
    assert director.event(event["id"])["round"] == 0


def test_wrong_pins_lock_the_address_out(hall):
    client = hall.client()
    for _ in range(4):
        assert client.post("/api/director/login", json={"pin": "0000"}).status_code == 401
    answer = client.post("/api/director/login", json={"pin": "0000"})
    assert answer.status_code == 429 and int(answer.headers["Retry-After"]) >= 1
    assert "too many wrong PINs" in answer.get_json()["error"]
    # Locked out: the right PIN waits too, and no session is made.
    assert client.post("/api/director/login", json={"pin": PIN}).status_code == 429
    assert client.get("/api/director/session").get_json() == {"director": False, "csrf": None}


def test_logout_ends_every_director_session(hall):
    one, two = DirectorClient(hall.client()), DirectorClient(hall.client())
    assert two.get("/api/director/session").get_json()["director"] is True
    assert one.post("/api/director/logout").status_code == 200
    answer = two.post("/api/events", {"name": "x"})
    # Told as the director, not as a table's host.
    assert answer.status_code == 403 and answer.get_json()["error"] == (
        "this director session has ended (a logout or a new director PIN): log in with the "
        "director PIN")
    assert "host" not in answer.get_json()["error"]


# --- events, premises, refusals -------------------------------------------------------------


@pytest.mark.parametrize("body, words", [
    ({"game": "center-court", "format": "swiss", "rounds": 3}, "name"),
    ({"name": "N", "game": ["center-court"], "format": "swiss", "rounds": 3}, "game is one of"),
    ({"name": "N", "game": "center-court", "format": "ladder"}, "format is one of"),
    ({"name": "N", "game": "center-court", "format": "swiss"}, "rounds"),
    ({"name": "N", "game": "center-court", "format": "swiss", "rounds": 3,
      "options": {"sets": 4}}, "options:"),
    ({"name": "N", "game": "center-court", "format": "swiss", "rounds": 3,
      "players": ["Ann", "ann "]}, "checked in already"),
    ({"name": "N", "game": "center-court", "format": "swiss", "rounds": 3,
      "tables": ["T 1"]}, "tables"),
    ({"name": "N", "game": "center-court", "format": "swiss", "rounds": 3,
      "options": {"sets": 3, "note": "x" * 5000}}, "at most 4096 bytes"),
    ([1, 2], "object"),
])
def test_a_bad_event_is_refused_with_a_message_and_nothing_is_made(director, body, words):
    answer = director.post("/api/events", body)
    assert answer.status_code == 400, answer.get_json()
    assert words in answer.get_json()["error"]
    assert director.get("/api/events").get_json()["events"] == []


def test_an_unknown_game_is_404_as_docs_api_says(director):
    answer = director.post("/api/events", {"name": "N", "game": "chess", "format": "swiss",
                                           "rounds": 3})
    assert answer.status_code == 404, answer.get_json()
    assert "game is one of center-court" in answer.get_json()["error"]
    assert director.get("/api/events").get_json()["events"] == []


def test_not_json_is_400_and_a_lone_surrogate_too(director):
    answer = director.client.post("/api/events", data="name=x",
                                  headers={"X-CSRF-Token": director.csrf})
    assert answer.status_code == 400 and "JSON" in answer.get_json()["error"]
    answer = director.client.post("/api/events", data='{"name": "\\ud800"}',
                                  content_type="application/json",
                                  headers={"X-CSRF-Token": director.csrf})
    assert answer.status_code == 400 and "surrogate" in answer.get_json()["error"]


def test_a_stale_premise_is_refused_409_and_nothing_changes(hall, director):
    event = swiss(director)
    eid = event["id"]
    assert director.post(f"/api/events/{eid}/players", {"players": ["Ivy"]},
                         eid=eid).status_code == 200
    answer = director.post(f"/api/events/{eid}/rounds", {"version": event["version"]})
    assert answer.status_code == 409
    assert answer.get_json()["version"] == event["version"] + 1
    assert director.event(eid)["round"] == 0 and hall.outbox.sent == []
    answer = director.post(f"/api/events/{eid}/rounds", {})
    assert answer.status_code == 400 and "version" in answer.get_json()["error"]


def test_a_round_is_paired_explained_and_offered_to_the_free_tables(hall, director):
    event = swiss(director, players=[*EIGHT, "Ivy"], tables=("t1", "t2", "t3"))
    eid = event["id"]
    state = director.post(f"/api/events/{eid}/rounds", {}, eid=eid).get_json()
    assert state["round"] == 1
    games = [p for p in state["pairings"] if not p["bye"]]
    byes = [p for p in state["pairings"] if p["bye"]]
    assert len(games) == 4 and len(byes) == 1 and byes[0]["status"] == "done"
    # Three tables: the first three games are offered, the fourth waits for a table.
    assert [p["status"] for p in games] == ["offered"] * 3 + ["waiting"]
    assert [p["table"] for p in games] == ["t1", "t2", "t3", None]
    offers = hall.outbox.offers()
    assert set(offers) == {"t1", "t2", "t3"}
    for p in games[:3]:
        offer = offers[p["table"]]
        assert offer == {"offer": p["offer"], "event": {"id": eid, "name": "Tuesday Swiss",
                                                        "round": 1, "pairing": p["id"]},
                         "game": "center-court", "options": {"sets": 1},
                         "players": p["players"], "sent_at": offer["sent_at"]}
    assert all(t.startswith(f"{PREFIX}/_hall/offers/") for t, _ in hall.outbox.sent)
    why = director.get(f"/api/events/{eid}/pairings/{games[0]['id']}").get_json()["why"]
    assert why == games[0]["why"] and "not met before" in why
    assert director.get(f"/api/events/{eid}/pairings/r9-1").status_code == 404
    # The round cannot start again while games have no result.
    answer = director.post(f"/api/events/{eid}/rounds", {}, eid=eid)
    assert answer.status_code == 409 and "without a result" in answer.get_json()["error"]


def test_results_come_back_from_the_tables_once_and_free_the_table(hall, director):
    event = swiss(director, tables=("t1", "t2", "t3"))
    eid = event["id"]
    director.post(f"/api/events/{eid}/rounds", {}, eid=eid)
    offers = hall.outbox.offers()
    first = offers["t1"]
    # The table started it: in play.
    hall.night.summary("t1", summary_message("t1", first))
    state = director.event(eid)
    assert state["pairings"][0]["status"] == "playing"
    message = results_message("t1", [finished(first, 0)])
    assert hall.night.results("t1", message) == 1
    # The same message again (a broker's retained copy at reconnection): not counted again.
    assert hall.night.results("t1", message) == 0
    state = director.event(eid)
    done = state["pairings"][0]
    assert done["status"] == "done" and done["result"] == {
        "ranks": [1, 2], "tiebreaks": [], "reason": "", "source": "table", "revision": 1}
    winner = done["players"][0]
    assert next(s for s in state["standings"] if s["name"] == winner)["points"] == 1
    # t1 is free: it is offered the game that was waiting.
    offers = hall.outbox.offers()
    assert offers["t1"]["event"]["pairing"] == state["pairings"][3]["id"]
    assert state["pairings"][3]["table"] == "t1"


def test_a_result_for_another_offer_or_table_is_not_counted(hall, director):
    event = swiss(director, tables=("t1", "t2", "t3", "t4"))
    eid = event["id"]
    director.post(f"/api/events/{eid}/rounds", {}, eid=eid)
    offer = hall.outbox.offers()["t1"]
    forged = {**offer, "offer": "o-other"}
    assert hall.night.results("t1", results_message("t1", [finished(forged, 0)])) == 0
    assert hall.night.results("t2", results_message("t2", [finished(offer, 0)])) == 0
    three = {**finished(offer, 0), "players": ["Zed", "Yan", "Xi"],
             "standing": {"teams": [[0], [1], [2]], "places": [0, 1, 1]}}
    assert hall.night.results("t1", results_message("t1", [three])) == 0
    assert hall.night.results("t1", b"not json") == 0
    assert all(p["result"] is None for p in director.event(eid)["pairings"])


def test_moving_a_game_withdraws_its_offer_and_offers_it_at_the_new_table(hall, director):
    event = swiss(director, tables=("t1", "t2", "t3", "t4"))
    eid = event["id"]
    state = director.post(f"/api/events/{eid}/rounds", {}, eid=eid).get_json()
    game = state["pairings"][0]
    old = hall.outbox.offers()["t1"]
    answer = director.post(f"/api/events/{eid}/pairings/{game['id']}/move",
                           {"table": "t2"}, eid=eid)
    assert answer.status_code == 409 and "t2 has a game" in answer.get_json()["error"]
    state = director.post(f"/api/events/{eid}/pairings/{game['id']}/move",
                          {"table": "t9"}, eid=eid).get_json()
    moved = state["pairings"][0]
    assert moved["table"] == "t9" and moved["offer"] != old["offer"]
    assert "t9" in state["tables"]
    offers = hall.outbox.offers()
    assert offers["t9"]["offer"] == moved["offer"]
    assert offers["t1"] is None  # withdrawn: an empty retained payload
    # The old offer's result, if the table had started it anyway, does not count.
    assert hall.night.results("t1", results_message("t1", [finished(old, 0)])) == 0
    # To a table without a companion: the director enters the result.
    state = director.post(f"/api/events/{eid}/pairings/{game['id']}/move",
                          {"table": None}, eid=eid).get_json()
    assert state["pairings"][0]["status"] == "elsewhere"
    assert hall.outbox.offers()["t9"] is None
    state = director.post(f"/api/events/{eid}/pairings/{game['id']}/result",
                          {"ranks": [2, 1]}, eid=eid).get_json()
    assert state["pairings"][0]["result"]["source"] == "director"


def test_a_correction_needs_a_reason_which_is_kept_and_shown(hall, director):
    event = swiss(director, tables=("t1", "t2", "t3", "t4"))
    eid = event["id"]
    director.post(f"/api/events/{eid}/rounds", {}, eid=eid)
    play_round(hall, event)
    state = director.event(eid)
    game = state["pairings"][0]
    a, b = game["players"]
    path = f"/api/events/{eid}/pairings/{game['id']}/result"
    answer = director.post(path, {"ranks": [2, 1]}, eid=eid)
    assert answer.status_code == 400 and "needs a reason" in answer.get_json()["error"]
    for bad in ({"ranks": [1]}, {"ranks": [0, 1]}, {"ranks": "1-0"}, {"ranks": [True, 1]},
                {"ranks": [2, 1], "reason": 5}):
        answer = director.post(path, bad, eid=eid)
        assert answer.status_code == 400, bad
    state = director.post(path, {"ranks": [2, 1], "reason": "score sheet said Bob won"},
                          eid=eid).get_json()
    assert state["corrections"] == [{"pairing": game["id"], "round": 1, "players": [a, b],
                                     "was": [1, 2], "now": [2, 1],
                                     "reason": "score sheet said Bob won",
                                     "source": "director",
                                     # sent to the table, whose history shows it not yet
                                     "at_table": {"table": game["table"], "taken": False,
                                                  "gone": False}}]
    points = {s["name"]: s["points"] for s in state["standings"]}
    assert points[a] == 0 and points[b] == 1
    # The table's retained results come again: the correction stands.
    offer = json.loads(next(p for t, p in hall.outbox.sent if p and
                            json.loads(p)["event"]["pairing"] == game["id"]))
    hall.night.results(game["table"], results_message(game["table"], [finished(offer, 0)]))
    assert {s["name"]: s["points"] for s in director.event(eid)["standings"]}[b] == 1


def test_the_games_own_tiebreak_comes_from_the_tables_and_the_director(hall, director):
    event = swiss(director, tables=("t1", "t2", "t3", "t4"))
    eid = event["id"]
    director.post(f"/api/events/{eid}/rounds", {}, eid=eid)
    offers = hall.outbox.offers()
    # t1: 6-2 (one set, four games up); t2: a table that sent none; t3: values it cannot
    # mean (the result counts, its tiebreaks not); t4: 6-4.
    sent = {"t1": [1.04, -1.04], "t2": None, "t3": [float("nan"), 1e9], "t4": [1.02, -1.02]}
    for table, values in sent.items():
        entry = finished(offers[table], 0, tiebreaks=values)
        assert hall.night.results(table, results_message(table, [entry])) == 1
    state = director.event(eid)
    games = {p["table"]: p for p in state["pairings"]}
    assert games["t1"]["result"]["tiebreaks"] == [1.04, -1.04]
    assert games["t2"]["result"]["tiebreaks"] == games["t3"]["result"]["tiebreaks"] == []
    line = {s["name"]: s for s in state["standings"]}
    a, b = games["t1"]["players"]
    assert (line[a]["tiebreak"], line[b]["tiebreak"]) == (1.04, -1.04)
    # Four winners on 1 point and Buchholz 0: the game's own tiebreak orders them.
    # (t2's and t3's winners stay level on every tiebreak: their order is the standings'
    # last resort, not this test's.)
    winners = [g["players"][0] for g in games.values()]
    top = [s["name"] for s in state["standings"][:4]]
    assert top[:2] == [games["t1"]["players"][0], games["t4"]["players"][0]]
    assert set(top[2:]) == set(winners) - set(top[:2])
    # The director gives them: the same places with new values is a correction.
    path = f"/api/events/{eid}/pairings/{games['t2']['id']}/result"
    for bad in ({"ranks": [1, 2], "tiebreaks": [3], "reason": "sheet"},
                {"ranks": [1, 2], "tiebreaks": [3, "x"], "reason": "sheet"},
                {"ranks": [1, 2], "tiebreaks": [True, 0], "reason": "sheet"},
                {"ranks": [1, 2], "tiebreaks": [2e6, 0], "reason": "sheet"},
                {"ranks": [1, 2], "tiebreaks": "3-0", "reason": "sheet"}):
        answer = director.post(path, bad, eid=eid)
        assert answer.status_code == 400 and "tiebreaks" in answer.get_json()["error"], bad
    assert director.event(eid)["version"] == state["version"]  # nothing applied
    state = director.post(path, {"ranks": [1, 2], "tiebreaks": [1.05, -1.05],
                                 "reason": "score sheet: 6-1"}, eid=eid).get_json()
    c, d = games["t2"]["players"]
    line = {s["name"]: s for s in state["standings"]}
    assert (line[c]["tiebreak"], line[d]["tiebreak"]) == (1.05, -1.05)
    assert state["standings"][0]["name"] == c
    answer = director.post(path, {"ranks": [1, 2], "tiebreaks": [1.05, -1.05],
                                  "reason": "again"}, eid=eid)
    assert answer.status_code == 409


def test_late_arrival_and_drop_out_between_rounds(hall, director):
    event = swiss(director, tables=("t1", "t2", "t3", "t4"))
    eid = event["id"]
    director.post(f"/api/events/{eid}/rounds", {}, eid=eid)
    answer = director.post(f"/api/events/{eid}/drop", {"name": "Ann"}, eid=eid)
    assert answer.status_code == 409 and "enter its result first" in answer.get_json()["error"]
    play_round(hall, event)
    assert director.post(f"/api/events/{eid}/drop", {"name": "Ann"}, eid=eid).status_code == 200
    for nobody in ("Nobody", ["Ann"], {}):
        answer = director.post(f"/api/events/{eid}/drop", {"name": nobody}, eid=eid)
        assert answer.status_code == 404 and "is not checked in" in answer.get_json()["error"]
    state = director.post(f"/api/events/{eid}/players",
                          {"players": [{"name": "Ivy", "start_points": 0.5}]},
                          eid=eid).get_json()
    assert {"name": "Ivy", "rating": 0.0, "start_points": 0.5, "present": True} \
        in state["players"]
    state = director.post(f"/api/events/{eid}/rounds", {}, eid=eid).get_json()
    paired = {n for p in state["pairings"] for n in p["players"]}
    assert "Ann" not in paired and "Ivy" in paired and len(paired) == 8
    assert next(s for s in state["standings"] if s["name"] == "Ivy")["points"] == 0.5


def test_a_swiss_plays_to_its_end_and_names_the_winner(hall, director):
    event = swiss(director, rounds=3)
    eid = event["id"]
    for _ in range(3):
        director.post(f"/api/events/{eid}/rounds", {}, eid=eid)
        play_round(hall, event)
    state = director.post(f"/api/events/{eid}/rounds", {}, eid=eid).get_json()
    assert state["finished"] is True and state["winner"] == state["standings"][0]["name"]
    assert state["standings"][0]["points"] == 3
    # Every table's offer is withdrawn.
    assert set(hall.outbox.offers().values()) == {None}
    answer = director.post(f"/api/events/{eid}/rounds", {}, eid=eid)
    assert answer.status_code == 409 and "finished" in answer.get_json()["error"]
    csv = director.get(f"/api/events/{eid}/standings.csv")
    assert csv.mimetype == "text/csv"
    lines = csv.get_data(as_text=True).splitlines()
    assert lines[0] == "place,name,points,buchholz,tiebreak,played,byes"
    assert lines[1].startswith(f"1,{state['winner']},3,")


def test_a_knockout_is_seeded_by_the_club_rating(tmp_path):
    ratings = {"ann": 30.0, "bob": 20.0, "cy": 10.0, "dee": 5.0}
    hall = Hall(tmp_path, ratings=lambda game: ratings)
    try:
        director = DirectorClient(hall.client())
        answer = director.post("/api/events", {"name": "Cup", "game": "center-court",
                                               "format": "elimination",
                                               "players": ["Dee", "Cy", "Bob", "Ann"],
                                               "tables": ["t1", "t2"]})
        eid = answer.get_json()["id"]
        state = director.post(f"/api/events/{eid}/rounds", {}, eid=eid).get_json()
        assert [p["players"] for p in state["pairings"]] == [["Ann", "Dee"], ["Bob", "Cy"]]
        game = state["pairings"][0]
        answer = director.post(f"/api/events/{eid}/pairings/{game['id']}/result",
                               {"ranks": [1, 1]}, eid=eid)
        assert answer.status_code == 400 and "needs a winner" in answer.get_json()["error"]
        answer = director.post(f"/api/events/{eid}/players", {"players": ["Late"]}, eid=eid)
        assert answer.status_code == 409
        for p in state["pairings"]:
            director.post(f"/api/events/{eid}/pairings/{p['id']}/result", {"ranks": [1, 2]},
                          eid=eid)
        state = director.post(f"/api/events/{eid}/rounds", {}, eid=eid).get_json()
        assert [p["players"] for p in state["pairings"]] == [["Ann", "Bob"]]
        director.post(f"/api/events/{eid}/pairings/{state['pairings'][0]['id']}/result",
                      {"ranks": [2, 1]}, eid=eid)
        state = director.post(f"/api/events/{eid}/rounds", {}, eid=eid).get_json()
        assert state["finished"] is True
    finally:
        hall.close()


def test_the_night_resumes_exactly_from_its_database(tmp_path):
    """What was acknowledged is there after the hall stops without closing (a crash):
    the same state, and the same pending offers to publish again."""
    hall = Hall(tmp_path)
    director = DirectorClient(hall.client())
    event = swiss(director, tables=("t1", "t2", "t3"))
    eid = event["id"]
    director.post(f"/api/events/{eid}/rounds", {}, eid=eid)
    offer = hall.outbox.offers()["t2"]
    hall.night.results("t2", results_message("t2", [finished(offer, 1)]))
    game = director.event(eid)["pairings"][0]
    director.post(f"/api/events/{eid}/pairings/{game['id']}/move", {"table": "t7"}, eid=eid)
    before = director.event(eid)
    pending = hall.night.pending()
    # No close(): the connection is dropped as a killed process would.
    again = Night(tmp_path, PREFIX, Outbox(), catalog=CATALOG)
    try:
        assert again.state(eid) == before
        assert sorted(again.pending()) == sorted(pending)
        # t2's result freed it for the fourth game; the first moved from t1 to t7.
        assert {t.rsplit("/", 1)[1]: bool(p) for t, p in pending} == {
            "t1": False, "t2": True, "t3": True, "t7": True}
    finally:
        again.close()
        hall.close()


def test_an_offer_made_while_the_hall_reconnects_is_not_overwritten(tmp_path):
    """At a new connection the hall publishes what each table's offer topic should hold.
    A round started by the director meanwhile publishes its offers after those, never
    before: the stale empty payload computed before the round must not be the last word
    on a table's retained topic (the table would never see its game)."""
    outbox = Outbox()
    night = Night(tmp_path, PREFIX, outbox, catalog=CATALOG)
    try:
        event = night.create({"name": "N", "game": "center-court", "format": "swiss",
                              "rounds": 1, "players": ["Ann", "Bob", "Cy", "Dee"],
                              "tables": ["t1", "t2"]})
        resent: list[tuple[str, bytes]] = []
        director = threading.Thread(target=night.start_round,
                                    args=(event["id"], {"version": event["version"]}))

        def publish(topic: str, payload: bytes) -> None:
            resent.append((topic, payload))
            outbox(topic, payload)
            if not director.is_alive() and not director.ident:
                director.start()  # the director's round, while the connection publishes
                director.join(0.5)

        night.resend(publish)
        director.join(10)
        assert resent == [(f"{PREFIX}/_hall/offers/{t}", b"") for t in ("t1", "t2")]
        offers = outbox.offers()
        assert offers["t1"] is not None and offers["t2"] is not None, offers
        assert sorted(offers["t1"]["players"] + offers["t2"]["players"]) == [
            "Ann", "Bob", "Cy", "Dee"]
    finally:
        night.close()
