"""AlakaSLAM's second-round refusals over HTTP: a 409 with the reason, nothing applied,
and ``legal`` offering exactly what the API then accepts."""

from __future__ import annotations

import pytest


def start(host, characters, **options):
    names = ["Ann", "Bob", "Cid", "Dee"][:len(characters)]
    answer = host.post("/api/match", {"game": "alakaslam", "players": names,
                                      "options": {"characters": characters, **options}})
    assert answer.status_code == 200, answer.json
    return answer.json


def refused(host, runner, action, message):
    before = runner.table.snapshot
    answer = host.post("/api/action", action)
    assert answer.status_code == 409, answer.json
    assert answer.json["error"] == message
    assert runner.table.snapshot == before  # nothing applied


def ok(host, action):
    answer = host.post("/api/action", action)
    assert answer.status_code == 200, answer.json
    return answer.json["match"]


def test_simon_cannot_copy_a_second_character_once_he_used_the_first(host, runner):
    start(host, ["simon", "toots", "rich"])
    ok(host, {"type": "copy", "player": 0, "character": "toots"})
    match = ok(host, {"type": "ability", "player": 0})
    assert not any(s["type"] == "copy" for s in match["legal"])
    refused(host, runner, {"type": "copy", "player": 0, "character": "rich"},
            "Ann has used Toots's ability this point: no new copy until the next point")


def test_simons_hand_after_a_recopy_and_mulligans(host, runner):
    start(host, ["simon", "sarissia", "rich"])
    ok(host, {"type": "copy", "player": 0, "character": "sarissia"})
    for _ in range(9):
        match = ok(host, {"type": "mulligan", "player": 0})
    match = ok(host, {"type": "copy", "player": 0, "character": "rich"})
    assert match["view"]["players"][0]["hand"] == 1
    refused(host, runner, {"type": "mulligan", "player": 0},
            "Ann's hand is down to 1 card: no more mulligans; serve instead")


def test_laurie_on_the_serve_counts_when_the_serve_is_bad(host, runner):
    start(host, ["laurie", "austin"])
    match = ok(host, {"type": "serve", "player": 0, "corner": "red", "cards": ["R3"],
                      "ability": True})
    assert match["view"]["last_point"] == {"winner": 1, "reason": "bad_serve"}
    assert match["view"]["stats"]["abilities"] == [1, 0]


@pytest.mark.parametrize("action, message", [
    ({"type": "point", "winner": 0, "reason": "bad_serve"},
     "a bad serve gives the point to the receivers, Bob; Ann serves this point: give them "
     "the point for another reason"),
])
def test_a_bad_serve_point_for_the_server_is_refused(host, runner, action, message):
    match = start(host, ["austin", "rich"])["match"]
    assert {"type": "point", "winner": [0], "reason": ["no_return", "declined", "out", "net"]} \
        in match["legal"]
    refused(host, runner, action, message)


def test_every_point_legal_offers_in_a_rally_is_accepted_and_no_other(host, runner):
    start(host, ["austin", "rich"])
    match = ok(host, {"type": "serve", "player": 0, "corner": "red", "cards": ["B3"]})
    points = [s for s in match["legal"] if s["type"] == "point"]
    assert points == [{"type": "point", "winner": [0],
                       "reason": ["no_return", "declined", "out", "net"]}]
    refused(host, runner, {"type": "point", "winner": 1, "reason": "no_return"},
            "Ann hit last and the ball landed in: a point (no return) goes to Ann, not to "
            "Bob, who is to hit")
    refused(host, runner, {"type": "point", "winner": 0, "reason": "bad_serve"},
            "the serve of this point was recorded and landed in: not a bad serve; give Ann "
            "the point for no return, declined, out or net")
    version = runner.table.version
    for reason in points[0]["reason"]:
        assert ok(host, {"type": "point", "winner": 0, "reason": reason})
        assert host.post("/api/undo", {}).status_code == 200
    assert runner.table.snapshot.match["view"]["sides"][0]["score"] == 0
    assert runner.table.version > version


def test_toots_after_her_own_shot(host, runner):
    start(host, ["toots", "austin"])
    match = ok(host, {"type": "serve", "player": 0, "corner": "red", "cards": ["B3"]})
    assert {"type": "ability", "player": [0]} in match["legal"]
    match = ok(host, {"type": "ability", "player": 0})
    assert match["view"]["players"][0]["ability_used"] is True
