"""Alakazoo against its independent reference model (tests/reference/alakazoo_model.py).

Random legal and illegal play, undo and redo included, on a real table: the
engine and the model must take and refuse the same actions and show the same
scores, turn, Dark Power, portals, firsts and jury. The pinned cases at the
end are the second-round rulings (RULINGS.md) as minimal match records.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, rule

from tests.reference.alakazoo_model import DECK_SIZE, FACES, REASONS, ZooModel
from tests.reference.differential import EXPLORE, DifferentialMachine

NAMES = ["Ann", "Bob", "Cleo", "Dan"]


class ZooAgainstModel(DifferentialMachine):

    @initialize(n=st.integers(2, 4), first=st.integers(0, 3), reset=st.booleans(),
                shuffle=st.randoms(use_true_random=False), box=st.integers(0, 3),
                seed=st.integers(0, 2**16))
    def start(self, n, first, reset, shuffle, box, seed):
        order = shuffle.sample(range(1, 7), 6)
        portals = order[:n]
        first %= n
        options = {"portals": portals, "first_player": first, "dark_power_reset": reset}
        boxed = None
        if box == 0:  # now and then the table names the creatures put back in the box
            boxed = options["boxed"] = order[n:][:6 - DECK_SIZE[n]]
        record = {"game": "alakazoo", "players": NAMES[:n], "options": options}
        self.open(record, ZooModel(NAMES[:n], portals, first, reset, boxed), seed)

    @invariant()
    def how_far(self):
        if self.model.over:
            event("a game ended and the jury scored")
        elif self.model.final_round:
            event("a final round was played")

    @invariant()
    def legal_offers_only_what_the_rules_accept(self):
        """Issue 24: legal offers only what will be accepted. A shape lists each
        field's values apart, so not every combination need be accepted, but
        every value it offers must be accepted in some combination."""
        for shape in self.legal:
            keys = [k for k in shape if k != "type"]
            for key in keys or [None]:
                for value in shape[key] if key else [None]:
                    # One accepted action with this value (the others' values free).
                    lists = [[value] if k == key else shape[k] for k in keys]
                    assert any(
                        self.model.clone().act({"type": shape["type"],
                                                **dict(zip(keys, values, strict=True))},
                                               faces=["Magic"] * 3)
                        for values in itertools.product(*lists)), (
                        f"legal offers {key}={value!r} in {shape}, which the rules refuse\n"
                        + "\n".join(self.log))

    def model_resolved(self, action, event):
        if action.get("type") == "roll" and event is not None:
            return {"faces": event["faces"]}
        return {}

    # --- play that tends to be legal --------------------------------------------------

    @rule(data=st.data())
    def display_on_an_empty_space(self, data):
        me = self.model.current
        empty = [s for s in range(1, 10) if self.model.players[me].portal[s - 1] is None] or [1]
        self.act({"type": "display", "space": data.draw(st.sampled_from(empty)),
                  "creature": data.draw(st.integers(1, 6))})

    @rule(data=st.data(), count=st.integers(1, 3), roll=st.booleans())
    def a_full_turn(self, data, count, roll=False):
        """Displays the model takes, then the end of the turn: games reach their end.
        A roll of three Magic first now and then (R3: a turn that records a roll
        adds its dice to the Magic Power bound)."""
        if roll:
            self.act({"type": "roll", "faces": ["Magic"] * 3})
        for _ in range(count):
            m = self.model
            if m.over:
                return
            me = m.players[m.current]
            cards = [(s, c) for s in range(1, 10) if me.portal[s - 1] is None
                     for c in range(1, 7) if not m._on_table(c, s) and m._may_enter(c)]
            if not cards:
                break
            space, creature = data.draw(st.sampled_from(cards))
            self.act({"type": "display", "space": space, "creature": creature})
        self.act({"type": "end_turn"})

    @rule(data=st.data(), count=st.integers(2, 3), roll=st.booleans())
    def another_full_turn(self, data, count, roll):
        self.a_full_turn(data, count, roll)

    @rule(data=st.data())
    def display_own_creature(self, data):
        me = self.model.players[self.model.current]
        self.act({"type": "display", "space": data.draw(st.integers(1, 9)),
                  "creature": me.creature})

    @rule(faces=st.lists(st.sampled_from(FACES), min_size=1, max_size=3))
    def roll_own_dice(self, faces):
        self.act({"type": "roll", "faces": faces})

    @rule(dice=st.integers(1, 3))
    def device_roll(self, dice):
        self.act({"type": "roll", "dice": dice})

    @rule(reason=st.sampled_from(REASONS))
    def dark_power(self, reason):
        self.act({"type": "dark_power", "reason": reason})

    @rule(space=st.integers(1, 9), player=st.integers(0, 3))
    def swap_with_player(self, space, player):
        self.act({"type": "swap", "space": space, "player": player})

    @rule(space=st.integers(1, 9), creature=st.integers(1, 6))
    def swap_with_hand(self, space, creature):
        self.act({"type": "swap", "space": space, "creature": creature})

    @rule()
    def take_a_column(self):
        self.act({"type": "column"})

    @rule(trick=st.sampled_from(["hand", "column"]))
    def helper_trick(self, trick):
        self.act({"type": "helper", "trick": trick})

    @rule(times=st.integers(1, 3))
    def end_turn(self, times):
        for _ in range(times):
            self.act({"type": "end_turn"})

    @rule(data=st.data())
    def what_legal_offers(self, data):
        if not self.legal:
            return
        shape = data.draw(st.sampled_from(self.legal))
        self.act({k: v if k == "type" else data.draw(st.sampled_from(v))
                  for k, v in shape.items()})

    # --- deliberately wrong -----------------------------------------------------------

    @rule(data=st.data(), by=st.integers(0, 3))
    def someone_elses_turn(self, data, by):
        self.act({"type": "end_turn", "by": by})

    @rule(wrong=st.sampled_from([
        {"type": "display", "space": 0, "creature": 1},
        {"type": "display", "space": 1, "creature": 7},
        {"type": "display", "space": 1},
        {"type": "roll", "dice": 4},
        {"type": "roll", "faces": []},
        {"type": "roll", "faces": ["Magic", "Fire", "Air", "Light"]},
        {"type": "roll", "dice": 1, "faces": ["Magic"]},
        {"type": "roll", "faces": ["Sun"]},
        {"type": "dark_power", "reason": "bored"},
        {"type": "swap", "space": 1, "player": 1, "creature": 1},
        {"type": "swap", "space": 1},
        {"type": "end_turn", "extra": 1},
        {"type": "column", "space": 1},
        {"type": "helper", "trick": "portal"},
        {"type": "helper"},
        {"type": "pass"},
    ]))
    def malformed(self, wrong):
        self.act(wrong)


ZooAgainstModel.TestCase.settings = settings(
    max_examples=300 if EXPLORE else 60, stateful_step_count=80,
    phases=(Phase.explicit, Phase.generate) if EXPLORE else tuple(Phase),
    suppress_health_check=list(HealthCheck) if EXPLORE else [])
TestZooAgainstModel = ZooAgainstModel.TestCase


# --- the second round's rulings, pinned as minimal records --------------------------------

def play(n: int, actions: list[dict], **options) -> ZooAgainstModel:
    """Play ``actions`` on a table and the model (each must agree); the machine after."""
    machine = ZooAgainstModel()
    portals = options.pop("portals", list(range(1, n + 1)))
    machine.open({"game": "alakazoo", "players": NAMES[:n],
                  "options": {"portals": portals, **options}},
                 ZooModel(NAMES[:n], portals, options.get("first_player", 0),
                          options.get("dark_power_reset", True), options.get("boxed")), 0)
    try:
        for action in actions:
            machine.act(action)
            machine.views_agree()
    finally:
        machine.teardown()
    return machine


END = {"type": "end_turn"}


def test_the_same_card_cannot_lie_on_two_portals():
    # R2 "Each card exists once": Ann shows a Griffin head on 1; Bob's is refused.
    machine = play(2, [{"type": "display", "space": 1, "creature": 2}, END,
                       {"type": "display", "space": 1, "creature": 2}])
    assert machine.model.players[1].portal[0] is None


def test_a_hand_swap_cannot_bring_a_second_copy():
    # R2: Ann shows a Dragon on 1; Bob shows a Griffin on 1, then swaps in a Dragon for 1.
    machine = play(2, [{"type": "display", "space": 1, "creature": 1}, END,
                       {"type": "display", "space": 1, "creature": 2}, END, END,
                       {"type": "swap", "space": 1, "creature": 1}])
    assert machine.model.players[1].portal[0] == 2


def test_a_two_player_deck_holds_four_creatures():
    # R2 "The deck by player count": portals 1 and 2, then 3 and 4 fill the deck; 5 is out.
    machine = play(2, [{"type": "display", "space": 1, "creature": 3},
                       {"type": "display", "space": 2, "creature": 4},
                       {"type": "display", "space": 3, "creature": 5}])
    assert machine.model.players[0].portal[:3] == [3, 4, None]


def test_a_three_player_deck_holds_five_creatures():
    machine = play(3, [{"type": "display", "space": 1, "creature": 4},
                       {"type": "display", "space": 2, "creature": 5}, END,
                       {"type": "display", "space": 1, "creature": 6}])
    assert machine.model.players[1].portal[0] is None


SAVE = [{"type": "roll", "faces": ["Magic", "Magic", "Magic"]}, END, END,
        {"type": "roll", "faces": ["Magic", "Magic"]}, END, END]
"""Ann saves six Magic Power tokens over two turns (1 + 3 + 2; R3)."""


def test_at_most_three_displays_a_turn():
    # R2 "Displays per turn": six Magic Power tokens, two a display.
    machine = play(2, [*SAVE, {"type": "column"}]
                   + [{"type": "display", "space": s, "creature": 1} for s in (1, 2, 3, 4)])
    assert machine.model.players[0].portal[:4] == [1, 1, 1, None]


def test_at_most_two_displays_after_the_helper():
    # RB l.113: the Helper spends 1 of the 6 tokens (l.97-99); each display 2 (l.131).
    machine = play(2, [*SAVE, {"type": "helper", "trick": "column"}]
                   + [{"type": "display", "space": s, "creature": 1} for s in (2, 3, 4)])
    assert machine.model.players[0].portal[3] is None
    assert machine.model.players[0].portal[2] == 1


# --- the third round: the Magic Power bound -----------------------------------------------

def test_no_display_without_magic_power_a_recorded_roll_could_give():
    # R3: a whole portal with no dice rolled is refused: a column adds nothing
    # to the one starting token.
    machine = play(2, [{"type": "column"}, {"type": "display", "space": 1, "creature": 1}])
    assert machine.model.players[0].portal[0] is None


def test_a_first_turn_without_a_recorded_action_pays_two_displays():
    # R3: 1 token + 3 from a roll the table may not have entered: 4, two displays.
    machine = play(2, [{"type": "display", "space": s, "creature": 1} for s in (1, 2, 3)])
    assert machine.model.players[0].portal[:3] == [1, 1, None]


def test_three_magic_faces_pay_two_displays_in_a_first_turn():
    machine = play(2, [{"type": "roll", "faces": ["Magic"] * 3}]
                   + [{"type": "display", "space": s, "creature": 1} for s in (1, 2, 3)])
    assert machine.model.players[0].portal[:3] == [1, 1, None]


def test_no_display_after_every_die_gave_no_rune():
    # R3: a roll of n dice adds n less its no_rune penalties: 1 + 3 - 3.
    machine = play(2, [{"type": "roll", "faces": ["Fire", "Water", "Air"]},
                       *[{"type": "dark_power", "reason": "no_rune"}] * 3,
                       {"type": "display", "space": 1, "creature": 1}])
    assert machine.model.players[0].portal[0] is None


def test_unspent_magic_power_is_carried_and_capped_at_six():
    machine = play(2, [*SAVE, {"type": "roll", "faces": ["Magic"] * 3},
                       {"type": "dark_power", "reason": "magic_power"}])
    assert machine.model.players[0].dark_power == 1
    assert machine.model.view()["players"][0]["magic_power"] == 6


@pytest.mark.parametrize("turn, accepted", [
    ([], False),                                          # a first turn: 1 + 3
    ([*SAVE, {"type": "column"}], False),                 # a column adds nothing
    ([*SAVE, {"type": "roll", "faces": ["Magic"]}], True),  # 6 + 1
    ([*SAVE], True),                                      # 6 + a roll not entered
])
def test_too_much_magic_power_only_where_the_bound_could_pass_six(turn, accepted):
    machine = play(2, [*turn, {"type": "dark_power", "reason": "magic_power"}])
    assert machine.model.players[0].dark_power == (1 if accepted else 0)


@pytest.mark.parametrize("turn, accepted", [
    ([{"type": "roll", "faces": ["Magic"]}], False),  # a roll brings no card
    ([{"type": "column"}], True),
    ([{"type": "helper", "trick": "column"}], True),
    ([], True),                                       # the action may not be recorded
])
def test_too_many_cards_only_after_a_column_the_helper_or_no_recorded_roll(turn, accepted):
    machine = play(2, [*turn, {"type": "dark_power", "reason": "hand"}])
    assert machine.model.players[0].dark_power == (1 if accepted else 0)


FOUR = [{"type": "roll", "faces": ["Magic"] * 3}, END, END]
"""Ann keeps four Magic Power tokens (1 + 3; R3)."""
MAGIC = {"type": "dark_power", "reason": "magic_power"}


@pytest.mark.parametrize("turn, taken", [
    # R3 read over the turn as recorded: the action after a penalty must leave it possible.
    ([{"type": "dark_power", "reason": "hand"}, {"type": "roll", "faces": ["Magic"]}], False),
    ([{"type": "dark_power", "reason": "hand"}, {"type": "column"}], True),
    ([*FOUR, MAGIC, {"type": "column"}], False),
    ([*FOUR, MAGIC, {"type": "roll", "faces": ["Magic"] * 2}], False),  # 4 + 2, not past 6
    ([*FOUR, MAGIC, {"type": "roll", "faces": ["Magic"] * 3}], True),
])
def test_a_penalty_before_the_action_binds_the_action(turn, taken):
    machine = play(2, turn)
    assert machine.model.acted is taken


def test_the_helper_needs_a_token_kept():
    # RB action 3: the Helper discards "one Magic Power token owned"; R3: Ann's 2 tokens
    # (1 + a Magic face) went on a display, and a Helper turn rolls none.
    helper = {"type": "helper", "trick": "column"}
    machine = play(2, [{"type": "roll", "faces": ["Magic"]},
                       {"type": "display", "space": 1, "creature": 1}, END, END, helper])
    assert not machine.model.acted


def test_a_bound_spent_past_none_leaves_none_not_a_debt():
    # R3: a count of tokens, never below none. Two no_rune after the displays take the
    # roll's gain below what was spent; the next turn (not entered) still pays one display.
    machine = play(2, [{"type": "roll", "faces": ["Fire", "Water", "Magic"]},
                       {"type": "display", "space": 1, "creature": 1},
                       {"type": "display", "space": 2, "creature": 1},
                       {"type": "dark_power", "reason": "no_rune"},
                       {"type": "dark_power", "reason": "no_rune"}, END, END,
                       {"type": "display", "space": 3, "creature": 1}])
    assert machine.model.players[0].portal[:3] == [1, 1, 1]


@pytest.mark.parametrize("trick", [{"type": "helper", "trick": "hand"},
                                   {"type": "dark_power", "reason": "helper"}])
def test_no_hand_trick_when_every_other_portal_is_complete(trick):
    # RB l.123, l.127: in the final round the Helper's hand trick has nobody to be used on.
    # R3: three Magic faces a turn pay two displays, then one (4 tokens, then 3).
    roll = {"type": "roll", "faces": ["Magic"] * 3}
    ann: list[dict] = []
    spaces = iter(range(1, 10))
    for count in (2, 1, 2, 1, 2, 1):
        ann += [roll, *({"type": "display", "space": next(spaces), "creature": 1}
                        for _ in range(count)), END, roll, END]
    machine = play(2, [*ann[:-2], trick])  # Bob's final turn, before his roll
    assert machine.model.players[1].dark_power == 0 and not machine.model.acted


@pytest.mark.parametrize("before", [
    [],                                               # no roll this turn
    [{"type": "roll", "faces": ["Magic", "Magic"]}],  # all Magic: no rune to miss
    [{"type": "roll", "faces": ["Fire"]},             # one rune die, already used
     {"type": "dark_power", "reason": "no_rune"}],
])
def test_no_rune_dark_power_needs_a_rune_die_of_this_turns_roll(before):
    # R2 "No free rune": at most one per die that showed a rune symbol.
    machine = play(2, [*before, {"type": "dark_power", "reason": "no_rune"}])
    assert machine.model.players[0].dark_power == (1 if len(before) == 2 else 0)


def test_no_rune_of_a_roll_is_not_carried_to_the_next_turn():
    play(2, [{"type": "roll", "faces": ["Fire"]}, END, END,
             {"type": "dark_power", "reason": "no_rune"}])


def test_the_helper_hand_trick_is_the_turns_one_action():
    # R2 "The turn's one action": a roll, then the Helper's trick, is a second action.
    machine = play(2, [{"type": "roll", "faces": ["Fire"]},
                       {"type": "dark_power", "reason": "helper"}])
    assert machine.model.players[0].dark_power == 0


def test_the_boxed_creatures_are_out_of_the_deck():
    # R2: a start option names the creatures put back in the box.
    machine = play(3, [{"type": "display", "space": 1, "creature": 6},
                       {"type": "display", "space": 1, "creature": 5}], boxed=[6])
    assert machine.model.players[0].portal[0] == 5


@pytest.mark.parametrize("first", [
    {"type": "roll", "faces": ["Fire"]},
    {"type": "column"},
    {"type": "helper", "trick": "column"},
    {"type": "helper", "trick": "hand"},
    {"type": "swap", "space": 1, "creature": 3},
])
@pytest.mark.parametrize("second", [
    {"type": "column"},
    {"type": "helper", "trick": "column"},
    {"type": "helper", "trick": "hand"},
    {"type": "dark_power", "reason": "helper"},
])
def test_one_action_a_turn_whichever_two(first, second):
    # R2 "The turn's one action": roll, column or discard, or one Helper trick.
    setup = [{"type": "display", "space": 1, "creature": 1}, END, END]
    machine = play(2, [*setup, first, second])
    assert machine.model.acted


@pytest.mark.parametrize("action", [{"type": "column"}, {"type": "helper", "trick": "column"},
                                    {"type": "helper", "trick": "hand"}])
def test_the_turns_action_comes_before_any_display(action):
    machine = play(2, [{"type": "display", "space": 1, "creature": 1}, action])
    assert not machine.model.acted
