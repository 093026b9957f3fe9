"""Wizard Dodgeball rules, through the engine's public interface (Match + view)."""

from __future__ import annotations

import random

import pytest

from companion.errors import IllegalAction, InvalidAction
from companion.match import Match, StartRecord
from companion.matchfile import dump, replay
from tests.support import CATALOG

GAME = "wizard-dodgeball"
ROSTERS = [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]
#: Activation order when side 1 goes first.
ORDER = [21, 45, 58, 30, 12, 10, 33, 41, 7, 25]
#: The advanced turn with every card, and Magic enough to reach any three wizards.
ADVANCED_ALL = {"turn": "advanced",
                "wizards": {str(j): {"magic": 3} for r in ROSTERS for j in r},
                "spells": [["dispel", "fireball", "freeze", "shield", "teleport",
                            "butter_fingers", "magic_drain", "shrink", "slow", "weak"]] * 2}
ADVANCED = {"turn": "advanced",
            "wizards": {str(j): {"magic": 2} for r in ROSTERS for j in r},
            "spells": [["freeze", "shield", "speed"], ["fireball", "slow", "dispel"]]}


def start(seed: int = 0, players=("Owls", "Newts"), **options) -> Match:
    options.setdefault("rosters", ROSTERS)
    record = {"game": GAME, "players": list(players), "options": options}
    return Match(StartRecord.create(record, random.Random(seed), CATALOG), CATALOG)


def act(match: Match, seed: int = 0, **action) -> dict:
    match.push(*match.resolve(action, random.Random(seed)))
    return match.view()


def end(match: Match, times: int = 1) -> dict:
    for _ in range(times):
        act(match, type="end_activation")
    return match.view()


def until_active(match: Match, jersey: int) -> dict:
    """End activations until ``jersey``'s slot."""
    for _ in range(20):
        if match.view()["active"]["jersey"] == jersey:
            return match.view()
        end(match)
    raise AssertionError(f"#{jersey} never became active")


def wizard(view: dict, jersey: int) -> dict:
    return next(w for s in view["sides"] for w in s["wizards"] if w["jersey"] == jersey)


def refused(match: Match, kind=IllegalAction, **action) -> str:
    before = match.view()
    with pytest.raises(kind) as err:
        act(match, **action)
    assert match.view() == before
    return str(err.value)


# --- activation order -------------------------------------------------------------------


def test_activation_alternates_sides_in_initiative_order_and_counts_rounds():
    m = start()
    seen = []
    for _ in range(12):
        v = m.view()
        seen.append((v["active"]["jersey"], v["active"]["side"], v["activation"], v["round"]))
        end(m)
    assert [s[0] for s in seen] == ORDER + ORDER[:2]
    assert [s[1] for s in seen] == [0, 1] * 6
    assert [s[2] for s in seen] == list(range(1, 13))
    assert [s[3] for s in seen] == [1] * 10 + [2, 2]


def test_second_side_first():
    m = start(first_side=1)
    assert m.view()["active"] == {"side": 1, "jersey": 45}
    assert [o["jersey"] for o in m.view()["order"]][:4] == [45, 21, 30, 58]


def test_roll_off_decides_the_first_side_rerolling_ties_and_is_kept_for_replay():
    # Find seeds where the first roll-off is a tie, and where it is not.
    for seed in range(200):
        m = start(seed=seed, first_side="roll")
        rolls = m.start.options["roll_off"]
        a, b = rolls[-1]
        assert a != b and all(x == y for x, y in rolls[:-1])
        assert m.start.options["first_side"] == (0 if a > b else 1)
        if len(rolls) > 1:
            break
    else:
        pytest.fail("no seed gave a tie to re-roll")
    again = Match(StartRecord.create(m.start.to_json(), random.Random(999), CATALOG), CATALOG)
    assert again.start.options == m.start.options
    assert m.game.again(m.start.options)["first_side"] == "roll"


def test_eliminated_wizard_returns_on_its_next_activation_basic_and_advanced():
    m = start()
    act(m, type="hit", thrower=21, target=45)
    v = end(m)
    assert v["active"]["jersey"] == 45 and wizard(v, 45)["on_court"]
    assert v["returned"] and v["reminder"] == "back: no move this time"
    assert v["actions"] is None
    m = start(**ADVANCED)
    act(m, type="hit", thrower=21, target=45)
    v = end(m)
    assert v["actions"] == 1 and v["reminder"] == "back: 1 action, no move"
    v = end(m)
    assert v["returned"] is False and v["actions"] == 2 and v["reminder"] is None


def test_caught_thrower_stays_off_until_its_own_next_slot():
    m = start()
    act(m, type="catch", thrower=21, catcher=45)
    v = until_active(m, 7)
    assert not wizard(v, 21)["on_court"]
    v = end(m, 2)
    assert v["active"]["jersey"] == 21 and wizard(v, 21)["on_court"] and v["returned"]


def test_elimination_variant_skips_but_counts_slots():
    m = start(variant="elimination")
    act(m, type="hit", thrower=21, target=45)
    v = end(m)
    # #45's slot 2 is skipped and counted: #58 acts in activation 3.
    assert v["active"]["jersey"] == 58 and v["activation"] == 3
    assert v["last"]["skipped"] == [45] and not wizard(v, 45)["on_court"]
    assert v["sides"][0]["score"] == 0  # no points in this variant
    assert v["target"] is None


# --- recharge timing ------------------------------------------------------------------


def test_worked_example_freeze_cast_in_activation_1_returns_when_11_ends():
    m = start()
    v = act(m, type="cast", caster=21, spell="freeze", targets=[45])
    assert v["sides"][0]["spells"]["freeze"] == {"caster": 21, "returns_after": 11,
                                                 "spell": "freeze"}
    assert wizard(v, 45)["effects"] == ["freeze"]
    for activation in range(2, 12):
        v = end(m)
        assert v["activation"] == activation
        assert v["sides"][0]["spells"]["freeze"] != "ready"
        assert v["recharging"][0]["left"] == 12 - activation
    assert v["active"]["jersey"] == 21
    v = end(m)  # activation 11 ends
    assert v["sides"][0]["spells"]["freeze"] == "ready"
    assert wizard(v, 45)["effects"] == [] and v["recharging"] == []


def test_both_faces_of_a_paired_card_share_its_status():
    m = start()
    v = act(m, type="cast", caster=21, spell="speed", targets=[58])
    spells = v["sides"][0]["spells"]
    assert spells["slow"] == spells["speed"] == {"caster": 21, "returns_after": 11,
                                                "spell": "speed"}
    end(m, 2)
    msg = refused(m, type="cast", caster=58, spell="slow", targets=[30])
    assert "Slow is recharging (its Speed face was cast): cast by #21" in msg
    assert "activation 11" in msg


def test_caster_eliminated_before_the_card_returns_points_variant():
    m = start()
    act(m, type="cast", caster=21, spell="shield", targets=[58])
    end(m)
    act(m, type="hit", thrower=45, target=21)
    v = until_active(m, 21)
    assert v["activation"] == 11 and v["returned"]
    assert v["sides"][0]["spells"]["shield"]["returns_after"] == 11
    assert wizard(v, 58)["effects"] == ["shield"]
    v = end(m)
    assert v["sides"][0]["spells"]["shield"] == "ready" and wizard(v, 58)["effects"] == []


def test_caster_eliminated_card_returns_at_its_skipped_slot_elimination_variant():
    m = start(variant="elimination")
    act(m, type="cast", caster=21, spell="freeze", targets=[30])
    end(m)
    act(m, type="hit", thrower=45, target=21)
    v = end(m, 8)  # activation 10 (#25) is active
    assert v["activation"] == 10 and v["sides"][0]["spells"]["freeze"] != "ready"
    v = end(m)  # slot 11 (#21, off) is skipped and ends at once
    assert v["activation"] == 12 and v["active"]["jersey"] == 45
    assert v["last"]["skipped"] == [21]
    assert v["sides"][0]["spells"]["freeze"] == "ready" and wizard(v, 30)["effects"] == []


def test_a_card_is_recharging_whatever_the_result():
    m = start()
    v = act(m, type="cast", caster=21, spell="freeze", targets=[])
    assert v["sides"][0]["spells"]["freeze"]["returns_after"] == 11
    assert v["last"]["text"] == "#21 Freeze: no effect"


def test_illegal_casts_say_why():
    m = start()
    assert "#45 cannot cast now" in refused(m, type="cast", caster=45, spell="freeze",
                                             targets=[])
    act(m, type="cast", caster=21, spell="freeze", targets=[45])
    end(m)
    assert "#45 is frozen and cannot cast" in refused(m, type="cast", caster=45,
                                                       spell="slow", targets=[21])
    end(m)
    act(m, type="hit", thrower=58, target=30)
    assert "off the court" in refused(m, type="cast", caster=58, spell="slow", targets=[30])
    msg = refused(m, type="cast", caster=58, spell="freeze", targets=[10])
    assert "returns when activation 11 ends (8 more after this one)" in msg
    m = start(**ADVANCED)
    assert "did not buy the Fireball card" in refused(m, type="cast", caster=21,
                                                      spell="fireball", targets=[21])


def test_an_eliminated_active_wizard_cannot_act_until_it_returns():
    m = start()
    act(m, type="catch", thrower=21, catcher=45)
    assert "off the court" in refused(m, type="cast", caster=21, spell="shield", targets=[58])
    assert "off the court" in refused(m, type="hit", thrower=21, target=30)
    assert m.game.legal(m.state) == [{"type": "end_activation"}]


# --- scoring and elimination -------------------------------------------------------------


def test_hits_and_catches_score_and_the_target_wins_at_once():
    m = start(target=3)
    v = act(m, type="hit", thrower=21, target=45)
    assert [s["score"] for s in v["sides"]] == [1, 0] and not wizard(v, 45)["on_court"]
    end(m)
    v = act(m, type="catch", thrower=45, catcher=58, returning=None)
    assert [s["score"] for s in v["sides"]] == [2, 0] and not wizard(v, 45)["on_court"]
    end(m)
    v = act(m, type="hit", thrower=58, target=30)
    assert v["winner"] == 0 and m.game.legal(m.state) == []
    assert m.game.summary(m.state) == "3-0"
    assert "the match is over: Owls won" in refused(m, type="end_activation")


def test_each_side_counts_its_hits_catches_and_casts():
    m = start()
    assert [s["stats"] for s in m.view()["sides"]] == [
        {"hits": 0, "catches": 0, "casts": 0}] * 2
    act(m, type="cast", caster=21, spell="freeze", targets=[45])
    v = act(m, type="hit", thrower=21, target=30)
    assert [s["stats"] for s in v["sides"]] == [
        {"hits": 1, "catches": 0, "casts": 1}, {"hits": 0, "catches": 0, "casts": 0}]
    end(m, 2)  # #45 is frozen
    v = act(m, type="catch", thrower=58, catcher=10, returning=None)
    assert v["sides"][1]["stats"] == {"hits": 0, "catches": 1, "casts": 0}
    assert v["sides"][0]["stats"] == {"hits": 1, "catches": 0, "casts": 1}


def test_a_catch_brings_back_a_wizard_of_the_catchers_choice():
    m = start()
    end(m)
    act(m, type="hit", thrower=45, target=33)
    end(m, 2)
    act(m, type="hit", thrower=30, target=7)
    end(m, 2)
    assert "#21 cannot come back: it is on the court; Owls may bring back #33 or #7" in refused(
        m, type="catch", thrower=10, catcher=12, returning=21)
    v = act(m, type="catch", thrower=10, catcher=12, returning=7)
    assert wizard(v, 7)["on_court"] and not wizard(v, 33)["on_court"]
    assert not wizard(v, 10)["on_court"]
    assert v["last"]["text"] == "#12 caught #10, #7 back"
    assert [s["score"] for s in v["sides"]] == [1, 2]


def test_catch_without_returning_brings_back_the_first_eliminated_in_order():
    m = start()
    end(m)
    act(m, type="hit", thrower=45, target=7)
    end(m, 2)
    act(m, type="hit", thrower=30, target=33)
    end(m, 2)
    event, _ = m.resolve({"type": "catch", "thrower": 10, "catcher": 21}, random.Random())
    assert event["returning"] == 33


def test_elimination_variant_a_side_with_nobody_on_court_loses():
    m = start(variant="elimination")
    for thrower, target in [(21, 45), (58, 30), (12, 10), (33, 41)]:
        until_active(m, thrower)
        act(m, type="hit", thrower=thrower, target=target)
    assert m.view()["winner"] is None
    until_active(m, 7)
    v = act(m, type="hit", thrower=7, target=25)
    assert v["winner"] == 0 and v["sides"][1]["on_court"] == 0
    assert m.game.summary(m.state) == "5 v 0 on court"


def test_throws_need_the_active_wizard_and_an_opponent_on_court():
    m = start()
    assert "it is #21's activation (Owls)" in refused(m, type="hit", thrower=58, target=45)
    assert "teammate" in refused(m, type="hit", thrower=21, target=58)
    assert "no wizard wears #99" in refused(m, type="hit", thrower=21, target=99)
    refused(m, InvalidAction, type="hit", thrower=21)
    refused(m, InvalidAction, type="hit", thrower=21, target=45, extra=1)


# --- effects -------------------------------------------------------------------------------


def test_shield_absorbs_the_first_failed_dodge_then_goes():
    m = start()
    act(m, type="cast", caster=21, spell="shield", targets=[58])
    end(m)
    v = act(m, type="hit", thrower=45, target=58)
    assert wizard(v, 58)["on_court"] and wizard(v, 58)["effects"] == []
    assert [s["score"] for s in v["sides"]] == [0, 0] and v["last"]["text"] == "#45 hit #58: shield"
    end(m, 2)
    v = act(m, type="hit", thrower=30, target=58)
    assert not wizard(v, 58)["on_court"] and v["sides"][1]["score"] == 1


def test_shielded_and_frozen_wizards_cannot_catch():
    m = start()
    act(m, type="cast", caster=21, spell="shield", targets=[58])
    end(m, 2)
    act(m, type="cast", caster=58, spell="freeze", targets=[12])
    end(m)
    assert m.view()["active"]["jersey"] == 30
    assert "shielded and cannot catch" in refused(m, type="catch", thrower=30, catcher=58)
    assert "frozen and cannot catch" in refused(m, type="catch", thrower=30, catcher=12)
    # A rolled throw: doubles on the shielded target's dodge are no catch.
    v = act(m, type="throw", thrower=30, target=58, range=2, target_holding_ball=False,
            rolls={"throw": [1, 1], "dodge": [3, 3]})
    assert v["last"]["result"] == "dodge"


def test_frozen_target_has_a_fixed_dodge_of_five_and_rolls_nothing():
    m = start()
    act(m, type="cast", caster=21, spell="freeze", targets=[45])
    v = act(m, type="throw", thrower=21, target=45, range=2, target_holding_ball=False,
            rolls={"throw": [3, 2], "dodge": []})
    assert v["last"]["defence"] == 5 and v["last"]["result"] == "dodge"
    end(m, 2)
    act(m, type="throw", thrower=58, target=45, range=2, target_holding_ball=False,
        rolls={"throw": [3, 3], "dodge": []})
    assert m.view()["last"]["result"] == "hit"


def test_fireball_attacks_with_ten_cannot_be_caught_and_ends_when_thrown():
    m = start()
    act(m, type="cast", caster=21, spell="fireball", targets=[21])
    assert "cannot be caught" in refused(m, type="catch", thrower=21, catcher=45)
    v = act(m, type="throw", thrower=21, target=45, range=3, target_holding_ball=False,
            rolls={"throw": [], "dodge": [4, 5]})
    assert v["last"]["attack"] == 10 and v["last"]["result"] == "hit"
    assert wizard(v, 21)["effects"] == []
    assert v["sides"][0]["spells"]["fireball"]["returns_after"] == 11
    assert "one wizard holding it" in refused(start(), type="cast", caster=21,
                                              spell="fireball", targets=[21, 58])


def test_fireball_is_dodged_by_triples_while_holding_a_ball():
    m = start()
    act(m, type="cast", caster=21, spell="fireball", targets=[21])
    v = act(m, type="throw", thrower=21, target=45, range=1, target_holding_ball=True,
            rolls={"throw": [], "dodge": [2, 2, 2]})
    assert v["last"]["result"] == "dodge" and v["last"]["text"] == "#45 dodged #21 (10v6) triples"


def test_speed_and_slow_change_the_advanced_action_count():
    m = start(**{**ADVANCED, "first_side": 0})
    act(m, type="cast", caster=21, spell="speed", targets=[58])
    end(m)
    act(m, type="cast", caster=45, spell="slow", targets=[30, 58])
    v = end(m)
    assert v["active"]["jersey"] == 58 and v["actions"] == 2  # +1 -1
    v = end(m)
    assert v["active"]["jersey"] == 30 and v["actions"] == 1


def test_butter_and_sticky_fingers():
    m = start()
    act(m, type="cast", caster=21, spell="butter_fingers", targets=[45])
    end(m)
    assert "Butter Fingers" in refused(m, type="hit", thrower=45, target=21)
    end(m)
    assert "cannot be holding a ball" in refused(m, type="throw", thrower=58, target=45,
                                                 range=2, target_holding_ball=True)
    assert "cannot catch" in refused(m, type="catch", thrower=58, catcher=45)
    m = start()
    act(m, type="cast", caster=21, spell="sticky_fingers", targets=[45])
    # Sticky Fingers catch on a total of 3, 6, 9 or 12 as well as on doubles.
    v = act(m, type="throw", thrower=21, target=45, range=1, target_holding_ball=False,
            rolls={"throw": [6, 6, 6], "dodge": [2, 4]})
    assert v["last"]["result"] == "catch"
    end(m)
    assert "Sticky Fingers and cannot throw" in refused(m, type="hit", thrower=45, target=58)


def test_dispel_removes_one_effect_and_its_card_recharges():
    m = start()
    act(m, type="cast", caster=21, spell="freeze", targets=[45])
    end(m, 2)
    v = act(m, type="dispel", caster=58, target=45, spell="freeze")
    assert wizard(v, 45)["effects"] == []
    assert v["sides"][0]["spells"]["dispel"]["returns_after"] == 13
    m = start()
    act(m, type="cast", caster=21, spell="slow", targets=[30])
    end(m, 2)
    assert "#30 has no Shield to cancel; Dispel can cancel its Slow" in refused(
        m, type="dispel", caster=58, target=30, spell="shield")


def test_dispel_of_an_opponents_effect_is_resisted_by_that_effects_caster():
    m = start()
    act(m, type="cast", caster=21, spell="slow", targets=[45])
    end(m)
    # 45 dispels Owls' Slow on itself: #21 (Slow's caster) resists.
    v = act(m, type="cast_roll", caster=45, spell="dispel", targets=[45], effect="slow",
            rolls={"cast": [6, 5], "resist": {"21": [4, 3]}})
    assert v["last"]["results"][0]["resister"] == 21 and v["last"]["affected"] == [45]
    assert wizard(v, 45)["effects"] == []


def test_doubles_resist_dispel_and_teleport_without_rebound():
    m = start()
    act(m, type="cast", caster=21, spell="slow", targets=[45])
    end(m)
    v = act(m, type="cast_roll", caster=45, spell="dispel", targets=[45], effect="slow",
            rolls={"cast": [6, 6], "resist": {"21": [1, 1]}})
    assert v["last"]["results"][0]["result"] == "resisted" and v["last"]["rebound"] is None
    assert wizard(v, 45)["effects"] == ["slow"]
    end(m)
    v = act(m, type="cast_roll", caster=58, spell="teleport", targets=[30],
            rolls={"cast": [6, 6], "resist": {"30": [2, 2]}})
    assert v["last"]["results"][0]["result"] == "resisted" and v["last"]["rebound"] is None


def test_teammates_are_affected_without_a_roll():
    m = start()
    v = act(m, type="cast_roll", caster=21, spell="shield", targets=[58],
            rolls={"cast": [1, 1]})
    assert v["last"]["affected"] == [58] and wizard(v, 58)["effects"] == ["shield"]
    m = start()
    assert "does not resist" in refused(m, InvalidAction, type="cast_roll", caster=21,
                                        spell="shield", targets=[58],
                                        rolls={"cast": [1, 1], "resist": {"58": [1, 2]}})


# --- the dice -----------------------------------------------------------------------------


def throw(m: Match, zones: int, holding: bool = False, **rolls) -> dict:
    act(m, type="throw", thrower=m.view()["active"]["jersey"], target=45, range=zones,
        target_holding_ball=holding, **({"rolls": rolls} if rolls else {}))
    return m.view()["last"]


@pytest.mark.parametrize(("zones", "dice"), [(3, 1), (2, 2), (1, 3)])
def test_range_sets_the_number_of_throw_dice(zones, dice):
    last = throw(start(), zones)
    assert len(last["throw"]) == dice and len(last["dodge"]) == 2


def test_range_three_uses_the_right_hand_throw_die():
    m = start(wizards={"21": {"throw": ["grey", "blue"]}},
              dice={"blue": [6, 6, 6, 6, 6, 6], "grey": [1, 1, 1, 1, 1, 1]})
    assert throw(m, 3)["throw"] == [6]


def test_holding_a_ball_adds_the_white_die_to_the_dodge():
    assert len(throw(start(), 2, holding=True)["dodge"]) == 3


def test_a_throw_hits_only_when_greater_than_the_dodge():
    assert throw(start(), 2, throw=[3, 4], dodge=[2, 5])["result"] == "dodge"
    assert throw(start(), 2, throw=[3, 5], dodge=[2, 5])["result"] == "hit"


def test_doubles_without_a_ball_catch_whatever_the_throw():
    m = start()
    last = throw(m, 1, throw=[6, 6, 6], dodge=[1, 1])
    assert last["result"] == "catch"
    v = m.view()
    assert not wizard(v, 21)["on_court"] and v["sides"][1]["score"] == 1


def test_doubles_while_holding_are_no_catch_but_triples_dodge_anything():
    assert throw(start(), 1, True, throw=[6, 6, 6], dodge=[1, 1, 2])["result"] == "hit"
    assert throw(start(), 1, True, throw=[6, 6, 6], dodge=[1, 1, 1])["result"] == "dodge"


def test_dice_faces_are_configurable_by_colour_and_checked():
    m = start(wizards={"21": {"throw": "blue"}}, dice={"blue": [0, 2, 2, 4, 4, 9]})
    for seed in range(30):
        event, _ = m.resolve({"type": "throw", "thrower": 21, "target": 45, "range": 2,
                              "target_holding_ball": False}, random.Random(seed))
        assert set(event["rolls"]["throw"]) <= {0, 2, 4, 9}
    with pytest.raises(InvalidAction, match="the blue die cannot show 3"):
        m.resolve({"type": "throw", "thrower": 21, "target": 45, "range": 2,
                   "target_holding_ball": False, "rolls": {"throw": [3, 2], "dodge": [1, 2]}},
                  random.Random())
    with pytest.raises(InvalidAction, match="needs 2 value"):
        m.resolve({"type": "throw", "thrower": 21, "target": 45, "range": 2,
                   "target_holding_ball": False, "rolls": {"throw": [2], "dodge": [1, 2]}},
                  random.Random())


def test_strong_weak_shrink_enlarge_add_or_take_a_die():
    m = start()
    act(m, type="cast", caster=21, spell="strong", targets=[21])
    assert len(throw(m, 2)["throw"]) == 3
    for zones, dice in ((1, 2), (3, 1)):  # never fewer than one die
        m = start()
        act(m, type="cast", caster=21, spell="weak", targets=[21])
        assert len(throw(m, zones)["throw"]) == dice
    m = start()
    act(m, type="cast", caster=21, spell="shrink", targets=[45])
    assert len(throw(m, 2)["dodge"]) == 3
    m = start()
    act(m, type="cast", caster=21, spell="enlarge", targets=[45])
    last = throw(m, 2, throw=[1, 1], dodge=[3])
    assert last["result"] == "dodge" and last["doubles"] is False


def test_shrink_and_enlarge_change_the_move_shown():
    m = start(wizards={"45": {"move": 3}})
    v = act(m, type="cast", caster=21, spell="enlarge", targets=[45])
    assert wizard(v, 45)["move"] == 5


def test_a_cast_works_only_when_greater_than_the_resist():
    m = start()
    v = act(m, type="cast_roll", caster=21, spell="freeze", targets=[45, 30],
            rolls={"cast": [4, 4], "resist": {"45": [3, 5], "30": [3, 4]}})
    assert v["last"]["affected"] == [30]
    assert [r["result"] for r in v["last"]["results"]] == ["resisted", "affected"]


def test_doubles_on_resist_rebound_and_the_caster_resists_the_same_cast():
    m = start()
    v = act(m, type="cast_roll", caster=21, spell="freeze", targets=[45],
            rolls={"cast": [6, 5], "resist": {"45": [2, 2]}, "rebound": [3, 4]})
    assert v["last"]["rebound"] == {"dice": [3, 4], "total": 7, "result": "affected"}
    assert wizard(v, 21)["effects"] == ["freeze"] and wizard(v, 45)["effects"] == []
    assert v["last"]["text"] == "#21 Freeze 11: rebound, on #21"
    m = start()
    v = act(m, type="cast_roll", caster=21, spell="freeze", targets=[45],
            rolls={"cast": [6, 5], "resist": {"45": [2, 2]}, "rebound": [1, 1]})
    assert v["last"]["rebound"]["result"] == "resisted" and wizard(v, 21)["effects"] == []


def test_triples_on_resist_with_magic_boost_rebound():
    m = start()
    act(m, type="cast", caster=21, spell="magic_boost", targets=[45])
    end(m, 2)
    v = act(m, type="cast_roll", caster=58, spell="freeze", targets=[45],
            rolls={"cast": [6, 6], "resist": {"45": [3, 3, 3]}, "rebound": [6, 6]})
    assert v["last"]["results"][0]["result"] == "rebound"
    m = start()
    act(m, type="cast", caster=21, spell="magic_boost", targets=[45])
    end(m, 2)
    v = act(m, type="cast_roll", caster=58, spell="freeze", targets=[45],
            rolls={"cast": [6, 6], "resist": {"45": [4, 5, 4]}})
    assert v["last"]["results"][0]["result"] == "resisted"  # 13 >= 12, no doubles


def test_shield_stops_a_failed_resist_and_a_rebound():
    m = start()
    act(m, type="cast", caster=21, spell="shield", targets=[58])
    end(m)
    v = act(m, type="cast_roll", caster=45, spell="freeze", targets=[58],
            rolls={"cast": [6, 6], "resist": {"58": [1, 1]}})
    assert v["last"]["results"][0]["result"] == "shield" and v["last"]["rebound"] is None
    assert wizard(v, 58)["effects"] == []


def test_every_roll_is_logged_and_undo_never_rerolls():
    m = start(seed=5)
    act(m, seed=1, type="throw", thrower=21, target=45, range=1, target_holding_ball=False)
    act(m, seed=2, type="cast_roll", caster=21, spell="freeze", targets=[30, 10])
    events = m.events
    assert all("rolls" in e for e in events)
    for _ in events:
        m.undo()
    for _ in events:
        m.redo()
    assert m.events == events
    lines = dump(m.start, m.events).splitlines()
    copy = replay(lines, random.Random(12345), CATALOG)
    assert copy.view() == m.view()


def test_rolls_that_contradict_the_result_are_refused():
    m = start()
    msg = refused(m, type="throw", thrower=21, target=45, range=2, target_holding_ball=False,
                  rolls={"throw": [6, 6], "dodge": [1, 2]}, result="dodge")
    assert 'those rolls give "hit"' in msg


# --- setup -------------------------------------------------------------------------------


@pytest.mark.parametrize(("options", "message"), [
    ({"rosters": None}, "it is required"),
    ({"rosters": [[1, 2, 3, 4], [5, 6, 7, 8, 9]]}, "side 1 has not five"),
    ({"rosters": [[1, 2, 3, 4, 5], [5, 6, 7, 8, 9]]}, "#5 is in the rosters twice"),
    ({"rosters": [[1, 2, 3, 4, 100], [5, 6, 7, 8, 9]]}, "side 1 has 100"),
    ({"wizards": {"99": {"move": 3}}}, "#99, who is in no roster"),
    ({"wizards": {"21": {"move": 12}}}, "'move' must be a whole number 0-9"),
    ({"wizards": {"21": {"speed": 1}}}, "unknown stat 'speed'"),
    ({"wizards": {"21": {"throw": "Blue!"}}}, "die colour"),
    ({"dice": {"blue": [1, 2, 3]}}, "needs six faces"),
    ({"spell_list": "all", "spells": [["freeze"], ["freeze"]]},
     "each side has all ten spell cards"),
    ({"spells": [["freeze"], ["freeze"]]}, "give wizard #21 a 'magic' stat"),
    ({"spell_list": "bought"}, "needs option 'spells'"),
    ({"spell_list": "some"}, "option 'spell_list' must be \"all\""),
    ({"turn": "advanced", "spells": [[], []]}, "give wizard #21 a 'magic' stat"),
    ({**ADVANCED, "spells": [["freeze", "sticky_fingers", "magic_boost", "shrink", "slow",
                              "weak"], []]},
     "the Owls spells cost 11 but its Magic budget is 10 (2+2+2+2+2)"),
    ({**ADVANCED, "spells": [["slow", "speed"], []]}, "the slow/speed card twice"),
    ({**ADVANCED, "spells": [["haste"], []]}, "unknown spell 'haste'"),
    ({"first_side": 2}, "'first_side' must be one of 0, 1, \"roll\""),
    ({"target": 0}, "'target' must be a whole number 1-21"),
    ({"colour": 1}, "unknown option 'colour'"),
])
def test_bad_setups_are_refused_naming_the_problem(options, message):
    options = {"rosters": ROSTERS, **options}
    with pytest.raises(InvalidAction) as err:
        start(**options)
    assert message in str(err.value)


def test_advanced_within_budget_and_stats_in_the_view():
    m = start(**{**ADVANCED, "wizards": {
        **ADVANCED["wizards"],
        "21": {"name": "Hoary Burblepot", "move": 3, "magic": 2, "throw": "blue",
               "dodge": ["white", "grey"]}}})
    v = m.view()
    assert v["sides"][0]["budget"] == 10
    assert set(v["sides"][0]["spells"]) == {"freeze", "shield", "slow", "speed"}
    w = wizard(v, 21)
    assert w["name"] == "Hoary Burblepot" and w["move"] == 3
    assert w["dice"] == {"throw": ["blue", "blue"], "dodge": ["white", "grey"]}
    assert m.start.options["spells"] == [["freeze", "shield", "slow"],
                                         ["dispel", "fireball", "slow"]]


def test_contract_view_keys():
    v = start().view()
    assert set(v) >= {"sides", "active", "activation", "round", "winner"}
    side = v["sides"][0]
    assert set(side) >= {"name", "score", "wizards", "spells"}
    assert set(side["wizards"][0]) >= {"jersey", "on_court", "effects"}
    assert len(side["spells"]) == 15 and set(side["spells"].values()) == {"ready"}
    assert m_turn(v) == 0


def m_turn(view: dict) -> int:
    return view["active"]["side"]


def test_magic_drain_and_boost_change_the_cast_and_resist_dice():
    m = start(**ADVANCED_ALL)
    act(m, type="cast", caster=21, spell="magic_drain", targets=[21])
    v = act(m, type="cast_roll", caster=21, spell="freeze", targets=[45],
            rolls={"cast": [4], "resist": {"45": [1, 2]}})
    assert v["last"]["cast"] == 4 and v["last"]["affected"] == [45]
    m = start(**ADVANCED_ALL)
    act(m, type="cast", caster=21, spell="magic_boost", targets=[45])
    v = act(m, type="cast_roll", caster=21, spell="freeze", targets=[45],
            rolls={"cast": [4, 4], "resist": {"45": [1, 2, 6]}})
    assert v["last"]["results"][0]["total"] == 9 and v["last"]["affected"] == []
    end(m, 2)
    with pytest.raises(InvalidAction, match="needs 3 value"):
        m.resolve({"type": "cast_roll", "caster": 58, "spell": "slow", "targets": [45],
                   "rolls": {"cast": [4, 4], "resist": {"45": [1, 2]}}}, random.Random())


def test_teleport_leaves_no_token_but_its_card_recharges():
    m = start()
    v = act(m, type="cast", caster=21, spell="teleport", targets=[45])
    assert wizard(v, 45)["effects"] == []
    assert v["sides"][0]["spells"]["teleport"]["returns_after"] == 11
    end(m, 2)
    v = act(m, type="cast_roll", caster=58, spell="shield", targets=[58], rolls={"cast": [1, 2]})
    assert wizard(v, 58)["effects"] == ["shield"]


# --- a Shield on a recorded cast (issue 10, item 2) ----------------------------------------


def shielded_58() -> Match:
    """#21 shields #58; #45 (Newts) is active."""
    m = start()
    act(m, type="cast", caster=21, spell="shield", targets=[58])
    end(m)
    return m


def test_a_recorded_cast_on_a_shielded_opponent_uses_up_the_shield():
    m = shielded_58()
    v = act(m, type="cast", caster=45, spell="freeze", targets=[58, 30])
    assert wizard(v, 58)["effects"] == [] and wizard(v, 30)["effects"] == ["freeze"]
    assert v["last"]["affected"] == [30] and v["last"]["shields"] == [58]
    assert v["last"]["text"] == "#45 Freeze on #30, #58 shield"
    # The Shield is gone: the next failed dodge counts.
    end(m, 4)
    v = act(m, type="hit", thrower=10, target=58)
    assert not wizard(v, 58)["on_court"] and v["sides"][1]["score"] == 1


def test_all_shielded_a_recorded_cast_says_so():
    m = shielded_58()
    v = act(m, type="cast", caster=45, spell="slow", targets=[58])
    assert wizard(v, 58)["effects"] == [] and v["last"]["text"] == "#45 Slow: #58 shield"


def test_recorded_and_rolled_casts_agree_on_a_shield():
    recorded, rolled = shielded_58(), shielded_58()
    act(recorded, type="cast", caster=45, spell="butter_fingers", targets=[58])
    v = act(rolled, type="cast_roll", caster=45, spell="butter_fingers", targets=[58],
            rolls={"cast": [6, 5], "resist": {"58": [1, 2]}})
    assert v["last"]["text"] == "#45 Butter Fingers 11: #58 shield"
    assert recorded.state.tokens == rolled.state.tokens
    assert recorded.view()["sides"] == rolled.view()["sides"]


def test_a_shielded_teammate_does_not_resist_so_keeps_its_shield():
    m = start()
    act(m, type="cast", caster=21, spell="shield", targets=[58])
    end(m, 2)
    v = act(m, type="cast", caster=58, spell="strong", targets=[58])
    assert wizard(v, 58)["effects"] == ["shield", "strong"] and v["last"]["shields"] == []


def dispel_against_a_shielded_resister() -> Match:
    """Newts' #45 slows #21, #30 shields #45; Owls' #12 is active."""
    m = start()
    end(m)
    act(m, type="cast", caster=45, spell="slow", targets=[21])
    end(m, 2)
    act(m, type="cast", caster=30, spell="shield", targets=[45])
    end(m)
    return m


def test_a_recorded_dispel_resisted_by_a_shielded_caster_uses_up_the_shield():
    recorded, rolled = dispel_against_a_shielded_resister(), dispel_against_a_shielded_resister()
    v = act(recorded, type="dispel", caster=12, target=21, spell="slow")
    # #45 resists (it cast the Slow): its Shield absorbs the failure, the Slow stays.
    assert wizard(v, 21)["effects"] == ["slow"] and wizard(v, 45)["effects"] == []
    assert v["last"]["text"] == "#12 Dispel Slow on #21: #45 shield"
    assert v["sides"][0]["spells"]["dispel"] != "ready"
    w = act(rolled, type="cast_roll", caster=12, spell="dispel", targets=[21], effect="slow",
            rolls={"cast": [6, 6], "resist": {"45": [1, 2]}})
    assert w["last"]["text"] == "#12 Dispel 12: #45 shield"
    assert recorded.state.tokens == rolled.state.tokens


# --- actions per activation (issue 10, item 3) ---------------------------------------------


BASIC = "(basic turn: move, throw and cast once each)"


def test_basic_turn_one_cast_and_one_throw_per_activation():
    m = start()
    v = act(m, type="cast", caster=21, spell="freeze", targets=[45])
    assert v["used"] == ["cast"] and v["open"] == ["throw"] and v["actions_left"] == 1
    msg = refused(m, type="cast", caster=21, spell="shield", targets=[58])
    assert msg == f"#21 has already cast this activation; left: throw {BASIC}"
    refused(m, type="cast_roll", caster=21, spell="shield", targets=[58])
    refused(m, type="dispel", caster=21, target=45, spell="freeze")
    v = act(m, type="throw", thrower=21, target=30, range=2, target_holding_ball=False,
            rolls={"throw": [1, 2], "dodge": [3, 4]})
    assert v["used"] == ["cast", "throw"] and v["open"] == [] and v["actions_left"] == 0
    msg = refused(m, type="hit", thrower=21, target=30)
    assert msg == f"#21 has already thrown this activation; left: no throw or cast {BASIC}"
    refused(m, type="throw", thrower=21, target=30, range=2, target_holding_ball=False)
    refused(m, type="pass", thrower=21, to=58)
    assert m.game.legal(m.state) == [{"type": "end_activation"}]
    v = end(m)
    assert v["used"] == [] and v["open"] == [] and v["actions_left"] == 0  # #45 is frozen
    v = end(m)
    assert v["used"] == [] and v["open"] == ["throw", "cast"] and v["actions_left"] == 2


def test_basic_turn_a_pass_is_the_throw_action():
    m = start()
    act(m, type="pass", thrower=21, to=58)
    msg = refused(m, type="hit", thrower=21, target=45)
    assert msg == ("#21 has already passed (a pass is the throw action) this activation; "
                   f"left: cast {BASIC}")
    assert {s["type"] for s in m.game.legal(m.state)} == {"end_activation", "cast",
                                                          "cast_roll"}


def test_basic_turn_legal_offers_only_what_is_left():
    m = start()
    act(m, type="hit", thrower=21, target=45)
    kinds = {s["type"] for s in m.game.legal(m.state)}
    assert kinds == {"end_activation", "cast", "cast_roll"}
    m = start()
    act(m, type="cast_roll", caster=21, spell="slow", targets=[45])
    assert {s["type"] for s in m.game.legal(m.state)} == {"end_activation", "throw", "hit",
                                                          "catch", "pass"}


def test_a_wizard_back_from_elimination_still_throws_and_casts_in_the_basic_turn():
    m = start()
    act(m, type="hit", thrower=21, target=45)
    v = end(m)
    assert v["returned"] and v["open"] == ["throw", "cast"] and v["actions_left"] == 2
    act(m, type="cast", caster=45, spell="slow", targets=[21])
    v = act(m, type="hit", thrower=45, target=58)
    assert v["actions_left"] == 0


def advanced(**stats) -> Match:
    """The advanced turn, Magic 3 each, every card; extra stats by jersey."""
    wizards = {k: dict(v) for k, v in ADVANCED_ALL["wizards"].items()}
    for j, s in stats.items():
        wizards[j.lstrip("_")].update(s)
    return start(**{**ADVANCED_ALL, "wizards": wizards})


def test_advanced_turn_two_actions_in_any_combination():
    m = advanced()
    act(m, type="cast", caster=21, spell="freeze", targets=[45])
    v = act(m, type="cast_roll", caster=21, spell="shield", targets=[58])
    assert v["used"] == ["cast", "cast"] and v["actions_left"] == 0 and v["open"] == []
    msg = refused(m, type="cast", caster=21, spell="slow", targets=[30])
    assert msg == ("#21 has used its 2 actions this activation (cast, cast); left: none "
                   "(advanced turn: 2 actions)")
    refused(m, type="pass", thrower=21, to=58)
    assert m.game.legal(m.state) == [{"type": "end_activation"}]
    end(m, 2)  # #45 frozen: no actions; #58 throws twice
    v = m.view()
    assert v["active"]["jersey"] == 58 and v["actions"] == 2
    act(m, type="pass", thrower=58, to=12)
    v = act(m, type="hit", thrower=58, target=30)
    assert v["used"] == ["pass", "throw"] and v["actions_left"] == 0


def test_advanced_speed_slow_and_coming_back_change_the_budget():
    m = advanced()
    act(m, type="cast", caster=21, spell="speed", targets=[21])
    v = m.view()
    # Speed counts at once: two actions, one used, plus one.
    assert v["actions"] == 3 and v["actions_left"] == 2
    act(m, type="pass", thrower=21, to=58)
    act(m, type="hit", thrower=21, target=45)
    msg = refused(m, type="cast", caster=21, spell="freeze", targets=[30])
    assert msg == ("#21 has used its 3 actions this activation (cast, pass, throw); left: "
                   "none (advanced turn: 2 actions, +1 for Speed)")
    v = end(m)  # #45 comes back: one action fewer
    assert v["returned"] and v["actions"] == 1 and v["reminder"] == "back: 1 action, no move"
    act(m, type="cast", caster=45, spell="slow", targets=[58])
    assert "(advanced turn: 2 actions, -1 back from elimination)" in refused(
        m, type="hit", thrower=45, target=21)
    v = end(m)
    assert v["active"]["jersey"] == 58 and v["actions"] == 1
    act(m, type="hit", thrower=58, target=30)
    assert "left: none (advanced turn: 2 actions, -1 for Slow)" in refused(
        m, type="cast", caster=58, spell="freeze", targets=[30])


def test_a_frozen_wizard_has_no_actions_in_the_view():
    m = advanced()
    act(m, type="cast", caster=21, spell="freeze", targets=[45])
    v = end(m)
    assert v["actions"] == 0 and v["actions_left"] == 0 and v["open"] == []
    assert v["reminder"] == "frozen: no actions"


def test_device_rolled_throws_and_casts_count():
    m = start(seed=3)
    act(m, type="throw", thrower=21, target=45, range=3, target_holding_ball=True)
    assert "already thrown" in refused(m, type="throw", thrower=21, target=30, range=3,
                                       target_holding_ball=True)
    act(m, type="cast_roll", caster=21, spell="teleport", targets=[30])
    assert "already cast" in refused(m, type="cast_roll", caster=21, spell="slow",
                                     targets=[30])


def test_a_caught_throw_was_the_throw_and_the_returning_wizard_keeps_its_move():
    m = advanced()
    end(m)
    act(m, type="hit", thrower=45, target=58)  # #58 off until its slot (3)
    v = act(m, type="catch", thrower=45, catcher=21, returning=58)
    assert v["used"] == ["throw", "throw"] and v["actions_left"] == 0
    v = end(m)
    # Brought back by the catch, #58 plays a whole turn.
    assert v["active"]["jersey"] == 58 and not v["returned"] and v["actions"] == 2


def test_spell_targets_are_capped_by_the_casters_magic():
    m = advanced(_21={"magic": 1}, _58={"magic": 5})
    msg = refused(m, type="cast_roll", caster=21, spell="freeze", targets=[45, 30])
    assert msg == ("#21's Magic is 1: its spells reach at most 1 wizard (the Magic is the "
                   "number of connected spaces a spell covers, the caster counted when "
                   "named); 2 named: name at most 1")
    refused(m, type="cast", caster=21, spell="freeze", targets=[45, 30])
    casts = [s for s in m.game.legal(m.state) if s["type"] in ("cast", "cast_roll")
             and s["spell"] != ["dispel"]]  # a failed Dispel names nobody: max 0
    assert {s["max_targets"] for s in casts} == {1}
    # Recorded by hand, the caster counts when named: Magic 1 cannot name two.
    assert "2 named" in refused(m, type="cast", caster=21, spell="slow", targets=[45, 21])
    # A rebound onto the caster alone is recorded by naming whom it took.
    v = act(m, type="cast", caster=21, spell="slow", targets=[21])
    assert wizard(v, 21)["effects"] == ["slow"]
    m = advanced(_21={"magic": 0}, _58={"magic": 6})
    assert "reach no wizard" in refused(m, type="cast", caster=21, spell="slow", targets=[45])
    act(m, type="cast", caster=21, spell="teleport", targets=[])  # a ball only
    # Without a Magic stat the reach has no cap, but a team has three markers of each
    # kind (RULINGS, third round): a Slow on five would need five.
    m = start()
    assert refused(m, type="cast_roll", caster=21, spell="slow",
                   targets=[45, 30, 10, 41, 25]).startswith(
        "Owls have 3 Slow/Speed markers: a Slow on 5 wizards needs 5; name at most 3")
    act(m, type="cast_roll", caster=21, spell="slow", targets=[45, 30, 10])
    assert all(s["max_targets"] == 3 for s in m.game.legal(start().state)
               if s["type"] in ("cast", "cast_roll")
               and not set(s["spell"]) & {"fireball", "teleport", "dispel"})


# --- passes ---------------------------------------------------------------------------------


def test_a_pass_carries_the_fireball_to_the_receiver():
    m = start()
    act(m, type="cast", caster=21, spell="fireball", targets=[21])
    v = act(m, type="pass", thrower=21, to=58)
    assert wizard(v, 21)["effects"] == [] and wizard(v, 58)["effects"] == ["fireball"]
    assert v["last"] == {"type": "pass", "thrower": 21, "to": 58, "fireball": True,
                         "text": "#21 passed to #58 (Fireball)"}
    end(m, 2)
    assert "cannot be caught" in refused(m, type="catch", thrower=58, catcher=30)
    v = act(m, type="throw", thrower=58, target=30, range=3, target_holding_ball=False,
            rolls={"throw": [], "dodge": [4, 5]})
    assert v["last"]["attack"] == 10 and wizard(v, 58)["effects"] == []
    assert v["sides"][0]["spells"]["fireball"]["caster"] == 21


def test_a_pass_goes_to_a_teammate_on_the_court_who_can_hold_a_ball():
    m = start()
    assert "#45 is an opponent" in refused(m, type="pass", thrower=21, to=45)
    assert "cannot pass to itself" in refused(m, type="pass", thrower=21, to=21)
    assert "it is #21's activation" in refused(m, type="pass", thrower=58, to=21)
    refused(m, InvalidAction, type="pass", thrower=21)
    refused(m, InvalidAction, type="pass", thrower=21, to=58, range=2)
    assert "a throw to a teammate is a 'pass'" in refused(m, type="hit", thrower=21, target=58)
    act(m, type="cast", caster=21, spell="butter_fingers", targets=[33])
    assert "#33 has Butter Fingers and cannot take a pass" in refused(
        m, type="pass", thrower=21, to=33)
    assert [s for s in m.game.legal(m.state) if s["type"] == "pass"] == [
        {"type": "pass", "thrower": [21], "to": [58, 12, 7]}]
    end(m)
    act(m, type="hit", thrower=45, target=12)
    end(m)
    assert "#12 is off the court; teammates who can take a pass: #21 #7" in refused(
        m, type="pass", thrower=58, to=12)
    assert "Butter Fingers" in refused(m, type="pass", thrower=58, to=33)
    m = start()
    act(m, type="cast", caster=21, spell="sticky_fingers", targets=[21])
    assert "Sticky Fingers and cannot throw" in refused(m, type="pass", thrower=21, to=58)


def test_passes_replay_and_export_exactly():
    m = start()
    act(m, type="cast", caster=21, spell="fireball", targets=[21])
    act(m, type="pass", thrower=21, to=58)
    end(m)
    act(m, type="pass", thrower=45, to=30)
    lines = dump(m.start, m.events).splitlines()
    assert '{"type": "pass", "thrower": 21, "to": 58, "fireball": true}' in lines
    copy = replay(lines, random.Random(1), CATALOG)
    assert copy.state == m.state and copy.view() == m.view()
    m.undo()
    m.undo()
    assert m.view()["used"] == ["cast", "pass"] and wizard(m.view(), 58)["effects"] == ["fireball"]
