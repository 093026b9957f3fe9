"""Property tests: random AlakaSLAM play, legal and junk, on a real table and store.

AlakaSLAM is not in ``GAMES`` yet (no screens or controls), so each test case
registers it for its own run and takes it out again.
"""

from __future__ import annotations

import itertools

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, precondition, rule

from companion.games.alakaslam import CARDS, CHARACTERS
from companion.games.alakaslam.court import HITS, judge, judge_serve, land, serve_start
from tests.games.table_machine import TableMachine

NAMES = ["Ann", "Bob", "Cid", "Dee"]
#: Hit cards mostly, so rallies last; Enchantments and S2 now and then.
DRAWN = st.sampled_from(["R0", "R1", "R2", "R3", "B0", "B1", "B2", "B3", "R1", "B1",
                         "R0", "B0", "R1", "B1", "E1", "E2", "E3", "S2"])


def progress(view: dict) -> tuple[int, ...]:
    """What only rises in play: the scores."""
    return tuple(s["score"] for s in view["sides"])


class SlamTable(TableMachine):
    """A careless host: serves and shots from ``legal``, junk, undo and redo."""

    progress = staticmethod(progress)

    @initialize(
        size=st.integers(2, 4),
        characters=st.permutations(list(CHARACTERS)),
        flip=st.booleans(),
        first=st.sampled_from([0, 1, "coin"]),
        goal=st.integers(1, 4),
        seed=st.integers(0, 2**32),
    )
    def start(self, size, characters, flip, first, goal, seed):
        teams = {2: [0, 1], 3: [0, 1, 1], 4: [0, 0, 1, 1]}[size]
        if flip:
            teams = [1 - t for t in teams]
        options = {"characters": characters[:size], "teams": teams, "first_server": first,
                   "target": goal}
        self.open_table({"game": "alakaslam", "players": NAMES[:size], "options": options},
                        seed)
        self.size, self.teams = size, teams

    def hand(self, data, player: int, count: int | None = None) -> list[str]:
        if count is None:
            count = data.draw(st.integers(1, 3))
        return data.draw(st.lists(DRAWN, min_size=count, max_size=count))

    def hitters(self, data, player: int) -> dict:
        """Cards for ``player`` and their teammate, mostly obeying the obligations."""
        duty = {o["player"]: o for o in self.view["obligations"]}
        opponents = [p for p, t in enumerate(self.teams) if t != self.teams[player]]
        out: dict = {}
        mates = [p for p, t in enumerate(self.teams) if t == self.teams[player] and p != player]
        for who in [player, *mates]:
            count = None
            if who in duty and data.draw(st.integers(0, 4)):
                count = data.draw(st.sampled_from(duty[who]["cards"]))
            cards = self.hand(data, who, count)
            part: dict = {"cards": cards}
            if any(c.startswith("E") for c in cards) and len(opponents) > 1:
                part["enchant"] = data.draw(st.sampled_from(opponents))
            if who == player:
                out.update(part)
            else:
                out["support"] = {"player": who, **part}
        return out

    def act(self, action: dict) -> bool:
        """Play ``action`` and check what it did to the abilities, the hands and Simon."""
        before = self.view
        if not super().act(action):
            return False
        after = self.view
        # Every ability used counts once in the stats, whether or not the point ended on it.
        used = [0] * len(after["players"])
        if action["type"] == "ability":
            used[action["player"]] += 1
        if action["type"] in ("serve", "shot"):
            support = action.get("support")
            if action.get("ability") is True:
                # The contract's one field: when the hitter is not Laurie but the
                # Support is, it is the Support's ability.
                who = action["player"]
                if before["players"][who]["acts_as"] != "laurie" and isinstance(support, dict) \
                        and before["players"][support["player"]]["acts_as"] == "laurie":
                    who = support["player"]
                used[who] += 1
            if isinstance(support, dict) and support.get("ability") is True:
                used[support["player"]] += 1
        if action["type"] in ("serve", "shot") and any(used):
            event(f"Laurie's ability on a {action['type']}")
        assert [b - a for a, b in zip(before["stats"]["abilities"],
                                      after["stats"]["abilities"], strict=True)] == used
        same_point = progress(before) == progress(after)
        for p, (was, now) in enumerate(zip(before["players"], after["players"], strict=True)):
            if same_point and was["ability_used"]:
                # One copied ability a point: Simon keeps the character whose ability he used.
                assert now["acts_as"] == was["acts_as"] and now["ability_used"]
            if same_point and action["type"] == "copy" and action["player"] == p \
                    and was["mulligans"]:
                assert now["hand"] == was["hand"]  # after a mulligan a copy draws nothing
        return True

    @precondition(lambda self: bool(self.table.snapshot.match["legal"]))
    @rule(data=st.data())
    def play_a_legal_action(self, data):
        action = self.legal_action(data)
        if action["type"] in ("serve", "shot"):
            action.update(self.hitters(data, action["player"]))
            for part, who in ((action, action["player"]),
                              (action.get("support"), (action.get("support") or {}).get("player"))):
                if part is not None and data.draw(st.integers(0, 5)) == 0:
                    part["ability"] = True
                    if self.view["players"][who]["acts_as"] == "laurie" \
                            and data.draw(st.booleans()):
                        del part["cards"][1:]
            if self.act(action):
                event(f"accepted {action['type']}")
            return
        if action["type"] == "point" and data.draw(st.integers(0, 3)):
            return  # mostly play the rally out
        # A shape with every field filled in is accepted as offered.
        assert self.act(action), action
        event(f"accepted {action['type']}")

    @precondition(lambda self: self.view["due"] == "serve")
    @rule(data=st.data(), times=st.integers(1, 12))
    def before_the_serve(self, data, times):
        """Mulligans, copies and abilities in any order, as offered and not."""
        for _ in range(times):
            kind = data.draw(st.sampled_from(["mulligan", "copy", "ability"]))
            action = {"type": kind, "player": data.draw(st.integers(0, self.size - 1))}
            if kind == "copy":
                action["character"] = data.draw(st.sampled_from(list(CHARACTERS)))
            offered = any(s["type"] == kind and action["player"] in s["player"]
                          and action.get("character", "") in s.get("character", [""])
                          for s in self.table.snapshot.match["legal"])
            assert self.act(action) == offered, (action, self.table.snapshot.match["legal"])

    def aimed(self, data, player: int, start, serve_from=None) -> dict:
        """A serve or shot that mostly lands in: the last hitter's cards aim from
        where the others' left the ball (the test's own search over card lists)."""
        out = self.hitters(data, player)
        parts = [out] + ([out["support"]] if "support" in out else [])
        last = parts[-1]
        side, cols = self.teams[player], self.view["court"]["cols"]
        ball = land(start, [c for p in parts[:-1] for c in p["cards"]], side)
        n = len(last["cards"])
        spell = [c for c in last["cards"] if c.startswith("E")][:1]
        hits = n - len(spell)
        good = []
        for combo in itertools.product(HITS, repeat=hits):
            cell = land(ball, list(combo), side)
            ok = (judge_serve(serve_from, cell, side, cols) if serve_from
                  else judge(cell, side, cols))
            if ok == "in":
                good.append([*combo, *spell])
        if good and data.draw(st.integers(0, 5)):
            last["cards"] = data.draw(st.sampled_from(good))
        return out

    @rule(data=st.data(), times=st.integers(1, 8))
    def rally(self, data, times):
        """Serves and shots in a row, so rallies grow long enough to bind and lapse."""
        for _ in range(times):
            view = self.view
            if view["winner"] is not None:
                return
            if view["due"] == "serve":
                side = view["serving_side"]
                corner = data.draw(st.sampled_from(["red", "blue"]))
                action = {"type": "serve", "corner": corner}
            else:
                side = view["hitting_side"]
                action = {"type": "shot"}
            p = data.draw(st.sampled_from(view["sides"][side]["players"]))
            action["player"] = p
            if action["type"] == "serve":
                origin = serve_start(side, corner, view["court"]["cols"])
                action.update(self.aimed(data, p, origin, origin))
            else:
                action.update(self.aimed(data, p, tuple(view["ball"])))
            if self.act(action):
                event(f"rally: accepted {action['type']} ({self.view['last_shot']['result']})")
                if self.view["obligations"]:
                    event("an Enchantment binds")

    @rule(kind=st.sampled_from(["serve", "shot", "point", "mulligan", "ability", "copy",
                                "lob", None]),
          player=st.sampled_from([0, 1, 2, 3, 7, -1, "0", None]),
          cards=st.one_of(st.lists(st.sampled_from([*CARDS, "X1", 3]), max_size=5),
                          st.just("B1")),
          extra=st.fixed_dictionaries({}, optional={
              "corner": st.sampled_from(["red", "blue", "green"]),
              "winner": st.sampled_from([0, 1, 2, True]),
              "reason": st.sampled_from(["out", "net", "rain", "bad_serve"]),
              "character": st.sampled_from([*CHARACTERS, "zed"]),
              "enchant": st.sampled_from([0, 1, 2, 3, "x"]),
              "ability": st.sampled_from([True, False, 1]),
              "support": st.sampled_from([None, {}, {"player": 1, "cards": ["B1"]},
                                          {"player": 2, "cards": ["R1", "E2"]},
                                          {"player": 3, "cards": ["E3"], "enchant": 0}]),
          }))
    def any_action(self, kind, player, cards, extra):
        """Anything at all: either refused without a trace, or played by the rules."""
        self.act({"type": kind, "player": player, "cards": cards, **extra})

    @invariant()
    def the_ball_is_on_the_hitters_half_while_in_play(self):
        view = self.view
        if view["due"] == "shot":
            col, row = view["ball"]
            assert 1 <= col <= view["court"]["cols"] and 1 <= row <= view["court"]["rows"]
            assert (0 if row <= 2 else 1) == view["hitting_side"]
            assert view["rally"] >= 1
        else:
            assert view["ball"] is None and view["hitting_side"] is None
            assert view["rally"] == 0
        if view["due"] == "serve":
            # Every starting cell shown for a serve is on the court.
            for roles in view["serve_positions"].values():
                for cell in filter(None, roles.values()):
                    assert 1 <= cell[0] <= view["court"]["cols"] and 1 <= cell[1] <= 4

    @invariant()
    def obligations_bind_only_the_side_to_hit(self):
        view = self.view
        for o in view["obligations"]:
            assert view["players"][o["player"]]["side"] == view["hitting_side"]
            assert 1 <= len(o["cards"]) <= 2

    @invariant()
    def the_target_decides_the_winner(self):
        view = self.view
        reached = [s["score"] >= view["target"] for s in view["sides"]]
        assert reached == [view["winner"] == 0, view["winner"] == 1]
        if view["winner"] is not None:
            event("a match was won")
            assert self.table.snapshot.match["legal"] == []
            assert view["due"] is None

    @invariant()
    def hands_hold_at_least_one_card(self):
        for p in self.view["players"]:
            assert p["hand"] >= 1
            if p["mulligans"]:
                event("a mulligan")

    @invariant()
    def legal_offers_copy_only_before_the_serve_and_before_the_copy_is_used(self):
        view = self.view
        for shape in self.table.snapshot.match["legal"]:
            if shape["type"] == "copy":
                assert view["due"] == "serve"
                assert not any(view["players"][p]["ability_used"] for p in shape["player"])
            if shape["type"] == "point" and view["due"] == "shot":
                assert shape["winner"] == [1 - view["hitting_side"]]
                assert "bad_serve" not in shape["reason"]

    @invariant()
    def the_stats_account_for_every_point(self):
        view = self.view
        stats = view["stats"]
        for side, points in zip(view["sides"], stats["points"], strict=True):
            assert sum(points.values()) == side["score"]
        assert stats["longest_rally"] >= view["rally"]
        used_now = [p["ability_used"] for p in view["players"]]
        assert all(n >= used for n, used in zip(stats["abilities"], used_now, strict=True))


SlamTable.TestCase.settings = settings(max_examples=100, stateful_step_count=40,
                                       deadline=None)


class TestSlamTable(SlamTable.TestCase):
    pass
