"""AlakaSLAM, second-round rulings: each auditor's finding refused or corrected.

Through the game's public functions (``legal``, ``resolve``, ``apply``,
``view``) and ``companion replay``; the HTTP API's side is in
tests/web/test_api_slam.py, the properties (undo and redo included) in
test_alakaslam_props.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import IllegalAction
from companion.games.alakaslam import GAME
from tests.games.test_alakaslam import play, refused, serve, shot, start

COMPANION = str(Path(sys.executable).parent / "companion")


def legal_types(state, kind):
    return [s for s in GAME.legal(state) if s["type"] == kind]


def hands(state):
    return [p["hand"] for p in GAME.view(state)["players"]]


def copy(p, character):
    return {"type": "copy", "player": p, "character": character}


def mulligan(p):
    return {"type": "mulligan", "player": p}


def point(winner, reason="no_return"):
    return {"type": "point", "winner": winner, "reason": reason}


def replay(tmp_path, *lines):
    f = tmp_path / "m.jsonl"
    f.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return subprocess.run([COMPANION, "replay", str(f)], capture_output=True, text=True,
                          timeout=60)


# --- Simon: one copied ability per point --------------------------------------------------


def test_simon_who_used_his_copied_toots_cannot_copy_rich_before_the_serve():
    s = play(start("simon", "toots", "rich"), copy(0, "toots"), {"type": "ability", "player": 0})
    refused(s, copy(0, "rich"),
            match="^Ann has used Toots's ability this point: no new copy until the next point$")
    assert legal_types(s, "copy") == []  # not offered either
    assert GAME.view(s)["players"][0]["acts_as"] == "toots"
    # The next point, he copies again.
    s = play(s, point(1))
    assert legal_types(s, "copy") == [{"type": "copy", "player": [0],
                                       "character": ["toots", "rich"]}]
    play(s, copy(0, "rich"))


def test_simon_may_replace_an_unused_copy_before_the_serve_but_not_after_it():
    s = play(start("simon", "toots", "rich"), copy(0, "toots"), copy(0, "rich"))
    assert GAME.view(s)["players"][0]["acts_as"] == "rich"
    refused(s, {"type": "ability", "player": 0}, match="no once-per-point")
    s = play(s, serve(0, "red", ["B3"]))
    refused(s, copy(0, "toots"), match="^Simon copies before the serve; the rally is under way")
    assert legal_types(s, "copy") == []


def test_simon_as_laurie_who_used_her_ability_on_the_serve_keeps_her_for_the_point():
    s = play(start("simon", "laurie"), copy(0, "laurie"),
             serve(0, "red", ["B3"]) | {"ability": True})
    assert GAME.view(s)["players"][0]["ability_used"] is True
    assert legal_types(s, "copy") == []


def test_the_copy_refusal_replays_as_a_bad_line(tmp_path):
    result = replay(tmp_path,
                    {"game": "alakaslam", "players": ["Ann", "Bob", "Cid"],
                     "options": {"characters": ["simon", "toots", "rich"]}},
                    copy(0, "toots"), {"type": "ability", "player": 0}, copy(0, "rich"))
    assert result.returncode == 2
    assert "line 4" in result.stderr and "no new copy until the next point" in result.stderr


# --- Simon's hand ----------------------------------------------------------------------------


def test_simons_hand_never_goes_below_one_after_a_recopy():
    s = play(start("simon", "sarissia", "rich"), copy(0, "sarissia"), *[mulligan(0)] * 9)
    assert hands(s)[0] == 1
    refused(s, mulligan(0), match="down to 1 card")
    s = play(s, copy(0, "rich"))
    assert hands(s)[0] == 1
    assert legal_types(s, "mulligan") == [{"type": "mulligan", "player": [1, 2]}]


def test_a_recopy_after_mulligans_leaves_the_cards_he_holds():
    s = play(start("simon", "sarissia", "rich"), copy(0, "sarissia"), mulligan(0), mulligan(0))
    assert hands(s)[0] == 8  # 10, then 9, then 8
    s = play(s, copy(0, "rich"))
    assert hands(s)[0] == 8  # he holds 8: the refill is behind him
    s = play(s, mulligan(0), copy(0, "sarissia"))
    assert hands(s)[0] == 7


def test_a_copy_before_any_mulligan_sets_the_refill():
    s = play(start("simon", "sarissia", "rich"), copy(0, "sarissia"))
    assert hands(s)[0] == 10
    s = play(s, copy(0, "rich"))
    assert hands(s)[0] == 8  # he refills to 8, not 10
    s = play(s, copy(0, "sarissia"), mulligan(0))
    assert hands(s)[0] == 9
    # Simon with a teammate: 7, copying Sarissia 9.
    pair = play(start("austin", "simon", "sarissia"), copy(1, "sarissia"))
    assert hands(pair)[1] == 9
    # A new point: a full refill and no copy.
    s = play(s, point(0))
    assert hands(s) == [8, 10, 8]


@given(teammate=st.booleans(),
       steps=st.lists(st.one_of(st.just("mulligan"),
                                st.sampled_from(["sarissia", "rich"])), max_size=16))
def test_simons_hand_is_what_he_holds_after_copies_and_mulligans_in_any_order(teammate, steps):
    """An independent count of Simon's cards: the refill goes by the copy in force until
    his first mulligan; each mulligan draws one fewer; the hand never drops below 1."""
    # Canadian doubles: Simon alone (player 0), or in the pair (player 1, with Rich).
    s = start(*(("sarissia", "simon", "rich") if teammate else ("simon", "sarissia", "rich")))
    simon = 1 if teammate else 0
    base = 7 if teammate else 8
    held, copied = None, None
    for step in steps:
        refill = base + 2 * (copied == "sarissia")
        if step == "mulligan":
            now = refill if held is None else held
            if now <= 1:
                refused(s, mulligan(simon), match="down to 1 card")
                continue
            held = now - 1
            s = play(s, mulligan(simon))
        else:
            copied = step
            s = play(s, copy(simon, step))
        shown = hands(s)[simon]
        assert shown == (base + 2 * (copied == "sarissia") if held is None else held)
        assert shown >= 1


# --- Laurie: any hit of hers, counted in the stats -------------------------------------------


def test_a_laurie_ability_shot_that_ends_the_point_counts_in_the_stats():
    s = play(start("austin", "laurie"), serve(0, "red", ["B3"]))  # ball (2, 4)
    s = play(s, shot(1, "B0", ability=True))  # (3, 4): still on her half, into the net
    v = GAME.view(s)
    assert v["last_point"] == {"winner": 0, "reason": "net"}
    assert v["stats"]["abilities"] == [0, 1]
    assert GAME.summary(s).endswith("1 ability used")


def test_laurie_uses_her_ability_on_the_serve_once_per_point():
    s = start("laurie", "austin")
    assert "exactly 1 card" in _why(s, serve(0, "red", ["B2", "B1"]) | {"ability": True})
    s = play(s, serve(0, "red", ["B3"]) | {"ability": True})
    v = GAME.view(s)
    assert v["players"][0]["ability_used"] is True and v["stats"]["abilities"] == [1, 0]
    s = play(s, shot(1, "R2"))  # (1, 2)
    refused(s, shot(0, "B3", ability=True), match="used Laurie's ability this point already")
    # A bad serve with her ability still counts.
    bad = play(start("laurie", "austin"), serve(0, "red", ["R3"]) | {"ability": True})
    assert GAME.view(bad)["last_point"]["reason"] == "bad_serve"
    assert GAME.view(bad)["stats"]["abilities"] == [1, 0]
    refused(start("austin", "laurie"), serve(0, "red", ["B3"]) | {"ability": True},
            match=r"Ann \(Austin\) has no shot ability")


def test_laurie_as_the_support_uses_her_ability_with_one_card_ignoring_enchantments():
    # Ann (Austin) and Bob (Laurie) against Cid (Rich) and Dee (Toots); Cid and Dee serve.
    s = start("austin", "laurie", "rich", "toots", first_server=1)
    s = play(s, serve(2, "blue", ["E3", "R0"], support={"player": 3, "cards": ["R3"]})
             | {"enchant": 1})
    # Bob is under Enchant-3, but with the ability plays one card.
    assert "exactly 1 card" in _why(s, shot(0, "E2", "B1", support={
        "player": 1, "cards": ["B1", "B1"], "ability": True}, enchant=2))
    s = play(s, shot(0, "B1", "B1", "R0", support={"player": 1, "cards": ["B1"],
                                                   "ability": True}))
    v = GAME.view(s)
    assert v["players"][1]["ability_used"] is True and v["stats"]["abilities"] == [0, 1, 0, 0]
    event = GAME.resolve(start("austin", "laurie", "rich", "toots"),
                         serve(0, "red", ["B1"], support={"player": 1, "cards": ["B1"],
                                                          "ability": True}), None)
    assert event["support"] == {"player": 1, "cards": ["B1"], "ability": True}
    assert "ability" not in event  # a serve carries it only when used
    # "ability": true on the hit, with Laurie as the Support, is hers.
    short = GAME.resolve(start("austin", "laurie", "rich", "toots"),
                         serve(0, "red", ["B1"], support={"player": 1, "cards": ["B1"]})
                         | {"ability": True}, None)
    assert short == event
    refused(start("austin", "rich", "laurie", "toots"),
            serve(0, "red", ["B1"], support={"player": 1, "cards": ["B1"], "ability": True}),
            match=r"Bob \(Rich\) has no shot ability; leave out \"support.ability\"")


def _why(state, action):
    with pytest.raises(IllegalAction) as err:
        GAME.resolve(state, action, None)
    return str(err.value)


# --- point reasons the record contradicts ----------------------------------------------------


def test_a_bad_serve_point_goes_to_the_receivers():
    s = start("austin", "rich")  # Ann serves
    refused(s, point(0, "bad_serve"),
            match="^a bad serve gives the point to the receivers, Bob; Ann serves this point: "
                  r"give Ann the point for another reason \(no return, declined, out or net\)$")
    assert {"type": "point", "winner": [0], "reason": ["no_return", "declined", "out", "net"]} \
        in GAME.legal(s)
    assert {"type": "point", "winner": [1],
            "reason": ["no_return", "declined", "out", "net", "bad_serve"]} in GAME.legal(s)
    assert GAME.view(play(s, point(1, "bad_serve")))["last_point"] == {"winner": 1,
                                                                        "reason": "bad_serve"}


@pytest.mark.parametrize("reason", ["no_return", "declined", "out", "net"])
def test_with_nothing_recorded_any_side_takes_a_point_for_any_other_reason(reason):
    s = play(start("austin", "rich"), mulligan(0))  # a mulligan is not a hit
    for winner in (0, 1):
        assert GAME.view(play(s, point(winner, reason)))["sides"][winner]["score"] == 1


def test_once_the_ball_is_in_play_the_point_goes_to_the_side_that_hit_last():
    s = play(start("austin", "rich"), serve(0, "red", ["B3"]))  # Bob to hit
    for reason in ("no_return", "declined", "out", "net"):
        refused(s, point(1, reason),
                match=f"^Ann hit last and the ball landed in: a point \\({reason.replace('_', ' ')}"
                      r"\) goes to Ann, not to Bob, who is to hit$")
        play(s, point(0, reason))
    refused(s, point(0, "bad_serve"), match="the serve of this point was recorded and "
                                            "landed in: not a bad serve")
    assert [x for x in GAME.legal(s) if x["type"] == "point"] == [
        {"type": "point", "winner": [0], "reason": ["no_return", "declined", "out", "net"]}]
    s = play(s, shot(1, "R2"))  # Ann to hit now
    refused(s, point(0), match="Bob hit last")
    play(s, point(1, "out"))


def test_a_contradicted_point_replays_as_a_bad_line(tmp_path):
    result = replay(tmp_path, {"game": "alakaslam", "players": ["Ann", "Bob"],
                               "options": {"characters": ["austin", "rich"]}},
                    {"type": "serve", "player": 0, "corner": "red", "cards": ["B3"]},
                    point(1, "no_return"))
    assert result.returncode == 2 and "line 3" in result.stderr
    assert "Ann hit last" in result.stderr
    result = replay(tmp_path, {"game": "alakaslam", "players": ["Ann", "Bob"],
                               "options": {"characters": ["austin", "rich"]}},
                    point(0, "bad_serve"))
    assert result.returncode == 2 and "receivers" in result.stderr


# --- Toots: her turn goes on after her shot ---------------------------------------------------


def test_toots_may_use_her_ability_after_her_own_shot():
    s = play(start("toots", "austin"), serve(0, "red", ["B3"]))  # Ann (Toots) served
    assert {"type": "ability", "player": [0]} in GAME.legal(s)
    s = play(s, {"type": "ability", "player": 0})
    assert GAME.view(s)["players"][0]["ability_used"] is True
    # Between her shots too, and on the receiving side once the serve is recorded.
    r = play(start("austin", "toots"), serve(0, "red", ["B3"]), shot(1, "R2"))
    play(r, {"type": "ability", "player": 1})


def test_toots_on_the_receiving_side_waits_for_the_serve():
    s = start("austin", "toots")
    refused(s, {"type": "ability", "player": 1},
            match="^Bob can use Toots's ability only on their own turn: Ann serves now; "
                  "it is Bob's to use once the serve is recorded$")
    assert legal_types(s, "ability") == []
    play(s, serve(0, "red", ["B3"]), {"type": "ability", "player": 1})


def test_a_bad_serve_point_in_a_rally_is_refused_for_either_side():
    s = play(start("austin", "rich", "toots", "sarissia"),
             serve(0, "red", ["B1"], support={"player": 1, "cards": ["B1"]}))  # Cid & Dee to hit
    for winner in (0, 1):
        refused(s, point(winner, "bad_serve"), match="^the serve of this point was recorded")
    refused(start("austin", "rich", "toots", "sarissia"), point(0, "bad_serve"),
            match="Ann & Bob serve this point")
