"""What every game's property test checks of a table: undo, redo, replay and resume."""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from companion.errors import IllegalAction, InvalidAction
from companion.match import EVENT, Match
from companion.store import Store
from companion.table import Table
from tests.support import CATALOG


class TableMachine(RuleBasedStateMachine):
    """A careless host on a real table and store; subclasses start a match and add moves.

    ``progress(view)`` returns counts that only rise in play; every accepted
    action is checked against it, and every refusal must change nothing.
    """

    progress: Callable[[dict], tuple[int, ...]]

    def open_table(self, record: dict, seed: int) -> None:
        self.store = Store(":memory:")
        self.table = Table(self.store, CATALOG, rng=random.Random(seed))
        self.table.start(record)

    def teardown(self):
        self.store.close()

    @property
    def view(self) -> dict:
        return self.table.snapshot.match["view"]

    def legal_action(self, data) -> dict:
        """An action drawn from one of the table's ``legal`` shapes (each field from its list)."""
        shape = data.draw(st.sampled_from(self.table.snapshot.match["legal"]))
        return {key: value if key == "type" else data.draw(st.sampled_from(value))
                for key, value in shape.items()}

    def act(self, action: dict) -> bool:
        """Play ``action``; True if the table took it."""
        before = self.table.snapshot
        try:
            after = self.table.act(action)
        except (IllegalAction, InvalidAction):
            assert self.table.snapshot == before  # a refusal changes nothing
            return False
        assert after.version > before.version
        assert all(b >= a for a, b in zip(type(self).progress(before.match["view"]),
                                          type(self).progress(after.match["view"]),
                                          strict=True))
        return True

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
        before = (self.table.match.state, self.table.match.events, self.view)
        self.table.undo()
        self.table.redo()
        assert (self.table.match.state, self.table.match.events, self.view) == before

    @invariant()
    def replay_equals_live_state(self):
        match = self.table.match
        replayed = Match(match.start, CATALOG)
        replayed.replay((EVENT, e) for e in match.events)
        assert replayed.state == match.state

    @invariant()
    def resume_from_the_store_equals_live_state(self):
        resumed = Table(self.store, CATALOG)
        assert resumed.match.state == self.table.match.state
        assert resumed.match.can_redo == self.table.match.can_redo
        assert resumed.snapshot == self.table.snapshot
