"""The hall's kept results (hall/results.py): each match once, undone ones dropped, anything
that is not a table's results refused whole, all of it surviving a restart, and the ratings
kept up to date equal to a fresh computation."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hall.results import BadResults, ClubResults
from tests.support import CATALOG
from tests.test_players import whole


def message(table: str, epoch: int, *matches: tuple[int, list[str], int]) -> bytes:
    """A ``results`` message: each match (id, two players, the winner's index)."""
    return json.dumps({"table": table, "epoch": epoch, "results": [
        {"match": m, "game": "center-court", "players": players,
         "standing": {"teams": [[0], [1]], "places": [0 if w == 0 else 1, 1 if w == 0 else 0]},
         "started_at": 1000.0 + m} for m, players, w in matches]}).encode()


def board(results: ClubResults) -> dict[str, tuple[int, int]]:
    body = json.loads(results.players().data)
    court = next(g for g in body["games"] if g["game"] == "center-court")
    return {p["name"]: (p["matches"], p["wins"]) for p in court["players"]}


def test_each_match_counts_once_and_an_undone_one_is_dropped(tmp_path):
    results = ClubResults(tmp_path, CATALOG)
    first = message("a", 7, (1, ["Ann", "Bob"], 0), (2, ["Bob", "Ann"], 0))
    assert results.receive("a", first)
    assert not results.receive("a", first)  # the broker sends it again: nothing changes
    assert results.receive("b", message("b", 3, (1, ["Ann", "Cy"], 1)))
    assert board(results) == {"Ann": (3, 1), "Bob": (2, 1), "Cy": (1, 1)}
    # Match 2 undone on table a: its next message leaves it out.
    assert results.receive("a", message("a", 7, (1, ["Ann", "Bob"], 0)))
    assert board(results)["Bob"] == (1, 0) and results.count() == 2
    # Another database on table a (a new epoch) counts its own match 1 too.
    assert results.receive("a", message("a", 8, (1, ["Ann", "Bob"], 1)))
    assert results.count() == 3
    results.close()
    again = ClubResults(tmp_path, CATALOG)
    assert again.count() == 3 and board(again)["Ann"] == (3, 1)
    again.close()


@pytest.mark.parametrize("payload", [
    b"not json", b"[]", b'{"table": "a"}',
    json.dumps({"table": "b", "epoch": 1, "results": []}).encode(),  # another table's
    json.dumps({"table": "a", "epoch": "1", "results": []}).encode(),
    message("a", 1, (1, ["Ann", "ann"], 0)),  # one player twice
    message("a", 1, (1, ["Ann", "x" * 17], 0)),
    message("a", 1, (0, ["Ann", "Bob"], 0)),
    json.dumps({"table": "a", "epoch": 1, "results": [
        {"match": 1, "game": "chess", "players": ["Ann", "Bob"],
         "standing": {"teams": [[0], [1]], "places": [0, 1]}, "started_at": 1}]}).encode(),
    json.dumps({"table": "a", "epoch": 1, "results": [
        {"match": 1, "game": "center-court", "players": ["Ann", "Bob"],
         "standing": {"teams": [[0], [0]], "places": [0, 1]}, "started_at": 1}]}).encode(),
    json.dumps({"table": "a", "epoch": 1, "results": [
        {"match": 1, "game": "center-court", "players": ["Ann", "Bob"],
         "standing": {"teams": [[0], [1]], "places": [0, 9]}, "started_at": "x"}]}).encode(),
])
def test_anything_else_is_refused_whole(tmp_path, payload):
    results = ClubResults(tmp_path, CATALOG)
    results.receive("a", message("a", 1, (1, ["Ann", "Bob"], 0)))
    with pytest.raises(BadResults):
        results.receive("a", payload)
    assert results.count() == 1
    results.close()


MESSAGES = st.lists(st.tuples(
    st.sampled_from("ab"),
    st.lists(st.tuples(st.integers(1, 6), st.permutations(["Ann", "Bob", "Cy", "Di"]),
                       st.integers(0, 1), st.integers(0, 5)), max_size=5)), max_size=8)


@settings(max_examples=40, deadline=None)
@given(MESSAGES)
def test_ratings_kept_up_to_date_equal_a_fresh_computation(messages):
    # Messages from two tables in any order: matches added at the end and among older
    # ones (started earlier), sent again, or left out (undone): the ratings the hall keeps
    # up to date are those a hall started afresh on its file computes.
    with tempfile.TemporaryDirectory() as folder:
        results = ClubResults(Path(folder), CATALOG)
        for table, matches in messages:
            listed = sorted({m: (players[:2], w, at) for m, players, w, at in matches}.items())
            payload = json.loads(message(table, 1, *[(m, p, w) for m, (p, w, _) in listed]))
            for r, (_, (_, _, at)) in zip(payload["results"], listed, strict=True):
                r["started_at"] = 1000.0 + at  # the order played is not the ids' order
            results.receive(table, json.dumps(payload).encode())
            fresh = ClubResults(Path(folder), CATALOG)
            assert whole(results.ratings()[1]) == whole(fresh.ratings()[1])
            fresh.close()
        results.close()
