"""AlakaSLAM rules: the court geometry, serves, Enchantments, abilities and the score."""

from __future__ import annotations

import random

import pytest

from companion.errors import IllegalAction, InvalidAction
from companion.games.alakaslam import GAME
from companion.games.alakaslam.court import judge, judge_serve, land, serve_start
from companion.store import Store
from companion.table import Table
from tests.support import CATALOG

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def start(*characters: str, **options):
    players = NAMES[:len(characters)]
    prepared = GAME.prepare(players, {"characters": list(characters), **options},
                            random.Random(0))
    return GAME.setup(players, prepared)


def play(state, *actions):
    for action in actions:
        state = GAME.apply(state, GAME.resolve(state, action, random.Random(0)))
    return state


def refused(state, action, kind=IllegalAction, match=None):
    with pytest.raises(kind, match=match):
        GAME.resolve(state, action, random.Random(0))


def serve(player=0, corner="red", cards=("B2", "B1"), support=None):
    action = {"type": "serve", "player": player, "corner": corner, "cards": list(cards)}
    if support is not None:
        action["support"] = support
    return action


def shot(player, *cards, support=None, **extra):
    action = {"type": "shot", "player": player, "cards": list(cards), **extra}
    if support is not None:
        action["support"] = support
    return action


# --- geometry ----------------------------------------------------------------------


def test_the_rulebooks_aiming_example_goes_one_toward_red_and_three_forward():
    assert land((2, 1), ["R0", "B2", "R1"], 0) == (1, 4)
    assert land((2, 4), ["R0", "B2", "R1"], 1) == (1, 1)


@pytest.mark.parametrize("cell, result", [
    ((0, 3), "out"), ((4, 3), "out"), ((2, 5), "out"), ((2, 0), "out"),
    ((0, 1), "out"),  # off the court and short of the net: out wins
    ((1, 3), "in"), ((3, 4), "in"), ((2, 2), "net"), ((2, 1), "net"),
])
def test_every_edge_and_the_net_for_side_0_on_a_singles_court(cell, result):
    assert judge(cell, 0, 3) == result


@pytest.mark.parametrize("cell, result", [
    ((5, 2), "out"), ((4, 2), "in"), ((1, 1), "in"), ((4, 0), "out"), ((2, 3), "net"),
    ((3, 4), "net"), ((0, 2), "out"),
])
def test_side_1_hits_toward_row_1_on_a_four_column_court(cell, result):
    assert judge(cell, 1, 4) == result


def test_a_serve_may_not_land_in_its_own_column():
    start_cell = serve_start(0, "red", 3)
    assert start_cell == (1, 1)
    assert judge_serve(start_cell, land(start_cell, ["R0", "B3"], 0), 0, 3) == "bad_serve"
    assert judge_serve(start_cell, land(start_cell, ["B3"], 0), 0, 3) == "in"
    assert serve_start(1, "blue", 4) == (4, 4)


def test_straight_hit_2_moves_two_rows_and_no_column():
    assert land((2, 2), ["S2"], 0) == (2, 4)
    assert land((2, 3), ["S2"], 1) == (2, 1)


def test_enchantments_do_not_move_the_ball():
    assert land((2, 2), ["E2", "B1"], 0) == (3, 3)


# --- serves and shots through the game -----------------------------------------------


def test_a_serve_in_lands_on_the_receivers_half_and_they_hit_next():
    s = play(start("austin", "rich"), serve(cards=["B3"]))
    v = GAME.view(s)
    assert v["ball"] == [2, 4] and v["hitting_side"] == 1 and v["due"] == "shot"
    assert v["last_shot"] == {"side": 0, "players": [0], "from": [1, 1], "to": [2, 4],
                              "result": "in"}
    assert v["rally"] == 1
    assert GAME.turn(s) == (1,)


@pytest.mark.parametrize("cards", [["R0", "B3"], ["B0"], ["R1", "B3"]])
def test_a_bad_serve_gives_the_receivers_the_point(cards):
    # Own column, not over the net, and out.
    s = play(start("austin", "rich"), serve(cards=cards))
    v = GAME.view(s)
    assert v["sides"][1]["score"] == 1
    assert v["last_point"] == {"winner": 1, "reason": "bad_serve"}
    assert v["last_shot"]["result"] == "bad_serve"
    assert v["due"] == "serve" and v["serving_side"] == 0 and v["ball"] is None


def test_out_and_net_shots_end_the_point_with_their_reason():
    s = play(start("austin", "rich"), serve(cards=["B3"]))  # ball at (2, 4)
    out = play(s, shot(1, "B1", "B3"))  # (4, 0)
    assert GAME.view(out)["last_point"] == {"winner": 0, "reason": "out"}
    assert GAME.view(out)["last_shot"]["result"] == "out"
    net = play(s, shot(1, "R1"))  # (1, 3): still Bob's half
    assert GAME.view(net)["last_point"] == {"winner": 0, "reason": "net"}
    assert GAME.view(net)["serving_side"] == 1


def test_only_austin_plays_s2():
    s = start("austin", "rich")
    s = play(s, serve(cards=["B1", "S2"]))  # Austin: (2, 1) -> (2, 4)
    assert GAME.view(s)["ball"] == [2, 4]
    refused(s, shot(1, "S2"), match="only Austin")


def test_simon_copying_austin_plays_s2():
    s = play(start("simon", "austin"), {"type": "copy", "player": 0, "character": "austin"},
             serve(cards=["B1", "S2"]))
    assert GAME.view(s)["ball"] == [2, 4]


def test_doubles_landing_continues_from_the_first_players_cards():
    s = start("austin", "rich", "toots", "sarissia")
    s = play(s, serve(0, "red", ["B1"], support={"player": 1, "cards": ["B2"]}))
    # (1,1) -> (2,2) -> (3,4): the Support carries it on over the net.
    assert GAME.view(s)["ball"] == [3, 4]
    assert GAME.view(s)["last_shot"]["players"] == [0, 1]


def test_a_two_player_side_needs_its_support_and_only_the_teammate():
    s = start("austin", "rich", "toots", "sarissia")
    refused(s, serve(0, "red", ["B3"]), match="Support plays too")
    refused(s, serve(0, "red", ["B3"], support={"player": 2, "cards": ["B0"]}),
            match="teammate Bob")
    single = start("austin", "rich")
    refused(single, serve(0, "red", ["B3"], support={"player": 1, "cards": ["B0"]}),
            match="no teammate")


def test_canadian_pair_needs_support_and_the_single_player_none():
    s = start("austin", "rich", "toots")
    refused(s, serve(0, "red", ["B3"], support={"player": 1, "cards": ["B0"]}),
            match="no teammate")
    s = play(s, serve(0, "red", ["B3"]))  # (2, 4)
    refused(s, shot(1, "R1"), match="Support")
    s = play(s, shot(1, "R2", support={"player": 2, "cards": ["B0"]}))
    assert GAME.view(s)["ball"] == [2, 2]


def test_card_counts_and_malformed_cards():
    s = start("austin", "rich")
    refused(s, serve(cards=[]), match="1 to 3 cards")
    refused(s, serve(cards=["B0", "B0", "B0", "B1"]), match="1 to 3 cards")
    refused(s, serve(cards=["X9"]), InvalidAction, "card strings")
    refused(s, serve(cards="B1"), InvalidAction, "card strings")
    refused(s, serve(cards=["E2", "E3", "B3"]), match="at most one Enchantment")
    refused(s, {"type": "serve", "player": 0, "cards": ["B3"]}, InvalidAction, "corner")
    refused(s, {"type": "serve", "player": 0, "corner": "red"}, InvalidAction, "cards")
    refused(s, serve(player=1), match="Ann serves this point, not Bob")
    refused(s, shot(1, "B1"), match="a serve is due")
    refused(s, {"type": "lob"}, InvalidAction, "unknown action type")
    refused(s, serve() | {"spin": 1}, InvalidAction, "no field 'spin'")


def test_e1_is_removed_in_doubles_but_kept_in_canadian():
    refused(start("austin", "rich", "toots", "sarissia"),
            serve(0, "red", ["B3", "E1"], support={"player": 1, "cards": ["B0"]},) |
            {"cards": ["E1", "B3"]}, match="Enchant-1 cards are removed")
    s = play(start("austin", "rich", "toots"), serve(0, "red", ["E1", "B3"]) | {"enchant": 1})
    assert GAME.view(s)["obligations"][0]["cards"] == [1]


# --- Enchantments --------------------------------------------------------------------


def test_enchant_n_obliges_exactly_n_cards_in_the_return():
    s = play(start("wendolyn", "austin"), serve(0, "red", ["E2", "B3"]))
    v = GAME.view(s)
    assert v["obligations"] == [{"player": 1, "cards": [2], "no_enchant": False,
                                  "no_enchant_each": [False], "by": [0]}]
    refused(s, shot(1, "R2"), match="Bob is under Enchant-2: play exactly 2 cards")
    refused(s, shot(1, "R0", "R0", "R2"), match="exactly 2 cards")
    # The rulebook's example: Austin answers with Hit-3 Blue and an Enchant-1.
    s = play(s, shot(1, "R3", "E1"))
    v = GAME.view(s)
    assert [o["player"] for o in v["obligations"]] == [0]  # Bob's lapsed; Ann's is new


def test_richs_enchant_2_forbids_an_enchantment_in_the_return():
    s = play(start("rich", "austin"), serve(0, "red", ["E2", "B3"]))
    assert GAME.view(s)["obligations"][0]["no_enchant"] is True
    refused(s, shot(1, "R3", "E1"),
            match="^Bob is under Rich's Enchant-2: play exactly 2 cards, no Enchantment$")
    play(s, shot(1, "R3", "R0"))
    # Anyone else's Enchant-2 allows one.
    other = play(start("toots", "austin"), serve(0, "red", ["E2", "B3"]))
    play(other, shot(1, "R3", "E1"))


def test_an_enchantment_lapses_after_the_bound_side_hits_and_never_outlives_the_point():
    s = play(start("wendolyn", "austin"), serve(0, "red", ["E3", "B3", "B0"]))
    # ball (3, 4); Bob obeys with 3 cards.
    s = play(s, shot(1, "R1", "R1", "R0"))
    assert GAME.view(s)["obligations"] == []
    s = play(start("wendolyn", "austin"), serve(0, "red", ["E2", "B3"]))
    s = play(s, {"type": "point", "winner": 0})  # Bob, bound, does not return it
    assert GAME.view(s)["obligations"] == []
    play(s, serve(1, "red", ["B3"]), shot(0, "R2"))  # no leftover obligation


def test_lauries_ability_ignores_enchantments_and_is_once_per_point():
    s = play(start("wendolyn", "laurie"), serve(0, "red", ["E2", "B3"]))
    refused(s, shot(1, "R2", "R0", ability=True), match="exactly 1 card")
    s = play(s, shot(1, "R2", ability=True))  # (2,4) -> (1,2)
    v = GAME.view(s)
    assert v["players"][1]["ability_used"] is True and v["ball"] == [1, 2]
    s = play(s, shot(0, "B2"))  # (2, 4)
    refused(s, shot(1, "R2", ability=True), match="this point already")
    s = play(s, {"type": "point", "winner": 0})
    assert GAME.view(s)["players"][1]["ability_used"] is False
    refused(start("wendolyn", "laurie"), {"type": "ability", "player": 1},
            match="part of a shot")
    refused(play(start("laurie", "austin"), serve(0, "red", ["B3"])),
            shot(1, "R2", ability=True), match="no shot ability")


def test_two_enchantments_on_the_canadian_single_player_either_count_satisfies():
    s = start("austin", "rich", "toots")  # Ann alone against Bob (Rich) and Cid
    s = play(s, serve(0, "red", ["B3"]))  # (2, 4)
    s = play(s, shot(1, "E3", "B1", "B0", support={"player": 2, "cards": ["E1", "R1"]}))
    v = GAME.view(s)
    assert v["obligations"] == [{"player": 0, "cards": [3, 1], "no_enchant": False,
                                 "no_enchant_each": [False, False], "by": [1, 2]}]
    refused(s, shot(0, "B1", "B0"), match="Enchant-3 and Enchant-1: play exactly 3 or 1")
    play(s, shot(0, "B2"))
    play(s, shot(0, "R1", "B0", "R1"))


def test_doubles_teammates_cannot_enchant_the_same_opponent_and_must_name_one():
    s = start("austin", "rich", "toots", "sarissia")
    sup = {"player": 1, "cards": ["E3"], "enchant": 2}
    refused(s, serve(0, "red", ["E2", "B3"], support=sup) | {"enchant": 2},
            match="same opponent")
    # The Support binds Cid: Ann's Enchantment can only mean Dee, so it is inferred.
    inferred = GAME.resolve(s, serve(0, "red", ["E2", "B3"], support=sup), None)
    assert inferred["enchant"] == 3 and inferred["support"]["enchant"] == 2
    # Ann binds Dee: the Support's can only mean Cid; naming Dee is refused offering Cid.
    first = serve(0, "red", ["E2", "B3"], support={"player": 1, "cards": ["E3"]})
    assert GAME.resolve(s, first | {"enchant": 3}, None)["support"]["enchant"] == 2
    refused(s, serve(0, "red", ["E2", "B3"], support=sup) | {"enchant": 2},
            match=r"Cid is enchanted already; 'support.enchant': 3 \(Dee\)$")
    # Neither named: either opponent could be meant by Ann.
    refused(s, first, InvalidAction, r"name the opponent Ann's Enchantment binds: "
            r"'enchant': 2 \(Cid\) or 3 \(Dee\)$")
    refused(s, serve(0, "red", ["E2", "B3"], support=sup) | {"enchant": 1}, InvalidAction,
            "opposing player")
    s = play(s, serve(0, "red", ["E2", "B3"], support=sup) | {"enchant": 3})
    v = GAME.view(s)
    assert {(o["player"], o["cards"][0]) for o in v["obligations"]} == {(2, 3), (3, 2)}
    # The binding holds the player as Support too.
    refused(s, shot(2, "R1", "R1", "R0", support={"player": 3, "cards": ["R0"]}),
            match="Dee is under Enchant-2")


# --- points, serving, the score -----------------------------------------------------------


def test_the_side_that_lost_the_point_serves_next_and_the_target_wins():
    s = start("austin", "rich", target=2)
    s = play(s, {"type": "point", "winner": 0, "reason": "declined"})
    v = GAME.view(s)
    assert v["serving_side"] == 1 and v["last_point"] == {"winner": 0, "reason": "declined"}
    assert v["refill"][1]["discard_up_to"] == 3 and v["refill"][0]["discard_up_to"] == 0
    s = play(s, {"type": "point", "winner": 1})
    assert GAME.view(s)["last_point"]["reason"] == "no_return"
    assert GAME.view(s)["serving_side"] == 0
    s = play(s, {"type": "point", "winner": 1})
    v = GAME.view(s)
    assert v["winner"] == 1 and v["due"] is None and GAME.winner(s) == 1
    assert GAME.legal(s) == [] and GAME.turn(s) == ()
    assert GAME.summary(s) == "1-2 · Ann: 1 declined · Bob: 2 no return"
    for action in (serve(), {"type": "point", "winner": 0}, {"type": "mulligan", "player": 0}):
        refused(s, action, match="only undo")


def test_point_reasons_are_checked():
    s = start("austin", "rich")
    refused(s, {"type": "point", "winner": 0, "reason": "rain"}, InvalidAction, "reason")
    refused(s, {"type": "point", "winner": 2}, InvalidAction, "winner")


def test_the_first_server_by_coin_is_flipped_once_and_again_for_a_rematch():
    prepared = GAME.prepare(["A", "B"], {"characters": ["austin", "rich"],
                                         "first_server": "coin"}, random.Random(3))
    assert prepared["first_server"] in (0, 1) and prepared["coin_flip"] == \
        prepared["first_server"]
    # Replaying the prepared options does not flip again.
    assert GAME.prepare(["A", "B"], prepared, random.Random(99)) == prepared
    assert GAME.again(prepared)["first_server"] == "coin"
    s = GAME.setup(["A", "B"], prepared)
    assert GAME.view(s)["serving_side"] == prepared["first_server"]


def test_options_are_checked():
    rng = random.Random(0)
    with pytest.raises(InvalidAction, match="characters' is required"):
        GAME.prepare(["A", "B"], {}, rng)
    with pytest.raises(InvalidAction, match="different character"):
        GAME.prepare(["A", "B"], {"characters": ["rich", "rich"]}, rng)
    with pytest.raises(InvalidAction, match="teams"):
        GAME.prepare(["A", "B", "C", "D"], {"characters": ["rich", "austin", "toots",
                                                           "simon"], "teams": [0, 0, 0, 1]},
                     rng)
    with pytest.raises(InvalidAction, match="target"):
        GAME.prepare(["A", "B"], {"characters": ["rich", "austin"], "target": 10}, rng)
    canadian = GAME.view(start("rich", "austin", "toots"))
    assert canadian["format"] == "canadian"
    # Each Enchantment discarded for movement: 2 spaces for the Canadian single player.
    assert [p["enchant_move"] for p in canadian["players"]] == [2, 1, 1]
    assert GAME.view(start("rich", "austin", "toots", "simon"))["court"] == {"cols": 4,
                                                                          "rows": 4}


# --- hands, mulligans, abilities ------------------------------------------------------------


def test_hand_sizes_and_mulligans():
    s = start("sarissia", "simon", "austin", "rich")
    assert [p["hand"] for p in GAME.view(s)["players"]] == [10, 7, 8, 8]
    s = play(s, {"type": "mulligan", "player": 2}, {"type": "mulligan", "player": 2})
    assert GAME.view(s)["players"][2]["hand"] == 6
    assert [p["hand"] for p in GAME.view(start("simon", "austin"))["players"]] == [8, 8]
    s = play(s, serve(0, "red", ["B3"], support={"player": 1, "cards": ["B0"]}))
    refused(s, {"type": "mulligan", "player": 2}, match="before the serve")
    s = play(s, {"type": "point", "winner": 0})
    assert GAME.view(s)["players"][2]["hand"] == 8  # a new point, a full hand


def test_mulligans_stop_at_one_card():
    s = start("austin", "rich")
    s = play(s, *[{"type": "mulligan", "player": 0}] * 7)
    assert GAME.view(s)["players"][0]["hand"] == 1
    refused(s, {"type": "mulligan", "player": 0}, match="down to 1 card")


def test_simon_copies_before_the_serve_and_copying_sarissia_gives_her_extra_cards():
    s = start("simon", "sarissia")
    refused(s, {"type": "copy", "player": 1, "character": "rich"}, match="only Simon")
    refused(s, {"type": "copy", "player": 0, "character": "rich"}, match="in play")
    s = play(s, {"type": "copy", "player": 0, "character": "sarissia"})
    assert GAME.view(s)["players"][0] == {"name": "Ann", "character": "simon", "side": 0,
                                          "ability_used": False, "copy": "sarissia",
                                          "acts_as": "sarissia", "hand": 10, "mulligans": 0,
                                          "enchant_move": 1}
    s = play(s, serve(0, "red", ["B3"]))
    refused(s, {"type": "copy", "player": 0, "character": "sarissia"},
            match="before the serve")
    s = play(s, {"type": "point", "winner": 0})
    assert GAME.view(s)["players"][0]["copy"] is None


def test_once_per_point_abilities_toots_and_canadian_josephias():
    s = start("toots", "josephias")
    refused(s, {"type": "ability", "player": 1}, match="no once-per-point")
    s = play(s, {"type": "ability", "player": 0})
    refused(s, {"type": "ability", "player": 0}, match="this point already")
    s = play(s, {"type": "point", "winner": 0})  # Bob serves next
    refused(s, {"type": "ability", "player": 0}, match="Toots's ability only on their own turn")
    s = play(s, serve(1, "red", ["B3"]))  # now Ann hits: her turn
    play(s, {"type": "ability", "player": 0})
    c = start("austin", "josephias", "toots")  # Josephias in the Canadian pair
    c = play(c, serve(0, "red", ["B3"]), shot(1, "R2", support={"player": 2, "cards": ["B0"]}))
    play(c, {"type": "ability", "player": 1})  # his draw phase (see the test below)
    refused(start("josephias", "austin", "toots"), {"type": "ability", "player": 0},
            match="no once-per-point")


def test_canadian_josephias_takes_from_the_discard_only_in_his_sides_draw_phase():
    """Rulebook: "Instead of taking your normal draw phase, you may choose 1 card from the
    discard"; the draw is step 4 of his side's turn, after its serve or shot."""
    ability = {"type": "ability", "player": 1}
    offered = lambda s: any(a["type"] == "ability" and 1 in a["player"]  # noqa: E731
                            for a in GAME.legal(s))
    s = start("austin", "josephias", "toots")
    refused(s, ability, match=r"only in their side's draw phase.*: Ann serves now$")
    assert not offered(s)
    s = play(s, serve(0, "red", ["B3"]))  # Bob & Cid to hit: their turn, not yet its draw
    refused(s, ability, match=r"draw phase.*: Bob & Cid are to hit now$")
    assert not offered(s)
    s = play(s, shot(1, "R2", support={"player": 2, "cards": ["B0"]}))  # Ann to hit
    assert offered(s)
    used = play(s, ability)
    assert GAME.view(used)["players"][1]["ability_used"] and not offered(used)
    s = play(s, shot(0, "B2"))  # the window closes with Ann's shot
    refused(s, ability, match="Bob & Cid are to hit now")
    assert not offered(s)
    # Serving: the window opens with his side's recorded serve; the point buttons still
    # work with nothing recorded (button-only scoring offers no draw phase to record).
    b = play(start("austin", "josephias", "toots"), {"type": "point", "winner": 0})
    refused(b, ability, match="Bob & Cid serve now")
    assert {"type": "point", "winner": [1], "reason": ["no_return", "declined", "out", "net"]
            } in GAME.legal(b)
    b = play(b, serve(1, "red", ["B2"], support={"player": 2, "cards": ["B0"]}))
    assert offered(b)
    # Simon copying Josephias in the pair follows the same window.
    simon = play(start("austin", "simon", "josephias"),
                 {"type": "copy", "player": 1, "character": "josephias"})
    refused(simon, ability, match="Cid's ability|Bob can use Josephias's ability")
    simon = play(simon, serve(0, "red", ["B3"]),
                 shot(1, "R2", support={"player": 2, "cards": ["B0"]}))
    play(simon, ability)
    # Where he has no ability action the discard is a reminder only, as before.
    single = play(start("josephias", "austin", "toots"), serve(0, "red", ["B3"]))
    assert GAME.view(single)["draws"][0]["from_discard"] is True
    refused(single, {"type": "ability", "player": 0}, match="no once-per-point")


def test_draw_reminders_follow_the_format_and_characters():
    s = play(start("wendolyn", "austin"), serve(0, "red", ["B3"]))
    assert GAME.view(s)["draws"] == [{"player": 0, "draw": 3, "discard_first": 1,
                                      "from_discard": False}]
    d = play(start("josephias", "rich", "toots", "austin"),
             serve(0, "red", ["B1"], support={"player": 1, "cards": ["B2"]}))
    assert GAME.view(d)["draws"] == [
        {"player": 0, "draw": 1, "discard_first": 0, "from_discard": True},
        {"player": 1, "draw": 1, "discard_first": 0, "from_discard": False}]
    ended = play(start("wendolyn", "austin"), serve(0, "red", ["B0"]))
    assert GAME.view(ended)["draws"] == []  # no draw on a turn that ended the point


def test_after_the_win_only_undo_works_on_a_table():
    store = Store(":memory:")
    try:
        table = Table(store, CATALOG, rng=random.Random(0))
        table.start({"game": "alakaslam", "players": ["Ann", "Bob"],
                     "options": {"characters": ["austin", "rich"], "target": 1}})
        table.act({"type": "serve", "player": 0, "corner": "red", "cards": ["B0"]})
        view = table.snapshot.match["view"]
        assert view["winner"] == 1 and view["last_point"]["reason"] == "bad_serve"
        with pytest.raises(IllegalAction):
            table.act({"type": "point", "winner": 0})
        table.undo()
        assert table.snapshot.match["view"]["winner"] is None
        assert table.snapshot.match["view"]["due"] == "serve"
    finally:
        store.close()


def test_the_side_to_act_is_lit_in_doubles():
    s = start("austin", "rich", "toots", "sarissia", first_server=1)
    assert GAME.turn(s) == (2, 3)
    s = play(s, serve(2, "blue", ["R3"], support={"player": 3, "cards": ["R0"]}))
    assert GAME.view(s)["ball"] == [2, 1] and GAME.turn(s) == (0, 1)


def test_the_canadian_single_player_chooses_which_enchantment_to_obey():
    # Bob (Rich) plays his Enchant-2, Cid an Enchant-3, both on Ann.
    s = play(start("austin", "rich", "toots"), serve(0, "red", ["B3"]))  # (2, 4)
    s = play(s, shot(1, "E2", "B1", support={"player": 2, "cards": ["E3", "B0", "R1"]}))
    assert GAME.view(s)["obligations"][0]["no_enchant_each"] == [True, False]
    refused(s, shot(0, "E1", "B1"), match="^Ann is under Rich's Enchant-2 and Enchant-3: play "
            "exactly 2 cards, no Enchantment, or 3 cards$")  # Rich's count, with one
    play(s, shot(0, "B0", "B1"))  # Rich's: 2 cards, no Enchantment
    play(s, shot(0, "E1", "B0", "B1", enchant=2))  # Cid's: 3 cards, an Enchantment allowed


def test_serve_positions_are_shown_for_either_corner_before_the_serve():
    v = GAME.view(start("austin", "rich", "toots", "sarissia"))
    assert v["serve_positions"]["red"] == {"server": [1, 1], "server_mate": [3, 2],
                                           "receiver": [4, 4], "receiver_mate": [2, 3]}
    assert v["serve_positions"]["blue"] == {"server": [4, 1], "server_mate": [2, 2],
                                            "receiver": [1, 4], "receiver_mate": [3, 3]}
    single = GAME.view(start("austin", "rich", first_server=1))
    assert single["serve_positions"]["red"] == {"server": [1, 4], "server_mate": None,
                                                "receiver": [3, 1], "receiver_mate": None}
    served = play(start("austin", "rich"), serve(cards=["B3"]))
    assert GAME.view(served)["serve_positions"] is None


# --- the checklist: geometry ----------------------------------------------------


def test_the_rulebooks_aiming_example_in_a_match():
    """Hit-0 Red, Hit-2 Blue, Hit-1 Red: one column toward red, three rows forward."""
    s = play(start("austin", "rich", first_server=1), serve(1, "blue", ["R3"]))  # (2, 1)
    s = play(s, shot(0, "R0", "B2", "R1"))
    v = GAME.view(s)
    assert v["last_shot"] == {"side": 0, "players": [0], "from": [2, 1], "to": [1, 4],
                              "result": "in"}
    assert v["ball"] == [1, 4] and v["hitting_side"] == 1


@pytest.mark.parametrize("cols", [3, 4])
@pytest.mark.parametrize("side", [0, 1])
def test_every_edge_of_either_court_for_either_side(cols, side):
    """One cell past each edge is out; the last cells inside each edge are in."""
    far = (3, 4) if side == 0 else (1, 2)  # the rows of the opponent's half
    for row in far:
        assert judge((0, row), side, cols) == "out"          # past the red edge
        assert judge((cols + 1, row), side, cols) == "out"   # past the blue edge
        assert judge((1, row), side, cols) == "in"
        assert judge((cols, row), side, cols) == "in"
    baseline_past = 5 if side == 0 else 0                      # past the far baseline
    assert judge((2, baseline_past), side, cols) == "out"
    own = (1, 2) if side == 0 else (3, 4)                      # short of the net
    for row in own:
        assert judge((2, row), side, cols) == "net"
    behind = 0 if side == 0 else 5                             # behind the hitter's baseline
    assert judge((2, behind), side, cols) == "out"


def test_the_ball_may_leave_the_court_in_the_air_if_it_lands_on_it():
    # From (1, 2) an R0 takes the ball past the red edge; B1 brings it back over the net.
    assert land((1, 2), ["R0", "B1"], 0) == (1, 3) and judge((1, 3), 0, 3) == "in"
    s = play(start("austin", "rich"), serve(0, "red", ["R0", "B1", "B2"]))  # (0,1) (1,2) (2,4)
    assert GAME.view(s)["ball"] == [2, 4]
    # The reverse: every card in, the sum out.
    s = play(s, shot(1, "B2", "B2"))  # (3, 2) then (4, 0)
    assert GAME.view(s)["last_point"] == {"winner": 0, "reason": "out"}


@pytest.mark.parametrize(("players", "side", "corner", "cards", "result"), [
    # Singles, side 0 from the red corner (1, 1).
    (2, 0, "red", ["B2"], "in"),              # (2, 3)
    (2, 0, "red", ["B0", "R2"], "bad_serve"),  # (2, 1) then (1, 3): back in its column
    (2, 0, "red", ["B1"], "bad_serve"),       # (2, 2): not over the net
    (2, 0, "red", ["B1", "B3"], "bad_serve"),  # (3, 5): long
    (2, 0, "red", ["B1", "B1", "B1"], "bad_serve"),  # (4, 4): wide
    # Side 1 from the blue corner (3, 4) of a singles court; from (4, 4) of a wider one.
    (2, 1, "blue", ["R2"], "in"),             # (2, 2)
    (2, 1, "blue", ["R1", "B1"], "bad_serve"),  # (3, 2): straight
    (4, 1, "blue", ["R3", "R0"], "in"),       # (2, 1)
    (4, 1, "blue", ["B0", "R2", "R0"], "in"),  # (5, 4) off the court in the air, lands (3, 2)
    (4, 1, "blue", ["B0", "R2"], "bad_serve"),  # (4, 2): its own column
])
def test_the_serve_must_cross_the_net_and_leave_its_column(players, side, corner, cards,
                                                          result):
    cols = 3 if players == 2 else 4
    begin = serve_start(side, corner, cols)
    assert judge_serve(begin, land(begin, cards, side), side, cols) == result


def test_austins_straight_hit_2_cannot_make_a_straight_serve():
    s = play(start("austin", "rich"), serve(0, "red", ["S2"]))  # (1, 3): its own column
    assert GAME.view(s)["last_point"] == {"winner": 1, "reason": "bad_serve"}
    s = play(start("austin", "rich"), serve(0, "red", ["B0", "S2"]))  # (2, 3)
    assert GAME.view(s)["ball"] == [2, 3]


def test_a_serve_in_doubles_is_judged_from_the_servers_corner_after_both_players_cards():
    s = start("austin", "rich", "toots", "sarissia")
    # Ann alone would be short of the net at (2, 2); Bob's cards carry it over but straight.
    bad = play(s, serve(0, "blue", ["R1"], support={"player": 1, "cards": ["B2"]}))
    assert GAME.view(bad)["last_shot"]["to"] == [4, 4]
    assert GAME.view(bad)["last_point"] == {"winner": 1, "reason": "bad_serve"}
    good = play(s, serve(1, "blue", ["R1"], support={"player": 0, "cards": ["R2"]}))
    assert GAME.view(good)["ball"] == [2, 4] and GAME.view(good)["last_shot"]["players"] == [1, 0]


def test_only_the_combined_landing_of_a_doubles_shot_is_judged():
    s = start("austin", "rich", "toots", "sarissia")
    s = play(s, serve(0, "red", ["B3"], support={"player": 1, "cards": ["B0"]}))  # (3, 4)
    # Cid's cards alone would be out past the blue edge at (5, 2); Dee's R0 brings it back.
    back = play(s, shot(2, "B1", "B1", support={"player": 3, "cards": ["R0"]}))
    assert GAME.view(back)["ball"] == [4, 2] and GAME.view(back)["last_point"] is None
    # Cid's R3 alone lands in at (2, 1); Dee's R1 takes it on to (1, 0): out, Ann & Bob score.
    out = play(s, shot(2, "R3", support={"player": 3, "cards": ["R1"]}))
    assert GAME.view(out)["last_point"] == {"winner": 0, "reason": "out"}
    assert GAME.view(out)["last_shot"]["to"] == [1, 0]
    # Hit-0s only move it sideways: still on Cid and Dee's half, net.
    net = play(s, shot(3, "R0", support={"player": 2, "cards": ["R0"]}))
    assert GAME.view(net)["last_point"] == {"winner": 0, "reason": "net"}


# --- the checklist: obligations ---------------------------------------------------


def test_enchantments_count_toward_the_number_of_cards_and_still_bind_in_the_return():
    s = play(start("wendolyn", "austin"), serve(0, "red", ["E3", "B1", "B2"]))  # (3, 4)
    refused(s, shot(1, "E1", "R3"), match="exactly 3 cards")
    s = play(s, shot(1, "E2", "R3", "R0"))  # the Enchantment is one of the three
    assert GAME.view(s)["obligations"] == [{"player": 0, "cards": [2], "no_enchant": False,
                                            "no_enchant_each": [False], "by": [1]}]


def test_only_richs_own_enchant_2_forbids_an_enchantment_and_simon_copying_him_too():
    s = play(start("rich", "austin"), serve(0, "red", ["E3", "B1", "B2"]))
    assert GAME.view(s)["obligations"][0]["no_enchant"] is False  # his Enchant-3
    play(s, shot(1, "E1", "R3", "R0"))
    simon = play(start("simon", "austin", "rich"),
                 {"type": "copy", "player": 0, "character": "rich"},
                 serve(0, "red", ["E2", "B3"]) | {"enchant": 2})
    v = GAME.view(simon)
    assert v["obligations"] == [{"player": 2, "cards": [2], "no_enchant": True,
                                 "no_enchant_each": [True], "by": [0]}]
    refused(simon, shot(1, "R2", support={"player": 2, "cards": ["E1", "R0"]}),
            match="Cid is under Rich's Enchant-2")


def test_an_enchantment_binds_its_player_as_support_and_lapses_after_one_shot():
    s = start("austin", "rich", "toots", "wendolyn")
    # Bob, the Support, binds Dee to 3 cards.
    s = play(s, serve(0, "red", ["B3"], support={"player": 1, "cards": ["E3"], "enchant": 3}))
    refused(s, shot(2, "R1", support={"player": 3, "cards": ["R0"]}),
            match="Dee is under Enchant-3: play exactly 3 cards")
    s = play(s, shot(2, "B1", support={"player": 3, "cards": ["R0", "B0", "R2"]}))  # (2, 1)
    assert GAME.view(s)["obligations"] == []
    s = play(s, shot(0, "B2", support={"player": 1, "cards": ["B0"]}))  # (4, 3)
    play(s, shot(3, "R1", support={"player": 2, "cards": ["R0"]}))  # Dee is free again


def test_an_enchantment_names_an_opposing_player_only_when_one_is_played():
    s = start("austin", "rich")
    refused(s, serve(0, "red", ["B3"]) | {"enchant": 1}, InvalidAction, "plays none")
    refused(s, serve(0, "red", ["E2", "B3"]) | {"enchant": 0}, InvalidAction,
            "opposing player: 1")
    refused(s, serve(0, "red", ["E2", "B3"]) | {"enchant": True}, InvalidAction,
            "opposing player")
    # In singles the one opponent is meant; naming him is allowed.
    assert GAME.view(play(s, serve(0, "red", ["E2", "B3"]) | {"enchant": 1})
                     )["obligations"][0]["player"] == 1
    canadian = start("austin", "rich", "toots")
    # The field takes an id; the message names whom it means (issue 36: names, not ids).
    refused(canadian, serve(0, "red", ["E2", "B3"]), InvalidAction,
            r"'enchant': 1 \(Bob\) or 2 \(Cid\)$")


def test_a_bad_serve_or_a_point_leaves_no_obligation_behind():
    s = play(start("wendolyn", "austin"), serve(0, "red", ["E2", "B0", "B1"]))  # (3, 2): net
    v = GAME.view(s)
    assert v["last_point"]["reason"] == "bad_serve" and v["obligations"] == []


# --- the checklist: characters ----------------------------------------------------


def test_simon_copies_each_character_for_one_point():
    def copied(character, other=None):
        return play(start("simon", other or character),
                    {"type": "copy", "player": 0, "character": character})

    laurie = play(copied("laurie"), serve(0, "red", ["B3"]))  # (2, 4)
    s = play(laurie, shot(1, "E2", "R2", "B1"))  # (2, 1); Simon is under Enchant-2
    s = play(s, shot(0, "B3", ability=True))  # Laurie's ability: 1 card, ignoring it
    assert GAME.view(s)["players"][0]["ability_used"] is True
    toots = copied("toots")
    # Simon as Toots may, on his serve; Bob's own Toots waits for his side's turn.
    assert {"type": "ability", "player": [0]} in GAME.legal(toots)
    play(toots, {"type": "ability", "player": 0})
    refused(toots, {"type": "ability", "player": 1}, match="own turn: Ann serves now")
    wendolyn = play(copied("wendolyn"), serve(0, "red", ["B3"]))
    assert GAME.view(wendolyn)["draws"][0] | {"player": 0} == {
        "player": 0, "draw": 3, "discard_first": 1, "from_discard": False}
    josephias = play(copied("josephias"), serve(0, "red", ["B3"]))
    assert GAME.view(josephias)["draws"][0]["from_discard"] is True
    # Josephias's once-per-point ability is only his as a Canadian pair player.
    refused(copied("josephias"), {"type": "ability", "player": 0},
            match="no once-per-point")
    pair = play(start("austin", "simon", "josephias"),
                {"type": "copy", "player": 1, "character": "josephias"},
                serve(0, "red", ["B3"]), shot(1, "R2", support={"player": 2, "cards": ["B0"]}))
    play(pair, {"type": "ability", "player": 1})  # in his side's draw phase
    # The copy is gone after the point: Simon is himself until he copies again.
    after = play(toots, {"type": "point", "winner": 1})
    refused(after, {"type": "ability", "player": 0}, match="no once-per-point")


def test_simon_may_change_his_mind_before_the_serve():
    s = start("simon", "austin", "sarissia")
    s = play(s, {"type": "copy", "player": 0, "character": "sarissia"})
    assert GAME.view(s)["players"][0]["hand"] == 10  # alone on his side: 8 + 2
    s = play(s, {"type": "copy", "player": 0, "character": "austin"})
    assert GAME.view(s)["players"][0]["copy"] == "austin"
    assert GAME.view(s)["players"][0]["hand"] == 8
    paired = play(start("austin", "simon", "sarissia"),
                  {"type": "copy", "player": 1, "character": "sarissia"})
    assert GAME.view(paired)["players"][1]["hand"] == 9  # 7 with a teammate, + 2


def test_laurie_uses_her_ability_at_the_ball_or_as_the_support():
    s = start("austin", "rich", "laurie", "toots")
    s = play(s, serve(0, "red", ["B3"], support={"player": 1, "cards": ["B0"]}))
    # Second round: "ability" on Toots's shot with Laurie as the Support is Laurie's.
    event = GAME.resolve(s, shot(3, "R1", ability=True, support={"player": 2, "cards": ["R0"]}),
                         None)
    assert event["ability"] is False and event["support"]["ability"] is True
    refused(s, shot(3, "R1", ability=True, support={"player": 2, "cards": ["R0", "B1"]}),
            match="Cid uses Laurie's ability: play exactly 1 card")
    s = play(s, shot(2, "R2", ability=True, support={"player": 3, "cards": ["R0"]}))
    assert GAME.view(s)["ball"] == [1, 2] and GAME.view(s)["players"][2]["ability_used"]


# --- the checklist: reminders -----------------------------------------------------


def test_canadian_draws_two_for_the_single_player_and_one_for_each_pair_player():
    s = play(start("austin", "wendolyn", "josephias"), serve(0, "red", ["B3"]))
    assert GAME.view(s)["draws"] == [{"player": 0, "draw": 2, "discard_first": 0,
                                      "from_discard": False}]
    s = play(s, shot(1, "R2", support={"player": 2, "cards": ["B0"]}))
    assert GAME.view(s)["draws"] == [
        {"player": 1, "draw": 2, "discard_first": 1, "from_discard": False},
        {"player": 2, "draw": 1, "discard_first": 0, "from_discard": True}]


def test_a_canadian_josephias_is_reminded_of_the_discard_only_until_he_has_used_it():
    s = play(start("austin", "josephias", "toots"), serve(0, "red", ["B3"]))
    s = play(s, shot(1, "R2", support={"player": 2, "cards": ["B0"]}))
    assert GAME.view(s)["draws"][0] == {"player": 1, "draw": 1, "discard_first": 0,
                                        "from_discard": True}
    s = play(s, {"type": "ability", "player": 1})  # he took a card from the discard
    s = play(s, shot(0, "B2"), shot(1, "R2", support={"player": 2, "cards": ["B0"]}))
    assert GAME.view(s)["draws"][0]["from_discard"] is False
    s = play(s, {"type": "point", "winner": 1}, serve(0, "red", ["B3"]),
             shot(1, "R2", support={"player": 2, "cards": ["B0"]}))
    assert GAME.view(s)["draws"][0]["from_discard"] is True  # a new point


def test_after_a_point_each_loser_may_discard_3_and_everybody_refills_to_their_hand():
    s = start("sarissia", "simon", "austin", "wendolyn")
    assert [r["discard_up_to"] for r in GAME.view(s)["refill"]] == [0, 0, 0, 0]
    s = play(s, {"type": "point", "winner": 1, "reason": "no_return"})
    assert GAME.view(s)["refill"] == [
        {"player": 0, "discard_up_to": 3, "hand": 10}, {"player": 1, "discard_up_to": 3,
                                                        "hand": 7},
        {"player": 2, "discard_up_to": 0, "hand": 8}, {"player": 3, "discard_up_to": 0,
                                                       "hand": 8}]
    s = play(s, serve(0, "red", ["B3"], support={"player": 1, "cards": ["B0"]}))
    assert GAME.view(s)["refill"] == []  # only between points


# --- stats ---------------------------------------------------------------------------------


def test_stats_count_points_by_reason_the_longest_rally_and_abilities():
    s = start("laurie", "toots", target=3)
    none = dict.fromkeys(("no_return", "declined", "out", "net", "bad_serve"), 0)
    assert GAME.view(s)["stats"] == {"points": [none, none], "longest_rally": 0,
                                     "abilities": [0, 0]}
    s = play(s, serve(0, "red", ["B0"]))  # bad serve: Bob's point, a rally of 1
    refused(s, serve(1, "red", ["B3"]), match="Ann serves this point, not Bob")
    refused(s, shot(0, "B1"), match="a serve is due: Ann serves")
    s = play(s, serve(0, "red", ["B3"]))  # (2, 4): in
    s = play(s, {"type": "ability", "player": 1})  # Toots
    refused(s, shot(0, "B1"), match="Bob hits now, not Ann")
    s = play(s, shot(1, "B3"))  # (3, 1): in
    s = play(s, shot(0, "R3", ability=True))  # Laurie's draw-3-play-1: (2, 4), in
    assert GAME.view(s)["stats"]["longest_rally"] == 3  # the rally still running counts
    s = play(s, shot(1, "B3", "B3"))  # out: Ann's point after a rally of 4
    s = play(s, {"type": "point", "winner": 1})  # awarded: no shot, the longest stays 4
    stats = GAME.view(s)["stats"]
    assert stats["points"][0]["out"] == 1 and sum(stats["points"][0].values()) == 1
    assert stats["points"][1]["bad_serve"] == 1 and stats["points"][1]["no_return"] == 1
    assert stats["longest_rally"] == 4 and stats["abilities"] == [1, 1]
    assert GAME.summary(s) == ("1-2 · Ann: 1 out · Bob: 1 no return, 1 bad serve"
                               " · longest rally 4 · 2 abilities used")


def test_a_team_win_names_both_players_in_the_history():
    s = start("austin", "rich", "toots", "sarissia", target=1)
    refused(s, serve(2), match="Ann & Bob serve this point: the server is Ann or Bob")
    s = play(s, {"type": "point", "winner": 1})
    assert GAME.view(s)["winner"] == 1 and GAME.winner(s) == (2, 3)


def test_a_point_awarded_before_any_shot_keeps_no_earlier_shot():
    s = play(start("austin", "rich"), serve(0, "red", ["B3"]))
    s = play(s, {"type": "point", "winner": 0})  # Bob missed Ann's serve: it stays shown
    assert GAME.view(s)["last_shot"]["result"] == "in"
    s = play(s, {"type": "point", "winner": 1})  # awarded with no shot of its own
    assert GAME.view(s)["last_shot"] is None
