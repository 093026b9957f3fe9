"""Wizard Dodgeball's basic turn as its rulebook and RULINGS.md describe it (in part).

Written from /work/shared/rules/wizard-dodgeball-rulebook.txt, RULINGS.md (its
"Second round" overrides earlier lines) and the action and view shapes of
CONTRACT.md / docs/api.md only, never from the engine's code. "RB" cites the
rulebook, "R" the rulings, "R2" the second round, "C" the contract.

The part modelled: the activation order and rounds, points and elimination
(both variants), the basic turn's throw and cast and the advanced turn's two
actions, with Speed and Slow (R2), Butter and Sticky Fingers, the cards'
recharge and the effect tokens it removes. Not modelled (the test never
records them): rolled throws and casts, Freeze, Shield, Fireball, Teleport
and Dispel, Magic stats and bought spells (the moves, which the companion
never sees, are left to the players).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

#: R "Spell cards": ten per side; a paired card's two faces share one card.
PAIRS = {"butter_fingers": "butter_fingers", "sticky_fingers": "butter_fingers",
         "magic_drain": "magic_drain", "magic_boost": "magic_drain",
         "shrink": "shrink", "enlarge": "shrink", "slow": "slow", "speed": "slow",
         "weak": "weak", "strong": "weak", "dispel": "dispel", "fireball": "fireball",
         "freeze": "freeze", "shield": "shield", "teleport": "teleport"}
#: The faces this model casts: Speed and Slow change the turn (R2), Butter
#: and Sticky Fingers who may throw or catch (RB); the others change only dice.
MODELLED = ("butter_fingers", "sticky_fingers", "magic_drain", "magic_boost", "shrink",
            "enlarge", "slow", "speed", "weak", "strong")


class DodgeModel:
    """One Wizard Dodgeball match, basic turn; ``act`` says whether it is accepted."""

    def __init__(self, rosters: Sequence[Sequence[int]], variant: str = "points",
                 target: int = 5, first_side: int = 0, turn: str = "basic") -> None:
        self.rosters = [list(r) for r in rosters]
        self.turn = turn
        self.variant = variant
        self.target = target
        # R "Activation order": side 1's first, side 2's first, side 1's second...
        other = 1 - first_side
        self.order = [(s, self.rosters[s][i]) for i in range(5) for s in (first_side, other)]
        self.side_of = {j: s for s in (0, 1) for j in self.rosters[s]}
        self.on_court = {j: True for r in self.rosters for j in r}
        # Effect tokens on each wizard: (face, card, casting side).
        self.tokens: dict[int, list[tuple[str, str, int]]] = {j: [] for j in self.on_court}
        self.cards: list[dict[str, Any]] = [{}, {}]  # side -> card -> (caster, returns, face)
        self.score = [0, 0]
        self.winner: int | None = None
        self.activation = 1
        self._begin_slot()

    def clone(self) -> DodgeModel:
        return copy.deepcopy(self)

    def _no(self, why: str) -> bool:
        self.why = why
        return False

    @property
    def active(self) -> tuple[int, int]:
        return self.order[(self.activation - 1) % 10]

    def view(self) -> dict[str, Any]:
        side, jersey = self.active
        return {
            "sides": [{"score": self.score[s],
                       "wizards": [{"jersey": j, "on_court": self.on_court[j],
                                    "effects": sorted(f for f, _, _ in self.tokens[j])}
                                   for j in self.rosters[s]],
                       "spells": {face: ("ready" if card not in self.cards[s] else
                                         {"caster": self.cards[s][card][0],
                                          "returns_after": self.cards[s][card][1]})
                                  for face, card in PAIRS.items()}}
                      for s in (0, 1)],
            "active": {"side": side, "jersey": jersey},
            "activation": self.activation,
            "round": (self.activation - 1) // 10 + 1,  # C: ten slots a round
            "winner": self.winner,
        }

    # --- the activation ---------------------------------------------------------------

    def _begin_slot(self) -> None:
        self.throws = self.casts = 0
        self.returned = False
        _, jersey = self.active
        if not self.on_court[jersey] and self.variant == "points":
            # R "Elimination": back on its next activation (without movement).
            self.on_court[jersey] = True
            self.returned = True

    def _end_slot(self) -> None:
        """R "Recharge": a card returns at the end of its caster's next slot,
        skipped or not, and every effect token of that cast goes."""
        for s in (0, 1):
            for card, (_, returns, _) in list(self.cards[s].items()):
                if returns == self.activation:
                    del self.cards[s][card]
                    for j in self.tokens:
                        self.tokens[j] = [t for t in self.tokens[j] if t[1:] != (card, s)]
        self.activation += 1

    def _next(self) -> None:
        self._end_slot()
        # R "Elimination variant": an eliminated wizard's activation is
        # skipped, the slot counted.
        while self.variant == "elimination" and not self.on_court[self.active[1]]:
            self._end_slot()
        self._begin_slot()

    def _budget_left(self, kind: str) -> bool:
        """R, R2 "Speed and Slow in the basic turn": a throw and a cast; Speed one
        more of either; Slow one of them only."""
        effects = self._effects(self.active[1])
        speed, slow = "speed" in effects, "slow" in effects
        used = self.throws + self.casts
        if self.turn == "advanced":
            # R "Turns": two actions in any mix, Speed +1, Slow -1; RB: back
            # from elimination on its initiative, one action fewer. (R2: the
            # turn and the spell list are two options: all ten cards here.)
            return used < 2 + speed - slow - self.returned
        mine = self.throws if kind == "throw" else self.casts
        if speed and not slow:
            return used < 3 and mine < 2
        if slow and not speed:
            return used < 1
        return mine < 1

    # --- actions ----------------------------------------------------------------------

    def act(self, action: Mapping[str, Any], event: Any = None) -> bool:
        if self.winner is not None:
            return self._no("C: the match is over")
        kind = action.get("type")
        f = {k: v for k, v in action.items() if k != "type"}
        if kind == "end_activation":
            if f:
                return self._no("C: no fields")
            self._next()
            return True
        if kind in ("hit", "catch", "pass"):
            return self._throw(kind, f)
        if kind == "cast":
            return self._cast(f)
        return self._no("C: a type this model records")

    def _actor(self, jersey: Any) -> str | None:
        if jersey != self.active[1]:
            return "C: made by the active wizard"
        if not self.on_court[jersey]:
            return "C: on the court"
        return None

    def _throw(self, kind: str, f: dict) -> bool:
        fields = {"hit": {"thrower", "target"}, "pass": {"thrower", "to"},
                  "catch": {"thrower", "catcher", "returning"}}[kind]
        if not set(f) <= fields or not (fields - {"returning"}) <= set(f):
            return self._no("C: fields")
        why = self._actor(f["thrower"])
        if why:
            return self._no(why)
        if not self._budget_left("throw"):
            return self._no("R/R2: the activation's throw is used")
        mine = self._effects(f["thrower"])
        if "butter_fingers" in mine:
            return self._no("RB Butter Fingers: drops the ball, cannot pick one up")
        if "sticky_fingers" in mine:
            return self._no("RB Sticky Fingers: unable to throw, pass or drop")
        side = self.side_of[f["thrower"]]
        other = f.get("target", f.get("catcher", f.get("to")))
        if other not in self.on_court or not self.on_court[other]:
            return self._no("C: the other wizard is on the court")
        if kind == "pass":
            if self.side_of[other] != side or other == f["thrower"]:
                return self._no("C: a pass goes to a teammate")
            if "butter_fingers" in self._effects(other):
                return self._no("RB Butter Fingers: unable to pick up or catch a ball")
            self.throws += 1
            return True
        if self.side_of[other] == side:
            return self._no("C: a throw at an opponent")
        if kind == "hit":
            self.throws += 1
            self._eliminate(other)  # RB: a failed dodge eliminates
            self._score(side)
            return True
        if "butter_fingers" in self._effects(other):
            return self._no("RB Butter Fingers: unable to catch")
        catcher_side = 1 - side
        out = [j for j in self.rosters[catcher_side] if not self.on_court[j]]
        back = f.get("returning")
        if back is not None and back not in out:
            return self._no("C: returning names an eliminated wizard of the catcher's side")
        self.throws += 1
        self._eliminate(f["thrower"])  # RB: a caught ball eliminates the thrower
        if "returning" not in f and out:
            back = out[0]  # C: left out, the catcher side's first eliminated wizard
        # (RB: the catcher's team *can* return one: null returns nobody.)
        if back is not None:
            self.on_court[back] = True  # R: brought back at once
        self._score(catcher_side)
        return True

    def _effects(self, jersey: int) -> list[str]:
        return [f for f, _, _ in self.tokens[jersey]]

    def _eliminate(self, jersey: int) -> None:
        self.on_court[jersey] = False
        self.tokens[jersey] = []  # RB "Eliminated": its spell effects are removed at once

    def _score(self, side: int) -> None:
        if self.variant == "points":
            self.score[side] += 1  # R "Points": a hit or a catch
            if self.score[side] >= self.target:
                self.winner = side
        for s in (0, 1):
            # R "Elimination variant": a side with no wizard on court loses.
            if self.variant == "elimination" and not any(
                    self.on_court[j] for j in self.rosters[s]):
                self.winner = 1 - s

    def _cast(self, f: dict) -> bool:
        if set(f) != {"caster", "spell", "targets"}:
            return self._no("C: fields")
        why = self._actor(f["caster"])
        if why:
            return self._no(why)
        spell, targets = f["spell"], f["targets"]
        if spell not in PAIRS or not isinstance(targets, list):
            return self._no("C: a spell id and a list of targets")
        side = self.side_of[f["caster"]]
        card = PAIRS[spell]
        if card in self.cards[side]:
            return self._no("R: the card is recharging")
        if not self._budget_left("cast"):
            return self._no("R/R2: the activation's cast is used")
        if any(t not in self.on_court for t in targets) or len(set(targets)) != len(targets):
            return self._no("C: targets are wizards, each once")
        self.casts += 1
        # R "Recharge": back at the end of the caster's next slot, ten later.
        self.cards[side][card] = (f["caster"], self.activation + 10, spell)
        for t in targets:
            self.tokens[t].append((spell, card, side))
        return True
