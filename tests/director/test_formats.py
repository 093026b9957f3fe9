"""Round robin and single elimination."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hall.director.formats import bracket_order, elimination, round_robin, seeding
from hall.director.model import Player, Result


@given(st.integers(0, 16))
def test_a_round_robin_meets_everyone_once(count):
    names = [f"P{i}" for i in range(count)]
    rounds = round_robin(names)
    games = [frozenset(p.players) for r in rounds for p in r.pairings if not p.bye]
    assert sorted(games, key=sorted) == sorted(
        (frozenset(g) for g in itertools.combinations(names, 2)), key=sorted)
    assert len(rounds) == (0 if count < 2 else count - 1 + count % 2)
    for r in rounds:
        assert sorted(r.players()) == sorted(names)  # everyone once a round
    sat_out = [p.players[0] for r in rounds for p in r.pairings if p.bye]
    assert sorted(sat_out) == (sorted(names) if count % 2 and count > 1 else [])


def test_round_robin_says_why():
    rounds = round_robin(["Ann", "Bob", "Cy"])
    assert [p.why for p in rounds[0].pairings] == [
        "Bob v Cy: round robin, round 1 of 3",
        "Ann sits out: an odd number of players, each sits out one round of 3"]


def test_bracket_order_is_the_standard_seeding():
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    with pytest.raises(ValueError, match="power of two"):
        bracket_order(6)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 20), st.randoms(use_true_random=False))
def test_an_elimination_bracket_runs_to_a_champion(count, rng):
    players = [Player(f"P{i}", rng.choice([1000, 1200, 1400, 1600])) for i in range(count)]
    seeds = seeding(players)
    assert [next(p.rating for p in players if p.name == s) for s in seeds] == sorted(
        (p.rating for p in players), reverse=True)
    size = 1 << (count - 1).bit_length()
    if count == 1:  # a field of one: no game, the one player wins
        assert elimination(players, []).champion == "P0"
        return
    results: list[Result] = []
    out: set[str] = set()
    for number in itertools.count(1):
        bracket = elimination(players, results)
        assert len(bracket.rounds) == number
        current = bracket.rounds[-1]
        # Everyone still in plays once; the knocked out never again.
        alive = sorted(set(seeds) - out)
        assert sorted(current.players()) == alive
        assert len(current.pairings) == size >> number
        if number == 1:
            # Seed s meets seed size + 1 - s; the places beyond the field are byes,
            # which go to the top seeds.
            for p in current.pairings:
                places = [seeds.index(n) + 1 for n in p.players]
                if p.bye:
                    assert places[0] <= size - count
                else:
                    assert sum(places) == size + 1
        assert bracket.champion is None
        for p in current.pairings:
            if not p.bye:
                loser = rng.choice(p.players)
                out.add(loser)
                results.append(Result(number, p.players,
                                      tuple(2 if n == loser else 1 for n in p.players)))
        bracket = elimination(players, results)
        if bracket.champion:
            break
    assert number == (size - 1).bit_length()
    assert out | {bracket.champion} == set(seeds) and bracket.champion not in out


def test_the_top_two_seeds_meet_only_in_the_final_and_a_draw_is_refused():
    players = [Player(n, r) for n, r in [("Ann", 1800), ("Bob", 1700), ("Cy", 1600),
                                          ("Dee", 1500), ("Eve", 1400)]]
    bracket = elimination(players, [])
    assert [p.why for p in bracket.rounds[0].pairings] == [
        "Dee v Eve: seed 4 v seed 5, first round",
        "Ann gets a bye: seed 1 of 5, the bracket has 8 places",
        "Bob gets a bye: seed 2 of 5, the bracket has 8 places",
        "Cy gets a bye: seed 3 of 5, the bracket has 8 places"]
    results = [Result(1, ("Dee", "Eve"), (2, 1))]
    assert [p.players for p in elimination(players, results).rounds[1].pairings] == [
        ("Ann", "Eve"), ("Bob", "Cy")]
    results += [Result(2, ("Ann", "Eve"), (1, 2)), Result(2, ("Bob", "Cy"), (1, 2))]
    final = elimination(players, results).rounds[2].pairings
    assert final[0].players == ("Ann", "Bob")
    with pytest.raises(ValueError, match="needs a winner"):
        elimination(players, [*results, Result(3, ("Ann", "Bob"), (1, 1))])
    won = elimination(players, [*results, Result(3, ("Bob", "Ann"), (1, 2))])
    assert won.champion == "Bob"
    assert won.to_json()["champion"] == "Bob"


def test_a_corrected_result_changes_who_advances():
    players = [Player("Ann", 2), Player("Bob", 1)]
    wrong = Result(1, ("Ann", "Bob"), (1, 2))
    assert elimination(players, [wrong]).champion == "Ann"
    fixed = Result(1, ("Ann", "Bob"), (2, 1), reason="the players swapped seats")
    assert elimination(players, [wrong, fixed]).champion == "Bob"
