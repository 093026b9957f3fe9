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
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, rule

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

    @invariant()
    def how_far(self):
        m = self.model
        if m.winner is not None:
            event("a match was won")
        if m.rally >= 3:
            event("a rally of 3 or more")
        if m.bound:
            event("an Enchantment binds a player")
        if any(m.used):
            event("a once-per-point ability was used")
        if any(m.copy):
            event("Simon copied")

    @invariant()
    def legal_offers_only_what_the_rules_accept(self):
        """Issue 24: every value legal offers for a point, mulligan, copy or
        ability is accepted in some combination (hits need cards legal cannot list)."""
        for shape in self.legal:
            if shape["type"] in ("serve", "shot"):
                continue
            keys = [k for k in shape if k != "type"]
            for key in keys:
                for value in shape[key]:
                    lists = [[value] if k == key else shape[k] for k in keys]
                    assert any(
                        self.model.clone().act({"type": shape["type"],
                                                **dict(zip(keys, values, strict=True))})
                        for values in itertools.product(*lists)), (
                        f"legal offers {key}={value!r} in {shape}, which the rules refuse\n"
                        + "\n".join(self.log))

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
    max_examples=300 if EXPLORE else 50, stateful_step_count=60,
    phases=(Phase.explicit, Phase.generate) if EXPLORE else tuple(Phase),
    suppress_health_check=list(HealthCheck) if EXPLORE else [])
TestSlamAgainstModel = SlamAgainstModel.TestCase


# --- the second round's rulings, pinned as minimal records --------------------------------

def play(characters: list[str], actions: list[dict], **options) -> SlamAgainstModel:
    """Play ``actions`` on a table and the model (each must agree); the machine after."""
    machine = SlamAgainstModel()
    n = len(characters)
    record = {"game": "alakaslam", "players": NAMES[:n],
              "options": {"characters": characters, **options}}
    machine.open(record, SlamModel.from_record(record), 0)
    try:
        for action in actions:
            machine.act(action)
            machine.views_agree()
    finally:
        machine.teardown()
    return machine


def copy(character: str, player: int = 0) -> dict:
    return {"type": "copy", "player": player, "character": character}


def mulligan(player: int = 0) -> dict:
    return {"type": "mulligan", "player": player}


TOOTS = {"type": "ability", "player": 0}
SERVE = {"type": "serve", "player": 0, "corner": "red", "cards": ["B3"]}


def test_simon_cannot_copy_again_after_using_the_copied_ability():
    # R2 Simon: once he has used the copied ability in the point, no new copy.
    play(["simon", "toots", "rich"], [copy("toots"), TOOTS, copy("rich")])


def test_simon_cannot_copy_after_the_serve():
    play(["simon", "toots"], [SERVE, copy("toots")])


def test_simon_keeps_at_least_one_card_through_copies_and_mulligans():
    # R2: hand never below 1 (the case: Sarissia, 9 mulligans, Rich).
    machine = play(["simon", "sarissia", "rich"],
                   [copy("sarissia"), *[mulligan()] * 9, copy("rich")])
    assert machine.model.hand[0] == 1


def test_simons_hand_after_a_re_copy_is_what_he_holds():
    # R2: right after a re-copy: Sarissia's 10, two mulligans hold 8; Rich keeps 8.
    machine = play(["simon", "sarissia", "rich"],
                   [copy("sarissia"), mulligan(), mulligan(), copy("rich")])
    assert machine.model.hand[0] == 8


def test_a_copy_after_a_mulligan_does_not_refill():
    machine = play(["simon", "sarissia"], [mulligan(), mulligan(), mulligan(), copy("sarissia")])
    assert machine.model.hand[0] == 5


def test_laurie_ability_that_ends_the_point_counts_in_the_stats():
    # R2 Laurie: it counts in the stats whether or not the point ends on it.
    machine = play(["rich", "laurie"], [SERVE, {"type": "shot", "player": 1, "cards": ["B0"],
                                                 "ability": True}])
    assert machine.model.abilities == [0, 1]


@pytest.mark.parametrize("hit", [
    # R2 Laurie: on a serve, at the ball, or as the Support.
    {"type": "serve", "player": 1, "corner": "red", "cards": ["B3"], "ability": True},
    {"type": "serve", "player": 0, "corner": "red", "cards": ["B2"],
     "support": {"player": 1, "cards": ["B1"], "ability": True}},
])
def test_laurie_ability_on_a_serve_and_as_the_support(hit):
    first = hit["player"] if len(hit) == 5 else 0
    characters = (["rich", "laurie"] if "support" not in hit
                  else ["rich", "laurie", "toots", "austin"])
    machine = play(characters, [hit], first_server=first if "support" not in hit else 0)
    assert machine.model.abilities[1] == 1


def test_a_bad_serve_point_goes_to_the_receivers():
    # R2: a bad_serve point goes to the receiving side (side 0 serves first).
    play(["rich", "laurie"], [{"type": "point", "winner": 0, "reason": "bad_serve"}])


def test_no_return_goes_to_the_side_that_hit_last():
    # R2: after Ann's recorded serve, Bob was to return: a no_return point is Ann's.
    play(["rich", "laurie"], [SERVE, {"type": "point", "winner": 1, "reason": "no_return"}])


def test_a_bad_serve_point_after_a_good_recorded_serve_is_refused():
    # R2 "Point reasons that the record contradicts": the calculator judged it in.
    play(["rich", "laurie"], [SERVE, {"type": "point", "winner": 1, "reason": "bad_serve"}])


BOB_SERVES = {"type": "serve", "player": 1, "corner": "red", "cards": ["B3"]}


@pytest.mark.parametrize(("first", "actions", "allowed"), [
    (0, [SERVE, TOOTS], True),        # R2 Toots: after her own shot her turn goes on
    (0, [TOOTS], True),               # before her own side's serve
    (1, [BOB_SERVES, TOOTS], True),   # from the other side's shot until hers
    (1, [TOOTS], False),              # before the other side's serve: not her turn
])
def test_toots_on_her_sides_turn(first, actions, allowed):
    machine = play(["toots", "rich"], actions, first_server=first)
    assert machine.model.used[0] is allowed


JOSEPHIAS = {"type": "ability", "player": 1}
PAIR_SHOT = {"type": "shot", "player": 1, "cards": ["R2"],
             "support": {"player": 2, "cards": ["B0"]}}
ANN_SHOT = {"type": "shot", "player": 0, "cards": ["B2"]}


@pytest.mark.parametrize(("actions", "allowed"), [
    ([JOSEPHIAS], False),                        # RB: before the serve, no draw phase
    ([SERVE, JOSEPHIAS], False),                 # his side is to hit: not its draw yet
    ([SERVE, PAIR_SHOT, JOSEPHIAS], True),       # after his side's shot: its draw phase
    ([SERVE, PAIR_SHOT, ANN_SHOT, JOSEPHIAS], False),  # the other side's shot closed it
])
def test_canadian_josephias_in_his_sides_draw_phase(actions, allowed):
    machine = play(["austin", "josephias", "toots"], actions)
    assert machine.model.used[1] is allowed


@pytest.mark.parametrize(("support_enchant", "enchant", "allowed"), [
    (2, None, True),    # the Support binds Cid: Ann's Enchantment can only mean Dee
    (None, 3, True),    # Ann binds Dee: the Support's can only mean Cid
    (2, 2, False),      # RB Doubles: not both the same opponent
    (None, None, False),  # either could be meant by Ann
])
def test_a_doubles_enchantment_left_one_opponent_by_the_teammate(support_enchant, enchant,
                                                                  allowed):
    serve = {"type": "serve", "player": 0, "corner": "red", "cards": ["B3", "E2"],
             "support": {"player": 1, "cards": ["B0", "E3"]}}
    if enchant is not None:
        serve["enchant"] = enchant
    if support_enchant is not None:
        serve["support"]["enchant"] = support_enchant
    machine = play(["rich", "austin", "toots", "laurie"], [serve])
    assert (machine.model.rally == 1) is allowed


# --- the third round, pinned ------------------------------------------------------------

@pytest.mark.parametrize("cards, accepted", [(["B1", "B1", "R1"], False), (["B2", "B0"], True)])
def test_no_serve_of_more_cards_than_the_hand_holds(cards, accepted):
    # R3 "No play of more cards than the hand holds": six mulligans leave Ann 2 cards.
    machine = play(["austin", "rich"], [*[mulligan()] * 6,
                                         {"type": "serve", "player": 0, "corner": "red",
                                          "cards": cards}])
    assert machine.model.hand[0] == 2
    assert (machine.model.due_serve is False) == accepted


def test_no_support_play_of_more_cards_than_the_supports_hand():
    # R3: Bob, the Support, keeps one card after seven mulligans; two of his are refused.
    serve = {"type": "serve", "player": 0, "corner": "red", "cards": ["B3"],
             "support": {"player": 1, "cards": ["B0", "R0"]}}
    machine = play(["austin", "rich", "toots", "laurie"], [*[mulligan(1)] * 7, serve])
    assert machine.model.due_serve
