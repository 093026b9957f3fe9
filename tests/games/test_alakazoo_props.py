"""Property tests: random Alakazoo play, legal and junk, on a real table and store."""

from __future__ import annotations

import random

from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, precondition, rule

from companion.games.alakazoo import GAME
from companion.games.alakazoo.state import jury
from tests.games.table_machine import TableMachine

NAMES = ["Ann", "Bob", "Cleo", "Dan"]


def progress(view: dict) -> tuple[int, ...]:
    """What only rises in play: points, filled spaces, firsts, rounds and the stats' counts."""
    st_ = view["stats"]
    return (*(p["points"] for p in view["players"]),
            *(p["filled"] for p in view["players"]),
            len(view["firsts"]), view["round"],
            *st_["dark_power"], *st_["forced_passes"], *st_["swaps"], *st_["rolls"])


class ZooTable(TableMachine):
    """A careless host: actions from ``legal``, junk, undo and redo."""

    progress = staticmethod(progress)

    @initialize(
        size=st.integers(2, 4),
        portals=st.permutations(range(1, 7)),
        first=st.sampled_from([0, 1, "roll", None]),
        reset=st.booleans(),
        seed=st.integers(0, 2**32),
    )
    def start(self, size, portals, first, reset, seed):
        options = {"portals": list(portals[:size]), "dark_power_reset": reset}
        if first is not None:
            options["first_player"] = first
        self.open_table({"game": "alakazoo", "players": NAMES[:size], "options": options},
                        seed)
        self.size = size

    @precondition(lambda self: bool(self.table.snapshot.match["legal"]))
    @rule(data=st.data())
    def play_a_legal_action(self, data):
        action = self.legal_action(data)
        if action["type"] == "roll" and data.draw(st.booleans()):
            # The table's own dice instead of the device's.
            del action["dice"]
            action["faces"] = data.draw(st.lists(st.sampled_from(self.view["dice_faces"]),
                                                 min_size=1, max_size=3))
        if data.draw(st.booleans()):
            action["by"] = self.view["current"]
        if self.act(action):
            event(f"accepted {action['type']}")

    @precondition(lambda self: self.view["current"] is not None)
    @rule(data=st.data())
    def display_then_end_the_turn(self, data):
        """The fast way on: fill empty spaces of the own portal, then pass the turn."""
        p = self.view["current"]
        empty = [s + 1 for s, c in enumerate(self.view["players"][p]["portal"]) if c is None]
        order = data.draw(st.permutations(empty))
        for space in order[:data.draw(st.integers(0, len(order)))]:
            creature = data.draw(st.integers(1, 6))
            assert self.act({"type": "display", "space": space, "creature": creature})
        assert self.act({"type": "end_turn"})
        if self.view["ended"]:
            event(f"ended: {self.view['ended']}")

    @rule(kind=st.sampled_from(["display", "dark_power", "swap", "roll", "end_turn", "jump",
                                None]),
          extra=st.fixed_dictionaries({}, optional={
              "space": st.sampled_from([0, 1, 5, 9, 10, "5", None]),
              "creature": st.sampled_from([0, 1, 3, 6, 7, True]),
              "player": st.sampled_from([0, 1, 2, 3, 4, -1]),
              "reason": st.sampled_from(["no_rune", "magic_power", "hand", "helper", "x"]),
              "dice": st.sampled_from([0, 1, 3, 4, "2"]),
              "faces": st.sampled_from([[], ["Fire"], ["Magic", "Air", "Air"], ["Ice"],
                                        "Fire", ["Fire"] * 4]),
              "device": st.sampled_from([True, False, 1]),
              "by": st.sampled_from([0, 1, 2, 3, 9, None]),
          }))
    def any_action(self, kind, extra):
        """Anything at all: either refused without a trace, or played by the rules."""
        self.act({"type": kind, **extra})

    @invariant()
    def the_view_is_consistent(self):
        view = self.view
        players = view["players"]
        over = view["ended"] is not None
        assert (view["current"] is None) == over
        assert (view["winner"] is not None) == over
        for p in players:
            assert 0 <= p["dark_power"] <= view["dark_max"]
            assert p["filled"] == sum(c is not None for c in p["portal"])
        # A space somebody was first on stays filled on some portal (swaps only exchange),
        # and a space empty everywhere has no first.
        for space in range(1, 10):
            shown = any(p["portal"][space - 1] is not None for p in players)
            assert (str(space) in view["firsts"]) == shown
        stats = view["stats"]
        for p, points in zip(players, stats["points"], strict=True):
            assert sum(points.values()) == p["points"]
        assert sum(s["complete"] for s in stats["points"]) == (view["ender"] is not None)
        if view["ender"] is not None:
            assert players[view["ender"]]["filled"] == 9
        if not over:
            assert view["final_round"] == (view["ender"] is not None)

    @invariant()
    def totals_are_points_plus_the_jury_at_the_end(self):
        view = self.view
        for p in view["players"]:
            if view["ended"] is None:
                assert p["jury"] is None and p["total"] == p["points"]
            else:
                verdict = jury(tuple(p["portal"]), p["creature"])
                assert p["jury"]["total"] == verdict.total
                assert p["total"] == p["points"] + verdict.total
        if view["ended"] is not None:
            best = max(p["total"] for p in view["players"])
            assert view["winner"] == [i for i, p in enumerate(view["players"])
                                      if p["total"] == best]
            assert self.table.snapshot.match["legal"] == []
            assert self.table.snapshot.match["status"] == "finished"
            event(f"over: {view['ended']}")


ZooTable.TestCase.settings = settings(max_examples=100, stateful_step_count=40,
                                      deadline=None)


class TestZooTable(ZooTable.TestCase):
    pass


@settings(max_examples=150, deadline=None)
@given(size=st.integers(2, 4), first=st.sampled_from([0, 1, "roll"]), reset=st.booleans(),
       seed=st.integers(0, 2**32), data=st.data())
def test_a_table_that_keeps_displaying_always_ends(size, first, reset, seed, data):
    """Displaying one element every turn played (whatever Dark Power comes with it) ends the
    game: nine turns per player fill every portal, and forced passes are not turns played."""
    prepared = GAME.prepare(NAMES[:size], {"first_player": first, "dark_power_reset": reset},
                            random.Random(seed))
    state = GAME.setup(NAMES[:size], prepared)
    rng = random.Random(seed)
    played = 0
    while state.current is not None:
        played += 1
        assert played <= size * 9, "the game did not end"
        p = state.current
        empty = [s + 1 for s, c in enumerate(state.portals[p]) if c is None]
        actions = []
        if data.draw(st.booleans()):
            actions.append({"type": "dark_power", "reason": data.draw(st.sampled_from(
                ["no_rune", "magic_power", "hand", "helper"]))})
        actions.append({"type": "display", "space": empty[0],
                        "creature": data.draw(st.integers(1, 6))})
        actions.append({"type": "end_turn"})
        for action in actions:
            state = GAME.apply(state, GAME.resolve(state, action, rng))
    # With the reset every player keeps playing until one completes.
    assert state.ended == "final_round" if reset else state.ended in ("final_round", "stuck")
    assert GAME.winner(state) is not None
