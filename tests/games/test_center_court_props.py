"""Property tests: random legal and illegal play on a real table and store."""

from __future__ import annotations

import random

from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from companion.errors import IllegalAction
from companion.match import EVENT, Match
from companion.store import Store
from companion.table import Table

ROLLS = st.one_of(st.none(), st.sampled_from([1, 2, 5, 6]))


def progress(view: dict) -> tuple[int, ...]:
    """Counts that only ever rise in play: points won, sets won, sets played."""
    return (*(s["points_won"] for s in view["stats"]), *view["sets_won"], len(view["sets"]))


class CenterCourtTable(RuleBasedStateMachine):
    """Drives a Table like a careless host: any action, undo, redo, in any order."""

    @initialize(
        sets=st.sampled_from([1, 3, 5]),
        no_ad=st.booleans(),
        final_set=st.sampled_from(["tiebreak", "advantage", "match-tiebreak"]),
        first_server=st.sampled_from([0, 1]),
        seed=st.integers(0, 2**32),
    )
    def start(self, sets, no_ad, final_set, first_server, seed):
        self.store = Store(":memory:")
        self.table = Table(self.store, rng=random.Random(seed))
        self.table.start({
            "game": "center-court", "players": ["Ann", "Bob"],
            "options": {"sets": sets, "no_ad": no_ad, "final_set": final_set,
                        "first_server": first_server},
        })
        self.needed = sets // 2 + 1

    def teardown(self):
        self.store.close()

    @property
    def view(self) -> dict:
        return self.table.snapshot.match["view"]

    def _act(self, action: dict) -> None:
        before = self.table.snapshot
        try:
            after = self.table.act(action)
        except IllegalAction:
            # A refusal changes nothing, not even the version.
            assert self.table.snapshot == before
            return
        assert after.version > before.version
        assert all(b >= a for a, b in zip(progress(before.match["view"]),
                                          progress(after.match["view"]), strict=True))

    @rule(card=st.integers(1, 6), roll=ROLLS)
    def serve(self, card, roll):
        action = {"type": "serve", "card": card}
        if roll is not None and card not in (3, 4):
            action["roll"] = roll
        self._act(action)

    @rule(card=st.integers(1, 6))
    def return_volley(self, card):
        self._act({"type": "return", "card": card})

    @rule(winner=st.sampled_from([0, 1]), count=st.integers(1, 12))
    def points(self, winner, count):
        for _ in range(count):
            self._act({"type": "point", "winner": winner})

    @precondition(lambda self: self.table.match.can_undo)
    @rule()
    def undo(self):
        self.table.undo()

    @precondition(lambda self: self.table.match.can_redo)
    @rule()
    def redo(self):
        self.table.redo()

    @precondition(lambda self: self.table.match.can_undo)
    @rule()
    def undo_then_redo_is_identity(self):
        before_state = self.table.match.state
        before_events = self.table.match.events
        before_view = self.view
        self.table.undo()
        self.table.redo()
        assert self.table.match.state == before_state
        assert self.table.match.events == before_events
        assert self.view == before_view

    @invariant()
    def replay_equals_live_state(self):
        match = self.table.match
        replayed = Match(match.start)
        replayed.replay((EVENT, e) for e in match.events)
        assert replayed.state == match.state

    @invariant()
    def resume_from_the_store_equals_live_state(self):
        resumed = Table(self.store)
        assert resumed.match.state == self.table.match.state
        assert resumed.match.can_redo == self.table.match.can_redo
        assert resumed.snapshot == self.table.snapshot

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
    table = Table(Store(":memory:"), rng=random.Random(0))
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
