"""Doubles teams, Canadian doubles and Alakazoo tables on a club night, through the hall's
API: teams and tables balanced by rating, every player seated once a round, the offer's
players in the seat order the game's start record wants (CONTRACT.md), and results with
sides or shared places counted as the rulebooks score them."""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import name_key
from companion.kit import Lineups
from hall.lineups import lineup_of, options_for
from hall.night import Night
from tests.hall.night_support import PREFIX, DirectorClient, Outbox, results_message
from tests.hall.test_director_api import Hall
from tests.support import CATALOG

EIGHT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
RATING = {"Ann": 1900, "Bob": 1800, "Cy": 1700, "Dee": 1500, "Eve": 1400, "Fay": 1200,
          "Gus": 1000, "Hal": 900, "Ivy": 800, "Jo": 700}
DOUBLES = {"characters": ["austin", "laurie", "rich", "toots"], "teams": [0, 1, 0, 1]}
CANADIAN = {"characters": ["austin", "laurie", "rich"], "teams": [1, 0, 1]}


@pytest.fixture
def hall(tmp_path, catalog):
    h = Hall(tmp_path, ratings=lambda game: {name_key(n): r for n, r in RATING.items()},
             catalog=catalog)
    yield h
    h.close()


@pytest.fixture
def director(hall):
    return DirectorClient(hall.client())


def create(director, game, options, players, tables, fmt="swiss", rounds=2, **more):
    body = {"name": "Doubles night", "game": game, "options": options, "format": fmt,
            "players": players, "tables": tables, **more}
    if fmt == "swiss":
        body["rounds"] = rounds
    answer = director.post("/api/events", body)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def start(director, event):
    answer = director.post(f"/api/events/{event['id']}/rounds", {}, eid=event["id"])
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def entry(offer, teams, places, match=1):
    """A table's results entry of the match it played from ``offer``: ``teams`` (player
    indexes) placed ``places`` (0 first), as companion/standings.py writes it."""
    return {"match": match, "game": offer["game"], "players": offer["players"],
            "standing": {"teams": teams, "places": places}, "started_at": 1764050000.0,
            "event": {**offer["event"], "offer": offer["offer"]}}


def report(hall, table, offer, teams, places):
    return hall.night.results(table, results_message(table, [entry(offer, teams, places)]))


def side_members(players, sides):
    return {s: {p for p, t in zip(players, sides, strict=True) if t == s} for s in set(sides)}


# --- doubles ---------------------------------------------------------------------------------


def test_doubles_teams_are_balanced_and_seated_as_the_teams_option_says(hall, director):
    event = start(director, create(director, "alakaslam", DOUBLES, EIGHT, ["t1", "t2"]))
    teams = [frozenset(t) for t in event["teams"]]
    assert event["lineup"] == "doubles" and all(len(t) == 2 for t in teams)
    assert sorted(n for t in teams for n in t) == sorted(EIGHT)
    # Balanced: no way of pairing the eight gives rating totals closer together.
    def gap(split):
        totals = [sum(RATING[n] for n in t) for t in split]
        return max(totals) - min(totals)
    best = min(gap(s) for s in _pairs_splits(EIGHT))
    assert gap(teams) == best
    offers = hall.outbox.offers()
    assert set(offers) == {"t1", "t2"}
    for game in event["pairings"]:
        offer = offers[game["table"]]
        assert offer["players"] == game["players"] and len(offer["players"]) == 4
        # Seats 0 and 2 are side 0 (the option [0, 1, 0, 1]): one team each side.
        sides = side_members(offer["players"], DOUBLES["teams"])
        assert {frozenset(sides[0]), frozenset(sides[1])} <= set(teams)
        assert offer["options"]["teams"] == [0, 1, 0, 1]
        assert game["sides"] == [0, 1, 0, 1]
        assert " & " in game["label"] and " v " in game["label"]
        why = director.get(f"/api/events/{event['id']}/pairings/{game['id']}").get_json()["why"]
        assert "not met before" in why and "rating totals" in why


def test_a_doubles_win_counts_for_both_partners_and_partners_never_count_as_met(hall, director):
    event = start(director, create(director, "alakaslam", DOUBLES, EIGHT, ["t1", "t2"]))
    offers = hall.outbox.offers()
    winners = set()
    for game in event["pairings"]:
        offer = offers[game["table"]]
        # Side 0 (seats 0 and 2) wins the match; the standing lists the sides' seats.
        assert report(hall, game["table"], offer, [[0, 2], [1, 3]], [0, 1]) == 1
        winners |= {offer["players"][0], offer["players"][2]}
    state = director.event(event["id"])
    points = {s["name"]: s["points"] for s in state["standings"]}
    assert {n for n, p in points.items() if p == 1} == winners and len(winners) == 4
    assert all(p == 0 for n, p in points.items() if n not in winners)
    assert all(g["status"] == "done" for g in state["pairings"])
    # Round 2 pairs teams that have not met: the winners' two teams face each other.
    state = start(director, state)
    partner = {n: t for t in state["teams"] for n in t}
    for game in state["pairings"]:
        sides = side_members(game["players"], game["sides"])
        a, b = sides[0], sides[1]
        assert all(set(partner[n]) == a for n in a) and all(set(partner[n]) == b for n in b)
        assert (a <= winners) == (b <= winners)  # score groups kept together
        why = director.get(f"/api/events/{event['id']}/pairings/{game['id']}").get_json()["why"]
        assert "not met before" in why
        assert ("both 1 point" in why) == (a <= winners) and ("both 0 points" in why) != (
            a <= winners)
    # Buchholz: the points of the two opponents met, never the partner's.
    first = {n: next(g for g in event["pairings"] if n in g["players"]) for n in EIGHT}
    for s in state["standings"]:
        game = first[s["name"]]
        mine = game["sides"][game["players"].index(s["name"])]
        opponents = [p for p, t in zip(game["players"], game["sides"], strict=True) if t != mine]
        assert s["buchholz"] == sum(points[o] for o in opponents)


def test_a_team_bye_gives_both_partners_the_point(hall, director):
    event = start(director, create(director, "alakaslam", DOUBLES, EIGHT[:6], ["t1"]))
    byes = [g for g in event["pairings"] if g["bye"]]
    assert len(byes) == 2 and len(event["pairings"]) == 3
    pair = {byes[0]["players"][0], byes[1]["players"][0]}
    assert pair in [set(t) for t in event["teams"]]
    points = {s["name"]: s["points"] for s in event["standings"]}
    assert all(points[n] == 1 for n in pair) and sum(points.values()) == 2
    assert "bye" in byes[0]["why"] and byes[0]["why"] == byes[1]["why"]
    # Round 2: the bye goes to another team (one bye per team while one can be avoided).
    game = next(g for g in event["pairings"] if not g["bye"])
    answer = director.post(f"/api/events/{event['id']}/pairings/{game['id']}/result",
                           {"ranks": [1, 2, 1, 2]}, eid=event["id"])
    assert answer.status_code == 200, answer.get_json()
    event = start(director, answer.get_json())
    again = {g["players"][0] for g in event["pairings"] if g["bye"]}
    assert len(again) == 2 and not again & pair


def test_a_doubles_round_robin_pairs_teams(hall, director):
    event = start(director, create(director, "alakaslam", DOUBLES, EIGHT[:4], ["t1"],
                                   fmt="round-robin"))
    assert event["rounds_planned"] == 1 and len(event["pairings"]) == 1
    assert len(event["pairings"][0]["players"]) == 4


def test_the_director_enters_a_doubles_result_by_side_and_teammates_share_it(hall, director):
    event = start(director, create(director, "alakaslam", DOUBLES, EIGHT[:4], ["t1"]))
    game = event["pairings"][0]
    path = f"/api/events/{event['id']}/pairings/{game['id']}/result"
    split = director.post(path, {"ranks": [1, 1, 2, 2]}, eid=event["id"])
    assert split.status_code == 400 and "teammates share a rank" in split.get_json()["error"]
    assert director.event(event["id"])["pairings"][0]["result"] is None
    ok = director.post(path, {"ranks": [2, 1, 2, 1]}, eid=event["id"])
    assert ok.status_code == 200, ok.get_json()
    points = {s["name"]: s["points"] for s in ok.get_json()["standings"]}
    assert points[game["players"][1]] == points[game["players"][3]] == 1
    assert points[game["players"][0]] == points[game["players"][2]] == 0


def test_doubles_needs_an_even_count_and_keeps_its_teams(hall, director):
    event = create(director, "alakaslam", DOUBLES, EIGHT[:7], ["t1"])
    assert event["can_start"] is False and "even number" in event["start_problem"]
    answer = director.post(f"/api/events/{event['id']}/rounds", {}, eid=event["id"])
    assert answer.status_code == 409
    director.post(f"/api/events/{event['id']}/players", {"players": ["Hal"]}, eid=event["id"])
    event = start(director, director.event(event["id"]))
    late = director.post(f"/api/events/{event['id']}/players", {"players": ["Ivy"]},
                         eid=event["id"])
    assert late.status_code == 409 and "teams" in late.get_json()["error"]


@pytest.mark.parametrize("body, words", [
    ({"game": "alakaslam", "options": {"characters": ["austin", "laurie", "rich"]},
      "format": "elimination"}, "format is swiss"),
    ({"game": "alakazoo", "lineup": "tables", "format": "round-robin"}, "format is swiss"),
    ({"game": "center-court", "lineup": "tables", "format": "swiss", "rounds": 2},
     "plays singles"),
    ({"game": "alakaslam", "options": {"characters": ["austin", "laurie", "rich", "toots"]},
      "lineup": "singles", "format": "swiss", "rounds": 2}, "is doubles"),
    ({"game": "alakaslam", "options": {"characters": ["austin", "laurie", "rich", "toots"],
                                       "teams": [0, 0, 0, 1]}, "format": "swiss", "rounds": 2},
     "options:"),
    ({"game": "alakazoo", "lineup": "tables", "options": {"first_player": 3},
      "format": "swiss", "rounds": 2}, "options:"),
    ({"game": "alakazoo", "lineup": "quads", "format": "swiss", "rounds": 2}, "lineup is one"),
])
def test_a_lineup_the_game_cannot_play_is_refused(hall, director, body, words):
    answer = director.post("/api/events", {"name": "N", "players": EIGHT, **body})
    assert answer.status_code == 400 and words in answer.get_json()["error"], answer.get_json()
    assert director.get("/api/events").get_json()["events"] == []


def test_a_game_plays_the_lineups_its_kit_allows(catalog, first_to_game):
    """The hall names no game: what a game can be played as at a club night, and how its
    options fit a table, are its kit's (one against one when it says nothing)."""
    assert lineup_of(catalog, "first-to", {}, None) == "singles"
    with pytest.raises(ValueError, match="first-to plays singles, not tables"):
        lineup_of(catalog, "first-to", {}, "tables")
    seated = CATALOG.plus(replace(first_to_game, lineups=Lineups(
        ("singles", "tables"), seated=lambda options, seats: {**options, "seats": seats})))
    assert lineup_of(seated, "first-to", {}, "tables") == "tables"
    assert options_for(seated, "first-to", {"target": 3}, 3) == {"target": 3, "seats": 3}
    assert options_for(seated, "center-court", {"sets": 1}, 2) == {"sets": 1}
    with pytest.raises(ValueError, match="AlakaSLAM with these options is doubles, not"):
        lineup_of(CATALOG, "alakaslam", {"characters": ["austin", "laurie", "rich", "toots"]},
                  "singles")


def test_the_director_s_form_offers_each_game_what_it_can_be_played_as(
        catalog, first_to_game, hall):
    """The game menu of the new event's form carries each game of the catalog with its
    lineups from its kit, which the page offers when the game is chosen (a browser test
    plays it): the rulebooks seat AlakaSLAM two to four, Alakazoo two to four each for
    themselves; a game whose kit names none is played one against one."""
    page = hall.client().get("/director").get_data(as_text=True)
    offered = dict(re.findall(r'<option value="([\w-]+)" data-lineups="([\w ]*)"', page))
    assert list(offered) == list(catalog)
    assert {g: offered[g] for g in ("center-court", "wizard-dodgeball", "alakaslam",
                                    "alakazoo", first_to_game.id)} == {
        "center-court": "singles", "wizard-dodgeball": "singles",
        "alakaslam": "singles doubles canadian", "alakazoo": "singles tables",
        "first-to": "singles"}


# --- Canadian doubles ------------------------------------------------------------------------


def test_canadian_doubles_seats_the_best_rated_alone_and_rests_the_count_left(hall, director):
    seven = EIGHT[:7]
    event = start(director, create(director, "alakaslam", CANADIAN, seven, ["t1", "t2"]))
    games = [g for g in event["pairings"] if not g["bye"]]
    byes = [g for g in event["pairings"] if g["bye"]]
    assert len(games) == 2 and len(byes) == 1
    assert sorted(n for g in event["pairings"] for n in g["players"]) == sorted(seven)
    assert byes[0]["players"] == ["Gus"]  # lowest rated; all have 0 byes and 0 points
    offers = hall.outbox.offers()
    for g in games:
        offer = offers[g["table"]]
        alone = offer["players"][1]  # the option [1, 0, 1]: seat 1 is alone on side 0
        assert RATING[alone] == max(RATING[n] for n in offer["players"])
        assert g["sides"] == [1, 0, 1]
        assert report(hall, g["table"], offer, [[1], [0, 2]], [1, 0]) == 1  # the pair wins
    state = director.event(event["id"])
    points = {s["name"]: s["points"] for s in state["standings"]}
    for g in games:
        assert points[g["players"][1]] == 0
        assert points[g["players"][0]] == points[g["players"][2]] == 1
    # Round 2: Gus has had his bye; another player rests.
    state = start(director, state)
    rest = [g["players"][0] for g in state["pairings"] if g["bye"]]
    assert len(rest) == 1 and rest != ["Gus"]


# --- Alakazoo tables ---------------------------------------------------------------------------


@pytest.mark.parametrize("count, sizes", [(10, [3, 3, 4]), (9, [3, 3, 3]), (8, [4, 4]),
                                          (7, [3, 4]), (6, [3, 3]), (5, [2, 3])])
def test_alakazoo_tables_seat_everyone_three_or_four_to_a_table(hall, director, count, sizes):
    names = list(RATING)[:count]
    tables = [f"t{i}" for i in range(1, 5)]
    event = start(director, create(director, "alakazoo", {"portals": [3, 4, 5, 6]}, names,
                                   tables, lineup="tables"))
    assert event["lineup"] == "tables"
    assert sorted(len(g["players"]) for g in event["pairings"]) == sizes
    assert sorted(n for g in event["pairings"] for n in g["players"]) == sorted(names)
    offers = hall.outbox.offers()
    for g in event["pairings"]:
        offer = offers[g["table"]]
        assert offer["players"] == g["players"] and g["sides"] == []
        assert offer["options"]["portals"] == [3, 4, 5, 6][:len(g["players"])]
        why = director.get(f"/api/events/{event['id']}/pairings/{g['id']}").get_json()["why"]
        assert "average rating" in why


def test_alakazoo_shared_places_share_the_points(hall, director):
    names = EIGHT[:4]
    event = start(director, create(director, "alakazoo", {}, names, ["t1"], lineup="tables"))
    game = event["pairings"][0]
    offer = hall.outbox.offers()["t1"]
    # Seats 0 and 1 tie for first, seat 2 third, seat 3 fourth (competition places).
    assert report(hall, "t1", offer, [[0], [1], [2], [3]], [0, 0, 2, 3]) == 1
    state = director.event(event["id"])
    assert state["pairings"][0]["result"]["ranks"] == [1, 1, 3, 4]
    points = {s["name"]: s["points"] for s in state["standings"]}
    p = game["players"]
    # Each player scores the average of a two-player game against each other player.
    assert points[p[0]] == points[p[1]] == pytest.approx((0.5 + 1 + 1) / 3)
    assert points[p[2]] == pytest.approx(1 / 3) and points[p[3]] == 0


# --- properties ------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(2, 14), ratings=st.lists(st.integers(500, 2500), min_size=14,
                                                  max_size=14),
       lineup=st.sampled_from(["tables", "canadian"]))
def test_every_round_seats_every_player_once_and_byes_go_round(count, ratings, lineup):
    names = [f"P{i}" for i in range(count)]
    rating = {name_key(n): r for n, r in zip(names, ratings, strict=False)}
    game, options = (("alakazoo", {}) if lineup == "tables"
                     else ("alakaslam", CANADIAN))
    rounds = 3
    with tempfile.TemporaryDirectory() as folder:
        night = Night(Path(folder), PREFIX, Outbox(), lambda g: rating, catalog=CATALOG)
        body = {"name": "N", "game": game, "options": options, "format": "swiss",
                "rounds": rounds, "players": names, "tables": [], "lineup": lineup}
        state = night.create(body)
        byes = dict.fromkeys(names, 0)
        for _number in range(1, rounds + 1):
            if not state["can_start"]:
                assert lineup == "canadian" and count < 3
                break
            state = night.start_round(state["id"], {"version": state["version"]})
            seated = [n for g in state["pairings"] for n in g["players"]]
            assert sorted(seated) == sorted(names)  # each exactly once
            sizes = [len(g["players"]) for g in state["pairings"] if not g["bye"]]
            rest = [g["players"][0] for g in state["pairings"] if g["bye"]]
            if lineup == "tables":
                assert not rest
                assert all(3 <= s <= 4 for s in sizes) or count in (2, 5)
            else:
                assert set(sizes) == {3} and len(rest) == count % 3
            for n in rest:
                byes[n] += 1
            # Nobody has a second bye while someone here has had none.
            assert max(byes.values()) - min(byes.values()) <= 1
            for g in state["pairings"]:
                if not g["bye"]:
                    state = night.enter_result(state["id"], g["id"], {
                        "version": state["version"],
                        "ranks": _ranks(g)})
        night.close()


def _ranks(game):
    """Side 0 (or seat 0) wins; the rest share second place."""
    if game["sides"]:
        return [1 if s == 0 else 2 for s in game["sides"]]
    return [1] + [2] * (len(game["players"]) - 1)


def _pairs_splits(names):
    if not names:
        yield []
        return
    first, rest = names[0], names[1:]
    for mate in rest:
        left = [n for n in rest if n != mate]
        for tail in _pairs_splits(left):
            yield [frozenset((first, mate)), *tail]


def test_offers_are_json_the_table_starts(hall, director):
    """Every offer of a doubles and a tables event starts on a table: the table's own
    check of an offer (companion/offers.py) takes it."""
    from companion.offers import parse_offer
    start(director, create(director, "alakaslam", DOUBLES, EIGHT, ["t1", "t2"]))
    start(director, create(director, "alakazoo", {}, EIGHT[:7], ["t3", "t4"], lineup="tables"))
    for table, offer in hall.outbox.offers().items():
        parsed = parse_offer(json.dumps(offer).encode(), CATALOG)
        assert parsed.players == tuple(offer["players"]), table
    assert len(hall.outbox.offers()) == 4


def test_a_hall_restarted_mid_round_keeps_the_teams_and_counts_the_sides(tmp_path):
    """The lineup, the teams and each game's seats come back from the database: a result
    that arrives after the restart counts by side."""
    rating = {name_key(n): r for n, r in RATING.items()}
    outbox = Outbox()
    night = Night(tmp_path, PREFIX, outbox, lambda g: rating, catalog=CATALOG)
    state = night.create({"name": "N", "game": "alakaslam", "options": DOUBLES,
                          "format": "swiss", "rounds": 2, "players": EIGHT[:4],
                          "tables": ["t1"]})
    state = night.start_round(state["id"], {"version": state["version"]})
    night.close()
    night = Night(tmp_path, PREFIX, outbox, lambda g: rating, catalog=CATALOG)
    again = night.state(state["id"])
    assert again["teams"] == state["teams"] and again["pairings"] == state["pairings"]
    offer = outbox.offers()["t1"]
    assert night.results("t1", results_message("t1", [entry(offer, [[0, 2], [1, 3]],
                                                             [1, 0])])) == 1
    points = {s["name"]: s["points"] for s in night.state(state["id"])["standings"]}
    assert points == {n: float(i % 2) for i, n in enumerate(offer["players"])}
    night.close()
