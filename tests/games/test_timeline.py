"""Each game's timeline drawn from a known match file (companion.timeline)."""

from __future__ import annotations

import json
import random

from companion import matchfile
from companion.games.chart import MAX_MARKS, MAX_POINTS, Chart, Mark, Series, thin
from companion.timeline import timeline
from tests.games.zoo_matches import COMPLETED, FINISH, FOUR
from tests.support import CATALOG


def drawn(*lines: object) -> dict:
    """The timeline of the match file made of ``lines`` (a start record, then actions)."""
    text = [json.dumps(line) if not isinstance(line, str) else line for line in lines]
    return timeline(matchfile.replay(text, random.Random(1), CATALOG))


def points(series: dict) -> list[list[int]]:
    return series["points"]


def test_center_court_momentum_with_set_boundaries():
    ann, bob = {"type": "point", "winner": 0}, {"type": "point", "winner": 1}
    double_fault = [{"type": "serve", "card": 5, "roll": 5}, {"type": "serve", "card": 6,
                                                             "roll": 6}]
    chart = drawn({"game": "center-court", "players": ["Ann", "Bob"],
                   "options": {"sets": 3, "first_server": 0}},
                  *[ann] * 24,             # set 1, 6-0
                  bob, bob, {"type": "undo"}, bob,
                  *double_fault)           # Ann serves and double-faults: Bob's point
    line, = chart["series"]
    assert line["name"] == "Ann − Bob" and line["colour"] == "text"
    assert points(line)[:3] == [[0, 0], [1, 1], [2, 2]]
    assert points(line)[24:] == [[24, 24], [25, 23], [26, 22], [27, 21]]  # the undo is gone
    assert chart["marks"] == [{"x": 24, "kind": "set", "label": "Set 1: 6-0",
                               "colour": "side-0"}]
    assert chart["zero"]["above"] == "Ann ahead" and chart["zero"]["below"] == "Bob ahead"
    assert chart["summary"] == ("Points won: Ann 24, Bob 3. Biggest lead: Ann by 24 "
                                "(after point 24). Set 1: 6-0.")
    assert chart["events"] == 28 and chart["thinned"] is False


DODGEBALL = [
    {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
     "options": {"rosters": [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]}},
    {"type": "cast", "caster": 21, "spell": "fireball", "targets": [21]},
    {"type": "pass", "thrower": 21, "to": 58},
    {"type": "end_activation"},
    {"type": "end_activation"},
    {"type": "throw", "thrower": 58, "target": 45, "range": 2, "target_holding_ball": False,
     "rolls": {"throw": [], "dodge": [2, 5]}},
    {"type": "end_activation"},
    {"type": "catch", "catcher": 58, "thrower": 30},
    {"type": "end_activation"},
    {"type": "hit", "thrower": 12, "target": 10},
]


def test_wizard_dodgeball_score_by_activation_with_hits_catches_and_casts():
    chart = drawn(*DODGEBALL)
    owls, newts = chart["series"]
    assert (owls["name"], owls["colour"], newts["colour"]) == ("Owls", "side-0", "side-1")
    assert points(owls) == [[0, 0], [1, 0], [2, 0], [3, 1], [4, 2], [5, 3]]
    assert points(newts) == [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0]]
    assert [(m["x"], m["kind"], m["colour"]) for m in chart["marks"]] == [
        (1, "cast", "side-0"), (3, "hit", "side-0"), (4, "catch", "side-0"),
        (5, "hit", "side-0")]
    assert chart["marks"][2]["label"] == "#58 caught #30"
    assert chart["bars"] == {"title": "Plays", "categories": ["hits", "catches", "casts"],
                             "values": [[2, 1, 1], [0, 0, 0]]}
    assert chart["summary"].startswith("After activation 5: Owls 3, Newts 0.")


def test_wizard_dodgeball_elimination_counts_the_wizards_out():
    start = {**DODGEBALL[0], "options": {**DODGEBALL[0]["options"], "variant": "elimination"}}
    chart = drawn(start, *DODGEBALL[1:])
    assert chart["y_label"] == "wizards out"
    assert points(chart["series"][0])[-1] == [5, 3] and points(chart["series"][1])[-1] == [5, 0]


def test_alakaslam_points_by_reason():
    chart = drawn(
        {"game": "alakaslam", "players": ["Ann", "Bob"],
         "options": {"characters": ["wendolyn", "austin"]}},
        {"type": "serve", "player": 0, "corner": "red", "cards": ["E2", "B3"]},
        {"type": "shot", "player": 1, "cards": ["B3", "E1"]},
        {"type": "shot", "player": 0, "cards": ["R2"]},
        {"type": "point", "winner": 0, "reason": "declined"},
        {"type": "serve", "player": 1, "corner": "blue", "cards": ["B1", "R2"]},  # bad serve
        {"type": "point", "winner": 1})
    ann, bob = chart["series"]
    assert points(ann) == [[0, 0], [1, 1], [2, 2], [3, 2]]
    assert points(bob) == [[0, 0], [1, 0], [2, 0], [3, 1]]
    assert [(m["kind"], m["colour"]) for m in chart["marks"]] == [
        ("declined", "side-0"), ("bad_serve", "side-0"), ("no_return", "side-1")]
    assert chart["bars"]["categories"] == ["no return", "declined", "out", "net", "bad serve"]
    assert chart["bars"]["values"] == [[0, 1, 0, 0, 1], [1, 0, 0, 0, 0]]
    assert chart["summary"] == "Points: Ann 2 (declined 1, bad serve 1), Bob 1 (no return 1)."


def test_alakazoo_points_by_turn_and_the_jury():
    chart = drawn(FOUR, *FINISH)
    ann, bart, cleo, dimitri = chart["series"]
    assert points(dimitri)[-1] == [24, 1]
    assert [s["colour"] for s in chart["series"]] == [f"player-{i}" for i in range(4)]
    # Annabelle displays what three Magic Power symbols pay for each turn (two, then one)
    # and completes her portal in turn 21 (15 in play); the jury adds 3 at the end.
    won = [4] * 4 + [6] * 4 + [8] * 4 + [9] * 4 + [13] * 4 + [15] * 3 + [18]
    assert points(ann) == [[0, 0], *([x, p] for x, p in enumerate(won, start=1))]
    assert points(bart)[-1] == [24, 4] and points(cleo)[-1] == [24, 1]
    assert chart["marks"] == [{"x": 21, "kind": "final_round", "colour": "player-0",
                               "label": "Final round: Annabelle completed the portal"}]
    assert chart["bars"] == {"title": "The jury", "categories": ["rows", "columns", "pure"],
                             "values": [[2, 1, 0], [1, 0, 0], [0, 0, 0], [0, 0, 0]]}
    assert "The jury: Annabelle 3 (rows 2, columns 1, pure 0)" in chart["summary"]


def test_alakazoo_has_no_jury_bars_before_the_end():
    chart = drawn(FOUR, *FINISH[:COMPLETED])
    assert chart["bars"] is None and chart["summary"].startswith("Turns played: 21.")


def test_a_long_match_is_thinned_to_the_bound_keeping_its_last_point():
    line = Series("a", "side-0", [(x, x % 7) for x in range(3 * MAX_POINTS)])
    marks = [Mark(x, "hit", str(x)) for x in range(MAX_MARKS + 50)]
    out = Chart("t", "x", "y", [line], "s", marks).to_json()
    assert len(out["series"][0]["points"]) == MAX_POINTS and len(out["marks"]) == MAX_MARKS
    assert out["series"][0]["points"][-1] == [3 * MAX_POINTS - 1, (3 * MAX_POINTS - 1) % 7]
    assert out["marks"][0]["x"] == 0 and out["thinned"] is True
    assert thin([1, 2, 3], 5) == [1, 2, 3]
