# ruff: noqa: SIM110
"""Alakazoo from the rulebook and RULINGS.md (rounds 1-3) alone: turns, Dark Power,
displays and their points, cards once, the deck, the Magic Power bound, the jury (audit model)."""

from __future__ import annotations

ROWS = [(1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9)]
FACES = ["Magic", "Fire", "Water", "Earth", "Air", "Light"]


class Illegal(Exception):
    pass


class Zoo:
    def __init__(self, n, portals=None, first_player=0, reset=True, boxed=None, bound=True):
        self.n = n
        self.portals = portals or list(range(1, n + 1))
        self.first = first_player
        self.reset = reset
        self.size = {2: 4, 3: 5, 4: 6}[n]
        if boxed:
            self.deck = [c for c in range(1, 7) if c not in boxed]
        else:
            self.deck = list(self.portals)
        self.bounded = bound
        self.cur = first_player
        self.round = 1
        self.dark = [0] * n
        self.points = [0] * n
        self.portal = [[None] * 9 for _ in range(n)]
        self.firsts = {}
        self.ender = None
        self.final = False
        self.ended = None
        self.mp = [1] * n  # the most Magic Power each can hold
        self.turns_played = [0] * n
        self.start_turn()

    # --- turn state
    def start_turn(self):
        self.acted = False
        self.action = None
        self.displayed = False
        self.displays = 0
        self.helper_used = False
        self.roll = None
        self.no_rune = 0
        self.gain_applied = False
        self.mp_before = self.mp[self.cur] if self.cur is not None else None
        self.pen_mp = 0  # 'magic_power' penalties recorded this turn
        self.pen_hand = 0

    def rune_dice(self):
        return sum(1 for f in self.roll if f != "Magic") if self.roll else 0

    def no_rune_left(self):
        if self.action != "roll":
            return 0
        left = self.rune_dice() - self.no_rune
        if self.bounded and self.pen_mp:
            left = min(left, self.mp_before + len(self.roll) - self.no_rune - 7)
        return max(0, left)

    def cap(self):
        return 2 if self.helper_used else 3

    def eff_mp(self, p=None):
        p = self.cur if p is None else p
        if p == self.cur and not (self.acted or self.gain_applied):
            return min(6, self.mp[p] + 3)
        return self.mp[p]

    def max_displays(self):
        if not self.bounded:
            return self.cap()
        return min(self.cap(), self.displays + self.eff_mp() // 2)

    def over(self):
        if self.ended:
            raise Illegal("over")

    def need_action_window(self):
        if self.acted:
            raise Illegal("second action")
        if self.displayed:
            raise Illegal("action after display")

    def apply_unrecorded(self):
        """A turn whose action is not recorded adds 3 (once, when the turn is past its action)."""
        if not self.acted and not self.gain_applied:
            self.mp[self.cur] = min(6, self.mp[self.cur] + 3)
            self.gain_applied = True

    # --- actions
    def do_roll(self, faces):
        self.over()
        self.need_action_window()
        if self.bounded and self.pen_hand:
            raise Illegal("roll after a hand penalty")
        if self.bounded and self.pen_mp and self.mp_before + len(faces) <= 6:
            raise Illegal("roll too small for the magic_power penalty")
        self.acted, self.action, self.roll = True, "roll", list(faces)
        self.mp[self.cur] = min(6, self.mp[self.cur] + len(faces))
        self.gain_applied = True

    def do_column(self):
        self.over()
        self.need_action_window()
        if self.bounded and self.pen_mp:
            raise Illegal("column after a magic_power penalty")
        self.acted, self.action = True, "column"
        self.gain_applied = True

    def helper(self):
        self.need_action_window()
        if self.bounded and self.pen_mp:
            raise Illegal("helper after a magic_power penalty")
        # the rulebook's Action 3 spends a token: with the bound at 0 the record shows none
        if self.bounded and self.mp[self.cur] < 1:
            raise Illegal("the Helper needs a Magic Power token")
        self.acted, self.action, self.helper_used = True, "helper", True
        self.gain_applied = True
        self.mp[self.cur] = max(0, self.mp[self.cur] - 1)

    def do_trick(self, trick):
        self.over()
        if (
            trick == "hand"
            and self.final
            and all(self.filled(o) == 9 for o in range(self.n) if o != self.cur)
        ):
            raise Illegal("hand trick against complete")
        self.helper()
        if trick == "hand":
            self.gain(self.cur)

    def gain(self, p):
        if self.dark[p] < 3:
            self.dark[p] += 1
            return True
        return False

    def do_dark(self, reason):
        self.over()
        p = self.cur
        if reason == "no_rune":
            if self.action != "roll" or self.no_rune >= self.rune_dice():
                raise Illegal("no_rune")
            if (
                self.bounded
                and self.pen_mp
                and self.mp_before + len(self.roll) - (self.no_rune + 1) <= 6
            ):
                raise Illegal("no_rune would undo the magic_power penalty")
            self.no_rune += 1
            # the rune gave no token: the bound is the roll's dice less the penalties, then capped
            self.mp[p] = max(
                0, min(6, self.mp_before + len(self.roll) - self.no_rune) - self.displays_spent
            )
            return self.gain(p)
        if reason == "helper":
            self.do_trick("hand")
            return None
        if self.bounded:
            if reason == "magic_power":
                if self.action not in ("roll", None):
                    raise Illegal("magic_power after " + str(self.action))
                add = len(self.roll) - self.no_rune if self.action == "roll" else 3
                if self.mp_before + add <= 6:
                    raise Illegal("magic_power: bound cannot pass 6")
                self.pen_mp += 1
            if reason == "hand":
                if self.action == "roll":
                    raise Illegal("hand after roll")
                self.pen_hand += 1
        return self.gain(p)

    @property
    def displays_spent(self):
        return 2 * self.displays

    def filled(self, p):
        return sum(1 for x in self.portal[p] if x is not None)

    def card_free(self, c, s, exclude=None):
        for o in range(self.n):
            if o != exclude and self.portal[o][s - 1] == c:
                return False
        return True

    def in_deck(self, c):
        return c in self.deck or len(self.deck) < self.size

    def can_display(self, s, c):
        p = self.cur
        if self.portal[p][s - 1] is not None:
            return False
        if self.displays >= self.cap():
            return False
        if not self.card_free(c, s):
            return False
        if not self.in_deck(c):
            return False
        return not (self.bounded and self.eff_mp() < 2)

    def do_display(self, s, c):
        self.over()
        if not self.can_display(s, c):
            raise Illegal("display")
        p = self.cur
        self.apply_unrecorded()
        self.mp[p] -= 2
        if c not in self.deck:
            self.deck.append(c)
        self.portal[p][s - 1] = c
        self.displayed = True
        self.displays += 1
        if c == self.portals[p]:
            self.points[p] += 1
        if s not in self.firsts:
            self.firsts[s] = p
            self.points[p] += 1
        if self.filled(p) == 9 and self.ender is None:
            self.ender = p
            self.final = True
            self.points[p] += 1

    def do_swap(self, s, player=None, creature=None):
        self.over()
        p = self.cur
        mine = self.portal[p][s - 1]
        if mine is None:
            raise Illegal("empty")
        if player is not None:
            if player == p:
                raise Illegal("own")
            theirs = self.portal[player][s - 1]
            if theirs is None or theirs == mine:
                raise Illegal("swap")
            if self.final and self.filled(player) == 9:
                raise Illegal("complete")
            self.helper()
            self.portal[p][s - 1], self.portal[player][s - 1] = theirs, mine
            self.gain(p)
        else:
            if (
                creature == mine
                or not self.card_free(creature, s, exclude=None)
                or not self.in_deck(creature)
            ):
                raise Illegal("swap hand")
            self.helper()
            if creature not in self.deck:
                self.deck.append(creature)
            self.portal[p][s - 1] = creature

    def do_end(self):
        self.over()
        p = self.cur
        self.apply_unrecorded()
        self.passes = []
        nxt = p
        guard = 0
        while True:
            guard += 1
            nxt = (nxt + 1) % self.n
            if nxt == self.first:
                if self.final:
                    self.ended = "final_round"
                    self.cur = None
                    return
                self.round += 1
            if self.dark[nxt] == 3:
                self.passes.append(nxt)
                if not self.reset and not self.final and len(self.passes) == self.n:
                    # everyone passed in a row at 3 Dark Power: nobody can act again
                    self.ended = "stuck"
                    self.cur = None
                    return
                if self.reset:
                    self.dark[nxt] = 0
                # a forced pass: the turn's action is not recorded, but nothing is done either
                continue
            break
        self.cur = nxt
        self.start_turn()

    # --- end
    def jury(self, p):
        port = self.portal[p]
        lines = []
        for line in ROWS:
            v = [port[s - 1] for s in line]
            if None in v:
                lines.append(0)
            elif len(set(v)) in (1, 3):
                lines.append(1)
            else:
                lines.append(0)
        pure = 1 if all(x == self.portals[p] for x in port) else 0
        return sum(lines) + pure

    def totals(self):
        if not self.ended:
            return list(self.points)
        return [self.points[p] + self.jury(p) for p in range(self.n)]

    def winner(self):
        if not self.ended:
            return None
        t = self.totals()
        return [p for p in range(self.n) if t[p] == max(t)]
