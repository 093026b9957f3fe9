# ruff: noqa: B905
"""Center Court written from the rulebook and RULINGS.md alone (audit model)."""

from __future__ import annotations

CALL = ["0", "15", "30", "40"]
DIE = (1, 1, 2, 5, 6, 6)


class CC:
    def __init__(self, sets=3, no_ad=False, final_set="tiebreak", first_server=0):
        self.nsets = sets
        self.need = sets // 2 + 1
        self.no_ad = no_ad
        self.final_set = final_set
        self.game_server = first_server  # who serves the current game (or tiebreak's first point)
        self.pts = [0, 0]
        self.games = [0, 0]
        self.sets = []
        self.set_tbs = []
        self.sets_won = [0, 0]
        self.serve = 1
        self.in_play = False
        self.rally_serve = None
        self.volley = None
        self.to_return = None
        self.rally_returns = None
        self.winner = None
        self.stats = [
            dict(faults=0, double_faults=0, serve_points_won=0, points_won=0) for _ in range(2)
        ]
        self.longest = 0
        self.rally = 0
        self.point_server = None

    # --- derived
    def deciding(self):
        return len(self.sets) == self.nsets - 1

    def match_tb(self):
        return self.deciding() and self.final_set == "match-tiebreak" and self.winner is None

    def tiebreak(self):
        if self.winner is not None:
            return False
        if self.match_tb():
            return True
        if self.games == [6, 6]:
            return not (self.deciding() and self.final_set == "advantage")
        return False

    def server(self):
        if self.tiebreak():
            n = sum(self.pts)
            if n == 0:
                return self.game_server
            return 1 - self.game_server if ((n - 1) // 2) % 2 == 0 else self.game_server
        return self.game_server

    def calls(self):
        if self.winner is not None:
            return ["0", "0"]
        if self.tiebreak():
            return [str(p) for p in self.pts]
        a, b = self.pts
        if a >= 3 and b >= 3:
            if a == b:
                return ["40", "40"]
            return ["AD", "40"] if a > b else ["40", "AD"]
        return [CALL[a], CALL[b]]

    def deuce(self):
        if self.winner is not None or self.tiebreak():
            return False
        return self.pts[0] == self.pts[1] >= 3

    def adv(self):
        c = self.calls()
        return c.index("AD") if "AD" in c else None

    # --- actions
    def legal_serve(self):
        return self.winner is None and not self.in_play

    def do_serve(self, card, roll):
        s = self.server()
        fault = card in (1, 2, 5, 6) and roll == card
        if fault:
            self.stats[s]["faults"] += 1
            if self.serve == 2:
                self.stats[s]["double_faults"] += 1
                self.award(1 - s)
            else:
                self.serve = 2
        else:
            self.in_play = True
            self.rally_serve = self.serve
            self.serve = 1
            self.volley = card
            self.to_return = 1 - s
            self.rally_returns = 0
            self.rally = 1
        return fault

    def do_return(self, card, count):
        assert count == 1 + abs(card - self.volley)
        self.volley = card
        self.to_return = 1 - self.to_return
        self.rally_returns += 1
        self.rally += 1

    def award(self, w):
        s = self.server()
        self.point_server_last = s
        self.stats[w]["points_won"] += 1
        if w == s:
            self.stats[w]["serve_points_won"] += 1
        self.longest = max(self.longest, self.rally)
        self.rally = 0
        self.in_play = False
        self.rally_serve = None
        self.volley = None
        self.to_return = None
        self.rally_returns = None
        self.serve = 1
        tb = self.tiebreak()
        mtb = self.match_tb()
        self.pts[w] += 1
        a, b = self.pts[w], self.pts[1 - w]
        if tb:
            target = 10 if mtb else 7
            if a >= target and a - b >= 2:
                first = self.game_server
                if mtb:
                    res = [0, 0]
                    res[w] = 1
                    self.sets.append(res)
                    self.set_tbs.append(list(self.pts))
                else:
                    self.games[w] += 1
                    self.sets.append(list(self.games))
                    self.set_tbs.append(list(self.pts))
                self.sets_won[w] += 1
                self.pts = [0, 0]
                self.games = [0, 0]
                self.game_server = 1 - first
                self.check_match(w)
            return
        won = (a >= 4 and a - b >= 2) or (self.no_ad and a >= 4)
        if not won:
            return
        self.pts = [0, 0]
        self.games[w] += 1
        self.game_server = 1 - self.game_server
        g, h = self.games[w], self.games[1 - w]
        if g >= 6 and g - h >= 2:
            self.sets.append(list(self.games))
            self.set_tbs.append(None)
            self.sets_won[w] += 1
            self.games = [0, 0]
            self.check_match(w)

    def check_match(self, w):
        if self.sets_won[w] >= self.need:
            self.winner = w

    def final_score(self):
        if self.winner is None:
            return None
        w = self.winner
        out = []
        for s, tb in zip(self.sets, self.set_tbs):
            if tb is not None and sum(s) == 1:
                out.append(f"[{tb[w]}-{tb[1 - w]}]")
            elif tb is not None:
                out.append(f"{s[w]}-{s[1 - w]}({tb[w]}-{tb[1 - w]})")
            else:
                out.append(f"{s[w]}-{s[1 - w]}")
        return " ".join(out)

    def view(self):
        return {
            "server": self.server() if self.winner is None else self.point_server_last,
            "serve": self.serve,
            "in_play": self.in_play,
            "rally_serve": self.rally_serve,
            "points": self.calls(),
            "tiebreak": self.tiebreak(),
            "match_tiebreak": self.match_tb(),
            "games": list(self.games),
            "sets": [list(s) for s in self.sets],
            "set_tiebreaks": [None if t is None else list(t) for t in self.set_tbs],
            "sets_won": list(self.sets_won),
            "winner": self.winner,
            "deuce": self.deuce(),
            "advantage": self.adv(),
            "final_score": self.final_score(),
            "volley": self.volley,
            "to_return": self.to_return,
            "rally_returns": self.rally_returns,
            "stats": self.stats,
            "longest_rally": self.longest,
            "set_number": len(self.sets) if self.winner is not None else len(self.sets) + 1,
        }

    def returns(self):
        if self.volley is None:
            return []
        return ["-".join([str(v)] * (1 + abs(v - self.volley))) for v in range(1, 7)]
