"""Center Court against its independent reference model (tests/reference/center_court_model.py).

Random play, undo and redo included, on a real table: the engine and the
model must take and refuse the same actions and show the same score, serve
and rally. R2: every shape ``legal`` offers is accepted as it is.
"""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, rule

from tests.reference.center_court_model import CourtModel
from tests.reference.differential import EXPLORE, DifferentialMachine


class CourtAgainstModel(DifferentialMachine):

    @initialize(sets=st.sampled_from([1, 3, 5]), no_ad=st.booleans(),
                final_set=st.sampled_from(["tiebreak", "advantage", "match-tiebreak"]),
                first_server=st.sampled_from([0, 1]), seed=st.integers(0, 2**16))
    def start(self, sets, no_ad, final_set, first_server, seed):
        options = {"sets": sets, "no_ad": no_ad, "final_set": final_set,
                   "first_server": first_server}
        self.open({"game": "center-court", "players": ["Ann", "Bob"], "options": options},
                  CourtModel(sets, no_ad, final_set, first_server), seed)

    def model_resolved(self, action, event):
        return {"event": event}

    @invariant()
    def how_far(self):
        if self.model.winner is not None:
            event("a match was won")
        if self.model.tiebreak:
            event("a tiebreak")

    @rule(card=st.integers(1, 6), roll=st.none() | st.sampled_from([1, 2, 3, 5, 6]))
    def serve(self, card, roll):
        action = {"type": "serve", "card": card}
        if roll is not None:
            action["roll"] = roll
        self.act(action)

    @rule(card=st.integers(1, 6), count=st.none() | st.integers(0, 6))
    def ret(self, card, count):
        action = {"type": "return", "card": card}
        if count is not None:
            action["count"] = count
        self.act(action)

    @rule(winner=st.sampled_from([0, 1, 2]), times=st.integers(1, 12))
    def points(self, winner, times):
        for _ in range(times):
            self.act({"type": "point", "winner": winner})

    @rule(data=st.data())
    def what_legal_offers(self, data):
        """R2: every shape legal offers can be sent back as an action as it is."""
        if not self.legal:
            return
        shape = data.draw(st.sampled_from(self.legal))
        action = {k: data.draw(st.sampled_from(v)) if isinstance(v, list) else v
                  for k, v in shape.items()}
        took = self.act(action)
        assert took or EXPLORE, f"legal offered {shape}, and {action} was refused"


CourtAgainstModel.TestCase.settings = settings(
    max_examples=300 if EXPLORE else 40, stateful_step_count=60,
    phases=(Phase.explicit, Phase.generate) if EXPLORE else tuple(Phase),
    suppress_health_check=list(HealthCheck) if EXPLORE else [])
TestCourtAgainstModel = CourtAgainstModel.TestCase


def test_the_shapes_legal_offers_are_accepted_as_they_are():
    # R2 Center Court: a client that sends what legal offers must not break.
    machine = CourtAgainstModel()
    machine.open({"game": "center-court", "players": ["Ann", "Bob"], "options": {}},
                 CourtModel(), 0)
    try:
        for step in range(4):
            for shape in machine.legal:
                if shape["type"] == "point":
                    continue
                action = {k: (3 if step % 2 == 0 else 4) if isinstance(v, list) else v
                          for k, v in shape.items()}
                assert machine.act(action), f"legal offered {shape}; {action} was refused"
                machine.views_agree()
                break
    finally:
        machine.teardown()
