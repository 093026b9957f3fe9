"""A table's card (companion/headline.py) over real matches of every game.

Each game's careless host (the stateful machines of its property test: legal
play, junk, undo and redo on a real table and store) also checks, after
every step, that the card of the table's ``/api/state`` JSON agrees with the
state it was made from: one side per player (or team), whose turn it is as
``match["turn"]`` says, the winner(s) as the view says, every text within
:data:`~companion.headline.MAX_TEXT`. Then one concrete match per game shows
what a hall board and Home Assistant read.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant

from companion.headline import MAX_TEXT, headline
from companion.store import Store
from companion.table import Table
from tests.games.test_alakaslam_props import SlamTable
from tests.games.test_alakazoo_props import ZooTable
from tests.games.test_center_court_props import CenterCourtTable
from tests.games.test_wizard_dodgeball_props import DodgeballTable
from tests.support import CATALOG, ONE_OF_EACH, NoDice

#: The card's one-line texts (a Home Assistant sensor each, or a line on a card).
TEXTS = ("title", "status", "players", "score", "turn", "winner")


def seats_and_names(match: dict) -> list[tuple[list[int], str]]:
    """Each side of ``match`` as the view has it: the seats (``turn`` indices) it
    holds and its name. Read here from each game's own view, not from the card."""
    view = match["view"]
    game = match["game"]
    if game == "center-court":
        return [([i], name) for i, name in enumerate(view["players"])]
    if game == "wizard-dodgeball":
        return [([i], side["name"]) for i, side in enumerate(view["sides"])]
    if game == "alakaslam":
        names = [p["name"] for p in view["players"]]
        return [(side["players"], " & ".join(names[p] for p in side["players"]))
                for side in view["sides"]]
    assert game == "alakazoo", game
    return [([i], p["name"]) for i, p in enumerate(view["players"])]


def winners(view: dict) -> set[int]:
    winner = view["winner"]
    if winner is None:
        return set()
    return set(winner) if isinstance(winner, list) else {winner}


def check_card(state: dict) -> dict:
    """The card of ``state``, after checking it against ``state`` itself."""
    card = headline(state, CATALOG)
    # What the hall computes from the message equals what the table computed.
    assert headline(json.loads(json.dumps(state)), CATALOG) == card
    assert json.loads(json.dumps(card)) == card
    for key in TEXTS:
        assert isinstance(card[key], str) and len(card[key]) <= MAX_TEXT, (key, card[key])
    match = state["match"]
    if match is None:
        assert card["status"] == "idle" and card["sides"] == [] and card["game"] is None
        return card
    assert card["game"] == match["game"] and card["title"] == CATALOG.title(match["game"])
    assert card["status"] == match["status"]
    expected = seats_and_names(match)
    assert [s["name"] for s in card["sides"]] == [name for _, name in expected]
    assert card["players"] == " v ".join(name for _, name in expected)
    turn = set(match["turn"])
    assert [s["turn"] for s in card["sides"]] == [bool(turn & set(seats))
                                                  for seats, _ in expected]
    assert card["turn"] == " & ".join(n for seats, n in expected if turn & set(seats))
    won = winners(match["view"])
    assert [s["winner"] for s in card["sides"]] == [i in won for i in range(len(expected))]
    assert card["winner"] == " and ".join(expected[i][1] for i in sorted(won))
    assert (card["status"] == "finished") == bool(won)
    if won:
        assert card["turn"] == ""
    for side in card["sides"]:
        assert len(side["score"]) == len(card["columns"])
        assert all(isinstance(cell, str) for cell in side["score"])
    return card


class CardInvariant:
    """Mixed into each game's machine: the card agrees with every state reached."""

    @invariant()
    def the_card_agrees_with_the_state(self):
        check_card(self.table.snapshot.to_json())


CARD_SETTINGS = settings(max_examples=25, stateful_step_count=30, deadline=None)


class CenterCourtCards(CardInvariant, CenterCourtTable):
    pass


class DodgeballCards(CardInvariant, DodgeballTable):
    pass


class SlamCards(CardInvariant, SlamTable):
    pass


class ZooCards(CardInvariant, ZooTable):
    pass


for _machine in (CenterCourtCards, DodgeballCards, SlamCards, ZooCards):
    _machine.TestCase.settings = CARD_SETTINGS
TestCenterCourtCards = CenterCourtCards.TestCase
TestDodgeballCards = DodgeballCards.TestCase
TestSlamCards = SlamCards.TestCase
TestZooCards = ZooCards.TestCase


# --- one match of each game, as the hall shows it ----------------------------------------


@pytest.fixture
def store():
    with Store(":memory:") as s:
        yield s


def card_of(table: Table) -> dict:
    return check_card(table.snapshot.to_json())


def test_no_match_is_an_idle_card(store):
    table = Table(store, CATALOG)
    assert card_of(table) == {"game": None, "title": "No match", "status": "idle",
                              "players": "", "score": "", "turn": "", "winner": "",
                              "columns": [], "sides": []}
    table.start({"game": "center-court", "players": ["Ann", "Bob"]})
    table.abandon()
    assert card_of(table)["status"] == "idle"


def test_a_body_that_is_no_table_state_is_a_value_error():
    for body in ({"match": {"game": "chess", "view": {}}},
                 {"match": {"game": "center-court", "view": {"sets": 3}}},
                 {"match": {"game": "alakazoo"}}, {"match": []}):
        with pytest.raises(ValueError, match="not a table state"):
            headline(body, CATALOG)


def games(table: Table, *winners: int) -> None:
    """Whole games (four straight points each) to ``winners`` in turn."""
    for w in winners:
        for _ in range(4):
            table.act({"type": "point", "winner": w})


def test_center_court_a_set_tiebreak_is_written_with_its_points(store):
    table = Table(store, CATALOG, rng=random.Random(0))
    table.start({"game": "center-court", "players": ["Ann", "Bob"],
                 "options": {"sets": 1, "first_server": 0}})
    games(table, *[0, 1] * 6)
    for w in (0, 1, 0, 0, 1):
        table.act({"type": "point", "winner": w})
    card = card_of(table)
    assert card["score"] == "6-6 (3-2)"
    assert card["columns"] == ["G", "P"]
    assert [s["score"] for s in card["sides"]] == [["6", "3"], ["6", "2"]]
    for w in (1, 1, 0, 0, 0, 1, 0):
        table.act({"type": "point", "winner": w})
    card = card_of(table)
    assert card["status"] == "finished" and card["winner"] == "Ann" and card["turn"] == ""
    assert card["score"] == "7-6(7-5)"
    assert card["columns"] == ["S1"]
    assert [s["score"] for s in card["sides"]] == [["7"], ["6(5)"]]


def test_center_court_a_match_tiebreak_is_written_in_brackets(store):
    table = Table(store, CATALOG, rng=random.Random(0))
    table.start({"game": "center-court", "players": ["Ann", "Bob"],
                 "options": {"sets": 3, "final_set": "match-tiebreak", "first_server": 0}})
    games(table, *[0] * 6, *[1] * 6)
    for w in (0, 1, 0):
        table.act({"type": "point", "winner": w})
    card = card_of(table)
    assert card["score"] == "6-0 0-6 [2-1]"
    assert card["columns"] == ["S1", "S2", "P"]
    assert [s["score"] for s in card["sides"]] == [["6", "0", "2"], ["0", "6", "1"]]
    for w in [1, 0] * 7 + [0]:
        table.act({"type": "point", "winner": w})
    card = card_of(table)
    assert card["score"] == "6-0 0-6 [10-8]"
    assert card["columns"] == ["S1", "S2", "S3"]
    assert [s["score"] for s in card["sides"]] == [["6", "0", "[10]"], ["0", "6", "[8]"]]
    assert card["winner"] == "Ann" and [s["winner"] for s in card["sides"]] == [True, False]


def test_a_center_court_match_in_play_shows_games_points_and_the_server(store):
    table = Table(store, CATALOG, rng=random.Random(0))
    table.start({"game": "center-court", "players": ["Ann", "Bob"],
                 "options": {"sets": 3, "first_server": 1}})
    games(table, 0, 0)
    table.act({"type": "point", "winner": 1})
    card = card_of(table)
    assert card["score"] == "2-0 (0-15)"
    assert card["turn"] == "Bob"  # Bob serves the third game
    assert card["status"] == "active" and card["winner"] == ""


def test_dodgeball_elimination_counts_the_wizards_on_court(store):
    table = Table(store, CATALOG, rng=random.Random(0))
    table.start({"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
                 "options": {"rosters": [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]],
                             "variant": "elimination", "first_side": 0}})
    card = card_of(table)
    assert card["score"] == "5 v 5 on court" and card["columns"] == ["On court"]
    assert card["turn"] == "Owls"
    for thrower, target in [(21, 45), (58, 30), (12, 10), (33, 41), (7, 25)]:
        while table.snapshot.match["view"]["active"]["jersey"] != thrower:
            table.act({"type": "end_activation"})
        table.act({"type": "hit", "thrower": thrower, "target": target})
    card = card_of(table)
    assert card["score"] == "5 v 0 on court"
    assert [s["score"] for s in card["sides"]] == [["5"], ["0"]]
    assert card["winner"] == "Owls" and card["status"] == "finished"


def test_alakaslam_doubles_is_two_teams_and_the_team_to_serve(store):
    table = Table(store, CATALOG, rng=random.Random(0))
    table.start({"game": "alakaslam", "players": ["Ann", "Bob", "Cid", "Dee"],
                 "options": {"characters": ["austin", "rich", "toots", "sarissia"],
                             "teams": [0, 0, 1, 1], "first_server": 1, "target": 2}})
    card = card_of(table)
    assert card["players"] == "Ann & Bob v Cid & Dee"
    assert card["turn"] == "Cid & Dee" and card["score"] == "0-0 (to 2)"
    table.act({"type": "point", "winner": 0})
    table.act({"type": "point", "winner": 0})
    card = card_of(table)
    assert card["score"] == "2-0 (to 2)" and card["winner"] == "Ann & Bob"
    assert [s["score"] for s in card["sides"]] == [["2"], ["0"]]


def test_an_alakazoo_tie_is_a_shared_win(store):
    table = Table(store, CATALOG, rng=NoDice())
    table.start({"game": "alakazoo", "players": ["Ann", "Bob"],
                 "options": {"dark_power_reset": False}})
    assert card_of(table)["turn"] == "Ann"
    for _ in range(2):
        for _ in range(3):
            table.act({"type": "dark_power", "reason": "hand"})
        table.act({"type": "end_turn"})
    card = card_of(table)
    assert card["status"] == "finished" and card["score"] == "0-0"
    assert card["winner"] == "Ann and Bob" and card["turn"] == ""
    assert [s["winner"] for s in card["sides"]] == [True, True]


def test_four_long_names_stay_within_a_sensors_text(store):
    table = Table(store, CATALOG, rng=NoDice())
    names = ["Bartholomew Long", "Annabelle Longer", "Cleopatra Longst", "Dimitri Longest!"]
    table.start({"game": "alakazoo", "players": names, "options": {"first_player": 0}})
    card = card_of(table)
    assert card["players"] == " v ".join(names)


# --- a card from a message nobody checked --------------------------------------------------

JUNK = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=6)


def started_states() -> list[dict]:
    """A state of each game at its start, as a table publishes it."""
    out = []
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(0))
        for record in ONE_OF_EACH:
            table.start(record)
            out.append(table.snapshot.to_json())
            table.abandon()
    return out


STATES = started_states()


def spots(value, path=()):
    """Every path into ``value`` (dict keys and list indices), the root's too."""
    yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from spots(inner, (*path, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from spots(inner, (*path, i))


def replaced(value, path, junk):
    if not path:
        return junk
    copy = value.copy()
    copy[path[0]] = replaced(value[path[0]], path[1:], junk)
    return copy


@settings(max_examples=300, deadline=None)
@given(data=st.data(), junk=JUNK)
def test_a_damaged_state_gives_a_card_or_a_value_error_never_anything_else(data, junk):
    """Whatever part of a real state is swapped for other JSON (a broker carries
    anybody's message), the card is made or refused with ValueError."""
    state = data.draw(st.sampled_from(STATES))
    path = data.draw(st.sampled_from(list(spots(state))))
    try:
        card = headline(replaced(state, path, junk), CATALOG)
    except ValueError:
        return
    for key in TEXTS:
        assert isinstance(card[key], str) and len(card[key]) <= MAX_TEXT
    for side in card["sides"]:
        assert isinstance(side["name"], str) and all(isinstance(c, str) for c in side["score"])


def test_a_game_this_side_does_not_know_gets_the_generic_card():
    """A hall older than the table: the card says the game's id and the players, with
    their scores when the view lists one per player, rather than refuse a valid state."""
    state = {"version": 3, "match": {
        "game": "first-to", "players": ["Ann", "Bob"], "status": "active", "turn": [1],
        "view": {"players": ["Ann", "Bob"], "scores": [2, 1], "winner": None}}}
    card = headline(state, CATALOG)
    assert (card["title"], card["players"], card["score"], card["turn"]) == \
        ("first-to", "Ann v Bob", "2-1", "Bob")
    assert [s["score"] for s in card["sides"]] == [["2"], ["1"]]
    state["match"]["view"] = {"winner": 0}
    card = headline(state, CATALOG)
    assert card["score"] == "" and card["winner"] == "Ann" and card["columns"] == []
