"""AlakaSLAM against its independent reference model (tests/reference/alakaslam_model.py).

Random legal and illegal play, undo and redo included, on a real table: the
engine and the model must take and refuse the same actions and show the same
score, serve, ball, Enchantments, abilities, Simon's copy, hands and points by
reason. The pinned cases at the end are the second-round rulings (RULINGS.md)
as minimal match records.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, rule

from tests.reference.alakaslam_model import CHARACTERS, REASONS, SlamModel, landing
from tests.reference.differential import EXPLORE, DifferentialMachine

NAMES = ["Ann", "Bob", "Cid", "Dee"]
HIT_CARDS = [f"{c}{v}" for c in "RB" for v in range(4)]
ANY_CARD = st.sampled_from([*HIT_CARDS, "E1", "E2", "E3", "S2", "X9"])
#: The characters with something to track come first, so they are drawn often.
CAST = st.permutations(CHARACTERS)


def normal_obligations(view: dict) -> list[dict]:
    """The engine's obligations merged per player with sorted counts (the model's form)."""
    counts: dict[int, list[int]] = {}
    for o in view["obligations"]:
        counts.setdefault(o["player"], []).extend(o["cards"])
    return [{"player": p, "cards": sorted(c)} for p, c in sorted(counts.items())]


class SlamAgainstModel(DifferentialMachine):

    @initialize(n=st.integers(2, 4), cast=CAST, alone=st.integers(0, 2),
                first=st.integers(0, 1), goal=st.integers(1, 4), seed=st.integers(0, 2**16))
    def start(self, n, cast, alone, first, goal, seed):
        target = goal
        characters = list(cast[:n])
        options = {"characters": characters, "first_server": first, "target": target}
        teams = None
        if n == 3:
            teams = [1, 1, 1]
            teams[alone] = 0
            options["teams"] = teams
        record = {"game": "alakaslam", "players": NAMES[:n], "options": options}
        self.open(record, SlamModel(characters, teams, first, target), seed)

    def engine_view(self):
        return {**self.view, "obligations": normal_obligations(self.view)}

    # --- hits that tend to be legal ---------------------------------------------------

    def count_for(self, data, p: int) -> int:
        mine = [n for q, n, _ in self.model.bound if q == p]
        return data.draw(st.sampled_from(mine)) if mine and data.draw(st.booleans()) else \
            data.draw(st.integers(1, 2))

    def hit(self, data, serve: bool) -> None:
        m = self.model
        side = m.serving if serve else m.hitting
        if side is None or m.winner is not None:
            return
        players = m.members(side)
        p = data.draw(st.sampled_from(players))
        mates = [q for q in players if q != p]
        corner = data.draw(st.sampled_from(["red", "blue"]))
        start = ((1 if corner == "red" else m.cols, 1 if side == 0 else 4)
                 if serve else m.ball)
        counts = [self.count_for(data, p)] + [self.count_for(data, q) for q in mates]
        total = sum(counts)
        combos = [c for c in itertools.product(HIT_CARDS, repeat=total)
                  if _lands_in(landing(start, c, side), m, side, start, serve)]
        if not combos:
            return
        cards = list(data.draw(st.sampled_from(combos)))
        action = {"type": "serve" if serve else "shot", "player": p, "cards": cards[:counts[0]]}
        if serve:
            action["corner"] = corner
        if mates:
            action["support"] = {"player": mates[0], "cards": cards[counts[0]:]}
        self.add_extras(data, action)
        self.act(action)

    def add_extras(self, data, action):
        """Sometimes an Enchantment (with or without whom it binds), sometimes Laurie."""
        m = self.model
        foes = m.members(1 - m.teams[action["player"]])
        for part in [action, action.get("support")]:
            if part is None:
                continue
            if data.draw(st.integers(0, 3)) == 0:
                e = data.draw(st.sampled_from(["E1", "E2", "E3"]))
                part["cards"] = [*part["cards"][:-1], e] if len(part["cards"]) > 1 \
                    else [*part["cards"], e]
                if len(foes) == 2 or data.draw(st.booleans()):
                    part["enchant"] = data.draw(st.sampled_from(foes))
            if data.draw(st.integers(0, 4)) == 0:
                part["ability"] = True
                part["cards"] = part["cards"][:1]

    @rule(data=st.data())
    def serve(self, data):
        self.hit(data, serve=True)

    @rule(data=st.data())
    def shot(self, data):
        self.hit(data, serve=False)

    @rule(data=st.data())
    def shot_again(self, data):
        self.hit(data, serve=False)

    @rule(kind=st.sampled_from(["serve", "shot"]), p=st.integers(0, 3),
          cards=st.lists(ANY_CARD, max_size=4), corner=st.sampled_from(["red", "blue", "up"]),
          support=st.none() | st.tuples(st.integers(0, 3), st.lists(ANY_CARD, max_size=3)),
          enchant=st.none() | st.integers(0, 3), ability=st.none() | st.booleans())
    def any_hit(self, kind, p, cards, corner, support, enchant, ability):
        action = {"type": kind, "player": p, "cards": cards}
        if kind == "serve":
            action["corner"] = corner
        if support is not None:
            action["support"] = {"player": support[0], "cards": support[1]}
        if enchant is not None:
            action["enchant"] = enchant
        if ability is not None:
            action["ability"] = ability
        self.act(action)

    @rule(winner=st.integers(0, 1), reason=st.none() | st.sampled_from(REASONS))
    def point(self, winner, reason):
        action = {"type": "point", "winner": winner}
        if reason is not None:
            action["reason"] = reason
        self.act(action)

    @rule(p=st.integers(0, 3), times=st.integers(1, 4))
    def mulligan(self, p, times):
        for _ in range(times):
            self.act({"type": "mulligan", "player": p})

    @rule(p=st.integers(0, 3), character=st.sampled_from(CHARACTERS))
    def copy(self, p, character):
        self.act({"type": "copy", "player": p, "character": character})

    @rule(data=st.data())
    def simon_copies_one_in_play(self, data):
        simons = [p for p, c in enumerate(self.model.chars) if c == "simon"]
        if simons:
            self.act({"type": "copy", "player": simons[0],
                      "character": data.draw(st.sampled_from(self.model.chars))})

    @rule(p=st.integers(0, 3))
    def ability(self, p):
        self.act({"type": "ability", "player": p})

    @rule(data=st.data())
    def what_legal_offers(self, data):
        if not self.legal:
            return
        shape = data.draw(st.sampled_from(self.legal))
        action = {k: v if k == "type" else data.draw(st.sampled_from(v))
                  for k, v in shape.items() if isinstance(v, list) or k == "type"}
        if action["type"] in ("serve", "shot") and "cards" not in action:
            action["cards"] = data.draw(st.lists(st.sampled_from(HIT_CARDS), min_size=1,
                                                 max_size=3))
        self.act(action)

    @rule(wrong=st.sampled_from([
        {"type": "point", "winner": 2},
        {"type": "point", "winner": 0, "reason": "rain"},
        {"type": "mulligan"},
        {"type": "copy", "player": 0},
        {"type": "ability", "player": 9},
        {"type": "lob"},
    ]))
    def malformed(self, wrong):
        self.act(wrong)


def _lands_in(to, m, side, start, serve) -> bool:
    on = 1 <= to[0] <= m.cols and 1 <= to[1] <= 4
    crossed = to[1] >= 3 if side == 0 else to[1] <= 2
    return on and crossed and not (serve and to[0] == start[0])


SlamAgainstModel.TestCase.settings = settings(
    max_examples=300 if EXPLORE else 60, stateful_step_count=60,
    phases=(Phase.explicit, Phase.generate) if EXPLORE else tuple(Phase),
    suppress_health_check=list(HealthCheck) if EXPLORE else [])
TestSlamAgainstModel = SlamAgainstModel.TestCase
