"""Teams, sides and 3-4 player tables: balanced by rating, repeat opponents avoided."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hall.director import groups
from hall.director.groups import sides, table_sizes, tables, teams
from hall.director.model import Player, Result

RATINGS = st.sampled_from([900, 1000, 1100, 1250, 1400, 1600, 1900])


def players_of(ratings):
    return [Player(f"P{i}", r) for i, r in enumerate(ratings)]


def every_split(names, sizes):
    """Every assignment of players to groups of ``sizes``, by brute force."""
    seen = set()
    for order in itertools.permutations(names):
        out, i = [], 0
        for size in sizes:
            out.append(frozenset(order[i:i + size]))
            i += size
        key = frozenset(out)
        if key not in seen:
            seen.add(key)
            yield [sorted(g) for g in out]


def mean_gap(split, rating):
    means = [sum(rating[n] for n in g) / len(g) for g in split]
    return round(max(means) - min(means), 9)


@given(st.integers(0, 60))
def test_table_sizes_seat_everyone_at_tables_of_two_to_four(count):
    sizes = table_sizes(count)
    assert sum(sizes) == (count if count >= 2 else 0)
    assert all(2 <= s <= 4 for s in sizes)
    if count >= 6:
        assert all(s >= 3 for s in sizes) and len(sizes) == -(-count // 4)


@settings(max_examples=40, deadline=None)
@given(st.lists(RATINGS, min_size=2, max_size=7), st.data())
def test_tables_are_the_best_seating_a_brute_force_finds(ratings, data):
    players = players_of(ratings)
    names = [p.name for p in players]
    rating = {p.name: p.rating for p in players}
    played = data.draw(st.lists(st.lists(st.sampled_from(names), min_size=2, max_size=4,
                                         unique=True), max_size=4))
    results = [Result(1, tuple(g), tuple(range(1, len(g) + 1)), game=f"g{i}")
               for i, g in enumerate(played)]
    met = {frozenset(p) for g in played for p in itertools.combinations(g, 2)}
    split = tables(players, results)
    seated = [n for g in split.groups for n in g]
    assert sorted(seated + list(split.resting)) == sorted(names)
    assert sorted(len(g) for g in split.groups) == sorted(table_sizes(len(names)))

    def score(s):
        return (sum(frozenset(p) in met for g in s for p in itertools.combinations(g, 2)),
                mean_gap(s, rating))

    assert score(split.groups) == min(score(s) for s in every_split(
        names, table_sizes(len(names))))
    for line, group in zip(split.why, split.groups, strict=True):
        again = [p for p in itertools.combinations(group, 2) if frozenset(p) in met]
        assert line.endswith("no one has met before") == (not again)


@settings(max_examples=40, deadline=None)
@given(st.lists(RATINGS, min_size=1, max_size=9))
def test_doubles_teams_are_as_even_as_can_be_and_the_lowest_rest(ratings):
    players = players_of(ratings)
    rating = {p.name: p.rating for p in players}
    split = teams(players, 2)
    assert all(len(g) == 2 for g in split.groups)
    assert len(split.resting) == len(players) % 2
    if split.resting:
        assert rating[split.resting[0]] == min(ratings)
    totals = [sum(rating[n] for n in g) for g in split.groups]
    assert list(split.why) == [f"Team {i}: {' + '.join(g)}: rating total {t:g}"
                               for i, (g, t) in enumerate(zip(split.groups, totals,
                                                              strict=True), 1)]
    playing = [n for g in split.groups for n in g]
    if playing:
        best = min(max(t) - min(t) for t in (
            [sum(rating[n] for n in g) for g in s]
            for s in every_split(playing, [2] * len(split.groups))))
        assert max(totals) - min(totals) == best


@settings(max_examples=30, deadline=None)
@given(st.lists(RATINGS, min_size=2, max_size=8))
def test_dodgeball_sides_take_everyone_sizes_within_one(ratings):
    players = players_of(ratings)
    rating = {p.name: p.rating for p in players}
    split = sides(players, 2)
    assert sorted(n for g in split.groups for n in g) == sorted(rating)
    assert abs(len(split.groups[0]) - len(split.groups[1])) <= 1
    sizes = [len(g) for g in split.groups]
    assert mean_gap(split.groups, rating) == min(
        mean_gap(s, rating) for s in every_split(list(rating), sizes))


def test_a_large_field_is_a_local_best_no_swap_improves(monkeypatch):
    players = players_of([1000 + (i * 137) % 900 for i in range(22)])
    rating = {p.name: p.rating for p in players}
    results = [Result(1, tuple(f"P{i}" for i in range(j, j + 4)), (1, 2, 3, 4))
               for j in range(0, 20, 4)]
    split = tables(players, results)
    met = {frozenset(p) for r in results for p in itertools.combinations(r.players, 2)}

    def score(s):
        return (sum(frozenset(p) in met for g in s for p in itertools.combinations(g, 2)),
                mean_gap(s, rating))

    current = score(split.groups)
    assert current[0] == 0  # 22 players, old tables of 4: everyone can meet someone new
    for g, h in itertools.combinations(range(len(split.groups)), 2):
        for a, b in itertools.product(split.groups[g], split.groups[h]):
            swapped = [[b if n == a else a if n == b else n for n in grp]
                       for grp in split.groups]
            assert score(swapped) >= current


def test_what_the_lines_say():
    players = [Player("Ann", 1500), Player("Bob", 1400), Player("Cy", 1300),
               Player("Dee", 1200), Player("Eve", 1100)]
    assert teams(players).to_json() == {
        "groups": [["Ann", "Dee"], ["Bob", "Cy"]], "resting": ["Eve"],
        "why": ["Team 1: Ann + Dee: rating total 2700", "Team 2: Bob + Cy: rating total 2700"]}
    split = tables(players, [Result(1, ("Ann", "Bob"), (1, 2))])
    assert sorted(map(len, split.groups)) == [2, 3]
    assert all("no one has met before" in line for line in split.why)
    with pytest.raises(ValueError, match="listed twice"):
        tables([Player("Ann"), Player("Ann")])
    assert groups.EXACT_UP_TO >= 8


@settings(max_examples=40, deadline=None)
@given(st.lists(RATINGS, min_size=3, max_size=8))
def test_tables_of_three_seat_the_best_split_and_rest_the_lowest_left_over(ratings):
    """Canadian doubles: every table seats three; the count left over (the lowest rated)
    rests; no split into threes has closer averages."""
    players = players_of(ratings)
    rating = {p.name: p.rating for p in players}
    split = tables(players, seats=3)
    assert all(len(g) == 3 for g in split.groups) and len(split.groups) == len(players) // 3
    assert len(split.resting) == len(players) % 3
    seated = [n for g in split.groups for n in g]
    assert sorted(seated + list(split.resting)) == sorted(rating)
    assert all(rating[r] <= min(rating[n] for n in seated) for r in split.resting)
    best = min(mean_gap(s, rating) for s in every_split(seated, [3] * len(split.groups)))
    assert mean_gap(split.groups, rating) == best


def test_a_table_seats_two_at_least():
    with pytest.raises(ValueError, match="two at least"):
        tables(players_of([1000, 1100]), seats=1)
