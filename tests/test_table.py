"""The Table: commit before publish, refusals change nothing, resume, the writer thread."""

from __future__ import annotations

import random
import sqlite3
import threading
from contextlib import closing

import pytest

from companion.errors import IllegalAction, InvalidAction, MatchInProgress, NoMatch, StoreError
from companion.table import Table, TableRunner
from tests.support import CATALOG

START = {"game": "center-court", "players": ["Ann", "Bob"], "options": {"sets": 1}}
POINT_0 = {"type": "point", "winner": 0}


def win_match(table: Table, winner: int = 0) -> None:
    for _ in range(24):
        table.act({"type": "point", "winner": winner})


def test_an_empty_table(table):
    assert table.match is None
    assert table.snapshot.to_json() == {"version": 0, "epoch": table.snapshot.epoch,
                                        "match": None}
    assert table.snapshot.epoch > 0
    for change in (table.undo, table.redo, table.abandon):
        with pytest.raises(NoMatch, match="start one first"):
            change()
    with pytest.raises(NoMatch):
        table.act(POINT_0)


def test_start_publishes_the_state(table):
    seen = []
    table.subscribe(seen.append)
    snapshot = table.start(START)
    assert seen == [snapshot] and snapshot.version == 1
    match = snapshot.to_json()["match"]
    assert match["id"] == table.match_id and match["game"] == "center-court"
    assert match["players"] == ["Ann", "Bob"] and match["options"]["sets"] == 1
    assert match["status"] == "active" and not match["can_undo"] and not match["can_redo"]
    assert match["view"]["points"] == ["0", "0"]


def test_every_change_raises_the_version_and_is_published(table):
    seen = []
    table.subscribe(lambda s: seen.append(s.version))
    table.start(START)
    table.act(POINT_0)
    table.undo()
    table.redo()
    assert seen == [1, 2, 3, 4]


def test_unsubscribe_stops_the_calls(table):
    seen = []
    unsubscribe = table.subscribe(seen.append)
    unsubscribe()
    unsubscribe()  # twice is harmless
    table.start(START)
    assert seen == []


def test_a_failing_subscriber_does_not_stop_the_table(table, caplog):
    seen = []

    def broken(snapshot):
        raise RuntimeError("display unplugged")

    table.subscribe(broken)
    table.subscribe(seen.append)
    table.start(START)
    assert len(seen) == 1
    assert "display unplugged" in caplog.text


@pytest.mark.parametrize(("action", "error"), [
    ({"type": "serve", "card": 7}, InvalidAction),
    ({"type": "return", "card": 3}, IllegalAction),
    ("point", InvalidAction),
])
def test_a_refused_action_changes_nothing(table, store, action, error):
    table.start(START)
    seen = []
    table.subscribe(seen.append)
    before = table.snapshot
    with pytest.raises(error):
        table.act(action)
    assert table.snapshot == before and seen == []
    assert store.load(table.match_id).journal == ()


def test_a_failed_commit_changes_nothing(table, store):
    table.start(START)
    table.act(POINT_0)
    before = table.snapshot
    # The disk refuses writes, through SQLite itself.
    with closing(sqlite3.connect(store.path, isolation_level=None)) as other:
        other.execute("CREATE TRIGGER refuse BEFORE INSERT ON journal"
                      " BEGIN SELECT RAISE(ABORT, 'disk says no'); END")
    with pytest.raises(StoreError, match=f"{store.path}: SQLite reports: disk says no"):
        table.act(POINT_0)
    with pytest.raises(StoreError):
        table.undo()
    assert table.snapshot == before
    assert table.match.can_undo and not table.match.can_redo


class CountingRandom(random.Random):
    """A seeded RNG that counts the dice it rolls."""

    rolls = 0

    def choice(self, seq):
        self.rolls += 1
        return super().choice(seq)


def test_dice_are_never_rerolled_by_undo_and_redo(store):
    rng = CountingRandom(7)
    table = Table(store, CATALOG, rng=rng)
    table.start(START)
    table.act({"type": "serve", "card": 5})
    event = table.match.events[-1]
    assert rng.rolls == 1 and event["roll"] in (1, 2, 5, 6)
    table.undo()
    table.redo()
    assert rng.rolls == 1 and table.match.events[-1] == event


def test_a_new_action_ends_the_redo_history(table):
    table.start(START)
    table.act(POINT_0)
    table.undo()
    table.act({"type": "point", "winner": 1})
    assert not table.snapshot.match["can_redo"]
    with pytest.raises(IllegalAction, match="nothing to redo"):
        table.redo()


def test_undo_reopens_a_finished_match(table, store):
    table.start(START)
    win_match(table)
    assert table.snapshot.match["status"] == "finished"
    assert store.history()[0].status == "finished" and store.history()[0].winner == 0
    table.undo()
    assert table.snapshot.match["status"] == "active"
    assert store.history()[0].status == "active" and store.history()[0].winner is None


def test_one_unfinished_match_at_a_time(table):
    table.start(START)
    with pytest.raises(MatchInProgress):
        table.start(START)
    win_match(table, 1)
    table.start(START)  # a finished match is replaced
    assert table.snapshot.match["view"]["winner"] is None


def test_abandon_ends_the_match_and_empties_the_table(table, store):
    table.start(START)
    table.act(POINT_0)
    snapshot = table.abandon()
    assert snapshot.match is None
    assert store.history()[0].status == "abandoned"
    assert Table(store, CATALOG).match is None


def test_a_finished_match_cannot_be_abandoned(table):
    table.start(START)
    win_match(table)
    with pytest.raises(IllegalAction, match="over"):
        table.abandon()


def test_resume_is_exact_with_redo_history(table, store):
    table.start(START)
    table.act({"type": "serve", "card": 5, "roll": 5})
    table.act({"type": "serve", "card": 3})
    table.act({"type": "return", "card": 2})
    table.act(POINT_0)
    table.undo()
    resumed = Table(store, CATALOG)
    assert resumed.snapshot == table.snapshot
    assert resumed.match.state == table.match.state
    resumed.redo()
    table.redo()
    assert resumed.snapshot.match == table.snapshot.match


def test_a_bad_start_record_is_invalid(table):
    for record, message in [
        ({"game": "chess", "players": ["A", "B"]}, "unknown game 'chess'"),
        ({"game": "center-court"}, "'players'"),
        ({"game": "center-court", "players": ["A", "B"], "extra": 1}, "no field 'extra'"),
        (["center-court"], "JSON object"),
        ({"game": "center-court", "players": ["A", "B"], "started": "2024-05-01T18:02:11Z"},
         "'started' belongs to match files"),
        ({"game": None, "players": ["A", "B"]}, '"game" must be a game id'),
    ]:
        with pytest.raises(InvalidAction, match=message):
            table.start(record)
    assert table.snapshot.version == 0


def test_runner_serialises_calls_from_many_threads(table):
    with TableRunner(table) as runner:
        runner.call(lambda t: t.start({**START, "options": {"sets": 5}}))
        threads = [
            threading.Thread(target=lambda: [runner.call(lambda t: t.act(POINT_0))
                                             for _ in range(10)])
            for _ in range(4)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        assert table.snapshot.match["view"]["stats"][0]["points_won"] == 40
        assert table.version == 41


def test_runner_hands_errors_back_and_closes_idempotently(table):
    runner = TableRunner(table)
    with pytest.raises(NoMatch):
        runner.call(lambda t: t.act(POINT_0))
    assert runner.call(lambda t: threading.current_thread().name) == "table-writer"
    runner.close()
    runner.close()
    with pytest.raises(RuntimeError, match="closed"):
        runner.submit(lambda t: None)
