"""Property tests: random Wizard Dodgeball play on a real table and store."""

from __future__ import annotations

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, precondition, rule

from companion.games.wizard_dodgeball import CARD_OF, CARDS, SPELLS
from companion.games.wizard_dodgeball.state import USE_OF
from tests.games.table_machine import TableMachine

ROSTERS = [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]
JERSEYS = [j for r in ROSTERS for j in r]
#: Small dice make doubles, triples, catches and rebounds common.
DICE = {"d6": [1, 1, 2, 2, 3, 3], "white": [1, 2, 2, 3, 3, 3]}


def basic_allows(view: dict, used: list[str]) -> bool:
    """RULINGS.md, second round: the basic turn is a throw and a cast; Speed adds one
    more of either, Slow leaves one of them (both: as if neither)."""
    me = next(w for s in view["sides"] for w in s["wizards"]
              if w["jersey"] == view["active"]["jersey"])
    extra = ("speed" in me["effects"]) - ("slow" in me["effects"])
    throws = sum(u in ("throw", "pass") for u in used)
    casts = used.count("cast")
    if extra < 0:
        return throws + casts <= 1
    if extra > 0:
        return throws <= 2 and casts <= 2 and throws + casts <= 3
    return throws <= 1 and casts <= 1


def progress(view: dict) -> tuple[int, ...]:
    """What only rises in play: the scores and the activation count."""
    return (*(s["score"] for s in view["sides"]), view["activation"])


class DodgeballTable(TableMachine):
    """A careless host: legal actions built from ``legal``, junk, undo and redo."""

    progress = staticmethod(progress)

    @initialize(
        turn=st.sampled_from(["basic", "advanced"]),
        spell_list=st.sampled_from(["all", "bought"]),
        variant=st.sampled_from(["points", "elimination"]),
        goal=st.integers(1, 7),
        first_side=st.sampled_from([0, 1, "roll"]),
        bought=st.lists(st.sets(st.sampled_from([c.id for c in CARDS])), min_size=2,
                        max_size=2),
        magic=st.lists(st.integers(0, 3), min_size=10, max_size=10),
        seed=st.integers(0, 2**32),
    )
    def start(self, turn, spell_list, variant, goal, first_side, bought, magic, seed):
        options = {"rosters": ROSTERS, "turn": turn, "variant": variant,
                   # The elimination variant has no target (one is refused).
                   **({"target": goal} if variant == "points" else {}),
                   "first_side": first_side, "dice": DICE, "spell_list": spell_list}
        if spell_list == "bought":
            # Magic 0-3 caps the targets; each side keeps the cards its Magic buys.
            options["wizards"] = {str(j): {"magic": m} for j, m in
                                  zip(JERSEYS, magic, strict=True)}
            for side, cards in enumerate(bought):
                budget = sum(magic[side * 5:side * 5 + 5])
                while sum(CARD_OF[c].cost for c in cards) > budget:
                    cards.remove(max(cards))
            options["spells"] = [sorted(b) for b in bought]
        self.open_table({"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
                         "options": options}, seed)
        self.target = goal

    def act(self, action: dict) -> bool:
        before = self.view
        taken = super().act(action)
        if taken:
            event(f"accepted {action['type']}")
            use = USE_OF.get(action["type"])
            if use is not None:
                # Only what the activation had left is ever accepted.
                kind = "throw" if use == "pass" else use
                assert kind in before["open"] and before["actions_left"] >= 1
                assert self.view["used"] == [*before["used"], use]
                if before["turn"] == "basic":
                    assert basic_allows(before, [*before["used"], use])
        if before["turn"] == "basic" and before["winner"] is None:
            # What the view offers is what the ruling allows, no more, no less.
            me = next(w for s in before["sides"] for w in s["wizards"]
                      if w["jersey"] == before["active"]["jersey"])
            if me["on_court"] and "freeze" not in me["effects"]:
                expected = [k for k, more in (("throw", "pass"), ("cast", "cast"))
                            if basic_allows(before, [*before["used"], more])]
                assert before["open"] == expected
        return taken

    @precondition(lambda self: bool(self.table.snapshot.match["legal"]))
    @rule(data=st.data())
    def play_a_legal_action(self, data):
        shapes = self.table.snapshot.match["legal"]
        shape = data.draw(st.sampled_from(shapes))
        action = {"type": shape["type"]}
        for key, values in shape.items():
            if key == "type":
                continue
            if key in ("min_targets", "max_targets"):
                # legal's shapes come back as they are (or without it).
                if data.draw(st.booleans()):
                    action[key] = values
                continue
            if key == "targets":
                # Mostly within the caster's Magic; sometimes one over, to be refused.
                most = shape.get("max_targets", 3) + data.draw(st.sampled_from([0, 0, 0, 1]))
                # A Magic of 0 is offered no wizard: the cast names none (a ball).
                action[key] = data.draw(st.lists(st.sampled_from(values), unique=True,
                                                 min_size=min(shape.get("min_targets", 0),
                                                              len(values)),
                                                 max_size=min(most, 4))) if values else []
            else:
                action[key] = data.draw(st.sampled_from(values))
        # Players mostly act before they end an activation: skip some ends.
        if action["type"] == "end_activation" and data.draw(st.integers(0, 2)) == 0:
            return
        self.act(action)

    @rule(times=st.integers(1, 12))
    def end_activations(self, times):
        for _ in range(times):
            self.act({"type": "end_activation"})

    @rule(kind=st.sampled_from(["throw", "hit", "catch", "pass", "cast", "cast_roll",
                                "dispel"]),
          a=st.sampled_from([*JERSEYS, 99]), b=st.sampled_from(JERSEYS),
          spell=st.sampled_from(SPELLS), zones=st.integers(0, 4))
    def any_action(self, kind, a, b, spell, zones):
        """Anything at all: either refused without a trace, or played by the rules."""
        action = {"type": kind, "thrower": a, "caster": a, "target": b, "catcher": b,
                  "to": b, "spell": spell, "targets": [b], "range": zones,
                  "target_holding_ball": bool(zones % 2)}
        fields = {"throw": ("thrower", "target", "range", "target_holding_ball"),
                  "hit": ("thrower", "target"), "catch": ("thrower", "catcher"),
                  "pass": ("thrower", "to"),
                  "cast": ("caster", "spell", "targets"),
                  "cast_roll": ("caster", "spell", "targets"),
                  "dispel": ("caster", "target", "spell")}[kind]
        self.act({"type": kind, **{f: action[f] for f in fields}})

    @invariant()
    def a_card_is_never_both_ready_and_recharging(self):
        view = self.view
        due = {(r["side"], r["card"]) for r in view["recharging"]}
        for side, s in enumerate(view["sides"]):
            for spell, status in s["spells"].items():
                card = CARD_OF[spell].id
                assert (status == "ready") == ((side, card) not in due)
                if status != "ready":
                    assert status["returns_after"] >= view["activation"]
                    # Both faces of a card say the same.
                    for face in CARD_OF[spell].faces:
                        assert s["spells"][face] == status
        # Every effect belongs to a card out of the hand, and only wizards on
        # the court carry effects.
        for t in self.table.match.state.tokens:
            assert (t.side, CARD_OF[t.spell].id) in due
        for s in view["sides"]:
            for w in s["wizards"]:
                assert w["on_court"] or not w["effects"]

    @invariant()
    def recent_casts_follow_the_log(self):
        """Per side, each spell cast once, newest first, with its latest caster."""
        side_of = {w["jersey"]: side for side, s in enumerate(self.view["sides"])
                   for w in s["wizards"]}
        expected: list[list[dict]] = [[], []]
        for e in self.table.match.events:
            if e["type"] in ("cast", "cast_roll", "dispel"):
                spell = "dispel" if e["type"] == "dispel" else e["spell"]
                mine = expected[side_of[e["caster"]]]
                mine[:] = [{"spell": spell, "caster": e["caster"]},
                           *(c for c in mine if c["spell"] != spell)]
        assert [s["recent_casts"] for s in self.view["sides"]] == expected

    @invariant()
    def an_activation_never_records_more_than_its_budget(self):
        """``used`` is what the log recorded since the activation began, within the turn."""
        events = self.table.match.events
        since = []
        for e in reversed(events):
            if e["type"] == "end_activation":
                break
            since.insert(0, USE_OF[e["type"]])
        view = self.view
        assert view["used"] == since
        if view["turn"] == "basic":
            # Once each; Speed one more of either (Slow: one in all, checked as played).
            throws = sum(u in ("throw", "pass") for u in since)
            assert throws <= 2 and since.count("cast") <= 2 and len(since) <= 3
            # ``open`` names the kinds still allowed, ``actions_left`` how many: with Slow
            # one is left that may be either kind (RULINGS: a throw or a cast), so open
            # can name two kinds while one action is left. Something is open exactly
            # while something is left.
            assert set(view["open"]) <= {"throw", "cast"} and view["actions_left"] <= 3
            assert bool(view["open"]) == bool(view["actions_left"])
        else:
            # Two, +1 with Speed: never more than three, whatever came later.
            assert len(since) <= 3
            assert view["open"] == (["throw", "cast"] if view["actions_left"] else [])
        if view["winner"] is not None:
            assert view["actions_left"] == 0

    @invariant()
    def the_winner_is_decided_by_the_variant(self):
        view = self.view
        scores = [s["score"] for s in view["sides"]]
        if view["variant"] == "points":
            reached = [n >= self.target for n in scores]
            assert reached == [view["winner"] == 0, view["winner"] == 1]
        else:
            assert scores == [0, 0]
            empty = [s["on_court"] == 0 for s in view["sides"]]
            assert empty == [view["winner"] == 1, view["winner"] == 0]
        if view["winner"] is not None:
            event("a match was won")
            assert self.table.snapshot.match["legal"] == []


DodgeballTable.TestCase.settings = settings(max_examples=80, stateful_step_count=50,
                                            deadline=None)
TestDodgeballTable = pytest.mark.slow(DodgeballTable.TestCase)
