"""Wizard Dodgeball after the second audit (RULINGS.md, "Second round"), through the
engine's public interface: Speed and Slow in the basic turn, the Magic reach, the
Fireball on the ball, turn and spell list apart, and a throw's unusable ``returning``."""

from __future__ import annotations

import json
import random

import pytest

from companion.errors import InvalidAction
from companion.matchfile import dump, replay
from tests.games.test_wizard_dodgeball import act, end, refused, start, wizard
from tests.support import CATALOG

EVERY = ["dispel", "fireball", "freeze", "shield", "teleport", "butter_fingers", "magic_drain",
         "shrink", "slow", "weak"]


def legal(m, kind: str) -> dict | None:
    return next((s for s in m.game.legal(m.state) if s["type"] == kind), None)


# --- Speed and Slow in the basic turn ------------------------------------------------------


def test_speed_gives_a_basic_turn_one_more_throw_or_cast():
    m = start()
    v = act(m, type="cast", caster=21, spell="speed", targets=[21])
    assert v["open"] == ["throw", "cast"] and v["actions_left"] == 2
    assert v["reminder"] == "Speed: +1 throw or cast"
    act(m, type="hit", thrower=21, target=45)
    v = act(m, type="throw", thrower=21, target=30, range=2, target_holding_ball=False,
            rolls={"throw": [1, 1], "dodge": [5, 6]})  # the second throw
    assert v["used"] == ["cast", "throw", "throw"] and v["open"] == [] and v["actions_left"] == 0
    msg = refused(m, type="cast", caster=21, spell="freeze", targets=[30])
    assert msg == ("#21 has already cast this activation; left: no throw or cast (basic turn: "
                   "move, throw and cast once each, and Speed gives one more throw or cast)")
    assert "already thrown twice" in refused(m, type="pass", thrower=21, to=58)
    assert [s["type"] for s in m.game.legal(m.state)] == ["end_activation"]


def test_speed_may_be_a_second_cast_instead():
    m = start()
    act(m, type="cast", caster=21, spell="speed", targets=[21])
    v = act(m, type="cast", caster=21, spell="freeze", targets=[45])
    assert v["open"] == ["throw"] and v["actions_left"] == 1
    assert "already cast twice" in refused(m, type="cast", caster=21, spell="shield",
                                           targets=[21])
    v = act(m, type="pass", thrower=21, to=58)
    assert v["actions_left"] == 0


def test_slow_leaves_a_throw_or_a_cast_not_both():
    m = start()
    end(m)
    act(m, type="cast", caster=45, spell="slow", targets=[58])
    end(m)
    v = m.view()
    assert v["active"]["jersey"] == 58 and v["actions_left"] == 1
    assert v["open"] == ["throw", "cast"] and v["reminder"] == "Slow: throw or cast"
    act(m, type="hit", thrower=58, target=30)
    msg = refused(m, type="cast", caster=58, spell="freeze", targets=[45])
    assert msg == ("#58 has already thrown this activation; left: no throw or cast (basic turn "
                   "with Slow: a throw or a cast, not both (the move is kept))")
    assert legal(m, "cast") is None and legal(m, "throw") is None


def test_a_slowed_wizard_back_from_elimination_casts_or_throws():
    m = start()
    end(m)
    act(m, type="hit", thrower=45, target=58)
    end(m)
    v = m.view()
    assert v["active"]["jersey"] == 58 and v["returned"]
    # Its Slow rebounded: recorded by naming whom it took.
    v = act(m, type="cast", caster=58, spell="slow", targets=[58])
    assert v["open"] == [] and v["actions_left"] == 0
    assert "left: no throw or cast (basic turn with Slow" in refused(
        m, type="throw", thrower=58, target=30, range=2, target_holding_ball=False)


def test_speed_and_slow_on_one_wizard_cancel_out():
    m = start()
    end(m)
    act(m, type="cast", caster=45, spell="slow", targets=[58])
    end(m)
    v = act(m, type="cast", caster=58, spell="speed", targets=[58])
    assert wizard(v, 58)["effects"] == ["slow", "speed"]
    assert v["open"] == ["throw"] and v["reminder"] is None
    act(m, type="hit", thrower=58, target=30)
    assert m.view()["actions_left"] == 0


def test_the_advanced_turn_counts_speed_and_slow_as_before():
    m = start(turn="advanced")
    v = act(m, type="cast", caster=21, spell="speed", targets=[21])
    assert v["actions"] == 3 and v["actions_left"] == 2


# --- the Magic reach -----------------------------------------------------------------------


def test_a_recorded_cast_names_at_most_magic_wizards_the_caster_counted():
    m = start(wizards={"21": {"magic": 1}})
    msg = refused(m, type="cast", caster=21, spell="speed", targets=[21, 58])
    assert msg == ("#21's Magic is 1: its spells reach at most 1 wizard (the Magic is the "
                   "number of connected spaces a spell covers, the caster counted when "
                   "named); 2 named: name at most 1")
    refused(m, type="cast_roll", caster=21, spell="speed", targets=[21, 58])
    v = act(m, type="cast", caster=21, spell="speed", targets=[58])
    assert wizard(v, 58)["effects"] == ["speed"]


def test_a_magic_of_0_is_offered_no_wizard_to_name():
    m = start(wizards={"21": {"magic": 0}})
    assert legal(m, "cast")["targets"] == [] and legal(m, "cast_roll") is None
    act(m, type="cast", caster=21, spell="teleport", targets=[])


def test_max_targets_comes_back_as_legal_offers_it():
    m = start(wizards={"21": {"magic": 2}})
    shape = legal(m, "cast")
    assert shape["max_targets"] == 2
    assert "Magic is 2" in refused(m, type="cast", caster=21, spell="freeze", targets=[45],
                                   max_targets=3)
    act(m, type="cast", caster=21, spell="freeze", targets=[45], max_targets=2)
    m = start()  # no Magic stat: the team's three Freeze markers are the most
    assert refused(m, type="cast", caster=21, spell="freeze", targets=[45],
                   max_targets=2).endswith("names 0 to 3 wizards (#21 has no Magic stat; its "
                                           "team has 3 Freeze markers)")
    act(m, type="cast", caster=21, spell="freeze", targets=[45], max_targets=3)


# --- the Fireball is on the ball -----------------------------------------------------------


def fireball_dropped():
    """#21 casts Fireball on its ball; #45 gives #21 Butter Fingers: the ball drops."""
    m = start()
    act(m, type="cast", caster=21, spell="fireball", targets=[21])
    end(m)
    v = act(m, type="cast", caster=45, spell="butter_fingers", targets=[21])
    assert wizard(v, 21)["effects"] == ["butter_fingers"]
    assert v["loose_fireballs"] == [0]
    v = end(m)
    assert v["reminder"] == "Fireball ball loose"
    return m


def test_butter_fingers_drops_the_fireball_with_the_ball_and_its_next_throw_attacks_10():
    m = fireball_dropped()
    shape = legal(m, "throw")
    # Owls' Fireball is loose: true names it, and so does its side (issue 36: legal
    # offers every value taken; an audit found 0 taken and not offered).
    assert shape["fireball"] == [False, True, 0]
    v = act(m, type="throw", thrower=58, target=30, range=3, target_holding_ball=False,
            fireball=True, rolls={"throw": [], "dodge": [4, 5]})
    assert v["last"]["attack"] == 10 and v["last"]["fireball"] and v["last"]["result"] == "hit"
    assert v["loose_fireballs"] == []
    assert legal(m, "throw") is None  # its one throw is used


def test_a_throw_of_another_ball_rolls_its_own_dice_and_leaves_the_fireball_loose():
    m = fireball_dropped()
    v = act(m, type="throw", thrower=58, target=30, range=2, target_holding_ball=False,
            rolls={"throw": [2, 3], "dodge": [4, 5]})
    assert v["last"]["attack"] == 5 and not v["last"]["fireball"]
    assert v["loose_fireballs"] == [0]


def test_a_loose_fireball_cannot_be_caught_and_a_pass_hands_it_on():
    m = fireball_dropped()
    assert "cannot be caught" in refused(m, type="catch", thrower=58, catcher=30,
                                         fireball=True)
    v = act(m, type="pass", thrower=58, to=12, fireball=True)
    assert wizard(v, 12)["effects"] == ["fireball"] and v["loose_fireballs"] == []
    assert v["last"]["text"] == "#58 passed to #12 (Fireball)"


def test_a_frozen_teammate_may_be_passed_the_ball_but_not_one_with_butter_fingers():
    """docs/rules.md, Effects: Freeze stops what the wizard does, not what is handed
    to it; Butter Fingers stops picking up."""
    m = start()
    act(m, type="cast", caster=21, spell="freeze", targets=[58])
    v = act(m, type="pass", thrower=21, to=58)
    assert v["last"]["text"] == "#21 passed to #58" and wizard(v, 58)["effects"] == ["freeze"]
    end(m)
    act(m, type="cast", caster=45, spell="butter_fingers", targets=[30])
    assert "#30 has Butter Fingers and cannot take a pass" in refused(
        m, type="pass", thrower=45, to=30)


def test_a_fireball_is_not_cast_on_a_wizard_who_cannot_hold_a_ball():
    m = start()
    end(m)
    act(m, type="cast", caster=45, spell="butter_fingers", targets=[58])
    end(m)
    assert "#58 has Butter Fingers and holds no ball" in refused(
        m, type="cast", caster=58, spell="fireball", targets=[58])


def test_no_fireball_no_fireball_throw():
    m = start()
    assert "fireball" not in legal(m, "throw")
    msg = refused(m, type="throw", thrower=21, target=45, range=2, target_holding_ball=False,
                  fireball=True)
    assert msg.startswith("#21's ball cannot be a Fireball: no Fireball is on a ball now")
    refused(m, InvalidAction, type="hit", thrower=21, target=45, fireball="yes")


def test_a_fireball_throw_by_another_wizard_names_who_holds_the_fireball():
    m = start()
    act(m, type="cast", caster=21, spell="fireball", targets=[21])
    end(m)
    end(m)  # #58's activation: #21 still holds the Fireball ball
    msg = refused(m, type="throw", thrower=58, target=45, range=2, target_holding_ball=False,
                  fireball=True)
    assert msg.startswith("#58's ball cannot be a Fireball: the Owls Fireball is on the ball #21 "
                          "holds"), msg


def test_a_fireball_holder_said_to_hold_no_ball_had_dropped_it():
    """Rulebook: only a wizard holding no ball catches, and a wizard carries one ball
    at a time. A throw at the Fireball's holder said to find it holding no ball, or a
    catch by it, means it had dropped the Fireball ball: the Fireball lies loose."""
    m = start()
    act(m, type="cast", caster=21, spell="fireball", targets=[21])
    end(m)
    # Doubles on the dodge with no ball held: #21 catches #45's throw.
    v = act(m, type="throw", thrower=45, target=21, range=1, target_holding_ball=False,
            rolls={"throw": [1, 1, 1], "dodge": [2, 2]})
    assert v["last"]["result"] == "catch"
    assert wizard(v, 21)["effects"] == [] and v["loose_fireballs"] == [0]
    m.undo()
    # Holding its ball (a third, white die: doubles do not catch), #21 dodges and
    # keeps the Fireball on it.
    v = act(m, type="throw", thrower=45, target=21, range=1, target_holding_ball=True,
            rolls={"throw": [1, 1, 1], "dodge": [2, 2, 5]})
    assert v["last"]["result"] == "dodge"
    assert wizard(v, 21)["effects"] == ["fireball"] and v["loose_fireballs"] == []
    m.undo()
    # A recorded catch by the holder: the same.
    v = act(m, type="catch", thrower=45, catcher=21)
    assert wizard(v, 21)["effects"] == [] and v["loose_fireballs"] == [0]


def test_the_holder_may_throw_another_ball_dropping_the_fireball():
    m = start()
    act(m, type="cast", caster=21, spell="fireball", targets=[21])
    assert legal(m, "throw")["fireball"] == [True, False, 0]  # 0: its own, by side
    v = act(m, type="catch", thrower=21, catcher=45, fireball=False)
    assert v["loose_fireballs"] == [0] and not v["sides"][0]["wizards"][0]["on_court"]


def test_an_eliminated_holder_leaves_its_fireball_ball_on_the_court():
    m = start()
    act(m, type="cast", caster=21, spell="fireball", targets=[21])
    end(m)
    v = act(m, type="hit", thrower=45, target=21)
    assert v["loose_fireballs"] == [0]
    # The card's return ends it, loose or held.
    v = end(m, 9)
    assert v["activation"] == 11 and v["loose_fireballs"] == [0]
    v = end(m)
    assert v["loose_fireballs"] == []


def test_a_match_file_without_the_fireball_field_throws_the_holders():
    """Files written before ``fireball`` existed replay as they did."""
    m = start()
    act(m, type="cast", caster=21, spell="fireball", targets=[21])
    lines = dump(m.start, m.events).splitlines()
    lines.append('{"type": "throw", "thrower": 21, "target": 45, "range": 3, '
                 '"target_holding_ball": false, "rolls": {"throw": [], "dodge": [4, 5]}, '
                 '"result": "hit"}')
    copy = replay(lines, random.Random(1), CATALOG)
    assert copy.view()["last"]["attack"] == 10


def test_fireball_throws_replay_and_undo_exactly():
    m = fireball_dropped()
    act(m, type="throw", thrower=58, target=30, range=3, target_holding_ball=False,
        fireball=True)
    lines = dump(m.start, m.events).splitlines()
    assert '"fireball": true' in lines[-1]
    copy = replay(lines, random.Random(9), CATALOG)
    assert copy.state == m.state
    m.undo()
    assert m.view()["loose_fireballs"] == [0]
    m.redo()
    assert m.state == copy.state


# --- turn and spell list are two options ---------------------------------------------------


def test_an_advanced_turn_with_all_ten_cards_and_no_magic():
    m = start(turn="advanced")
    v = m.view()
    assert v["turn"] == "advanced" and v["spell_list"] == "all" and v["actions"] == 2
    assert len(v["sides"][0]["spells"]) == 15
    assert m.start.options["spells"] == [EVERY, EVERY]


def test_a_basic_turn_with_bought_spells():
    wizards = {str(j): {"magic": 1} for j in (21, 58, 12, 33, 7, 45, 30, 10, 41, 25)}
    m = start(spell_list="bought", wizards=wizards, spells=[["freeze", "slow"], ["dispel"]])
    v = m.view()
    assert v["turn"] == "basic" and v["spell_list"] == "bought" and v["actions"] is None
    assert sorted(v["sides"][0]["spells"]) == ["freeze", "slow", "speed"]
    assert "did not buy the Shield card" in refused(m, type="cast", caster=21, spell="shield",
                                                   targets=[21])
    act(m, type="cast", caster=21, spell="speed", targets=[21])
    with pytest.raises(InvalidAction, match="cost 6 but its Magic budget is 5"):
        start(spell_list="bought", wizards=wizards,
              spells=[["freeze", "slow", "fireball", "weak"], ["dispel"]])


@pytest.mark.parametrize(("options", "spell_list"), [
    # Files from before the option: the advanced turn bought its cards...
    ({"turn": "advanced", "wizards": {str(j): {"magic": 2} for j in
                                      (21, 58, 12, 33, 7, 45, 30, 10, 41, 25)},
      "spells": [["freeze"], ["fireball"]]}, "bought"),
    # ... and a basic match was exported with all ten.
    ({"turn": "basic", "spells": [EVERY, EVERY]}, "all"),
    ({}, "all"),
])
def test_old_match_files_replay_with_the_spell_list_they_meant(options, spell_list):
    record = {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
              "options": {"rosters": [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]], **options}}
    copy = replay([json.dumps(record), '{"type": "end_activation"}'], random.Random(0),
                  CATALOG)
    assert copy.view()["spell_list"] == spell_list
    assert copy.start.options["spell_list"] == spell_list


# --- a throw's returning -------------------------------------------------------------------


def test_a_throw_that_is_not_caught_refuses_returning():
    m = start()
    end(m)
    act(m, type="hit", thrower=45, target=58)
    end(m, 3)
    msg = refused(m, InvalidAction, type="throw", thrower=12, target=45, range=2,
                  target_holding_ball=False, rolls={"throw": [6, 6], "dodge": [1, 2]},
                  returning=None)
    assert msg == ("field 'returning' is only for a throw that is caught; this one was a hit: "
                   "leave 'returning' out")
    assert "was dodged" in refused(m, InvalidAction, type="throw", thrower=12, target=45,
                                   range=2, target_holding_ball=False,
                                   rolls={"throw": [1, 1], "dodge": [5, 6]}, returning=58)
    # Caught, it may say who comes back (nobody is off: nobody).
    end(m)
    v = act(m, type="throw", thrower=10, target=12, range=2, target_holding_ball=False,
            rolls={"throw": [6, 6], "dodge": [3, 3]}, returning=None)
    assert v["last"]["result"] == "catch" and not wizard(v, 10)["on_court"]
