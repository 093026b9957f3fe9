"""Center Court scoring, serving and returns, through the engine's public API."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from companion.errors import IllegalAction, InvalidAction
from companion.games.center_court.rules import valid_returns
from companion.games.center_court.view import summary
from tests.support import NoDice, act, center_court, game, games, points, set_6_0, to_six_all


def view(match):
    return match.view()


# --- points and games ----------------------------------------------------------


def test_points_are_called_as_in_tennis():
    m = center_court()
    seen = []
    for _ in range(3):
        points(m, 0)
        seen.append(view(m)["points"])
    assert seen == [["15", "0"], ["30", "0"], ["40", "0"]]
    points(m, 0)
    assert view(m)["games"] == [1, 0]
    assert view(m)["points"] == ["0", "0"]


def test_deuce_and_advantage():
    m = points(center_court(), 0, 0, 0, 1, 1, 1)
    v = view(m)
    assert v["points"] == ["40", "40"] and v["deuce"] and v["advantage"] is None
    points(m, 1)
    v = view(m)
    assert v["points"] == ["40", "AD"] and v["advantage"] == 1 and not v["deuce"]
    points(m, 0)
    assert view(m)["points"] == ["40", "40"] and view(m)["deuce"]
    points(m, 0)
    assert view(m)["points"] == ["AD", "40"]
    points(m, 0)
    assert view(m)["games"] == [1, 0]


def test_no_ad_deuce_point_wins_the_game():
    m = points(center_court(no_ad=True), 0, 0, 0, 1, 1, 1)
    assert view(m)["deuce"]
    points(m, 1)
    v = view(m)
    assert v["games"] == [0, 1] and v["points"] == ["0", "0"] and v["advantage"] is None


def test_server_changes_every_game():
    m = center_court(first_server=1)
    servers = []
    for w in (0, 1, 0, 1):
        servers.append(view(m)["server"])
        game(m, w)
    assert servers == [1, 0, 1, 0]


# --- sets ----------------------------------------------------------------------


def test_set_needs_six_games_and_a_lead_of_two():
    m = games(center_court(), 0, 1, 0, 1, 0, 1, 0, 1, 0, 1)  # 5-5
    game(m, 0)
    assert view(m)["games"] == [6, 5] and view(m)["sets"] == []
    game(m, 0)
    v = view(m)
    assert v["sets"] == [[7, 5]] and v["games"] == [0, 0] and v["sets_won"] == [1, 0]


def test_six_four_wins_the_set():
    m = games(center_court(), 0, 0, 0, 0, 1, 1, 1, 1, 0, 0)
    assert view(m)["sets"] == [[6, 4]]


def test_tiebreak_at_six_all_with_one_two_two_service():
    m = to_six_all(center_court(first_server=0))
    v = view(m)
    assert v["tiebreak"] and v["games"] == [6, 6] and v["points"] == ["0", "0"]
    # 12 games played from server 0: player 0 is due to serve the tiebreak.
    servers = []
    for w in (0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1):  # reach 6-6 in points
        servers.append(view(m)["server"])
        points(m, w)
    assert servers == [0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0]
    assert view(m)["points"] == ["6", "6"]
    points(m, 0)
    assert view(m)["points"] == ["7", "6"] and view(m)["sets"] == []  # lead of two needed
    points(m, 0)
    v = view(m)
    assert v["sets"] == [[7, 6]] and v["set_tiebreaks"] == [[8, 6]]
    assert not v["tiebreak"] and v["games"] == [0, 0]
    # Player 1 received the first tiebreak point, so serves the next set.
    assert v["server"] == 1


def test_tiebreak_first_server_is_whoever_is_due():
    m = to_six_all(center_court(first_server=1))
    assert view(m)["server"] == 1
    points(m, 0)
    assert view(m)["server"] == 0
    points(m, *[1] * 7)
    assert view(m)["sets"] == [[6, 7]] and view(m)["set_tiebreaks"] == [[1, 7]]
    assert view(m)["server"] == 0  # received the first tiebreak point


@pytest.mark.parametrize(("sets", "needed"), [(1, 1), (3, 2), (5, 3)])
def test_best_of(sets, needed):
    m = center_court(sets=sets)
    for i in range(needed):
        assert view(m)["winner"] is None
        set_6_0(m, 0)
        assert view(m)["sets_won"] == [i + 1, 0]
    v = view(m)
    assert v["winner"] == 0 and len(v["sets"]) == needed
    assert m.game.legal(m.state) == []


def test_final_set_tiebreak_by_default():
    m = set_6_0(set_6_0(center_court(), 0), 1)
    to_six_all(m)
    assert view(m)["tiebreak"]
    points(m, *[1] * 7)
    assert view(m)["sets"][-1] == [6, 7] and view(m)["winner"] == 1


def test_final_set_advantage_has_no_tiebreak():
    m = set_6_0(set_6_0(center_court(final_set="advantage"), 0), 1)
    to_six_all(m)
    v = view(m)
    assert not v["tiebreak"] and v["points"] == ["0", "0"]
    games(m, 0, 1, 0)  # 8-7: still a lead of one
    assert view(m)["winner"] is None
    game(m, 0)
    assert view(m)["sets"][-1] == [9, 7] and view(m)["winner"] == 0


def test_advantage_option_keeps_tiebreaks_in_other_sets():
    m = to_six_all(center_court(final_set="advantage"))
    assert view(m)["tiebreak"]


def test_final_set_match_tiebreak_to_ten():
    m = set_6_0(set_6_0(center_court(final_set="match-tiebreak"), 0), 1)
    v = view(m)
    assert v["tiebreak"] and v["match_tiebreak"] and v["games"] == [0, 0]
    points(m, *[0, 1] * 9)  # 9-9
    points(m, 0)
    assert view(m)["points"] == ["10", "9"] and view(m)["winner"] is None
    points(m, 1, 1, 1)
    v = view(m)
    assert v["sets"][-1] == [0, 1] and v["set_tiebreaks"][-1] == [10, 12]
    assert v["winner"] == 1 and v["sets_won"] == [1, 2]
    assert summary(m.state) == "6-0 0-6 [10-12]"


def test_best_of_one_match_tiebreak_is_the_whole_match():
    m = center_court(sets=1, final_set="match-tiebreak")
    assert view(m)["match_tiebreak"]
    points(m, *[0] * 10)
    assert view(m)["winner"] == 0 and view(m)["sets"] == [[1, 0]]


def test_match_tiebreak_service_rotation():
    m = set_6_0(set_6_0(center_court(final_set="match-tiebreak"), 0), 1)
    first = view(m)["server"]
    servers = []
    for w in (0, 1, 0, 1, 0):
        servers.append(view(m)["server"])
        points(m, w)
    assert servers == [first, 1 - first, 1 - first, first, first]


# --- serving ---------------------------------------------------------------------


@pytest.mark.parametrize("card", [3, 4])
def test_serves_of_three_and_four_are_never_rolled(card):
    m = act(center_court(), {"type": "serve", "card": card}, NoDice())
    v = view(m)
    assert v["in_play"] and v["last_serve"] == {"player": 0, "card": card, "roll": None,
                                                 "fault": False}
    assert m.events[-1] == {"type": "serve", "card": card, "roll": None}


@pytest.mark.parametrize("card", [3, 4])
def test_a_roll_for_a_three_or_four_is_refused(card):
    with pytest.raises(IllegalAction, match="never rolled"):
        act(center_court(), {"type": "serve", "card": card, "roll": 1})


@pytest.mark.parametrize("card", [1, 2, 5, 6])
def test_other_serves_roll_the_service_die(card):
    rolls = set()
    for seed in range(60):
        m = act(center_court(), {"type": "serve", "card": card}, random.Random(seed))
        roll = m.events[-1]["roll"]
        rolls.add(roll)
        assert view(m)["last_serve"]["fault"] == (roll == card)
    assert rolls == {1, 2, 5, 6}


def test_a_roll_the_die_cannot_show_is_refused():
    with pytest.raises(IllegalAction, match="faces are 1, 1, 2, 5, 6, 6"):
        act(center_court(), {"type": "serve", "card": 5, "roll": 3})


def test_fault_then_good_second_serve():
    m = act(center_court(), {"type": "serve", "card": 5, "roll": 5})
    v = view(m)
    assert v["serve"] == 2 and not v["in_play"] and v["call"] == "fault"
    assert v["stats"][0]["faults"] == 1
    act(m, {"type": "serve", "card": 2, "roll": 6})
    v = view(m)
    assert v["in_play"] and v["call"] is None and v["volley"] == 2 and v["to_return"] == 1


def test_a_rally_begun_by_a_second_serve_has_a_first_serve_due_next():
    m = act(center_court(), {"type": "serve", "card": 5, "roll": 5})
    act(m, {"type": "serve", "card": 2, "roll": 6})
    v = view(m)
    # The ball is in play: no serve is due, and the next point starts with a first.
    assert v["in_play"] and v["serve"] == 1 and v["rally_serve"] == 2
    act(m, {"type": "return", "card": 2})
    assert view(m)["serve"] == 1 and view(m)["rally_serve"] == 2
    points(m, 0)
    v = view(m)
    assert v["serve"] == 1 and v["rally_serve"] is None and not v["in_play"]


def test_a_rally_begun_by_a_first_serve():
    m = act(center_court(), {"type": "serve", "card": 4})
    v = view(m)
    assert v["in_play"] and v["serve"] == 1 and v["rally_serve"] == 1
    assert view(center_court())["rally_serve"] is None


def test_double_fault_gives_the_receiver_the_point():
    m = act(center_court(), {"type": "serve", "card": 1, "roll": 1})
    act(m, {"type": "serve", "card": 6, "roll": 6})
    v = view(m)
    assert v["points"] == ["0", "15"] and v["call"] == "double_fault"
    assert v["serve"] == 1 and not v["in_play"]
    assert v["stats"][0] == {"faults": 2, "double_faults": 1, "serve_points_won": 0,
                             "points_won": 0}
    assert v["stats"][1]["points_won"] == 1
    # The next serve clears the call.
    act(m, {"type": "serve", "card": 3})
    assert view(m)["call"] is None


def test_serve_points_won_counts_points_won_on_own_serve():
    m = center_court(first_server=0)
    act(m, {"type": "serve", "card": 4})
    points(m, 0, 1, 0)
    stats = view(m)["stats"]
    assert stats[0]["serve_points_won"] == 2 and stats[1]["serve_points_won"] == 0


def test_longest_rally_counts_the_shots_of_the_longest_point_played_out():
    m = center_court(first_server=0)
    assert view(m)["longest_rally"] == 0
    act(m, {"type": "serve", "card": 3})
    act(m, {"type": "return", "card": 3})
    act(m, {"type": "return", "card": 3})
    assert view(m)["longest_rally"] == 0  # counted when its point ends
    points(m, 0)
    assert view(m)["longest_rally"] == 3  # the serve and two returns
    act(m, {"type": "serve", "card": 4})
    points(m, 1)
    act(m, {"type": "serve", "card": 2, "roll": 2})
    act(m, {"type": "serve", "card": 5, "roll": 5})  # a double fault: no rally
    points(m, 0)  # a point entered with no ball in play
    assert view(m)["longest_rally"] == 3


def test_no_serve_while_the_ball_is_in_play():
    m = act(center_court(), {"type": "serve", "card": 3})
    with pytest.raises(IllegalAction, match="in play"):
        act(m, {"type": "serve", "card": 4})


def test_points_work_without_the_serve_flow_even_after_a_fault():
    m = act(center_court(), {"type": "serve", "card": 5, "roll": 5})
    points(m, 0)
    v = view(m)
    assert v["points"] == ["15", "0"] and v["serve"] == 1 and v["call"] is None


# --- returns ---------------------------------------------------------------------


def test_valid_returns_follow_the_formula():
    assert valid_returns(1) == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)]
    assert valid_returns(3) == [(1, 3), (2, 2), (3, 1), (4, 2), (5, 3), (6, 4)]


def test_valid_returns_fix_the_rulebook_misprints():
    # Against 4 the printed table leaves out 5-5.
    assert (5, 2) in valid_returns(4)
    # Against 6 it prints 2-2-2 where three cards must be 4s.
    returns_6 = dict(valid_returns(6))
    assert returns_6[4] == 3 and returns_6[2] == 5


def test_valid_returns_reject_a_non_volley():
    with pytest.raises(ValueError, match="1-6"):
        valid_returns(7)


def test_return_moves_the_volley_and_the_turn():
    m = act(center_court(), {"type": "serve", "card": 4})
    assert view(m)["returns"] == ["1-1-1-1", "2-2-2", "3-3", "4", "5-5", "6-6-6"]
    act(m, {"type": "return", "card": 5, "count": 2})
    v = view(m)
    assert v["volley"] == 5 and v["to_return"] == 0
    act(m, {"type": "return", "card": 6})
    assert m.events[-1] == {"type": "return", "card": 6, "count": 2}


def test_a_return_with_the_wrong_count_says_what_is_needed():
    m = act(center_court(), {"type": "serve", "card": 6, "roll": 1})
    with pytest.raises(IllegalAction, match=r"play 3 \(4-4-4\)"):
        act(m, {"type": "return", "card": 4, "count": 2})


# --- the end and refusals ----------------------------------------------------------


def test_nothing_is_accepted_after_the_match_ends():
    m = set_6_0(center_court(sets=1), 1)
    assert view(m)["winner"] == 1
    for action in ({"type": "point", "winner": 0}, {"type": "serve", "card": 3}):
        with pytest.raises(IllegalAction, match="match is over: Bob won"):
            act(m, action)


def finish(match, *set_winners):
    """Win one 6-0 set for each of ``set_winners``; returns who served the last point."""
    for w in set_winners[:-1]:
        set_6_0(match, w)
    games(match, *[set_winners[-1]] * 5)
    points(match, *[set_winners[-1]] * 3)
    server = view(match)["server"]
    points(match, set_winners[-1])
    return server


@pytest.mark.parametrize(("sets", "set_winners", "final_score"), [
    (3, (0, 0), "6-0 6-0"),
    (5, (1, 1, 0, 1), "6-0 6-0 0-6 6-0"),
])
def test_a_match_won_before_its_match_tiebreak_is_in_no_tiebreak(sets, set_winners,
                                                                  final_score):
    m = center_court(sets=sets, final_set="match-tiebreak")
    finish(m, *set_winners)
    v = view(m)
    assert v["winner"] == set_winners[-1]
    assert not v["tiebreak"] and not v["match_tiebreak"]
    assert v["final_score"] == final_score


def test_every_view_key_once_the_match_is_won():
    m = center_court(sets=3, final_set="match-tiebreak", first_server=1)
    served = finish(m, 1, 1)
    v = view(m)
    assert v["winner"] == 1 and v["sets"] == [[0, 6], [0, 6]] and v["sets_won"] == [0, 2]
    # Nothing is being played: no serve due, no ball, no game or set running.
    assert v["server"] == served  # who served the match point
    assert v["serve"] == 1 and v["rally_serve"] is None and not v["in_play"]
    assert v["points"] == ["0", "0"] and v["games"] == [0, 0] and v["set_number"] == 2
    assert not v["deuce"] and v["advantage"] is None
    assert v["volley"] is None and v["to_return"] is None and v["returns"] == []
    assert v["final_score"] == "6-0 6-0"


def test_a_match_won_in_its_match_tiebreak_is_no_longer_in_one():
    m = set_6_0(set_6_0(center_court(final_set="match-tiebreak"), 0), 1)
    points(m, *[1, 0] * 9, 0, 0)  # 9-9, then two points to Ann
    v = view(m)
    assert v["winner"] == 0 and not v["tiebreak"] and not v["match_tiebreak"]
    assert v["final_score"] == "6-0 0-6 [11-9]"


def test_the_final_score_is_told_from_the_winners_side():
    m = center_court(sets=3)
    set_6_0(m, 0)
    to_six_all(m)
    points(m, *[0] * 5, *[1] * 7)  # Bob takes the tiebreak 7-5
    finish(m, 1)
    v = view(m)
    assert v["winner"] == 1 and v["sets"] == [[6, 0], [6, 7], [0, 6]]
    assert v["final_score"] == "0-6 7-6(7-5) 6-0"
    assert summary(m.state) == "6-0 6-7(5-7) 0-6"  # the history keeps seat order


def test_the_final_score_writes_a_match_tiebreak_by_its_points():
    m = center_court(sets=3, final_set="match-tiebreak")
    to_six_all(m)
    points(m, *[0] * 5, *[1] * 5, 0, 0)  # 7-5 in the tiebreak
    games(m, *[0, 1] * 4, 1, 1)  # 4-6
    points(m, *[0, 1] * 8, 0, 0)  # 10-8
    assert view(m)["final_score"] == "7-6(7-5) 4-6 [10-8]"  # as docs/api.md shows it


def test_no_final_score_while_the_match_runs():
    m = set_6_0(center_court(), 1)
    assert view(m)["final_score"] is None


@pytest.mark.parametrize(("action", "message"), [
    ({"type": "smash"}, "unknown action type"),
    ({"card": 3}, "unknown action type"),
    ({"type": "serve"}, "missing field 'card'"),
    ({"type": "serve", "card": "3"}, "whole number 1-6"),
    ({"type": "serve", "card": True}, "whole number 1-6"),
    ({"type": "point", "winner": 2}, "whole number 0-1"),
    ({"type": "point", "winner": 0, "by": "ace"}, "no field 'by'"),
])
def test_malformed_actions_are_invalid(action, message):
    with pytest.raises(InvalidAction, match=message):
        act(center_court(), action)


@pytest.mark.parametrize(("options", "message"), [
    ({"sets": 4}, "'sets' must be one of 1, 3, 5"),
    ({"no_ad": "yes"}, "'no_ad' must be one of false, true"),
    ({"final_set": "sudden-death"}, "'final_set'"),
    ({"first_server": 2}, "'first_server'"),
    ({"colour": "red"}, "unknown option 'colour'"),
])
def test_bad_options_name_the_key(options, message):
    with pytest.raises(InvalidAction, match=message):
        center_court(**options)


@pytest.mark.parametrize(("players", "message"), [
    (["Ann"], "exactly 2"),
    (["Ann", "ann"], "differ"),
    (["Ann", ""], "player 2"),
    (["Ann", "x" * 17], "at most 16"),
])
def test_bad_player_names_are_invalid(players, message):
    with pytest.raises(InvalidAction, match=message):
        center_court(players=tuple(players))


def test_coin_flip_for_the_first_server_is_recorded():
    firsts = set()
    for seed in range(20):
        m = center_court(first_server="coin", rng=random.Random(seed))
        assert m.start.options["coin_flip"] is True
        assert m.start.options["first_server"] in (0, 1)
        assert view(m)["server"] == m.start.options["first_server"]
        firsts.add(m.start.options["first_server"])
    assert firsts == {0, 1}


@pytest.mark.parametrize(("options", "message"), [
    # "coin" asks the device for a new flip: a flip given with it (either value) would
    # be overwritten or contradicted (an audit found `coin_flip: false` stored as true).
    ({"first_server": "coin", "coin_flip": False},
     "'first_server' \"coin\" alone for a new flip, or 'first_server' 0 or 1 with "
     "'coin_flip' true to keep a flip already made"),
    ({"first_server": "coin", "coin_flip": True}, "asks it for a new one"),
    # Only the device writes a flip, with the server it chose: alone it names nobody.
    ({"coin_flip": True}, "comes with the 'first_server' it chose: give 'first_server' 0 "
                          "or 1 to choose who serves, or \"coin\" to have the device flip"),
])
def test_a_coin_flip_the_device_did_not_make_is_refused(options, message):
    """RULINGS "Center Court": the first server is chosen or flipped by the device, and
    logged; third round (AlakaSLAM's start, the same option): a contradiction between
    the two, or a flip given alone, is refused."""
    with pytest.raises(InvalidAction, match=re.escape(message)):
        center_court(**options)


@pytest.mark.parametrize("first", [0, 1])
def test_a_flip_the_device_made_replays_with_its_server(first):
    """What export writes: the server the flip chose, and that it was a flip."""
    m = center_court(first_server=first, coin_flip=True)
    assert m.start.options["first_server"] == first and m.start.options["coin_flip"] is True
    assert view(m)["server"] == first
    m = center_court(coin_flip=False)
    assert m.start.options["first_server"] == 0 and m.start.options["coin_flip"] is False


def test_defaults_are_filled_in():
    m = center_court()
    assert dict(m.start.options) == {"sets": 3, "no_ad": False, "final_set": "tiebreak",
                                      "first_server": 0, "coin_flip": False}


def test_legal_follows_the_rally():
    m = center_court()
    assert [a["type"] for a in m.game.legal(m.state)] == ["serve", "point"]
    act(m, {"type": "serve", "card": 3})
    legal = m.game.legal(m.state)
    assert [a["type"] for a in legal] == ["return", "point"] and legal[0]["player"] == 1


def test_summary_shows_sets_and_the_current_set():
    m = center_court()
    assert summary(m.state) == "0-0"
    set_6_0(m, 0)
    games(m, 1, 1)
    assert summary(m.state) == "6-0 0-2"


def test_docs_api_describes_every_view_key():
    doc = (Path(__file__).parents[2] / "docs" / "api.md").read_text()
    section = doc.split("## Center Court")[1].split("\n## ")[0].split("### View")[1]
    documented = {line.split("`")[1] for line in section.splitlines() if line.startswith("| `")}
    assert documented == set(view(center_court()))
