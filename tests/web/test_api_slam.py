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
     "a bad serve gives the point to the receivers, Bob; Ann serves this point: give Ann "
     "the point for another reason (no return, declined, out or net)"),
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


def abilities(match):
    return [p for s in match["legal"] if s["type"] == "ability" for p in s["player"]]


def test_josephias_takes_from_the_discard_only_in_his_sides_draw_phase(host, runner):
    match = start(host, ["rich", "josephias", "toots"])["match"]
    assert abilities(match) == []  # Ann serves: no one's draw phase, not Cid's turn
    refused(host, runner, {"type": "ability", "player": 1},
            "Bob can use Josephias's ability (a card from the discard instead of the draw) "
            "only in their side's draw phase, after their side's serve or shot is recorded "
            "and until the other side's shot: Ann serves now")
    match = ok(host, {"type": "serve", "player": 0, "corner": "red", "cards": ["B3"]})
    assert abilities(match) == [2]  # Cid's Toots on her side's turn; not Bob's draw yet
    refused(host, runner, {"type": "ability", "player": 1},
            "Bob can use Josephias's ability (a card from the discard instead of the draw) "
            "only in their side's draw phase, after their side's serve or shot is recorded "
            "and until the other side's shot: Bob & Cid are to hit now")
    match = ok(host, {"type": "shot", "player": 1, "cards": ["R2"],
                      "support": {"player": 2, "cards": ["B0"]}})
    assert abilities(match) == [1, 2]
    for p in abilities(match):  # each offered is accepted
        assert ok(host, {"type": "ability", "player": p})["view"]["players"][p]["ability_used"]
        assert host.post("/api/undo", {}).status_code == 200
    match = ok(host, {"type": "shot", "player": 0, "cards": ["B2"]})
    assert 1 not in abilities(match)


def test_a_receiver_out_of_mulligans_is_told_to_receive(host, runner):
    start(host, ["rich", "austin"])
    for _ in range(7):
        ok(host, {"type": "mulligan", "player": 1})
    refused(host, runner, {"type": "mulligan", "player": 1},
            "Bob's hand is down to 1 card: no more mulligans; keep it and receive: Ann serves")


def test_enchant_1_asks_for_exactly_1_card(host, runner):
    start(host, ["rich", "austin", "toots"])
    ok(host, {"type": "serve", "player": 0, "corner": "red", "cards": ["B3", "E1"],
              "enchant": 1})
    refused(host, runner, {"type": "shot", "player": 1, "cards": ["R2", "R0"],
                           "support": {"player": 2, "cards": ["B0"]}},
            "Bob is under Enchant-1: play exactly 1 card")


def test_the_supports_enchantment_is_offered_only_the_opponent_left(host, runner):
    start(host, ["rich", "austin", "toots", "laurie"])
    serve = {"type": "serve", "player": 0, "corner": "red", "cards": ["B3", "E2"],
             "enchant": 2, "support": {"player": 1, "cards": ["B0", "E3"], "enchant": 2}}
    refused(host, runner, serve, "two teammates cannot enchant the same opponent: Cid is "
            "enchanted already; 'support.enchant': 3 (Dee)")
    del serve["support"]["enchant"]  # only Dee is left: inferred
    match = ok(host, serve)
    assert {(o["player"], o["by"][0]) for o in match["view"]["obligations"]} == {(2, 0), (3, 1)}


def test_a_bad_character_names_the_player(host):
    answer = host.post("/api/match", {"game": "alakaslam", "players": ["Ann", "Bob"],
                                      "options": {"characters": ["rich", "nobody"]}})
    assert answer.status_code == 400
    assert answer.json["error"].startswith(
        "option 'characters': Bob's character (player 1) must be one of: austin, ")
