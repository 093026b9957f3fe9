# ruff: noqa: E501, B007, RUF015
"""AlakaSLAM shots, landings, points and Enchantments, from the rulebook and RULINGS alone (audit model)."""

from __future__ import annotations


class Illegal(Exception):
    pass


def move(cell, card, side):
    c, r = cell
    fwd = 1 if side == 0 else -1
    kind, v = card[0], int(card[1])
    if kind == "E":
        return cell
    if kind == "S":
        return (c, r + fwd * v)
    return (c + (-1 if kind == "R" else 1), r + fwd * v)


class Slam:
    def __init__(self, chars, teams=None, first_server=0, target=3):
        n = len(chars)
        self.n = n
        self.chars = chars
        self.teams = teams or {2: [0, 1], 3: [0, 1, 1], 4: [0, 0, 1, 1]}[n]
        self.format = {2: "singles", 3: "canadian", 4: "doubles"}[n]
        self.cols = 3 if n == 2 else 4
        self.target = target
        self.score = [0, 0]
        self.serving = first_server
        self.winner = None
        self.new_point()

    def members(self, side):
        return [i for i, t in enumerate(self.teams) if t == side]

    def new_point(self):
        self.due = "serve"
        self.hitting = None
        self.ball = None
        self.last_hitter = None
        self.bind = {}  # player -> list of (N, rich, by)

    def award(self, side, reason):
        self.score[side] += 1
        self.serving = 1 - side
        self.last_point = (side, reason)
        if self.score[side] >= self.target:
            self.winner = side
            self.due = None
            self.hitting = None
            self.ball = None
            self.bind = {}
            return
        self.new_point()

    def check_cards(self, p, cards, side, ability=False):
        if not 1 <= len(cards) <= 3:
            raise Illegal("1-3 cards")
        es = [c for c in cards if c[0] == "E"]
        if len(es) > 1:
            raise Illegal("two E")
        if "S2" in cards and self.chars[p] != "austin":
            raise Illegal("S2")
        if "E1" in cards and self.format == "doubles":
            raise Illegal("E1 doubles")
        if ability:
            if self.chars[p] != "laurie" or len(cards) != 1:
                raise Illegal("laurie")
            return
        b = self.bind.get(p)
        if b:
            ok = False
            for n, rich, _ in b:
                if len(cards) == n and not (rich and es):
                    ok = True
            if not ok:
                raise Illegal(f"bound {b}")

    def enchant_target(self, p, cards, ench, side):
        if not any(c[0] == "E" for c in cards):
            if ench is not None:
                raise Illegal("enchant without E")
            return None
        opp = self.members(1 - side)
        if ench is None:
            if len(opp) == 1:
                return opp[0]
            return "?"
        if ench not in opp:
            raise Illegal("enchant not opponent")
        return ench

    def hit(self, kind, action):
        if self.winner is not None:
            raise Illegal("over")
        p = action["player"]
        side = self.teams[p]
        if kind == "serve":
            if self.due != "serve":
                raise Illegal("no serve due")
            if side != self.serving:
                raise Illegal("wrong server")
            start = (1 if action["corner"] == "red" else self.cols, 1 if side == 0 else 4)
        else:
            if self.due != "shot":
                raise Illegal("no shot due")
            if side != self.hitting:
                raise Illegal("wrong side")
            start = self.ball
        mates = [q for q in self.members(side) if q != p]
        sup = action.get("support")
        if mates and sup is None:
            raise Illegal("support needed")
        if not mates and sup is not None:
            raise Illegal("no support")
        plays = [(p, action["cards"], action.get("enchant"), action.get("ability", False))]
        if sup is not None:
            if sup["player"] not in mates:
                raise Illegal("support not mate")
            plays.append(
                (sup["player"], sup["cards"], sup.get("enchant"), sup.get("ability", False))
            )
        new_binds = []
        for q, cards, ench, ab in plays:
            self.check_cards(q, cards, side, ab)
            t = self.enchant_target(q, cards, ench, side)
            if t is not None:
                e = [c for c in cards if c[0] == "E"][0]
                new_binds.append([t, int(e[1]), self.chars[q] == "rich" and e == "E2", q])
        # doubles: resolve "?" and forbid same target
        if self.format == "doubles" and len(new_binds) == 2:
            a, b = new_binds
            opp = self.members(1 - side)
            if a[0] == "?" and b[0] == "?":
                raise Illegal("who is enchanted")
            if a[0] == "?":
                a[0] = [o for o in opp if o != b[0]][0]
            if b[0] == "?":
                b[0] = [o for o in opp if o != a[0]][0]
            if a[0] == b[0]:
                raise Illegal("same opponent twice")
        for nb in new_binds:
            if nb[0] == "?":
                raise Illegal("enchant needed")
        cell = start
        for q, cards, _, _ in plays:
            for c in cards:
                cell = move(cell, c, side)
        col, row = cell
        on = 1 <= col <= self.cols and 1 <= row <= 4
        own = (row <= 2) if side == 0 else (row >= 3)
        # bindings on this side lapse after its shot
        for q in self.members(side):
            self.bind.pop(q, None)
        if kind == "serve":
            if not on or own or col == start[0]:
                self.award(1 - side, "bad_serve")
                return "bad_serve"
        else:
            if not on:
                self.award(1 - side, "out")
                return "out"
            if own:
                self.award(1 - side, "net")
                return "net"
        self.ball = cell
        self.due = "shot"
        self.hitting = 1 - side
        self.last_hitter = side
        for t, n, rich, q in new_binds:
            self.bind.setdefault(t, []).append((n, rich, q))
        return "in"

    def point(self, winner, reason):
        if self.winner is not None:
            raise Illegal("over")
        if self.due == "serve":
            if reason == "bad_serve" and winner == self.serving:
                raise Illegal("bad serve for server")
        else:
            if reason == "bad_serve":
                raise Illegal("bad serve after serve")
            if winner != self.last_hitter:
                raise Illegal("point for side to hit")
        self.award(winner, reason)

    def obligations(self):
        out = []
        for p in sorted(self.bind):
            out.append((p, sorted(n for n, _, _ in self.bind[p])))
        return out
