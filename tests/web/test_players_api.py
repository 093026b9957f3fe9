"""GET /api/players, GET /api/players/<name>, and the host's rename and merge over HTTP."""

from __future__ import annotations

import gzip
import random

from tests.players_support import alakaslam, alakazoo, center_court, random_match
from tests.support import CATALOG
from tests.web.conftest import Host


def seed(runner, *plays) -> None:
    for play in plays:
        runner.call(play)


def test_no_finished_match_no_ratings(client):
    body = client.get("/api/players").json
    assert [g["game"] for g in body["games"]] == list(CATALOG)  # every game, in the catalog's order
    assert all(g["players"] == [] and g["total"] == 0 for g in body["games"])
    assert body["names"] == []


def test_leaderboards_rank_by_rating_and_count_matches_wins_and_form(client, runner):
    seed(runner, lambda t: center_court(t, ["Ann", "Bob"], 0),
         lambda t: center_court(t, ["Bob", "Cleo"], 1),
         lambda t: center_court(t, ["ann", "Cleo"], 0),
         lambda t: alakaslam(t, ["Ann", "Bob", "Cleo", "Dan"], 1))
    body = client.get("/api/players").json
    court = next(g for g in body["games"] if g["game"] == "center-court")
    assert [p["name"] for p in court["players"]] == ["Ann", "Cleo", "Bob"]
    ann = court["players"][0]
    assert (ann["place"], ann["matches"], ann["wins"], ann["form"], ann["provisional"]) == \
        (1, 2, 2, ["W", "W"], True)
    assert ann["rating"] > court["players"][1]["rating"] > court["players"][2]["rating"]
    slam = next(g for g in body["games"] if g["game"] == "alakaslam")
    assert {p["name"] for p in slam["players"][:2]} == {"Cleo", "Dan"}
    assert body["names"][0] in {"Ann", "Bob", "Cleo", "Dan"} and len(body["names"]) == 4


def test_a_game_is_paged_with_a_next_link(client, runner):
    rng = random.Random(4)
    names = [f"Player {i:02}" for i in range(12)]
    seed(runner, *[lambda t, i=i: center_court(t, rng.sample(names, 2), i % 2)
                   for i in range(20)])
    whole = client.get("/api/players?game=center-court").json
    assert whole["total"] == len(whole["players"]) == 12
    seen, url = [], "/api/players?game=center-court&limit=5"
    while url:
        response = client.get(url)
        assert response.status_code == 200
        seen += response.json["players"]
        link = response.headers.get("Link")
        url = link[1:link.index(">")] if link else None
    assert seen == whole["players"]
    assert [p["place"] for p in seen] == list(range(1, 13))


def test_bad_parameters_are_refused_with_the_reason(client):
    for query, words in [("game=chess", "game must be one of"), ("limit=0", "limit must"),
                         ("limit=501", "limit must"), ("offset=-1", "offset must"),
                         ("offset=x", "offset must")]:
        response = client.get(f"/api/players?{query}")
        assert response.status_code == 400 and words in response.json["error"], query


def test_answers_carry_an_etag_and_go_gzipped(client, runner):
    rng = random.Random(8)
    seed(runner, *[lambda t: random_match(t, rng, ["Ann", "Bob", "Cleo", "Dan", "Eve"])
                   for _ in range(15)])
    first = client.get("/api/players", headers={"Accept-Encoding": "gzip"})
    assert first.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(first.data).startswith(b"{")
    again = client.get("/api/players", headers={"Accept-Encoding": "gzip",
                                                "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


def test_a_player_page_has_each_game_its_course_results_and_company(client, runner):
    seed(runner, lambda t: alakaslam(t, ["Ann", "Bob", "Cleo", "Dan"], 0),
         lambda t: alakaslam(t, ["Ann", "Bob", "Cleo"], 1),
         lambda t: alakazoo(t, ["Ann", "Bob", "Cleo"], [0, 0, 0]))
    body = client.get("/api/players/ ANN").json
    assert body["name"] == "Ann"
    slam = next(g for g in body["games"] if g["game"] == "alakaslam")
    assert slam["matches"] == 2 and slam["wins"] == 1 and slam["form"] == ["W", "L"]
    assert [len(s["points"]) for s in slam["chart"]["series"]] == [2]
    assert slam["results"][0]["opponents"] == ["Bob", "Cleo"]
    assert slam["results"][1]["partners"] == ["Bob"]
    assert slam["partners"] == [{"name": "Bob", "matches": 1, "wins": 1}]
    assert slam["opponents"][0] == {"name": "Cleo", "matches": 2, "wins": 1}
    zoo = next(g for g in body["games"] if g["game"] == "alakazoo")
    assert zoo["form"] == ["D"] and zoo["results"][0]["place"] == 1
    missing = client.get("/api/players/Zed")
    assert missing.status_code == 404 and "no player" in missing.json["error"]


def test_rename_and_merge_are_the_hosts_with_a_premise(client, runner):
    seed(runner, lambda t: center_court(t, ["Ann", "Bob"], 0),
         lambda t: center_court(t, ["Annie", "Bob"], 0))
    assert client.post("/api/players/rename", json={"name": "Ann", "to": "Anna"}
                       ).status_code == 403
    host = Host(client)
    assert client.post("/api/players/rename", json={"name": "Ann", "to": "Anna"}
                       ).status_code == 403  # no CSRF header
    version = client.get("/api/state").json["version"]
    cases = [
        ("/api/players/rename", {"name": "Ann", "to": ""}, 400, "non-empty"),
        ("/api/players/rename", {"name": "Ann"}, 400, "'to'"),
        ("/api/players/rename", {"name": "Zed", "to": "Zoe"}, 404, "no player"),
        ("/api/players/rename", {"name": "Ann", "to": "bob"}, 409, "merge"),
        ("/api/players/merge", {"name": "Ann", "into": "Bob"}, 409, "both played"),
        ("/api/players/merge", {"name": "Ann", "into": "Zed"}, 404, "no player"),
    ]
    for path, body, status, words in cases:
        response = host.post(path, body)
        assert response.status_code == status and words in response.json["error"], body
    stale = host.post("/api/players/rename", {"name": "Ann", "to": "Anna"},
                      headers={"X-CSRF-Token": host.csrf, "X-Table-Version": str(version - 1)})
    assert stale.status_code == 409 and stale.json["stale"]
    assert client.get("/api/state").json["version"] == version  # nothing applied
    done = host.post("/api/players/merge", {"name": "annie", "into": "ann"},
                     headers={"X-CSRF-Token": host.csrf, "X-Table-Version": str(version)})
    assert done.status_code == 200 and done.json["version"] > version
    assert done.json["match"]["players"] == ["Ann", "Bob"]
    assert host.post("/api/players/rename", {"name": "ann", "to": "Anna"}).status_code == 200
    assert [m["players"] for m in client.get("/api/history").json] == [["Anna", "Bob"]] * 2
    court = client.get("/api/players?game=center-court").json
    assert [(p["name"], p["matches"]) for p in court["players"]] == [("Anna", 2), ("Bob", 2)]
    assert client.get("/api/players/Anna").json["games"][0]["wins"] == 2
