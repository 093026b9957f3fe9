"""Players in the table's store, and ratings per game derived from the finished matches."""

from __future__ import annotations

import contextlib
import io
import json
import random
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from companion import matchfile
from companion.errors import IllegalAction, InvalidAction, UnknownPlayer
from companion.games.base import name_key
from companion.ratings import (
    PROVISIONAL,
    KeptRatings,
    Ratings,
    finished_mark,
    kept_table_ratings,
    table_ratings,
)
from companion.standings import standing
from companion.store import FINISHED, Store
from companion.table import Table
from tests.players_support import alakaslam, alakazoo, center_court, dodgeball, random_match
from tests.support import CATALOG
from web.reads import Reads

NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn"]


def reference(played: list[dict]) -> dict[str, dict[str, tuple[float, float, int, int]]]:
    """The ratings computed here, straight with openskill: per game, per name key,
    (mu, sigma, matches, wins)."""
    model = PlackettLuce()
    ratings: dict[str, dict[str, object]] = {}
    counts: dict[str, dict[str, list[int]]] = {}
    for m in played:
        game = ratings.setdefault(m["game"], {})
        count = counts.setdefault(m["game"], {})
        keys = [name_key(n) for n in m["players"]]
        for k in keys:
            game.setdefault(k, model.rating())
            count.setdefault(k, [0, 0])
        teams = [[game[keys[i]] for i in team] for team in m["teams"]]
        after = model.rate(teams, ranks=m["places"])
        for team, place, rated in zip(m["teams"], m["places"], after, strict=True):
            for i, r in zip(team, rated, strict=True):
                game[keys[i]] = r
                count[keys[i]][0] += 1
                count[keys[i]][1] += place == 0
    return {g: {k: (r.mu, r.sigma, *counts[g][k]) for k, r in rs.items()}
            for g, rs in ratings.items()}


def computed(store: Store) -> dict[str, dict[str, tuple[float, float, int, int]]]:
    ratings = table_ratings(store, CATALOG)
    return {g: {k: (r.mu, r.sigma, r.matches, r.wins) for k, r in rs.items()}
            for g, rs in ratings.games.items() if rs}


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        a[g].keys() == b[g].keys() and all(
            x[2:] == y[2:] and x[0] == pytest.approx(y[0], abs=1e-9)
            and x[1] == pytest.approx(y[1], abs=1e-9)
            for x, y in ((a[g][k], b[g][k]) for k in a[g]))
        for g in a)


# --- players ------------------------------------------------------------------------


def test_a_player_is_recognised_whatever_the_case_and_spaces(memory_store):
    table = Table(memory_store, CATALOG, rng=random.Random(1))
    center_court(table, ["Ann Lee", "Bob"], 0)
    table.start({"game": "center-court", "players": ["  ann   LEE ", "bob"]})
    assert table.snapshot.match["players"] == ["Ann Lee", "Bob"]
    assert [p.name for p in memory_store.players()] == ["Ann Lee", "Bob"]
    assert [p.matches for p in memory_store.players()] == [2, 2]


def test_rename_follows_through_the_history_the_table_and_the_export(memory_store):
    table = Table(memory_store, CATALOG, rng=random.Random(1))
    center_court(table, ["Ann", "Bob"], 0)
    table.start({"game": "center-court", "players": ["Bob", "Ann"]})
    snapshot = table.rename_player("ann", "Annie")
    assert snapshot.match["players"] == ["Bob", "Annie"]
    assert snapshot.change["op"] == "players"
    assert [m.players for m in memory_store.history()] == [("Bob", "Annie"), ("Annie", "Bob")]
    exported = matchfile.export(memory_store.load(1), CATALOG)
    assert json.loads(exported.splitlines()[0])["players"] == ["Annie", "Bob"]
    assert table_ratings(memory_store, CATALOG).board("center-court")[0].name == "Annie"
    # Only the case: the same player shown differently.
    table.rename_player("annie", "ANNIE")
    assert {p.name for p in memory_store.players()} == {"Bob", "ANNIE"}
    # A table opened afresh resumes the renamed match exactly.
    assert Table(memory_store, CATALOG).snapshot == table.snapshot


@pytest.mark.parametrize(("old", "new", "error", "reason"), [
    ("Ann", "", InvalidAction, "non-empty"),
    ("Ann", "x" * 17, InvalidAction, "at most 16"),
    ("Ann", "bell\x07", InvalidAction, "printable"),
    ("Ann", 7, InvalidAction, "non-empty string"),
    ("Ann", "bob", IllegalAction, "merge"),
    ("Zed", "Zoe", UnknownPlayer, "no player"),
])
def test_a_bad_rename_is_refused_with_the_reason_and_changes_nothing(memory_store, old, new,
                                                                      error, reason):
    table = Table(memory_store, CATALOG, rng=random.Random(1))
    center_court(table, ["Ann", "Bob"], 0)
    before = (memory_store.version, memory_store.history(), memory_store.names())
    with pytest.raises(error, match=reason):
        table.rename_player(old, new)
    assert (memory_store.version, memory_store.history(), memory_store.names()) == before


def test_merge_makes_two_names_one_player_and_refuses_two_seats_of_one_match(memory_store):
    table = Table(memory_store, CATALOG, rng=random.Random(1))
    center_court(table, ["Ann", "Bob"], 0)
    center_court(table, ["Annie", "Cleo"], 0)
    version = memory_store.version
    with pytest.raises(IllegalAction, match="both played in match 1"):
        table.merge_players("Ann", "bob")
    with pytest.raises(IllegalAction, match="one player already"):
        table.merge_players("Ann", "ANN")
    with pytest.raises(UnknownPlayer):
        table.merge_players("Ann", "Zed")
    assert memory_store.version == version
    table.merge_players("annie", "Ann")
    assert [m.players for m in memory_store.history()] == [("Ann", "Cleo"), ("Ann", "Bob")]
    board = table_ratings(memory_store, CATALOG).board("center-court")
    assert (board[0].name, board[0].matches, board[0].wins) == ("Ann", 2, 2)
    assert "annie" not in memory_store.names()


def test_every_match_shape_gives_its_standing(memory_store):
    table = Table(memory_store, CATALOG, rng=random.Random(1))
    center_court(table, ["Ann", "Bob"], 1)
    alakaslam(table, ["Ann", "Bob", "Cleo"], 1)
    alakaslam(table, ["Ann", "Bob", "Cleo", "Dan"], 0)
    dodgeball(table, ["Owls", "Newts"], 1)
    alakazoo(table, ["Ann", "Bob", "Cleo", "Dan"], [2, 0, 2, 1])
    totals = [p["total"] for p in table.snapshot.match["view"]["players"]]
    assert totals == [4, 0, 2, 1]  # own creature +1 each, +1 each space filled first
    got = [(m.game, m.standing) for m in memory_store.finished()]
    # Each team's own tiebreak too: a set lost 0-6 (-1 set, -6 games), points differences,
    # the jury's points (none given in this short game).
    assert got == [
        ("center-court", {"teams": [[0], [1]], "places": [1, 0], "tiebreaks": [-1.06, 1.06]}),
        ("alakaslam", {"teams": [[0], [1, 2]], "places": [1, 0], "tiebreaks": [-1, 1]}),
        ("alakaslam", {"teams": [[0, 1], [2, 3]], "places": [0, 1], "tiebreaks": [1, -1]}),
        ("wizard-dodgeball", {"teams": [[0], [1]], "places": [1, 0], "tiebreaks": [-1, 1]}),
        ("alakazoo", {"teams": [[0], [1], [2], [3]], "places": [0, 3, 1, 2],
                      "tiebreaks": [0, 0, 0, 0]}),
    ]
    ratings = table_ratings(memory_store, CATALOG)
    zoo = {r.name: r for r in ratings.board("alakazoo")}
    assert zoo["Ann"].form == ["W"] and zoo["Bob"].form == ["L"] and zoo["Ann"].wins == 1
    assert zoo["Ann"].provisional and PROVISIONAL > 1
    assert ratings.of("ann").keys() == {"center-court", "alakaslam", "alakazoo"}


def test_a_seeded_random_history_of_every_game_and_shape_equals_openskill_itself(
        memory_store):
    table = Table(memory_store, CATALOG, rng=random.Random(7))
    rng = random.Random(2024)
    played = [random_match(table, rng, NAMES) for _ in range(120)]
    shapes = {(m["game"], tuple(len(t) for t in m["teams"])) for m in played}
    assert shapes >= {("center-court", (1, 1)), ("wizard-dodgeball", (1, 1)),
                      ("alakaslam", (1, 1)), ("alakaslam", (1, 2)), ("alakaslam", (2, 2)),
                      ("alakazoo", (1, 1)), ("alakazoo", (1, 1, 1)),
                      ("alakazoo", (1, 1, 1, 1))}
    assert any(len(set(m["places"])) < len(m["places"]) for m in played
               if m["game"] == "alakazoo"), "no free-for-all with a tie"
    assert same(computed(memory_store), reference(played))
    # The figure shown is the model's own ordinal.
    model = PlackettLuce()
    for board in table_ratings(memory_store, CATALOG).games.values():
        for r in board.values():
            assert r.ordinal == pytest.approx(model.rating(mu=r.mu, sigma=r.sigma).ordinal())


def test_an_abandoned_match_changes_nothing(memory_store):
    table = Table(memory_store, CATALOG, rng=random.Random(3))
    rng = random.Random(3)
    for _ in range(10):
        random_match(table, rng, NAMES)
    before = computed(memory_store)
    table.start({"game": "center-court", "players": ["Ann", "Bob"]})
    for _ in range(12):
        table.act({"type": "point", "winner": 0})
    assert computed(memory_store) == before
    table.abandon()
    assert computed(memory_store) == before


def test_a_database_from_before_players_is_upgraded_and_rated_alike(tmp_path):
    path = tmp_path / "companion.db"
    with Store(path) as store:
        table = Table(store, CATALOG, rng=random.Random(5))
        rng = random.Random(5)
        for _ in range(12):
            random_match(table, rng, NAMES)
        expected = computed(store)
    # As schema 1 left it: no players, no standings.
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("DROP TABLE players")
        db.execute("ALTER TABLE matches DROP COLUMN standing")
        db.execute("DELETE FROM meta WHERE key = 'roster'")
        db.execute("PRAGMA user_version = 1")
    db.close()
    with Store(path) as store:
        assert {name_key(p.name) for p in store.players()} <= {name_key(n) for n in NAMES}
        assert all(m.standing is None for m in store.finished())
        assert same(computed(store), expected)


# --- any order of operations -------------------------------------------------------------

OPS = st.lists(st.tuples(st.sampled_from(["play", "play", "undo", "redo", "abandon", "merge",
                                          "import", "rename"]),
                         st.integers(0, 2**32 - 1)), max_size=14)


def operate(op: str, seed: int, table: Table, other: Table, played: dict[int, dict],
            undone: dict[int, dict]) -> None:
    """One operation on ``table`` (``other``: a scratch table whose matches are imported),
    kept in the test's own account: ``played`` (the finished matches by id) and
    ``undone`` (results taken back)."""
    store, scratch = table.store, other.store
    rng = random.Random(seed)
    current = table.snapshot.match
    if op == "play":
        if current is not None and current["status"] != FINISHED:
            table.abandon()
        m = random_match(table, rng, NAMES)
        played[table.match_id] = m
    elif op == "undo" and current is not None and current["status"] == FINISHED:
        table.undo()
        undone[current["id"]] = played.pop(current["id"])
    elif op == "redo" and current is not None and current["can_redo"] and \
            current["status"] != FINISHED:
        table.redo()
        played[current["id"]] = undone.pop(current["id"])
    elif op == "abandon" and current is not None and current["status"] != FINISHED:
        table.abandon()
    elif op in ("merge", "rename"):
        names = sorted(store.names().values())
        if len(names) < 2:
            return
        a, b = rng.sample(names, 2)
        try:
            if op == "merge":
                table.merge_players(a, b)
            else:
                b = rng.choice(["Zoe", "Yann", a.upper(), b])
                table.rename_player(a, b)
        except IllegalAction:
            return
        shown = store.names()[name_key(b)]
        for m in [*played.values(), *undone.values()]:
            m["players"] = [shown if name_key(n) == name_key(a) else n
                            for n in m["players"]]
    elif op == "import":
        if current is not None and current["status"] != FINISHED:
            return
        m = random_match(other, rng, NAMES)
        text = matchfile.export(scratch.load(other.match_id), CATALOG)
        file = matchfile.read(io.StringIO(text), random.Random(0), CATALOG)
        match = file.match
        winner = match.game.winner(match.state)
        new_id = store.import_match(
            match.start.to_json(), list(match.events), status=FINISHED, winner=winner,
            summary=match.game.summary(match.state), started_at=file.started,
            standing=standing(CATALOG.kit(match.start.game), match.view()))
        m["players"] = list(store.load(new_id).start["players"])
        played[new_id] = m


@settings(max_examples=25, deadline=None)
@given(OPS)
def test_ratings_after_any_operations_equal_a_fresh_computation_from_the_history(ops):
    with Store(":memory:") as store, Store(":memory:") as scratch:
        table = Table(store, CATALOG, rng=random.Random(0))
        other = Table(scratch, CATALOG, rng=random.Random(1))
        played: dict[int, dict] = {}  # the test's own account: finished matches by id
        undone: dict[int, dict] = {}
        for op, seed in ops:
            operate(op, seed, table, other, played, undone)
        # The test's own account, in the order played, straight through openskill ...
        order = sorted(played, key=lambda i: (store.load(i).started_at, i))
        assert same(computed(store), reference([played[i] for i in order]))
        # ... and a fresh store made of the history's match files gives the same.
        with Store(":memory:") as fresh:
            for m in store.finished():  # in the order played
                file = matchfile.read(io.StringIO(matchfile.export(store.load(m.id), CATALOG)),
                                      random.Random(0), CATALOG)
                match = file.match
                fresh.import_match(match.start.to_json(), list(match.events), status=FINISHED,
                                   winner=match.game.winner(match.state),
                                   summary=match.game.summary(match.state),
                                   started_at=file.started,
                                   standing=standing(CATALOG.kit(match.start.game), match.view()))
            assert same(computed(fresh), computed(store))


def whole(ratings: Ratings) -> dict:
    """Everything a rating holds, every match of its course included, by game and key."""
    return {g: {k: (r.name, r.mu, r.sigma, r.ordinal, r.matches, r.wins, r.played)
                for k, r in board.items()} for g, board in ratings.games.items() if board}


@settings(max_examples=25, deadline=None)
@given(OPS, st.lists(st.booleans(), min_size=14, max_size=14), st.integers(1, 3))
def test_ratings_kept_up_to_date_equal_a_fresh_computation_after_any_operations(ops, looks,
                                                                                 slice_):
    # The table's reads bring their ratings up to date a change at a time (a match finished
    # at the end: one update; a change to the past: again from a checkpoint), looked at
    # after some operations only (an undo and a redo between two looks go unseen) ...
    with Store(":memory:") as store, Store(":memory:") as scratch:
        table = Table(store, CATALOG, rng=random.Random(0))
        other = Table(scratch, CATALOG, rng=random.Random(1))
        reads = Reads(table)
        kept = KeptRatings(slice_, between=lambda: None)  # ... and checkpoints every few
        played: dict[int, dict] = {}
        undone: dict[int, dict] = {}
        for (op, seed), look in zip(ops, looks, strict=False):
            operate(op, seed, table, other, played, undone)
            if op == "import":  # the command line's, into a store the companion then opens
                table = Table(store, CATALOG, rng=random.Random(0))
                reads = Reads(table)
            if look:
                fresh = whole(table_ratings(store, CATALOG))
                assert whole(reads.ratings()) == fresh
                marks = [finished_mark(m) for m in store.finished()]
                assert whole(kept_table_ratings(kept, store, CATALOG, marks, store.roster)) == fresh
        assert whole(reads.ratings()) == whole(table_ratings(store, CATALOG))


def test_a_match_finished_at_the_end_costs_one_update_and_an_undo_a_slice(memory_store):
    table = Table(memory_store, CATALOG, rng=random.Random(3))
    kept = KeptRatings(4, between=lambda: None)

    def update() -> Ratings:
        marks = [finished_mark(m) for m in memory_store.finished()]
        return kept_table_ratings(kept, memory_store, CATALOG, marks, memory_store.roster)

    for i in range(10):
        alakaslam(table, NAMES[i % 3:i % 3 + 2], i % 2)
    before = update()
    assert kept.rated == 10
    alakaslam(table, ["Ann", "Dan"], 0)
    after = update()
    assert kept.rated == 1  # the new match alone
    assert before.of("Ann")["alakaslam"].matches + 1 == after.of("Ann")["alakaslam"].matches
    table.undo()  # the 11th taken back: from the checkpoint after the 8th
    assert whole(update()) == whole(before) and kept.rated == 2
    table.rename_player("Bob", "Robert")  # the past rewritten: all again
    assert whole(update()) == whole(table_ratings(memory_store, CATALOG)) and kept.rated == 10


def test_the_results_sent_to_the_hall_change_only_when_a_result_does(memory_store):
    table = Table(memory_store, CATALOG, rng=random.Random(1))
    assert table.snapshot.results == ()
    center_court(table, ["Ann", "Bob"], 0)
    sent = table.snapshot.results
    assert [(r["match"], r["players"], r["standing"]["places"]) for r in sent] == \
        [(1, ["Ann", "Bob"], [0, 1])]
    table.start({"game": "center-court", "players": ["Ann", "Cleo"], "options": {"sets": 1}})
    table.act({"type": "point", "winner": 0})
    assert table.snapshot.results is sent  # a point is no result: nothing to send again
    table.abandon()
    assert table.snapshot.results is sent
    table.rename_player("bob", "Bobby")
    assert table.snapshot.results[0]["players"] == ["Ann", "Bobby"]
    alakaslam(table, ["Ann", "Bob", "Cleo"], 1)
    assert [r["match"] for r in table.snapshot.results] == [1, 3]
    table.undo()
    assert [r["match"] for r in table.snapshot.results] == [1]
    assert Table(memory_store, CATALOG).snapshot.results == table.snapshot.results


def test_each_games_own_tiebreak_is_read_from_its_finished_view():
    """The catalog's tiebreaks (companion/games/<game>/card.py) from views as the games
    give them; a game judged without them (Alakazoo before its jury) gives none."""
    kit = CATALOG.kit

    court = kit("center-court").tiebreaks
    # 6-4 3-6 7-6: two sets to one, 16 games to 16; a match tiebreak is a set of one game.
    assert court({"sets": [[6, 4], [3, 6], [7, 6]]}) == [1.0, -1.0]
    assert court({"sets": [[6, 1], [6, 2]]}) == [2.09, -2.09]
    assert court({"sets": [[4, 6], [6, 4], [0, 1]]}) == [-1.01, 1.01]
    slam = kit("alakaslam").tiebreaks
    assert slam({"sides": [{"players": [0, 1], "score": 21}, {"players": [2, 3], "score": 15}]}
                ) == [6, -6]
    dodge = kit("wizard-dodgeball").tiebreaks
    assert dodge({"variant": "points", "sides": [{"score": 3, "on_court": 1},
                                                 {"score": 7, "on_court": 4}]}) == [-4, 4]
    assert dodge({"variant": "elimination", "sides": [{"score": 0, "on_court": 2},
                                                      {"score": 0, "on_court": 0}]}) == [2, -2]
    zoo = kit("alakazoo").tiebreaks
    judged = [{"jury": {"total": 3}}, {"jury": {"total": 5}}, {"jury": {"total": 0}}]
    assert zoo({"players": judged}) == [3, 5, 0]
    assert zoo({"players": [{"jury": None}, {"jury": None}]}) is None
    # The standing leaves out what a game does not give.
    view = {"winner": [0], "players": [{"total": 4, "jury": None}, {"total": 1, "jury": None}]}
    assert standing(kit("alakazoo"), view) == {"teams": [[0], [1]], "places": [0, 1]}


def test_a_game_whose_kit_gives_no_standing_is_placed_winner_first(first_to_game):
    """The generic standing (companion/standings.py): each player alone, the winner (or
    the seats sharing the win) first, every other player second; none while it runs."""
    from companion.standings import generic

    assert first_to_game.standing is None
    assert standing(first_to_game, {"players": ["Ann", "Bob"], "winner": 1}) == \
        {"teams": [[0], [1]], "places": [1, 0]}
    assert standing(first_to_game, {"players": ["Ann", "Bob"], "winner": None}) is None
    assert generic({"players": ["Ann", "Bob", "Cy"], "winner": 2}) == \
        {"teams": [[0], [1], [2]], "places": [1, 1, 0]}
    assert generic({"players": ["Ann", "Bob", "Cy"], "winner": [0, 2]}) == \
        {"teams": [[0], [1], [2]], "places": [0, 1, 0]}
    assert generic({"sides": [{}, {}], "winner": 0}) == {"teams": [[0], [1]], "places": [0, 1]}
    assert generic({"players": ["Ann", "Bob", "Cy"], "winner": []}) is None


def test_a_database_keyed_before_names_were_folded_is_re_keyed_and_renames_find_everyone(
        tmp_path):
    """A schema 3 database keyed its players by a plain casefold: "Zoe\u0308" (a combining
    diaeresis) under "zoe\u0308", which today's key (composed) never finds. Opened now, every
    player is keyed again: a rename of "Zoë" reaches her matches, and two keys that fold
    alike are one player, whose merge orphans no result."""
    path = tmp_path / "companion.db"
    with Store(path) as store:
        table = Table(store, CATALOG, rng=random.Random(3))
        for players in (["Zoë", "Ann"], ["ÖZIL", "Ann"]):
            table.start({"game": "center-court", "players": players, "options": {"sets": 1}})
            while table.snapshot.match["status"] == "active":
                table.act({"type": "point", "winner": 0})
    old = "Zoe\u0308"
    with contextlib.closing(sqlite3.connect(path)) as db, db:  # as before folding left it
        for match_id, start in db.execute("SELECT id, start FROM matches").fetchall():
            record = json.loads(start)
            record["players"] = [old if p == "Zoë" else "Özil" if p == "ÖZIL" else p
                                 for p in record["players"]]
            db.execute("UPDATE matches SET start = ? WHERE id = ?", (json.dumps(record),
                                                                    match_id))
            db.execute("UPDATE journal SET event = ? WHERE match_id = ? AND op = 'start'",
                       (json.dumps(record), match_id))
        db.execute("DELETE FROM players")
        db.executemany("INSERT INTO players (key, name) VALUES (?, ?)",
                       [(old.casefold(), old), ("ann", "Ann"), ("özil", "Özil"),
                        ("o\u0308zil", "O\u0308zil")])
        db.execute("DROP TABLE IF EXISTS rulings")
        db.execute("PRAGMA user_version = 3")
    db.close()
    with Store(path) as store:
        table = Table(store, CATALOG)
        assert sorted(store.names()) == sorted({name_key("Zoë"), "ann", name_key("Özil")})
        table.rename_player("Zoë", "Zoë Smith")
        assert [m.players for m in store.history()][1] == ("Zoë Smith", "Ann")
        table.merge_players("O\u0308ZIL", "Zoë Smith")
        assert {m.players for m in store.history()} == {("Zoë Smith", "Ann")}
        wins = {r.name: r.wins for r in table_ratings(store, CATALOG).board("center-court")}
        assert wins == {"Zoë Smith": 2, "Ann": 0}
