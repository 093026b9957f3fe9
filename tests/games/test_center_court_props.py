"""Property tests: random legal and illegal play on a real table and store."""

from __future__ import annotations

import random

from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    initialize,
    invariant,
    rule,
)

from companion.errors import IllegalAction
from companion.store import Store
from companion.table import Table
from tests.games.table_machine import TableMachine

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


CenterCourtTable.TestCase.settings = settings(max_examples=60, stateful_step_count=60)
TestCenterCourtTable = CenterCourtTable.TestCase


@settings(max_examples=40)
@given(winners=st.lists(st.sampled_from([0, 1]), max_size=300),
       sets=st.sampled_from([1, 3, 5]), closer=st.sampled_from([0, 1]))
def test_no_action_is_accepted_after_the_match_ends(winners, sets, closer):
    with Store(":memory:") as store:
        table = Table(store, rng=random.Random(0))
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
