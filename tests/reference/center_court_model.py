"""Center Court as its rules and RULINGS.md describe it: what the companion tracks.

Written from /work/shared/rules/center-court-rules.txt, RULINGS.md and the
action and view shapes of CONTRACT.md / docs/api.md only, never from the
engine's code. "RB" cites the rules, "R" the rulings, "R2" the second round,
"C" the contract and docs/api.md.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

#: R "Serve": the Service Die's faces; 3 and 4 need no roll.
DIE = (1, 2, 5, 6)
CALLS = ("0", "15", "30", "40")


class CourtModel:
    """One Center Court match; ``act`` returns True when the rules accept the action."""

    def __init__(self, sets: int = 3, no_ad: bool = False, final_set: str = "tiebreak",
                 first_server: int = 0) -> None:
        self.needed = sets // 2 + 1
        self.no_ad = no_ad
        self.final_set = final_set
        self.server = first_server
        self.serve_no = 1
        self.in_play = False
        self.volley: int | None = None
        self.to_return: int | None = None
        self.points = [0, 0]
        self.games = [0, 0]
        self.sets: list[list[int]] = []
        self.sets_won = [0, 0]
        self.winner: int | None = None
        self.last_serve: dict | None = None
        self.tb_first: int | None = None  # who served a tiebreak's first point
        self._start_game()

    def clone(self) -> CourtModel:
        return copy.deepcopy(self)

    def _no(self, why: str) -> bool:
        self.why = why
        return False

    # --- where the match stands ---------------------------------------------------------

    def _deciding(self) -> bool:
        return self.sets_won == [self.needed - 1] * 2

    def _start_game(self) -> None:
        """R "Scoring": a tiebreak at 6-6 (not in an advantage final set); a match
        tiebreak replaces the final set."""
        self.points = [0, 0]
        self.match_tb = (self._deciding() and self.final_set == "match-tiebreak")
        self.tiebreak = self.match_tb or (
            self.games == [6, 6] and not (self._deciding() and self.final_set == "advantage"))
        self.tb_first = self.server if self.tiebreak else None

    def view(self) -> dict[str, Any]:
        over = self.winner is not None
        return {
            "server": self.server,
            "serve": self.serve_no,
            "in_play": self.in_play,
            "volley": self.volley,
            "to_return": self.to_return,
            "points": ["0", "0"] if over else self._calls(),
            "tiebreak": self.tiebreak and not over,
            "match_tiebreak": self.match_tb and not over,
            "games": [0, 0] if over else list(self.games),
            "sets": [list(s) for s in self.sets],
            "sets_won": list(self.sets_won),
            "winner": self.winner,
            "last_serve": self.last_serve,
        }

    def _calls(self) -> list[str]:
        a, b = self.points
        if self.tiebreak:
            return [str(a), str(b)]
        if a >= 3 and b >= 3:  # R: 40-40 is deuce, then advantage
            if a == b:
                return ["40", "40"]
            return ["AD", "40"] if a > b else ["40", "AD"]
        return [CALLS[a], CALLS[b]]

    # --- actions --------------------------------------------------------------------------

    def act(self, action: Mapping[str, Any], event: Any = None) -> bool:
        if self.winner is not None:
            return self._no("C: anything after the match ended")
        if not isinstance(action, Mapping):
            return self._no("C: an object")
        kind = action.get("type")
        f = {k: v for k, v in action.items() if k != "type"}
        if "player" in f and kind in ("serve", "return"):
            # R2: legal's shapes name who plays; sent back as they are, they
            # are accepted. C: only the player due to play it.
            due = self.to_return if kind == "return" else self.server
            if f.pop("player") != due:
                return self._no("R2/C: the player is the one due to play")
        if kind == "serve":
            return self._serve(f, event)
        if kind == "return":
            return self._return(f)
        if kind == "point":
            if set(f) != {"winner"} or f["winner"] not in (0, 1) or type(f["winner"]) is not int:
                return self._no("C: point names the winner 0|1")
            self._point(f["winner"])
            return True
        return self._no("C: unknown type")

    def _serve(self, f: dict, event: Any) -> bool:
        if not set(f) <= {"card", "roll"} or "card" not in f:
            return self._no("C: serve fields")
        card = f["card"]
        if type(card) is not int or not 1 <= card <= 6:
            return self._no("C: card 1-6")
        if self.in_play:
            return self._no("C: a serve while the ball is in play")
        if "roll" in f:
            roll = f["roll"]
            if card not in DIE:
                return self._no("C: no roll for a 3 or a 4")
            if type(roll) is not int or roll not in DIE:
                return self._no("R: the roll must be a face of the die")
        elif card in DIE:
            # The device rolled it (without the engine's event, the model only
            # answers whether it would accept the serve).
            roll = event["roll"] if event else None
        else:
            roll = None
        fault = roll == card  # R: a roll equal to the serve value is a fault
        self.last_serve = {"player": self.server, "card": card, "roll": roll, "fault": fault}
        if not fault:
            self.in_play, self.volley, self.to_return = True, card, 1 - self.server
            self.serve_no = 1  # C: 1 while the ball is in play
            return True
        if self.serve_no == 1:
            self.serve_no = 2  # R: the server draws and serves again
            return True
        self._point(1 - self.server)  # R: a double fault, the receiver's point
        return True

    def _return(self, f: dict) -> bool:
        if not set(f) <= {"card", "count"} or "card" not in f:
            return self._no("C: return fields")
        card = f["card"]
        if type(card) is not int or not 1 <= card <= 6:
            return self._no("C: card 1-6")
        if not self.in_play:
            return self._no("C: a return needs the ball in play")
        need = 1 + abs(card - self.volley)  # R "Returns": k = 1 + |v - V|
        if "count" in f and (type(f["count"]) is not int or f["count"] != need):
            return self._no("R: count must be 1 + |v - V|")
        self.volley = card
        self.to_return = 1 - self.to_return
        return True

    def _point(self, w: int) -> None:
        self.served = self.server
        self.in_play, self.volley, self.to_return, self.serve_no = False, None, None, 1
        self.points[w] += 1
        a, b = self.points[w], self.points[1 - w]
        if self.tiebreak:
            goal = 10 if self.match_tb else 7
            if a >= goal and a - b >= 2:
                self._game(w)
            else:
                # R "Service order": in a tiebreak the first point's server,
                # then the other two, and so on, two each.
                k = sum(self.points)
                self.server = self.tb_first if (k + 1) // 2 % 2 == 0 else 1 - self.tb_first
            return
        if a >= 4 and (a - b >= 2 or (self.no_ad and b >= 3)):  # R: game; no-ad at deuce
            self._game(w)

    def _game(self, w: int) -> None:
        if self.match_tb:
            self._set(w, [1, 0] if w == 0 else [0, 1])  # C: a match tiebreak as [1, 0]
            return
        self.games[w] += 1
        g, o = self.games[w], self.games[1 - w]
        if self.tiebreak:
            # R: the player who received the first tiebreak point serves next.
            self.server = 1 - self.tb_first
            self._set(w, list(self.games))
            return
        self.server = 1 - self.server  # R: the server changes every game
        if g >= 6 and g - o >= 2:
            self._set(w, list(self.games))
        else:
            self._start_game()

    def _set(self, w: int, score: list[int]) -> None:
        if self.match_tb:
            self.server = 1 - self.tb_first
        self.sets.append(score)
        self.sets_won[w] += 1
        self.games = [0, 0]
        if self.sets_won[w] == self.needed:
            self.winner = w
            self.server = self.served  # C: once won, who served match point
            self.tiebreak = self.match_tb = False
            return
        self._start_game()
