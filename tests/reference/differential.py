"""Play a real table and a reference model side by side, undo and redo included.

The table is driven through its public API (``Table.act``, ``undo``,
``redo``); the model keeps one copy of itself per accepted event, so undo
and redo are a pop and a push on both. After every step the view keys the
model tracks must be equal, and every action must be accepted by both or
refused by both. A failure prints the match record that led to it (undo and
redo lines included), ready for ``companion replay``.

To survey every disagreement at once instead of stopping at the first, set
``REFERENCE_EXPLORE=/tmp/out.jsonl``: each disagreement (and engine crash) is
appended there as JSON with its record, and play goes on without it.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any, Protocol

from hypothesis import assume
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from companion.errors import IllegalAction, InvalidAction
from companion.store import Store
from companion.table import Table
from tests.support import CATALOG


class Model(Protocol):
    def act(self, action: dict, **resolved: Any) -> bool: ...
    def view(self) -> dict: ...
    def clone(self) -> Model: ...


def project(engine: Any, like: Any) -> Any:
    """``engine`` cut down to the shape of ``like``: only the keys the model has."""
    if isinstance(like, dict) and isinstance(engine, dict):
        return {k: project(engine.get(k, "<missing>"), v) for k, v in like.items()}
    if isinstance(like, list) and isinstance(engine, list) and len(like) == len(engine):
        return [project(e, m) for e, m in zip(engine, like, strict=True)]
    return engine


#: Set (to a file path) to explore: disagreements are appended there and play
#: goes on without the disputed action, instead of failing the test. Never set
#: in CI: then every disagreement fails.
EXPLORE = os.environ.get("REFERENCE_EXPLORE")


class DifferentialMachine(RuleBasedStateMachine):
    """Subclasses open the table and the model, and add rules that call :meth:`act`."""

    def open(self, record: dict, model: Model, seed: int) -> None:
        self.store = Store(":memory:")
        self.table = Table(self.store, CATALOG, rng=random.Random(seed))
        self.table.start(record)
        self.model = model
        self.past: list[Model] = []      # the model before each accepted event
        self.undone: list[Model] = []    # the models undo took back, for redo
        self.log: list[str] = [json.dumps(record)]

    def teardown(self) -> None:
        self.store.close()

    @property
    def view(self) -> dict:
        return self.table.snapshot.match["view"]

    def engine_view(self) -> dict:
        """The engine's view as the model shows it (subclasses normalise orders)."""
        return self.view

    @property
    def legal(self) -> list[dict]:
        return self.table.snapshot.match["legal"]

    def model_resolved(self, action: dict, event: dict | None) -> dict:
        """What the model needs from the engine's resolved event (device dice)."""
        return {}

    def act(self, action: dict) -> bool:
        """Send ``action`` to both; assert they agree on taking it. True if taken."""
        self.log.append(json.dumps(action))
        try:
            self.table.act(action)
        except (IllegalAction, InvalidAction) as err:
            engine_took, reason = False, str(err)
        except Exception as err:  # an engine crash: a bug whatever the rules say
            if not EXPLORE:
                raise
            self._note(action, True, f"CRASH {type(err).__name__}: {err}")
            assume(False)
        else:
            engine_took, reason = True, ""
        event = self.table.match.events[-1] if engine_took else None
        trial = self.model.clone()
        model_took = trial.act(action, **self.model_resolved(action, event))
        if EXPLORE and engine_took != model_took:
            self._note(action, engine_took, reason or getattr(trial, "why", ""))
            if engine_took:  # take it back; the table's redo now holds it
                self.table.undo()
                self.undone.clear()  # the table's redo now holds only it: no redo
            return False
        assert engine_took == model_took, (
            f"engine {'accepted' if engine_took else 'refused (' + reason + ')'}, "
            f"model {'accepted' if model_took else 'refused (' + getattr(trial, 'why', '') + ')'}"
            f": {action}\n"
            + "\n".join(self.log))
        if model_took:
            self.past.append(self.model)
            self.undone.clear()
            self.model = trial
        return engine_took

    @precondition(lambda self: self.table.match.can_undo)
    @rule()
    def undo(self):
        self.log.append('{"type": "undo"}')
        self.table.undo()
        self.undone.append(self.model)
        self.model = self.past.pop()

    @precondition(lambda self: self.table.match.can_redo and self.undone)
    @rule()
    def redo(self):
        self.log.append('{"type": "redo"}')
        self.table.redo()
        self.past.append(self.model)
        self.model = self.undone.pop()

    def _note(self, action: dict, engine_took: bool, reason: str) -> None:
        with open(EXPLORE, "a") as out:
            out.write(json.dumps({"engine": engine_took, "reason": reason, "action": action,
                                  "log": self.log}) + "\n")

    @invariant()
    def views_agree(self):
        mine = self.model.view()
        theirs = project(self.engine_view(), mine)
        if EXPLORE and theirs != mine:
            for k in mine:
                if theirs[k] != mine[k]:
                    self._note({"view": k}, True, f"engine {theirs[k]!r}"[:300])
            assume(False)  # exploring: note it and go on with another example
        assert theirs == mine, "\n".join(
            [*self.log, *(f"{k}: engine {theirs[k]!r}, model {mine[k]!r}"
                          for k in mine if theirs[k] != mine[k])])
