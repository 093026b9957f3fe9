"""A result is one fact with revisions (issue 35): real tables (companion/table.py on memory
stores) play the hall's offers and publish what a table publishes after each change; the
hall's club night and club leaderboard take it as ``companion hall`` does. Every copy of a
result (the table's history, the event, the leaderboard) ends equal."""

from __future__ import annotations

import pytest

from tests.hall.night_support import ClubHall, PlayedTable

FOUR = ["Pia", "Quo", "Rex", "Sal"]


@pytest.fixture
def club(tmp_path):
    hall = ClubHall(tmp_path)
    tables = {t: PlayedTable(hall, t) for t in ("t1", "t2")}
    yield hall, tables
    for table in tables.values():
        table.close()
    hall.close()


def create(hall: ClubHall, players=FOUR, rounds: int = 3, fmt: str = "swiss", **more):
    body = {"name": "Tuesday Swiss", "game": "center-court", "options": {"sets": 1},
            "format": fmt, "players": list(players), "tables": ["t1", "t2"], **more}
    if fmt == "swiss":
        body["rounds"] = rounds
    answer = hall.director.post("/api/events", body)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["id"]


def start(hall: ClubHall, eid: str) -> dict:
    answer = hall.director.post(f"/api/events/{eid}/rounds", {}, eid=eid)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def game_at(state: dict, table: str) -> dict:
    return next(g for g in state["pairings"] if g["table"] == table)


def winner_line(state: dict, name: str) -> float:
    return next(s["points"] for s in state["standings"] if s["name"] == name)


def history_winners(table: PlayedTable) -> dict[str, str]:
    """The table's own history: each finished match of an offer, its winner's name."""
    out = {}
    for m in table.store.finished():
        if m.event is not None:
            place = m.standing["places"]
            out[m.event["pairing"]] = m.players[min(range(len(place)), key=place.__getitem__)]
    return out


def test_an_undo_past_the_match_point_is_followed_by_the_event_and_the_leaderboard(club):
    """Issue 35, High: the hall took Pia's win; the players held BACK and Quo won. Every
    copy now says Quo: the table's history, the event, the standings, the leaderboard."""
    hall, tables = club
    eid = create(hall)
    state = start(hall, eid)
    game = game_at(state, "t1")
    pia, quo = game["players"]
    t1 = tables["t1"]
    t1.start()
    t1.win(0)
    state = hall.director.event(eid)
    assert game_at(state, "t1")["result"]["ranks"] == [1, 2]
    assert hall.leaderboard()[pia] == (1, 1)
    # BACK held: the match point is undone, the match is live again at the table.
    t1.table.undo()
    state = hall.director.event(eid)
    live = next(g for g in state["pairings"] if g["id"] == game["id"])
    assert live["result"] is None and live["status"] == "playing"
    assert winner_line(state, pia) == 0 and pia not in hall.leaderboard()
    # The other player goes on to win.
    t1.win(1)
    state = hall.director.event(eid)
    done = next(g for g in state["pairings"] if g["id"] == game["id"])
    assert done["result"]["ranks"] == [2, 1] and done["status"] == "done"
    assert winner_line(state, quo) == 1 and winner_line(state, pia) == 0
    assert history_winners(t1)[game["id"]] == quo
    assert hall.leaderboard()[quo] == (1, 1) and hall.leaderboard()[pia] == (1, 0)
    assert [c["reason"] for c in state["corrections"]] == ["undone at the table",
                                                           "changed at the table"]
    # A redo of the undone point then another undo: each a revision, nothing counted twice.
    t1.table.undo()
    t1.table.redo()
    state = hall.director.event(eid)
    assert winner_line(state, quo) == 1 and hall.leaderboard()[quo] == (1, 1)
    assert hall.results.count() == 1


def test_a_revision_after_the_next_round_was_paired_waits_for_the_director(club):
    hall, tables = club
    eid = create(hall)
    state = start(hall, eid)
    games = {t: game_at(state, t) for t in ("t1", "t2")}
    for table in tables.values():
        table.start()
        table.win(0)
    state = start(hall, eid)  # round 2 is paired on round 1's results
    pia, quo = games["t1"]["players"]
    # The t1 table changes its round-1 result: Quo won after all.
    tables["t1"].table.undo()
    tables["t1"].win(1)
    state = hall.director.event(eid)
    [held] = state["held"]
    assert held["text"] == (f"t1: the result of {pia} v {quo} changed to {quo}; round 2 "
                            f"was paired on {pia}'s win")
    assert held["can_apply"]
    # Not applied silently: the event and the leaderboard still count Pia's win.
    assert winner_line(state, pia) == 1 and hall.leaderboard()[pia] == (1, 1)
    assert "waits for your decision" in (state["start_problem"] or "")
    answer = hall.director.post(f"/api/events/{eid}/pairings/{games['t1']['id']}/revision",
                                {"choice": "apply"}, eid=eid)
    assert answer.status_code == 200, answer.get_json()
    state = answer.get_json()
    assert state["held"] == [] and winner_line(state, quo) == 1
    assert winner_line(state, pia) == 0
    assert hall.leaderboard()[quo] == (1, 1) and hall.leaderboard()[pia] == (1, 0)
    assert history_winners(tables["t1"])[games["t1"]["id"]] == quo


def test_the_director_may_keep_the_result_a_round_was_paired_on(club):
    hall, tables = club
    eid = create(hall)
    state = start(hall, eid)
    first = game_at(state, "t1")
    for table in tables.values():
        table.start()
        table.win(0)
    start(hall, eid)
    tables["t1"].table.undo()  # undone at the table: held, the game is not reopened
    state = hall.director.event(eid)
    [held] = state["held"]
    assert "was undone at the table" in held["text"] and not held["can_apply"]
    path = f"/api/events/{eid}/pairings/{first['id']}/revision"
    answer = hall.director.post(path, {"choice": "apply"}, eid=eid)
    assert answer.status_code == 409 and "being played again" in answer.get_json()["error"]
    answer = hall.director.post(path, {"choice": "keep"}, eid=eid)
    assert answer.status_code == 200 and answer.get_json()["held"] == []
    pia = first["players"][0]
    assert winner_line(answer.get_json(), pia) == 1 and hall.leaderboard()[pia] == (1, 1)
    for bad in ({"choice": "maybe"}, {}):
        assert hall.director.post(path, bad, eid=eid).status_code in (400, 409)


def test_repair_pairs_the_next_round_again_when_none_of_its_games_started(club):
    hall, tables = club
    eid = create(hall, rounds=2)
    state = start(hall, eid)
    first = game_at(state, "t1")
    for table in tables.values():
        table.start()
        table.win(0)
    before = start(hall, eid)
    tables["t1"].table.undo()
    tables["t1"].win(1)
    [held] = hall.director.event(eid)["held"]
    assert held["can_repair"]
    answer = hall.director.post(f"/api/events/{eid}/pairings/{first['id']}/revision",
                                {"choice": "repair"}, eid=eid)
    assert answer.status_code == 200, answer.get_json()
    state = answer.get_json()
    assert state["round"] == 2 and state["held"] == []
    # Paired again on Quo's win: the leaders (each 1 point) meet.
    leaders = {s["name"] for s in state["standings"] if s["points"] == 1}
    assert any(set(g["players"]) == leaders for g in state["pairings"]), state["pairings"]
    assert [g["offer"] for g in state["pairings"]] != [g["offer"] for g in before["pairings"]]
    offers = hall.outbox.offers()
    assert {offers[t]["offer"] for t in ("t1", "t2")} == {g["offer"] for g in
                                                         state["pairings"]}


def test_a_director_correction_reaches_the_leaderboard_and_ratings(club):
    """Issue 35, Medium: the club's ratings (which seed knockouts) follow a correction."""
    hall, tables = club
    eid = create(hall)
    state = start(hall, eid)
    game = game_at(state, "t1")
    pia, quo = game["players"]
    tables["t1"].start()
    tables["t1"].win(0)
    assert hall.leaderboard()[pia] == (1, 1)
    answer = hall.director.post(f"/api/events/{eid}/pairings/{game['id']}/result",
                                {"ranks": [2, 1], "reason": "score sheet"}, eid=eid)
    assert answer.status_code == 200
    assert hall.leaderboard()[quo] == (1, 1) and hall.leaderboard()[pia] == (1, 0)
    ratings = hall.results.ratings()[1].board("center-court")
    assert ratings[0].name == quo
    # The table sends its results again (a reconnection): the correction stands.
    tables["t1"]._results = ()
    tables["t1"]._changed(tables["t1"].table.snapshot)
    assert hall.leaderboard()[quo] == (1, 1)
    assert winner_line(hall.director.event(eid), quo) == 1
    # A game played on a table without a companion counts on the leaderboard too.
    other = game_at(state, "t2")
    hall.director.post(f"/api/events/{eid}/pairings/{other['id']}/move", {"table": None},
                       eid=eid)
    hall.director.post(f"/api/events/{eid}/pairings/{other['id']}/result", {"ranks": [1, 2]},
                       eid=eid)
    assert hall.leaderboard()[other["players"][0]] == (1, 1)
    assert hall.results.count() == 2


def test_a_rename_at_the_table_mid_match_never_orphans_the_result(club):
    """Issue 35, Medium: renamed mid-match, the game no longer stays "Live" for good: the
    result counts for the same player, and the event calls her by her new name."""
    hall, tables = club
    eid = create(hall)
    state = start(hall, eid)
    game = game_at(state, "t1")
    pia, quo = game["players"]
    t1 = tables["t1"]
    t1.start()
    t1.table.act({"type": "point", "winner": 0})
    t1.table.rename_player(pia, "Pia Smith-Jones")
    t1.win(0)
    state = hall.director.event(eid)
    done = next(g for g in state["pairings"] if g["id"] == game["id"])
    assert done["status"] == "done" and done["result"]["ranks"] == [1, 2]
    assert done["players"] == ["Pia Smith-Jones", quo]
    assert winner_line(state, "Pia Smith-Jones") == 1
    assert pia not in {s["name"] for s in state["standings"]}
    assert hall.leaderboard()["Pia Smith-Jones"] == (1, 1)
    assert any("renamed" in n["text"] for n in state["notes"])
    # Renamed again after the result: the same result, the event follows once more.
    t1.table.rename_player("Pia Smith-Jones", pia)
    state = hall.director.event(eid)
    assert winner_line(state, pia) == 1 and hall.leaderboard()[pia] == (1, 1)
    assert done["id"] in history_winners(t1)
    # A merge at the table (Quo was "Quinn" in a friendly there): one player, followed.
    t1.table.start({"game": "center-court", "players": ["Quinn", "Zed"],
                    "options": {"sets": 1}})
    t1.win(1)
    t1.table.merge_players(quo, "Quinn")
    state = hall.director.event(eid)
    assert "Quinn" in {s["name"] for s in state["standings"]}
    assert quo not in {s["name"] for s in state["standings"]}
    # Merged into another player of the event: not followed (two people here), said.
    rex = next(n for n in FOUR if n not in (pia, quo))
    t1.table.start({"game": "center-court", "players": [rex, "Yan"],
                    "options": {"sets": 1}})
    t1.win(1)
    t1.table.merge_players("Quinn", rex)
    state = hall.director.event(eid)
    assert "Quinn" in {s["name"] for s in state["standings"]}
    assert any("another player of this event" in n["text"] for n in state["notes"])


def test_a_second_play_of_an_offer_and_a_moved_offer_never_count(club):
    """Issue 35, Medium: the hall down, a finished table's offer stayed; an older table
    played it again. The event keeps one result, the leaderboard one match, and the
    director is told why."""
    hall, tables = club
    eid = create(hall)
    state = start(hall, eid)
    game = game_at(state, "t1")
    t1 = tables["t1"]
    offer = t1.start()
    t1.win(0)
    # A table that would start the same offer again (its own check bypassed: an older
    # companion): a second match naming the offer.
    t1.table.start({"game": offer["game"], "players": offer["players"],
                    "options": offer["options"],
                    "event": {**offer["event"], "offer": offer["offer"]}})
    t1.win(1)
    state = hall.director.event(eid)
    assert next(g for g in state["pairings"] if g["id"] == game["id"])["result"][
        "ranks"] == [1, 2]
    assert any("played a second time" in n["text"] for n in state["notes"])
    assert hall.results.count() == 1
    # A game being played moves only once the director says its match is abandoned.
    other = game_at(state, "t2")
    t2 = tables["t2"]
    old = t2.start()
    path = f"/api/events/{eid}/pairings/{other['id']}/move"
    answer = hall.director.post(path, {"table": "t9"}, eid=eid)
    assert answer.status_code == 409 and "abandoned" in answer.get_json()["error"]
    answer = hall.director.post(path, {"table": "t9", "abandoned": True}, eid=eid)
    assert answer.status_code == 200, answer.get_json()
    told = hall.outbox.offers()["t2"]
    assert told["withdrawn"] == old["offer"] and "moved" in told["reason"]
    t2.win(0)  # the players finish anyway: not counted
    state = hall.director.event(eid)
    moved = next(g for g in state["pairings"] if g["id"] == other["id"])
    assert moved["result"] is None and moved["table"] == "t9"
    assert any("not counted" in n["text"] for n in state["notes"])
    assert hall.results.count() == 1


def test_an_unstarted_game_moves_with_one_request(club):
    hall, _ = club
    eid = create(hall)
    state = start(hall, eid)
    game = game_at(state, "t1")
    answer = hall.director.post(f"/api/events/{eid}/pairings/{game['id']}/move",
                                {"table": "t7"}, eid=eid)
    assert answer.status_code == 200
    assert hall.outbox.offers()["t1"] is None
    assert hall.outbox.offers()["t7"]["players"] == game["players"]
