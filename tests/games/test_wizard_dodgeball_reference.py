"""Wizard Dodgeball's basic turn against its reference model (tests/reference/dodgeball_model.py).

Random play of what the model records (hits, catches, passes, casts of the
spells whose effects it follows, ends of activation), undo and redo included,
on a real table: the engine and the model must take and refuse the same
actions and show the same order, scores, wizards on court, effects and cards.
"""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, rule

from tests.reference.differential import EXPLORE, DifferentialMachine
from tests.reference.dodgeball_model import MODELLED, DodgeModel

ROSTERS = [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]
JERSEYS = [j for r in ROSTERS for j in r]


def normal_effects(view: dict) -> dict:
    """The engine's effect lists sorted, as the model keeps them."""
    sides = [{**s, "wizards": [{**w, "effects": sorted(w["effects"])} for w in s["wizards"]]}
             for s in view["sides"]]
    return {**view, "sides": sides}


class DodgeAgainstModel(DifferentialMachine):

    @initialize(variant=st.sampled_from(["points", "elimination"]), goal=st.integers(1, 6),
                first=st.sampled_from([0, 1]), turn=st.sampled_from(["basic", "advanced"]),
                seed=st.integers(0, 2**16))
    def start(self, variant, goal, first, turn, seed):
        options = {"rosters": ROSTERS, "variant": variant, "first_side": first, "turn": turn}
        if variant == "points":
            options["target"] = goal
        self.open({"game": "wizard-dodgeball", "players": ["Owls", "Newts"], "options": options},
                  DodgeModel(ROSTERS, variant, goal, first, turn), seed)

    def engine_view(self):
        return normal_effects(self.view)

    @invariant()
    def how_far(self):
        if self.model.winner is not None:
            event("a match was won")
        if self.model.activation > 10:
            event("a second round")

    def mover(self, data, anyone):
        return data.draw(st.sampled_from(JERSEYS)) if anyone else self.model.active[1]

    @rule(data=st.data(), anyone=st.booleans())
    def hit(self, data, anyone):
        self.act({"type": "hit", "thrower": self.mover(data, anyone),
                  "target": data.draw(st.sampled_from(JERSEYS))})

    @rule(data=st.data(), anyone=st.booleans(), returning=st.booleans())
    def catch(self, data, anyone, returning):
        action = {"type": "catch", "thrower": self.mover(data, anyone),
                  "catcher": data.draw(st.sampled_from(JERSEYS))}
        if returning:
            action["returning"] = data.draw(st.none() | st.sampled_from(JERSEYS))
        self.act(action)

    @rule(data=st.data(), anyone=st.booleans())
    def pass_ball(self, data, anyone):
        self.act({"type": "pass", "thrower": self.mover(data, anyone),
                  "to": data.draw(st.sampled_from(JERSEYS))})

    @rule(data=st.data(), anyone=st.booleans(), spell=st.sampled_from(MODELLED))
    def cast(self, data, anyone, spell):
        on = [j for j in JERSEYS if self.model.on_court[j]]
        targets = data.draw(st.lists(st.sampled_from(on), max_size=2, unique=True)) if on else []
        self.act({"type": "cast", "caster": self.mover(data, anyone), "spell": spell,
                  "targets": targets})

    @rule(data=st.data(), spell=st.sampled_from(["speed", "slow"]))
    def speed_or_slow_a_teammate_to_come(self, data, spell):
        side = self.model.active[0]
        team = [j for j in ROSTERS[side] if self.model.on_court[j]]
        if team:
            self.act({"type": "cast", "caster": self.model.active[1], "spell": spell,
                      "targets": [data.draw(st.sampled_from(team))]})

    @rule(times=st.integers(1, 4))
    def end_activation(self, times):
        for _ in range(times):
            self.act({"type": "end_activation"})


DodgeAgainstModel.TestCase.settings = settings(
    max_examples=300 if EXPLORE else 40, stateful_step_count=50,
    phases=(Phase.explicit, Phase.generate) if EXPLORE else tuple(Phase),
    suppress_health_check=list(HealthCheck) if EXPLORE else [])
TestDodgeAgainstModel = DodgeAgainstModel.TestCase


# --- the second round's rulings, pinned as minimal records --------------------------------

def play(actions: list[dict], **options) -> DodgeAgainstModel:
    """Play ``actions`` on a table and the model (each must agree); the machine after."""
    machine = DodgeAgainstModel()
    machine.open({"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
                  "options": {"rosters": ROSTERS, **options}},
                 DodgeModel(ROSTERS, turn=options.get("turn", "basic")), 0)
    try:
        for action in actions:
            machine.act(action)
            machine.views_agree()
    finally:
        machine.teardown()
    return machine


END = {"type": "end_activation"}


def test_a_sped_wizard_throws_twice():
    # R2 "Speed and Slow in the basic turn": Speed, one more throw or cast.
    machine = play([{"type": "cast", "caster": 21, "spell": "speed", "targets": [58]}, END, END,
                    {"type": "hit", "thrower": 58, "target": 45},
                    {"type": "hit", "thrower": 58, "target": 30}])
    assert machine.model.score == [2, 0]


def test_a_slowed_wizard_throws_or_casts_not_both():
    machine = play([END, {"type": "cast", "caster": 45, "spell": "slow", "targets": [58]}, END,
                    {"type": "hit", "thrower": 58, "target": 45},
                    {"type": "cast", "caster": 58, "spell": "weak", "targets": [30]}])
    assert machine.model.casts == 0


def test_slow_cast_on_oneself_after_throwing_leaves_nothing_and_breaks_nothing():
    # The wizard has thrown and cast; Slow now leaves it nothing more to record.
    machine = play([{"type": "hit", "thrower": 21, "target": 45},
                    {"type": "cast", "caster": 21, "spell": "slow", "targets": [21]},
                    {"type": "pass", "thrower": 21, "to": 58}, END])
    assert machine.model.activation == 2


def test_the_advanced_turn_needs_no_magic_stats_nor_bought_spells():
    # R2 "Turn and spells are two options": two actions, all ten cards.
    machine = play([{"type": "cast", "caster": 21, "spell": "weak", "targets": [45]},
                    {"type": "cast", "caster": 21, "spell": "shrink", "targets": [30]},
                    {"type": "hit", "thrower": 21, "target": 45}], turn="advanced")
    assert machine.model.casts == 2 and machine.model.throws == 0
