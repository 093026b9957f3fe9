"""Wizard Dodgeball as its rulebook and RULINGS.md describe it: every spell, every throw.

Written from /work/shared/rules/wizard-dodgeball-rulebook.txt, RULINGS.md (its
"Second round" and "Third round" override earlier lines) and the action and
view shapes of docs/api.md and the readings of docs/rules.md only, never from
the engine's code. "RB" cites the rulebook, "R" the first rulings, "R2" the
second round, "R3" the third, "C" the contract (docs/api.md and rules.md).

The model holds the activation order and rounds, points and elimination (both
variants), the basic and the advanced turn with Speed and Slow (R2, R3), the
ten cards of each side (all, or bought within the Magic budget), their
recharge and the effect tokens it removes, the Magic reach, the spell markers
(R3: three of each kind a team), the Fireball on a ball (R2, R3), Shield,
Freeze, Butter and Sticky Fingers, the dice pools of every throw, dodge, cast
and resist with Strong/Weak, Shrink/Enlarge and Magic Boost/Drain, catches,
triples, resists, rebounds, and Dispel as an attack on the effect's caster.
The court itself (positions, line of sight, which balls are active) is the
players' and is not modelled, as the companion does not see it (C).

Dice: every colour is a plain d6 here (C: a colour without faces is a d6). A
pool is listed left die, right die, then white dice (C "Rolls are listed").
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

#: R "Spell cards": ten per side; a paired card's two faces share one card (and,
#: R3, one marker kind: the card's).
CARD = {"butter_fingers": "butter_fingers", "sticky_fingers": "butter_fingers",
        "magic_drain": "magic_drain", "magic_boost": "magic_drain",
        "shrink": "shrink", "enlarge": "shrink", "slow": "slow", "speed": "slow",
        "weak": "weak", "strong": "weak", "dispel": "dispel", "fireball": "fireball",
        "freeze": "freeze", "shield": "shield", "teleport": "teleport"}
SPELLS = tuple(CARD)
CARDS = tuple(dict.fromkeys(CARD.values()))
#: R "Spell cards" / RB purchase: single cards cost 1, paired cards 2.
COST = {c: (2 if c in ("butter_fingers", "magic_drain", "shrink", "slow", "weak") else 1)
        for c in CARDS}
#: R3 "Three markers of each kind per team": Dispel and Teleport leave none.
NO_MARKER = ("dispel", "teleport")
MARKERS = 3
#: C "Fireball": a fixed attack; R "Effects": Freeze a fixed dodge.
FIREBALL_ATTACK = 10
FROZEN_DODGE = 5
#: C "Sticky Fingers": catches on dodge doubles or these totals (RB).
STICKY_TOTALS = (3, 6, 9, 12)
FACES = range(1, 7)
LOOSE = "loose"


class DodgeModel:
    """One Wizard Dodgeball match; ``act`` says whether it is accepted, and applies it."""

    def __init__(self, rosters: Sequence[Sequence[int]], variant: str = "points",
                 target: int = 5, first_side: int = 0, turn: str = "basic",
                 magic: Mapping[int, int] | None = None,
                 spells: Sequence[Sequence[str]] | None = None) -> None:
        self.rosters = [list(r) for r in rosters]
        self.turn = turn
        self.variant = variant
        self.target = target
        self.magic = dict(magic or {})
        # R "Spell cards": all ten, or the bought list (either face names the card).
        self.owned = [set(CARDS) if spells is None else {CARD[s] for s in spells[side]}
                      for side in (0, 1)]
        # R "Activation order": side 1's first, side 2's first, side 1's second...
        other = 1 - first_side
        self.order = [(s, self.rosters[s][i]) for i in range(5) for s in (first_side, other)]
        self.side_of = {j: s for s in (0, 1) for j in self.rosters[s]}
        self.on_court = {j: True for r in self.rosters for j in r}
        # Effect tokens on each wizard: (face, card, casting side). R3: one of a kind.
        self.tokens: dict[int, list[tuple[str, str, int]]] = {j: [] for j in self.on_court}
        # R2 "The Fireball is on the ball": side -> the jersey holding it, or LOOSE.
        self.fireball: dict[int, Any] = {}
        # Cards out of each side's hand: card -> (caster, returns after, face cast).
        self.cards: list[dict[str, tuple[int, int, str]]] = [{}, {}]
        self.score = [0, 0]
        self.winner: int | None = None
        self.activation = 1
        self.why = ""
        self._begin_slot()

    def clone(self) -> DodgeModel:
        return copy.deepcopy(self)

    def _no(self, why: str) -> bool:
        self.why = why
        return False

    @property
    def active(self) -> tuple[int, int]:
        return self.order[(self.activation - 1) % 10]

    # --- the view ---------------------------------------------------------------------

    def effects(self, j: int) -> list[str]:
        """The spell ids on ``j``: its tokens, and "fireball" while it holds one (C)."""
        mine = [f for f, _, _ in self.tokens[j]]
        mine += ["fireball" for holder in self.fireball.values() if holder == j]
        return mine

    def view(self) -> dict[str, Any]:
        side, jersey = self.active
        return {
            "sides": [{"score": self.score[s],
                       "wizards": [{"jersey": j, "on_court": self.on_court[j],
                                    "effects": sorted(self.effects(j))}
                                   for j in self.rosters[s]],
                       "spells": {face: ("ready" if card not in self.cards[s] else
                                         {"caster": self.cards[s][card][0],
                                          "returns_after": self.cards[s][card][1]})
                                  for face, card in CARD.items() if card in self.owned[s]}}
                      for s in (0, 1)],
            "active": {"side": side, "jersey": jersey},
            "activation": self.activation,
            "round": (self.activation - 1) // 10 + 1,  # C: ten slots a round
            "winner": self.winner,
            "actions_left": self.actions_left(),
            "loose_fireballs": sorted(s for s, h in self.fireball.items() if h == LOOSE),
        }

    # --- the activation ---------------------------------------------------------------

    def _begin_slot(self) -> None:
        self.throws = self.casts = 0
        self.returned = False
        self.speed_spent = False  # R3: Speed's extra action was used this activation
        _, jersey = self.active
        if not self.on_court[jersey] and self.variant == "points":
            # R "Elimination": back on its next activation (without movement).
            self.on_court[jersey] = True
            self.returned = True

    def _end_slot(self) -> None:
        """R "Recharge": a card returns at the end of its caster's next slot,
        skipped or not, and every effect token of that cast goes (the Fireball
        too: RB "lasts until attack is resolved or one round")."""
        for s in (0, 1):
            for card, (_, returns, _) in list(self.cards[s].items()):
                if returns == self.activation:
                    del self.cards[s][card]
                    for j in self.tokens:
                        self.tokens[j] = [t for t in self.tokens[j] if t[1:] != (card, s)]
                    if card == "fireball":
                        self.fireball.pop(s, None)
        self.activation += 1

    def _next(self) -> None:
        self._end_slot()
        # R "Elimination variant": an eliminated wizard's activation is
        # skipped, the slot counted.
        while self.variant == "elimination" and not self.on_court[self.active[1]]:
            self._end_slot()
        self._begin_slot()

    def _net(self, with_speed: bool = True) -> int:
        """Speed less Slow on the active wizard, each counted once (R3). Speed
        whose extra action was used stays counted after a Dispel (R3)."""
        mine = self.effects(self.active[1])
        speed = with_speed and ("speed" in mine or self.speed_spent)
        return int(speed) - int("slow" in mine)

    def _fits(self, throws: int, casts: int, with_speed: bool = True) -> bool:
        """Whether ``throws`` and ``casts`` fit the activation (R "Turns", R2, R3)."""
        jersey = self.active[1]
        if not self.on_court[jersey] or "freeze" in self.effects(jersey):
            return throws == casts == 0  # C: a frozen wizard has no action
        net = self._net(with_speed)
        if self.turn == "advanced":
            # R "Turns": two actions, Speed +1, Slow -1; RB: back from
            # elimination, one action fewer.
            return throws + casts <= 2 + net - self.returned
        if net > 0:   # R2: one more throw or cast
            return throws <= 2 and casts <= 2 and throws + casts <= 3
        if net < 0:   # R2: a throw or a cast, not both
            return throws + casts <= 1
        return throws <= 1 and casts <= 1

    def _room(self, kind: str) -> bool:
        t, c = self.throws + (kind == "throw"), self.casts + (kind == "cast")
        return self._fits(t, c)

    def _use(self, kind: str) -> None:
        """Record an action; R3: note when it needed what Speed gave."""
        if kind == "throw":
            self.throws += 1
        else:
            self.casts += 1
        if "speed" in self.effects(self.active[1]) and not self._fits(
                self.throws, self.casts, with_speed=False):
            self.speed_spent = True

    def actions_left(self) -> int:
        """C `actions_left`: how many more throws and casts still fit."""
        if self.winner is not None:
            return 0
        left = 0
        t, c = self.throws, self.casts
        while True:
            if self._fits(t + 1, c):
                t += 1
            elif self._fits(t, c + 1):
                c += 1
            else:
                return left
            left += 1

    # --- facts ------------------------------------------------------------------------

    def has(self, j: int, spell: str) -> bool:
        return spell in self.effects(j)

    def _actor(self, jersey: Any, kind: str) -> str | None:
        if jersey != self.active[1]:
            return "C: made by the active wizard"
        if not self.on_court[jersey]:
            return "C: on the court"
        if self.has(jersey, "freeze"):
            return "RB Freeze: cannot throw or cast"
        if not self._room(kind):
            return f"R/R2/R3: the activation has no {kind} left"
        return None

    def _drop_fireball(self, j: int) -> None:
        """R2: a wizard that lets go of the Fireball ball leaves it loose."""
        for s, holder in self.fireball.items():
            if holder == j:
                self.fireball[s] = LOOSE

    def _eliminate(self, jersey: int) -> None:
        self.on_court[jersey] = False
        self.tokens[jersey] = []  # RB "Eliminated": its spell effects are removed at once
        self._drop_fireball(jersey)  # C: it leaves its ball, Fireball and all, on the court

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

    def _shield_absorbs(self, j: int) -> None:
        """R "Effects" Shield, R3: it goes at the first failed dodge or resist
        that would have affected it; two Shields count once."""
        self.tokens[j] = [t for t in self.tokens[j] if t[0] != "shield"]

    # --- actions ----------------------------------------------------------------------

    def act(self, action: Mapping[str, Any], rolls: Any = None) -> bool:
        """``rolls``: the dice the device rolled (the resolved event's), when the
        action names none."""
        if self.winner is not None:
            return self._no("C: the match is over")
        if not isinstance(action, Mapping):
            return self._no("C: an object")
        kind = action.get("type")
        f = {k: v for k, v in action.items() if k != "type"}
        if kind == "end_activation":
            if f:
                return self._no("C: no fields")
            self._next()
            return True
        handler = {"hit": self._hit, "catch": self._catch, "pass": self._pass,
                   "throw": self._throw, "cast": self._cast, "cast_roll": self._cast_roll,
                   "dispel": self._dispel}.get(kind)
        if handler is None:
            return self._no("C: a known type")
        return handler(f, rolls)

    # --- balls ------------------------------------------------------------------------

    def _fields(self, f: dict, required: set[str], optional: set[str]) -> bool:
        return required <= set(f) <= required | optional

    def _jersey(self, j: Any) -> bool:
        return type(j) is int and j in self.on_court

    def _thrower(self, f: dict) -> str | None:
        t = f.get("thrower")
        if not self._jersey(t):
            return "C: a jersey"
        why = self._actor(t, "throw")
        if why:
            return why
        if self.has(t, "butter_fingers"):
            return "RB Butter Fingers: cannot hold a ball"
        if self.has(t, "sticky_fingers"):
            return "RB Sticky Fingers: unable to throw or pass"
        return None

    def _thrown_fireball(self, t: int, fb: Any) -> tuple[str | None, int | None]:
        """Which side's Fireball the throw of ``t`` carries (R2, R3, C "fireball")."""
        held = [s for s, h in self.fireball.items() if h == t]
        loose = [s for s, h in self.fireball.items() if h == LOOSE]
        if fb is None:
            return None, (held[0] if held else None)
        if fb is False:
            return None, None
        if fb is True:
            if held:
                return None, held[0]
            if len(loose) == 1:
                return None, loose[0]
            if loose:
                return "R3: two loose Fireballs are told apart by their side", None
            return "C: `true` with no Fireball about", None
        if type(fb) is int and fb in (0, 1):
            where = self.fireball.get(fb)
            if where is None:
                return "C: that side has no Fireball about", None
            if where not in (t, LOOSE):
                return "R2: another wizard holds that Fireball", None
            return None, fb
        return "C: fireball is a bool or a side", None

    def _throw_fireball(self, t: int, fb: Any) -> tuple[str | None, int | None]:
        """Let go of any other Fireball ball ``t`` held; the side thrown."""
        why, thrown = self._thrown_fireball(t, fb)
        if why:
            return why, None
        for s, holder in self.fireball.items():
            if holder == t and s != thrown:
                self.fireball[s] = LOOSE  # C: it threw another ball: that one is loose
        return None, thrown

    def _pass(self, f: dict, _rolls: Any) -> bool:
        if not self._fields(f, {"thrower", "to"}, {"fireball"}):
            return self._no("C: fields")
        why = self._thrower(f)
        if why:
            return self._no(why)
        t, to = f["thrower"], f["to"]
        if not self._jersey(to) or not self.on_court[to]:
            return self._no("C: to a wizard on the court")
        if self.side_of[to] != self.side_of[t] or to == t:
            return self._no("RB Passing: to a teammate")
        if self.has(to, "butter_fingers"):
            return self._no("RB Butter Fingers: unable to pick up or catch")
        why, thrown = self._thrown_fireball(t, f.get("fireball"))
        if why:
            return self._no(why)
        self._use("throw")
        self._throw_fireball(t, f.get("fireball"))
        # RB "Balls": one ball at a time: the receiver lets go of its own.
        self._drop_fireball(to)
        if thrown is not None:
            self.fireball[thrown] = to  # R2: a pass hands the one Fireball on
        return True

    def _opponent(self, t: int, other: Any) -> str | None:
        if not self._jersey(other) or not self.on_court[other]:
            return "C: at a wizard on the court"
        if self.side_of[other] == self.side_of[t]:
            return "C: a throw at an opponent (a pass goes to a teammate)"
        return None

    def _hit(self, f: dict, _rolls: Any) -> bool:
        if not self._fields(f, {"thrower", "target"}, {"fireball"}):
            return self._no("C: fields")
        why = self._thrower(f) or self._opponent(f["thrower"], f["target"])
        if why:
            return self._no(why)
        t, target = f["thrower"], f["target"]
        why, thrown = self._thrown_fireball(t, f.get("fireball"))
        if why:
            return self._no(why)
        self._use("throw")
        self._throw_fireball(t, f.get("fireball"))
        self._resolve(t, target, "hit", thrown)
        return True

    def _can_catch(self, catcher: int) -> str | None:
        if self.has(catcher, "butter_fingers"):
            return "RB Butter Fingers: unable to catch"
        if self.has(catcher, "freeze"):
            return "C Freeze: rolls no dodge, so cannot catch"
        if self.has(catcher, "shield"):
            return "RB Shield: unable to catch"
        return None

    def _catch(self, f: dict, _rolls: Any) -> bool:
        if not self._fields(f, {"thrower", "catcher"}, {"returning", "fireball"}):
            return self._no("C: fields")
        why = self._thrower(f) or self._opponent(f["thrower"], f["catcher"])
        if why:
            return self._no(why)
        t, catcher = f["thrower"], f["catcher"]
        why = self._can_catch(catcher)
        if why:
            return self._no(why)
        why, thrown = self._thrown_fireball(t, f.get("fireball"))
        if why:
            return self._no(why)
        if thrown is not None:
            return self._no("RB Fireball: cannot be caught")
        why = self._returning(catcher, f)
        if why:
            return self._no(why)
        self._use("throw")
        self._throw_fireball(t, f.get("fireball"))
        self._resolve(t, catcher, "catch", None, f)
        return True

    def _returning(self, catcher: int, f: dict) -> str | None:
        out = [j for j in self.rosters[self.side_of[catcher]] if not self.on_court[j]]
        back = f.get("returning")
        if back is not None and back not in out:
            return "C: returning names an eliminated wizard of the catcher's side"
        return None

    def _resolve(self, t: int, target: int, result: str, thrown: int | None,
                 f: Mapping[str, Any] | None = None) -> None:
        side = self.side_of[t]
        if thrown is not None:
            # R3: a thrown Fireball is spent when its attack is resolved.
            del self.fireball[thrown]
        if result == "hit":
            if self.has(target, "shield"):
                self._shield_absorbs(target)  # R: no elimination, no point
            else:
                self._eliminate(target)
                self._score(side)
        elif result == "catch":
            catcher_side = 1 - side
            out = [j for j in self.rosters[catcher_side] if not self.on_court[j]]
            # C: a wizard catches only with no ball in hand.
            self._drop_fireball(target)
            self._eliminate(t)  # RB: a caught ball eliminates the thrower
            back = (f or {}).get("returning") if "returning" in (f or {}) else (
                out[0] if out else None)  # C: left out, the first eliminated comes back
            if back is not None:
                self.on_court[back] = True  # R: brought back at once
            self._score(catcher_side)

    # --- the rolled throw -------------------------------------------------------------

    def throw_pools(self, t: int, target: int, zones: int, holding: bool,
                    fireball: bool) -> tuple[int, int]:
        """How many throw and dodge dice (C "The dice", "Effects")."""
        mine = self.effects(t)
        throw = 0 if fireball else max(1, {3: 1, 2: 2, 1: 3}[zones]
                                       + ("strong" in mine) - ("weak" in mine))
        theirs = self.effects(target)
        dodge = 0 if "freeze" in theirs else max(
            1, 2 + holding + ("shrink" in theirs) - ("enlarge" in theirs))
        return throw, dodge

    def _throw(self, f: dict, rolls: Any) -> bool:
        if not self._fields(f, {"thrower", "target", "range", "target_holding_ball"},
                            {"rolls", "returning", "fireball"}):
            return self._no("C: fields")
        why = self._thrower(f) or self._opponent(f["thrower"], f["target"])
        if why:
            return self._no(why)
        t, target, zones, holding = (f["thrower"], f["target"], f["range"],
                                     f["target_holding_ball"])
        if type(zones) is not int or zones not in (1, 2, 3) or type(holding) is not bool:
            return self._no("C: range 1-3, target_holding_ball a bool")
        if holding and self.has(target, "butter_fingers"):
            return self._no("RB Butter Fingers: cannot hold a ball")
        why, thrown = self._thrown_fireball(t, f.get("fireball"))
        if why:
            return self._no(why)
        given = f.get("rolls", rolls)
        if not isinstance(given, Mapping) or set(given) != {"throw", "dodge"}:
            return self._no("C: rolls of the throw and the dodge")
        n_throw, n_dodge = self.throw_pools(t, target, zones, holding, thrown is not None)
        throw, dodge = given["throw"], given["dodge"]
        if not (_dice(throw, n_throw) and _dice(dodge, n_dodge)):
            return self._no("C: the dice the pools roll, faces 1-6")
        result = self.throw_result(target, holding, thrown is not None, throw, dodge)
        if "returning" in f:
            if result != "catch":
                return self._no("R2: returning only for a throw that is caught")
            why = self._returning(target, f)
            if why:
                return self._no(why)
        self._use("throw")
        self._throw_fireball(t, f.get("fireball"))
        if not holding:
            self._drop_fireball(target)  # C: it had dropped the Fireball ball
        self._resolve(t, target, "hit" if result == "hit" else result, thrown, f)
        return True

    def throw_result(self, target: int, holding: bool, fireball: bool,
                     throw: Sequence[int], dodge: Sequence[int]) -> str:
        """RB "Throwing", "Dodging", "Catching", "Rolling triples"; C "Effects"."""
        attack = FIREBALL_ATTACK if fireball else sum(throw)
        theirs = self.effects(target)
        frozen = "freeze" in theirs
        defence = FROZEN_DODGE if frozen else sum(dodge)
        if holding and not frozen and max(Counter(dodge).values(), default=0) >= 3:
            return "dodge"  # RB: triples while holding a ball trump every throw
        doubles = len(dodge) >= 2 and dodge[0] == dodge[1]
        sticky = "sticky_fingers" in theirs and defence in STICKY_TOTALS
        if (not holding and not frozen and not fireball and (doubles or sticky)
                and self._can_catch(target) is None):
            return "catch"
        if attack > defence:
            return "hit"  # (a Shield absorbs it: _resolve)
        return "dodge"

    # --- spells -----------------------------------------------------------------------

    def _caster(self, f: dict, spell: Any) -> str | None:
        c = f.get("caster")
        if not self._jersey(c):
            return "C: a jersey"
        if spell not in CARD:
            return "C: a spell id"
        why = self._actor(c, "cast")
        if why:
            return why
        side = self.side_of[c]
        card = CARD[spell]
        if card not in self.owned[side]:
            return "R: the side did not buy that card"
        if card in self.cards[side]:
            return "R: the card is recharging"
        return None

    def _targets(self, c: int, spell: str, targets: Any, rolled: bool) -> str | None:
        if not isinstance(targets, list) or not all(self._jersey(t) for t in targets):
            return "C: targets are jerseys"
        if len(set(targets)) != len(targets):
            return "C: each target once"
        if any(not self.on_court[t] for t in targets):
            return "C: targets on the court"
        magic = self.magic.get(c)
        if rolled and magic == 0:
            return "R3: a rolled cast whose Magic reaches no wizard (a hand cast instead)"
        if rolled and not targets:
            return "C: a rolled cast names at least one wizard"
        if spell == "fireball":
            if len(targets) != 1:
                return "C: a Fireball goes on exactly one held ball"
            holder = targets[0]
            if magic == 0 and holder != c:
                return "C: at Magic 0 a Fireball reaches only the caster's own ball"
            if self.has(holder, "butter_fingers"):
                return "C: a wizard with Butter Fingers holds no ball"
            if self.has(holder, "fireball"):
                return "R3: one Fireball per ball"
        elif magic is not None and len(targets) > magic:
            return "R2 Magic reach: at most Magic wizards"
        if spell == "teleport" and len(targets) > 1:
            return "C: a Teleport moves at most one wizard"
        if spell == "dispel" and not rolled and targets:
            return "C: a Dispel that worked is a `dispel`; a cast of it names nobody"
        card = CARD[spell]
        if card not in NO_MARKER:
            side = self.side_of[c]
            lying = sum(1 for j in self.tokens if any(t[1:] == (card, side)
                                                      for t in self.tokens[j]))
            if card == "fireball":
                lying = int(side in self.fireball)
            # R3: a wizard holds one effect of a kind, so naming one that holds it
            # already places no marker there ("counts once").
            placed = [j for j in targets if not self._harmless(j, spell)]
            if lying + len(placed) > MARKERS:
                return "R3: three markers of each kind per team"
        return None

    def _spend_card(self, c: int, spell: str) -> None:
        side = self.side_of[c]
        # R "Recharge": back at the end of the caster's next slot, ten later.
        self.cards[side][CARD[spell]] = (c, self.activation + 10, spell)
        self._use("cast")

    def _harmless(self, j: int, spell: str) -> bool:
        """R3: an effect the wizard already holds changes nothing (one of a kind)."""
        return spell != "teleport" and self.has(j, spell)

    def _affect(self, j: int, spell: str, side: int) -> None:
        if spell == "teleport" or self._harmless(j, spell):
            return  # Teleport leaves no token; R3: one marker of a kind a wizard
        if spell == "fireball":
            self.fireball[side] = j  # R2: on the ball the wizard holds
            return
        self.tokens[j].append((spell, CARD[spell], side))
        if spell == "butter_fingers":
            self._drop_fireball(j)  # R2: Butter Fingers drops it with the ball

    def _took(self, j: int, spell: str, side: int, opponent: bool) -> None:
        """A spell took ``j`` (a failed resist, or a teammate): a Shield on an
        opponent absorbs it when it would have affected that wizard (R, R3)."""
        if opponent and self.has(j, "shield") and not self._harmless(j, spell):
            self._shield_absorbs(j)
        else:
            self._affect(j, spell, side)

    def _cast(self, f: dict, _rolls: Any) -> bool:
        if not self._fields(f, {"caster", "spell", "targets"}, set()):
            return self._no("C: fields")
        spell = f["spell"]
        why = self._caster(f, spell) or self._targets(f["caster"], spell, f["targets"], False)
        if why:
            return self._no(why)
        c = f["caster"]
        side = self.side_of[c]
        self._spend_card(c, spell)
        for t in f["targets"]:
            self._took(t, spell, side, self.side_of[t] != side)
        return True

    def cast_pool(self, j: int) -> int:
        """C "Magic Boost / Drain": one die more or fewer for cast and resist."""
        mine = self.effects(j)
        return max(1, 2 + ("magic_boost" in mine) - ("magic_drain" in mine))

    def resister(self, target: int, effect: str, caster_side: int) -> int | None:
        """R "Effects" Dispel: the wizard who cast an opponent's effect resists."""
        if effect == "fireball":
            sides = [s for s, h in self.fireball.items() if h == target]
        else:
            sides = [s for f, _, s in self.tokens[target] if f == effect]
        if not sides:
            return None
        # C: with the effect from both sides, the other side's goes first.
        side = 1 - caster_side if 1 - caster_side in sides else sides[0]
        if side == caster_side:
            return None
        who = self.cards[side][CARD[effect]][0]
        return who if self.on_court[who] else None

    def roll_pools(self, c: int, spell: str, targets: Sequence[int],
                   effect: str | None = None) -> tuple[int, dict[int, int]]:
        """The cast dice and each resister's (0 cast dice when nobody resists)."""
        side = self.side_of[c]
        if spell == "dispel":
            who = self.resister(targets[0], effect or "", side)
            resist = {} if who is None else {who: self.cast_pool(who)}
        else:
            resist = {t: self.cast_pool(t) for t in targets if self.side_of[t] != side}
        return (self.cast_pool(c) if resist else 0), resist

    @staticmethod
    def doubles(dice: Sequence[int]) -> bool:
        """RB "Rebounding": doubles on the two resist dice, or triples."""
        return (len(dice) >= 2 and dice[0] == dice[1]) or (
            max(Counter(dice).values(), default=0) >= 3)

    def rebounds(self, c: int, spell: str, targets: Sequence[int],
                 cast: Sequence[int], resist: Mapping[int, Sequence[int]]) -> bool:
        """Whether an opponent's doubles send the spell back (RB; Teleport and
        Dispel never rebound; a shielded wizard cannot rebound)."""
        if spell in ("teleport", "dispel"):
            return False
        return any(self.doubles(dice) and not self.has(t, "shield")
                   for t, dice in resist.items())

    def _cast_roll(self, f: dict, rolls: Any) -> bool:
        spell = f.get("spell")
        if spell == "dispel":
            if not self._fields(f, {"caster", "spell", "targets", "effect"}, {"rolls"}):
                return self._no("C: a rolled Dispel names its effect")
        elif not self._fields(f, {"caster", "spell", "targets"}, {"rolls"}):
            return self._no("C: fields")
        why = self._caster(f, spell) or self._targets(f["caster"], spell, f["targets"], True)
        if why:
            return self._no(why)
        c, targets = f["caster"], f["targets"]
        side = self.side_of[c]
        if spell == "dispel":
            if len(targets) != 1:
                return self._no("C: a Dispel removes one effect from one wizard")
            if f["effect"] not in self.effects(targets[0]):
                return self._no("C: a Dispel's effect on its wizard")
        n_cast, pools = self.roll_pools(c, spell, targets, f.get("effect"))
        given = f.get("rolls", rolls)
        if not isinstance(given, Mapping):
            given = {}
        cast = given.get("cast", [])
        resist_in = given.get("resist", {})
        if not isinstance(resist_in, Mapping):
            return self._no("C: resist rolls by jersey")
        if not _dice(cast, n_cast) or set(resist_in) != {str(t) for t in pools}:
            return self._no("C: the cast and resist dice the pools roll")
        resist = {t: resist_in[str(t)] for t in pools}
        if not all(_dice(resist[t], n) for t, n in pools.items()):
            return self._no("C: the resist dice, faces 1-6")
        back = self.rebounds(c, spell, targets, cast, resist)
        rebound = given.get("rebound")
        if back != (rebound is not None) or (back and not _dice(rebound, self.cast_pool(c))):
            return self._no("C: a rebound roll exactly when the spell rebounds")
        self._spend_card(c, spell)
        total = sum(cast)
        if spell == "dispel":
            t = targets[0]
            who = next(iter(resist), None)
            if who is None:
                self._remove(t, f["effect"], side)
            elif not self.doubles(resist[who]) and total > sum(resist[who]):
                if self.has(who, "shield"):
                    self._shield_absorbs(who)  # C: a Shield stops the Dispel
                else:
                    self._remove(t, f["effect"], side)
            return True
        took_caster = False
        for t in targets:
            if self.side_of[t] == side:
                self._took(t, spell, side, False)  # RB: teammates do not resist
                took_caster = took_caster or t == c
        for t, dice in resist.items():
            if self.doubles(dice) and spell == "teleport":
                continue  # RB: doubles are an automatic resist to Teleport
            if back and self.doubles(dice) and not self.has(t, "shield"):
                continue  # rebounded (below)
            if total > sum(dice):
                self._took(t, spell, side, True)
        if back and rebound is not None and not self.doubles(rebound) \
                and total > sum(rebound) and not took_caster:
            # RB: the caster resists the original cast roll; R3: a rebound the
            # spell already took does not count again.
            self._took(c, spell, side, True)
        return True

    def _remove(self, j: int, effect: str, caster_side: int) -> None:
        """Take one ``effect`` off ``j``: the other side's first (C)."""
        if effect == "fireball":
            for s in (1 - caster_side, caster_side):
                if self.fireball.get(s) == j:
                    del self.fireball[s]
                    return
            return
        mine = [t for t in self.tokens[j] if t[0] == effect]
        mine.sort(key=lambda t: t[2] == caster_side)
        self.tokens[j].remove(mine[0])

    def _dispel(self, f: dict, _rolls: Any) -> bool:
        if not self._fields(f, {"caster", "target", "spell"}, set()):
            return self._no("C: fields")
        why = self._caster(f, "dispel")
        if why:
            return self._no(why)
        c, t, effect = f["caster"], f["target"], f["spell"]
        why = self._targets(c, "dispel", [t] if self._jersey(t) else [None], True)
        if why and "Magic reaches no wizard" in why:
            why = "R2 Magic reach: a Dispel names its wizard"
        if why:
            return self._no(why)
        if effect not in self.effects(t):
            return self._no("C: a Dispel's effect on its wizard")
        side = self.side_of[c]
        who = self.resister(t, effect, side)
        self._spend_card(c, "dispel")
        if who is not None and self.has(who, "shield"):
            self._shield_absorbs(who)  # C: the resister's Shield stops it
        else:
            self._remove(t, effect, side)
        return True


def _dice(dice: Any, n: int) -> bool:
    return (isinstance(dice, list) and len(dice) == n
            and all(type(d) is int and d in FACES for d in dice))
