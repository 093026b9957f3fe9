"""Standings: derived from the result list, corrections replace, tiebreaks in order."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hall.director.model import Player, Result, players
from hall.director.standings import Scoring, Tally, corrections, effective, standings

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


@st.composite
def result_lists(draw):
    """Results of duels, byes and free-for-all tables; some games corrected later."""
    out: list[Result] = []
    for number in range(1, draw(st.integers(1, 5)) + 1):
        playing = draw(st.permutations(NAMES))[:draw(st.integers(1, 6))]
        while playing:
            size = min(len(playing), draw(st.integers(1, 4)))
            game, playing = playing[:size], playing[size:]
            ranks = () if size == 1 else tuple(draw(st.integers(1, size)) for _ in game)
            tiebreaks = tuple(draw(st.integers(-5, 5)) for _ in game) \
                if size > 1 and draw(st.booleans()) else ()
            sides: tuple[int, ...] = ()
            if size == 4 and draw(st.booleans()):  # doubles: two teams of two
                sides = (0, 0, 1, 1)
                ranks = (ranks[0], ranks[0], ranks[2], ranks[2])
            out.append(Result(number, tuple(game), ranks, tiebreaks, sides=sides))
    for _ in range(draw(st.integers(0, 3))):
        old = draw(st.sampled_from([r for r in out if not r.bye] or out))
        if old.bye:
            break
        ranks = tuple(draw(st.integers(1, len(old.players))) for _ in old.players)
        if old.sides:
            ranks = old.ranks[::-1]
        out.append(Result(old.round, old.players, ranks, old.tiebreaks,
                          reason="the table entered it wrong", sides=old.sides))
    return out


SCORINGS = st.sampled_from([Scoring(), Scoring(win=3, draw=1, loss=0, bye=3),
                            Scoring(by_rank=(4, 2, 1, 0)), Scoring(win=2, draw=1, bye=1)])


@settings(max_examples=100, deadline=None)
@given(result_lists(), SCORINGS)
def test_standings_kept_live_equal_the_standings_recomputed(results, scoring):
    tally = Tally(NAMES[:3], scoring)
    for result in results:
        tally.add(result)
    assert tally.standings() == standings(NAMES[:3], results, scoring)


@settings(max_examples=100, deadline=None)
@given(result_lists(), SCORINGS)
def test_the_standings_are_the_effective_results_and_nothing_else(results, scoring):
    table = standings(NAMES, results, scoring)
    counted = effective(results)
    assert table == standings(NAMES, counted, scoring)
    assert [s.place for s in table] == list(range(1, len(NAMES) + 1))
    total = {n: 0.0 for n in NAMES}
    for result in counted:
        for name, points in scoring.points(result).items():
            total[name] += points
    assert {s.name: s.points for s in table} == pytest.approx(total)
    lines = [(s.points, s.buchholz, s.tiebreak, s.head_to_head) for s in table]
    assert lines == sorted(lines, reverse=True)
    for line in table:
        assert line.buchholz == pytest.approx(
            sum(next(s.points for s in table if s.name == o) for o in line.opponents))


def test_points_are_what_the_scoring_says():
    assert Scoring().points(Result(1, ("Ann", "Bob"), (1, 2))) == {"Ann": 1, "Bob": 0}
    assert Scoring().points(Result(1, ("Ann", "Bob"), (1, 1))) == {"Ann": 0.5, "Bob": 0.5}
    assert Scoring(bye=0.5).points(Result(1, ("Ann",))) == {"Ann": 0.5}
    # A free-for-all by place; two sharing second share 2nd and 3rd place's points.
    ffa = Result(1, ("Ann", "Bob", "Cy", "Dee"), (1, 2, 2, 4))
    assert Scoring(by_rank=(5, 3, 1, 0)).points(ffa) == {"Ann": 5, "Bob": 2, "Cy": 2, "Dee": 0}
    # Without a table by place: the average of the duels (Bob beat one, drew one, lost one).
    assert Scoring().points(ffa) == {"Ann": 1, "Bob": 0.5, "Cy": 0.5, "Dee": 0}


def test_a_doubles_game_scores_each_player_as_their_side_and_teammates_have_not_met():
    game = Result(1, ("Ann", "Bob", "Cy", "Dee"), (1, 1, 2, 2), sides=(0, 0, 1, 1))
    assert Scoring().points(game) == {"Ann": 1, "Bob": 1, "Cy": 0, "Dee": 0}
    table = {s.name: s for s in standings(["Ann", "Bob", "Cy", "Dee"], [game])}
    assert table["Ann"].opponents == ("Cy", "Dee")
    assert table["Ann"].buchholz == 0 and table["Cy"].buchholz == 2
    with pytest.raises(ValueError, match="teammates share a rank"):
        Result(1, ("Ann", "Bob", "Cy", "Dee"), (1, 2, 3, 3), sides=(0, 0, 1, 1))
    with pytest.raises(ValueError, match="two sides at least"):
        Result(1, ("Ann", "Bob"), (1, 1), sides=(0, 0))


def test_tiebreaks_buchholz_then_the_games_own_then_head_to_head_then_seeding():
    results = [
        Result(1, ("Ann", "Bob"), (1, 2), (3, -3)),
        Result(1, ("Cy", "Dee"), (1, 2), (1, -1)),
        Result(2, ("Ann", "Cy"), (2, 1), (-1, 1)),
        Result(2, ("Bob", "Dee"), (1, 2), (2, -2)),
    ]
    table = standings(["Ann", "Bob", "Cy", "Dee"], results)
    # Cy won both. Ann and Bob have 1 point: Ann met Bob (1) and Cy (2), Buchholz 3;
    # Bob met Ann (1) and Dee (0), Buchholz 1.
    assert [(s.name, s.points, s.buchholz) for s in table] == [
        ("Cy", 2, 1), ("Ann", 1, 3), ("Bob", 1, 1), ("Dee", 0, 3)]
    # Equal points and Buchholz: the game's own tiebreak, then head-to-head, then seeding.
    even = [Result(1, ("Ann", "Bob"), (1, 2), (1, -1)), Result(1, ("Cy", "Dee"), (1, 2), (2, -2))]
    assert [s.name for s in standings(["Ann", "Bob", "Cy", "Dee"], even)] == [
        "Cy", "Ann", "Bob", "Dee"]
    drawn = [Result(1, ("Ann", "Bob"), (1, 1)), Result(1, ("Cy", "Dee"), (1, 1))]
    assert [s.name for s in standings(["Dee", "Cy", "Bob", "Ann"], drawn)] == [
        "Dee", "Cy", "Bob", "Ann"]
    # Head-to-head: Bob and Ann level on everything but Bob beat Ann.
    circle = [Result(1, ("Ann", "Bob"), (2, 1)), Result(2, ("Bob", "Cy"), (2, 1)),
              Result(3, ("Cy", "Ann"), (2, 1)), Result(4, ("Ann", "Dee"), (1, 2)),
              Result(4, ("Bob", "Eve"), (1, 2))]
    top = standings(["Ann", "Bob", "Cy", "Dee", "Eve"], circle)
    ann, bob = (next(s for s in top if s.name == n) for n in ("Ann", "Bob"))
    assert (ann.points, ann.buchholz) == (bob.points, bob.buchholz)
    assert (bob.head_to_head, ann.head_to_head) == (1, 0)
    assert [s.name for s in top].index("Bob") < [s.name for s in top].index("Ann")


def test_a_correction_replaces_the_result_and_keeps_its_reason():
    first = Result(1, ("Ann", "Bob"), (1, 2))
    fixed = Result(1, ("Bob", "Ann"), (1, 2), reason="the table swapped the seats")
    table = standings(["Ann", "Bob"], [first, fixed])
    assert [(s.name, s.points, s.played) for s in table] == [("Bob", 1, 1), ("Ann", 0, 1)]
    assert corrections([first, fixed]) == [(first, fixed)]
    with pytest.raises(ValueError, match="a correction needs a reason"):
        standings(["Ann", "Bob"], [first, Result(1, ("Ann", "Bob"), (2, 1))])
    tally = Tally(["Ann", "Bob"])
    tally.add(first)
    with pytest.raises(ValueError, match="a correction needs a reason"):
        tally.add(Result(1, ("Ann", "Bob"), (2, 1)))
    assert tally.standings() == standings(["Ann", "Bob"], [first])


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError, match="listed twice"):
        standings(["Ann", Player("Ann", 1500)], [])


def test_a_late_arrival_starts_with_the_points_given_and_a_drop_out_keeps_their_line():
    results = [Result(1, ("Ann", "Bob"), (1, 2))]
    table = standings([Player("Ann"), Player("Bob"), Player("Cy", start_points=0.5)], results)
    assert [(s.name, s.points) for s in table] == [("Ann", 1), ("Cy", 0.5), ("Bob", 0)]


@pytest.mark.parametrize(("players", "ranks", "tiebreaks", "message"), [
    (("Ann", "Ann"), (1, 2), (), "distinct players"),
    (("Ann", "Bob"), (1,), (), "a rank from 1"),
    (("Ann", "Bob"), (0, 1), (), "a rank from 1"),
    (("Ann",), (1,), (), "bye has no ranks"),
    (("Ann", "Bob"), (1, 2), (3,), "a tiebreak value"),
])
def test_a_malformed_result_is_refused_with_a_message(players, ranks, tiebreaks, message):
    with pytest.raises(ValueError, match=message):
        Result(1, players, ranks, tiebreaks)


def test_results_and_standings_are_json():
    result = Result(2, ("Ann", "Bob"), (1, 2), (4, -4), game="t3-r2")
    assert result.to_json() == {"round": 2, "players": ["Ann", "Bob"], "ranks": [1, 2],
                                "tiebreaks": [4, -4], "game": "t3-r2", "reason": "",
                                "sides": []}
    line = standings(["Ann", "Bob"], [result])[0]
    assert line.to_json() == {"place": 1, "name": "Ann", "points": 1, "buchholz": 0,
                              "tiebreak": 4, "head_to_head": 0, "played": 1, "byes": 0,
                              "opponents": ["Bob"]}


@given(result_lists())
def test_results_come_back_from_their_json(results):
    assert [Result.from_json(json.loads(json.dumps(r.to_json()))) for r in results] == results
    for r in results:
        assert Result.from_json(r.to_json()).key == r.key


@pytest.mark.parametrize(("data", "message"), [
    ([], "a result is an object"),
    ({"round": "1", "players": ["Ann"]}, "round is a whole number"),
    ({"round": 1, "players": "Ann"}, "players is a list of names"),
    ({"round": 1, "players": ["Ann", "Bob"], "ranks": [1, True]}, "ranks is a list"),
    ({"round": 1, "players": ["Ann", "Bob"], "ranks": [1, 2], "tiebreaks": ["x", 1]},
     "tiebreaks is a list of numbers"),
    ({"round": 0, "players": ["Ann"]}, "rounds count from 1"),
    ({"round": 1, "players": ["Ann"], "reason": 3}, "game and reason are text"),
    ({"round": 1, "players": ["Ann", "Bob"], "ranks": [1, 2], "sides": "ab"},
     "sides is a list of whole numbers"),
])
def test_a_malformed_result_in_json_is_refused_with_a_message(data, message):
    with pytest.raises(ValueError, match=message):
        Result.from_json(data)


def test_players_from_a_mapping_of_ratings():
    made = players(["Ann", "Bob", "New"], {"Ann": 30.0, "Bob": 20.0, "Gone": 10.0},
                   start_points={"New": 1.5})
    assert made == [Player("Ann", 30.0), Player("Bob", 20.0), Player("New", 20.0, 1.5)]
    assert [Player.from_json(p.to_json()) for p in made] == made
    with pytest.raises(ValueError, match="rating is a number"):
        Player.from_json({"name": "Ann", "rating": "high"})
    with pytest.raises(ValueError, match="with a name"):
        Player.from_json({"name": " "})


def test_a_scoring_comes_back_from_its_json_and_bad_json_is_refused():
    for scoring in (Scoring(), Scoring(win=3, draw=1, bye=3, by_rank=(5, 3, 1))):
        assert Scoring.from_json(json.loads(json.dumps(scoring.to_json()))) == scoring
    assert Scoring.from_json({"win": 2}) == Scoring(win=2)
    for bad, message in [({"win": "1"}, "win is a number"), ({"points": 1}, "an object of"),
                         ({"by_rank": [1, None]}, "by_rank is a number"),
                         ({"by_rank": 3}, "by_rank is a list")]:
        with pytest.raises(ValueError, match=message):
            Scoring.from_json(bad)
