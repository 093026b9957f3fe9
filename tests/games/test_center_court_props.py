"""Property tests: random legal and illegal play on a real table and store."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    initialize,
    invariant,
    rule,
)

from companion.errors import IllegalAction
from companion.match import Match, StartRecord
from companion.store import Store
from companion.table import Table
from tests.games.table_machine import TableMachine
from tests.support import CATALOG

ROLLS = st.one_of(st.none(), st.sampled_from([1, 2, 5, 6]))


def progress(view: dict) -> tuple[int, ...]:
    """Counts that only ever rise in play: points won, sets won, sets played."""
    return (*(s["points_won"] for s in view["stats"]), *view["sets_won"], len(view["sets"]))


class CenterCourtTable(TableMachine):
    """Drives a Table like a careless host: any action, undo, redo, in any order."""

    progress = staticmethod(progress)

    @initialize(
        sets=st.sampled_from([1, 3, 5]),
        no_ad=st.booleans(),
        final_set=st.sampled_from(["tiebreak", "advantage", "match-tiebreak"]),
        first_server=st.sampled_from([0, 1]),
        seed=st.integers(0, 2**32),
    )
    def start(self, sets, no_ad, final_set, first_server, seed):
        self.open_table({
            "game": "center-court", "players": ["Ann", "Bob"],
            "options": {"sets": sets, "no_ad": no_ad, "final_set": final_set,
                        "first_server": first_server},
        }, seed)
        self.needed = sets // 2 + 1

    @rule(card=st.integers(1, 6), roll=ROLLS)
    def serve(self, card, roll):
        action = {"type": "serve", "card": card}
        if roll is not None and card not in (3, 4):
            action["roll"] = roll
        self.act(action)

    @rule(card=st.integers(1, 6))
    def return_volley(self, card):
        self.act({"type": "return", "card": card})

    @rule(winner=st.sampled_from([0, 1]), count=st.integers(1, 12))
    def points(self, winner, count):
        for _ in range(count):
            self.act({"type": "point", "winner": winner})

    @invariant()
    def one_winner_exactly_when_over(self):
        view = self.view
        won = [n >= self.needed for n in view["sets_won"]]
        if view["winner"] is None:
            assert not any(won)
            assert self.table.snapshot.match["legal"]
        else:
            event("a match was won")
            assert won == [view["winner"] == 0, view["winner"] == 1]
            assert self.table.snapshot.match["legal"] == []
            assert self.table.snapshot.match["status"] == "finished"

    @invariant()
    def the_view_says_what_is_being_played(self):
        view = self.view
        # A serve is due only when no ball is in play; "second" only after a fault.
        assert view["in_play"] == (view["rally_serve"] is not None)
        if view["serve"] == 2:
            assert not view["in_play"] and view["call"] == "fault"
        if view["winner"] is not None:
            assert_nothing_is_being_played(view)
        else:
            assert view["final_score"] is None

    @invariant()
    def the_panel_hints_agree_with_the_log(self):
        """``last_serve_card`` and ``rally_returns`` say what the event log says."""
        view, cards, returns = self.view, [None, None], None
        # The server of each serve is in the view only for the latest one, so
        # replay the log to attribute every serve to its player.
        replay = Match(StartRecord.create(self.table.match.start.to_json(), random.Random(0),
                                          CATALOG), CATALOG)
        for e in self.table.match.events:
            if e["type"] == "serve":
                cards[replay.view()["server"]] = e["card"]
                returns = 0 if e["roll"] != e["card"] else None
            elif e["type"] == "return":
                returns += 1
            else:
                returns = None
            replay.push(e)
        assert view["last_serve_card"] == cards
        assert view["rally_returns"] == returns


def assert_nothing_is_being_played(view: dict) -> None:
    """What a finished match's view says: no tiebreak, no ball, no serve, no game."""
    assert not view["tiebreak"] and not view["match_tiebreak"]
    assert not view["in_play"] and view["rally_serve"] is None and view["volley"] is None
    assert view["serve"] == 1 and not view["deuce"] and view["advantage"] is None
    assert view["points"] == ["0", "0"] and view["games"] == [0, 0]
    assert view["set_number"] == len(view["sets"])
    assert view["final_score"].count(" ") == len(view["sets"]) - 1


CenterCourtTable.TestCase.settings = settings(max_examples=60, stateful_step_count=60)
TestCenterCourtTable = pytest.mark.slow(CenterCourtTable.TestCase)


@settings(max_examples=40)
@given(winners=st.lists(st.sampled_from([0, 1]), max_size=300),
       sets=st.sampled_from([1, 3, 5]), closer=st.sampled_from([0, 1]))
def test_no_action_is_accepted_after_the_match_ends(winners, sets, closer):
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(0))
        table.start({"game": "center-court", "players": ["A", "B"], "options": {"sets": sets}})
        # Random points, then one player wins every point until the match ends
        # (at most 3 sets of 13 games of a few points each).
        for w in [*winners, *[closer] * 400]:
            if table.match.is_over:
                break
            table.act({"type": "point", "winner": w})
        assert table.match.is_over
        before = table.snapshot
        for action in ({"type": "point", "winner": 0}, {"type": "serve", "card": 4},
                       {"type": "serve", "card": 5, "roll": 1}):
            try:
                table.act(action)
            except IllegalAction as err:
                assert "match is over" in str(err)
            else:
                raise AssertionError(f"{action} accepted after the match ended")
        assert table.snapshot == before


ACTIONS = st.one_of(
    st.builds(lambda w: {"type": "point", "winner": w}, st.sampled_from([0, 1])),
    st.builds(lambda c, r: {"type": "serve", "card": c, "roll": r} if c not in (3, 4)
              else {"type": "serve", "card": c}, st.integers(1, 6), st.sampled_from([1, 2, 5, 6])),
    st.builds(lambda c: {"type": "return", "card": c}, st.integers(1, 6)),
)


@settings(max_examples=60)
@given(actions=st.lists(ACTIONS, max_size=200), sets=st.sampled_from([1, 3, 5]),
       final_set=st.sampled_from(["tiebreak", "advantage", "match-tiebreak"]),
       no_ad=st.booleans(), first_server=st.sampled_from([0, 1]), closer=st.sampled_from([0, 1]),
       match_point=st.sampled_from(["point", "double_fault", "rally"]))
def test_a_finished_match_shows_nothing_in_play(actions, sets, final_set, no_ad, first_server,
                                               closer, match_point):
    with Store(":memory:") as store:
        finish_match(Table(store, CATALOG, rng=random.Random(0)), actions, sets, final_set, no_ad,
                     first_server, closer, match_point)


def finish_match(table, actions, sets, final_set, no_ad, first_server, closer, match_point):
    table.start({"game": "center-court", "players": ["A", "B"],
                 "options": {"sets": sets, "final_set": final_set, "no_ad": no_ad,
                             "first_server": first_server}})
    for action in actions:
        with contextlib.suppress(IllegalAction):
            table.act(action)
        if table.match.is_over:
            break
    # Then one player wins every point until the match ends, the last one as
    # ``match_point`` says (a plain point, the server's double fault, a rally).
    while not table.match.is_over:
        view = table.snapshot.match["view"]
        if view["in_play"]:
            table.act({"type": "point", "winner": closer})
        elif match_point == "double_fault" and view["server"] != closer:
            if view["serve"] == 1:
                table.act({"type": "serve", "card": 5, "roll": 5})
            table.act({"type": "serve", "card": 6, "roll": 6})
        elif match_point == "rally":
            table.act({"type": "serve", "card": 3})
        else:
            table.act({"type": "point", "winner": closer})
    view = table.snapshot.match["view"]
    assert_nothing_is_being_played(view)
