"""AlakaSLAM as the rulebooks and RULINGS.md describe it: what the companion tracks.

Written from /work/shared/rules/alakaslam-rulebook.txt, alakaslam-web-rules.txt,
RULINGS.md (its "Second round" and "Third round" override earlier lines) and
the action and view shapes of CONTRACT.md / docs/api.md only, never from the
engine's code. "RB" cites the rulebook, "WEB" the web rules, "R" the first
rulings, "R2" the second round, "R3" the third, "C" the contract.

The model holds the score, the serve, whose hit it is, the ball, the
Enchantments binding players, the once-per-point abilities, Simon's copy,
each player's hand size to reach and the points by reason. :meth:`SlamModel.act`
answers whether an action is accepted and applies it only then.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

HITS = {f"{c}{v}" for c in "RB" for v in range(4)}
ENCHANTS = {"E1", "E2", "E3"}
CARDS = HITS | ENCHANTS | {"S2"}
REASONS = ("no_return", "declined", "out", "net", "bad_serve")
CHARACTERS = ("austin", "laurie", "rich", "toots", "josephias", "simon", "sarissia",
              "wendolyn")
ROWS = 4


def landing(start: tuple[int, int], cards: Sequence[str], side: int) -> tuple[int, int]:
    """RB "Aiming and Distance": each Hit card 1 column toward its colour's edge
    (red col 1, blue the last; R: "S2" straight) and its value in rows forward."""
    col, row = start
    forward = 1 if side == 0 else -1
    for card in cards:
        if card in ENCHANTS:
            continue
        col += {"R": -1, "B": 1, "S": 0}[card[0]]
        row += forward * int(card[1])
    return col, row


class SlamModel:
    """One AlakaSLAM match; ``act`` returns True when the rules accept the action."""

    def __init__(self, characters: Sequence[str], teams: Sequence[int] | None = None,
                 first_server: int = 0, target: int = 3) -> None:
        n = len(characters)
        self.format = {2: "singles", 3: "canadian", 4: "doubles"}[n]  # R "Formats"
        self.teams = list(teams) if teams else {2: [0, 1], 3: [0, 1, 1], 4: [0, 0, 1, 1]}[n]
        self.chars = list(characters)
        self.cols = 3 if n == 2 else 4  # R: 3 columns in singles, 4 otherwise
        self.target = target
        self.score = [0, 0]
        self.serving = first_server
        self.winner: int | None = None
        self.by_reason = [dict.fromkeys(REASONS, 0), dict.fromkeys(REASONS, 0)]
        self.abilities = [0] * n
        self.longest = 0
        self.last_point: dict | None = None
        self.last_shot: dict | None = None
        self._new_point()

    def _new_point(self) -> None:
        n = len(self.chars)
        self.due_serve = True
        self.hitting: int | None = None
        self.ball: tuple[int, int] | None = None
        self.rally = 0
        self.used = [False] * n           # R: once-per-point abilities reset each point
        self.copy: list[str | None] = [None] * n
        self.mulligans = [0] * n
        self.hand = [self._refill(p) for p in range(n)]
        self.bound: list[tuple[int, int, bool]] = []  # (player, N, Rich's E2)
        self.shot_in_point = False
        self.side_hits = [0, 0]  # each side's serve and shots this point

    def clone(self) -> SlamModel:
        """An independent copy (by hand: the tests clone on every step). The
        dicts last_shot and last_point are replaced, never changed in place."""
        twin = copy.copy(self)
        for name in ("score", "abilities", "used", "copy", "mulligans", "hand", "bound",
                     "side_hits"):
            setattr(twin, name, list(getattr(self, name)))
        twin.by_reason = [dict(d) for d in self.by_reason]
        return twin

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> SlamModel:
        o = record["options"]
        return cls(o["characters"], o.get("teams"), o.get("first_server", 0), o.get("target", 3))

    # --- facts ------------------------------------------------------------------------

    def side_of(self, p: int) -> list[int]:
        return [q for q, s in enumerate(self.teams) if s == self.teams[p]]

    def members(self, side: int) -> list[int]:
        return [q for q, s in enumerate(self.teams) if s == side]

    def acts_as(self, p: int) -> str:
        """RB Simon: he uses the copied character's ability this point."""
        return self.copy[p] or self.chars[p]

    def _refill(self, p: int) -> int:
        """R: 8 cards; Sarissia 10 (RB: 2 extra); Simon with a teammate 7 (RB);
        R: Simon copying Sarissia also gets her two extra cards."""
        size = 8
        if self.chars[p] == "simon" and len(self.side_of(p)) == 2:
            size = 7
        if self.acts_as(p) == "sarissia":
            size += 2
        return size

    def _no(self, why: str) -> bool:
        """Refuse, keeping the rule that refused for the test's message."""
        self.why = why
        return False

    # --- the view ---------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """The view keys of CONTRACT.md / docs/api.md that this model tracks."""
        over = self.winner is not None
        return {
            "format": self.format,
            "players": [{"character": c, "side": self.teams[p], "ability_used": self.used[p],
                         "copy": self.copy[p], "acts_as": self.acts_as(p),
                         "hand": self.hand[p], "mulligans": self.mulligans[p]}
                        for p, c in enumerate(self.chars)],
            "sides": [{"players": self.members(s), "score": self.score[s]} for s in (0, 1)],
            "serving_side": self.serving,
            "due": None if over else ("serve" if self.due_serve else "shot"),
            "hitting_side": self.hitting,
            "ball": list(self.ball) if self.ball else None,
            "court": {"cols": self.cols, "rows": ROWS},
            "obligations": sorted(
                ({"player": q, "cards": sorted(n for p, n, _ in self.bound if p == q)}
                 for q in sorted({p for p, _, _ in self.bound})), key=lambda o: o["player"]),
            "rally": self.rally,
            "last_shot": self.last_shot,
            "last_point": self.last_point,
            "winner": self.winner,
            # stats.longest_rally is left out: the docs do not say whether a
            # serve or shot that ends the point counts in it.
            "stats": {"points": self.by_reason, "abilities": self.abilities},
        }

    # --- actions ----------------------------------------------------------------------

    def act(self, action: Mapping[str, Any], event: Any = None) -> bool:
        """Apply ``action`` if the rules allow it now; False (nothing changed) if not."""
        if self.winner is not None:
            return self._no("C: anything but undo once the match is won")
        if not isinstance(action, Mapping):
            return self._no("C: an action is an object")
        handler = {"serve": self._serve, "shot": self._shot, "point": self._point,
                   "mulligan": self._mulligan, "ability": self._ability,
                   "copy": self._copy}.get(action.get("type"))
        if handler is None:
            return self._no("C: unknown action type")
        return handler({k: v for k, v in action.items() if k != "type"})

    def _player(self, p: Any) -> bool:
        return type(p) is int and 0 <= p < len(self.chars)

    def _mulligan(self, f: dict) -> bool:
        if set(f) != {"player"} or not self._player(f["player"]):
            return self._no("C: mulligan names a player")
        p = f["player"]
        if not self.due_serve:
            return self._no("RB Mulligan: before the serve")
        if self.hand[p] <= 1:
            return self._no("R2: hand is never below 1")
        self.mulligans[p] += 1
        self.hand[p] -= 1  # RB: a new hand with 1 fewer card
        return True

    def _copy(self, f: dict) -> bool:
        if set(f) != {"player", "character"} or not self._player(f["player"]):
            return self._no("C: copy names a player and a character")
        p, c = f["player"], f["character"]
        if self.chars[p] != "simon":
            return self._no("C: only Simon copies")
        if c not in self.chars or c == "simon":
            return self._no("RB Simon*: only characters in play, another character")
        if not self.due_serve:
            return self._no("R2 Simon: copies before the serve")
        if self.used[p]:
            return self._no("R2 Simon: after using the copied ability, no new copy this point")
        self.copy[p] = c
        # R2: hand right after a re-copy. R: Simon picks before the refill, so
        # a copy before any mulligan sets the hand he refills to; after a
        # mulligan the refill is past and the cards he holds do not change.
        if self.mulligans[p] == 0:
            self.hand[p] = self._refill(p)
        return True

    def _ability(self, f: dict) -> bool:
        if set(f) != {"player"} or not self._player(f["player"]):
            return self._no("C: ability names a player")
        p = f["player"]
        who = self.acts_as(p)
        pair = len(self.side_of(p)) == 2
        if who == "toots":
            # R2 Toots: on her side's turn: from the other side's shot until
            # hers, and after hers until the other side's (her turn goes on).
            # Before the serve it is the serving side's turn only.
            if self.due_serve and self.teams[p] != self.serving:
                return self._no("R2 Toots: before the other side's serve it is not her turn")
        elif who == "josephias" and self.format == "canadian" and pair:
            # WEB Canadian: Josephias as a Doubles player, once per point. RB: "Instead
            # of taking your normal draw phase, you may choose 1 card from the
            # discard"; the draw is step "4. Draw" of his side's turn, after its
            # serve or shot: so only once his side has hit (the ball in play) and
            # until the other side's shot.
            if self.due_serve or self.hitting == self.teams[p]:
                return self._no("RB Josephias: only in his side's draw phase")
        else:
            return self._no("C: an ability by a character without one (Laurie's is on a hit)")
        if self.used[p]:
            return self._no("R: once per point")
        self._use(p)
        return True

    def _use(self, p: int) -> None:
        self.used[p] = True
        self.abilities[p] += 1

    # --- hits -------------------------------------------------------------------------

    def _hand_cards(self, p: int, cards: Any, laurie: bool) -> str | None:
        """Why ``cards`` are not a legal hit for player ``p`` now, or None."""
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            return "C: cards are a list of card strings"
        if any(c not in CARDS for c in cards):
            return "C: an unknown card string"
        if not 1 <= len(cards) <= 3:
            return "RB: play 1-3 cards"
        # R3: no play of more cards than the hand holds. `hand` is the hand at the serve;
        # RB The Turn: "4. Draw 2 (unless a point was scored). There is no maximum hand
        # size" (Doubles: each player draws 1), and a player alone played 1 card at
        # least of each of its side's hits: so each of them adds at most 1.
        if len(cards) > self.hand[p] + self.side_hits[self.teams[p]]:
            return "R3: no play of more cards than the player's hand holds"
        if sum(c in ENCHANTS for c in cards) > 1:
            return "RB: only 1 may be an Enchantment"
        if "S2" in cards and self.acts_as(p) != "austin":
            return "R: S2 only for Austin (or Simon copying him)"
        if "E1" in cards and self.format == "doubles":
            return "RB Doubles: Enchant-1s removed"
        if laurie:
            if len(cards) != 1:
                return "RB Laurie: play 1 of the 3 drawn"
            return None  # RB Laurie: ignore any Enchantment played on you
        mine = [(n, rich) for q, n, rich in self.bound if q == p]
        if mine and not any(len(cards) == n and not (rich and any(c in ENCHANTS for c in cards))
                            for n, rich in mine):
            return "RB Enchantments: exactly N cards; Rich's E2: no Enchantment"
        return None

    def _target(self, p: int, cards: list[str], enchant: Any,
                taken: Any = None) -> tuple[str | None, int | None]:
        """Whom the Enchantment in ``cards`` of player ``p`` binds: (why not, player).

        ``taken``: whom the teammate's Enchantment in the same hit names (doubles).
        """
        foes = self.members(1 - self.teams[p])
        has = any(c in ENCHANTS for c in cards)
        if enchant is None:
            if not has:
                return None, None
            if len(foes) == 1:
                return None, foes[0]  # R: in singles (or facing one player) the opponent
            left = [o for o in foes if o != taken]
            if self.format == "doubles" and len(left) == 1:
                # C (docs/api.md): named only "when two could be meant"; RB Doubles: "you
                # may not both Enchant the same opposing player", so the other is meant.
                return None, left[0]
            return "R: an Enchantment against a pair names whom it binds", None
        if not has:
            return "C: enchant given without an Enchantment", None
        if enchant not in foes or type(enchant) is not int:
            return "C: enchant names an opposing player", None
        return None, enchant

    def _hit(self, f: dict, serve: bool) -> bool:
        allowed = {"player", "cards", "support", "enchant", "ability"}
        if serve:
            allowed |= {"corner"}
        if not set(f) <= allowed or "player" not in f or "cards" not in f:
            return self._no("C: fields of a serve/shot")
        p = f["player"]
        if not self._player(p):
            return self._no("C: player index")
        if serve != self.due_serve:
            return self._no("C: a serve when one is due, a shot while the ball is in play")
        side = self.serving if serve else self.hitting
        if self.teams[p] != side:
            return self._no("C: the hitter is on the side to hit")
        if serve and f.get("corner") not in ("red", "blue"):
            return self._no("C: corner red or blue")
        hitters = [(p, f["cards"], f.get("enchant"), f.get("ability", False))]
        mates = [q for q in self.side_of(p) if q != p]
        support = f.get("support")
        if mates:
            if not isinstance(support, Mapping) or support.get("player") != mates[0]:
                return self._no("R Doubles shots: the Support (the teammate) plays too")
            if (not set(support) <= {"player", "cards", "enchant", "ability"}
                    or "cards" not in support):
                return self._no("C: support fields")
            mine = support.get("ability", False)
            if (hitters[0][3] is True and "ability" not in support
                    and self.acts_as(p) != "laurie" and self.acts_as(mates[0]) == "laurie"):
                # C (docs/api.md): a top-level "ability" from a player who is not
                # Laurie, whose Support is and says nothing of it, is the Support's.
                hitters[0] = (p, f["cards"], f.get("enchant"), False)
                mine = True
            hitters.append((mates[0], support["cards"], support.get("enchant"), mine))
        elif support is not None:
            return self._no("C: no support for a player alone on a side")
        binds: list[tuple[int, int, bool]] = []
        laurie_users = []
        for i, (q, cards, enchant, ability) in enumerate(hitters):
            # Whom the teammate in this hit binds: the Support's named choice for the
            # player at the ball, the player at the ball's binding for the Support.
            other = hitters[1 - i] if len(hitters) == 2 else None
            taken = (None if other is None or not any(c in ENCHANTS for c in other[1])
                     else other[2] if i == 0 else (binds[0][0] if binds else None))
            if type(ability) is not bool:
                return self._no("C: ability is a bool")
            if ability:
                # R2 Laurie: on any hit of hers, once per point: a serve, a shot
                # at the ball, or her cards as the Support.
                if self.acts_as(q) != "laurie":
                    return self._no("C: only Laurie's ability goes on a hit")
                if self.used[q]:
                    return self._no("RB Laurie: once per point")
                laurie_users.append(q)
            why = self._hand_cards(q, cards, ability)
            if why:
                return self._no(why)
            why, bound = self._target(q, cards, enchant, taken)
            if why:
                return self._no(why)
            if bound is not None:
                n = int(next(c for c in cards if c in ENCHANTS)[1])
                binds.append((bound, n, n == 2 and self.acts_as(q) == "rich"))  # RB Rich
        if (self.format == "doubles" and len(binds) == 2 and binds[0][0] == binds[1][0]):
            return self._no("RB Doubles: you may not both Enchant the same opposing player")
        # Accepted: judge the landing (R "Shot calculator").
        for q in laurie_users:
            self._use(q)
        cards = [c for _, cs, _, _ in hitters for c in cs]
        if serve:
            col = 1 if f["corner"] == "red" else self.cols
            start = (col, 1 if side == 0 else ROWS)
        else:
            start = self.ball
        to = landing(start, cards, side)
        on_court = 1 <= to[0] <= self.cols and 1 <= to[1] <= ROWS
        crossed = to[1] >= 3 if side == 0 else to[1] <= 2
        if not on_court:
            result = "out"
        elif not crossed:
            result = "net"
        else:
            result = "in"
        if serve and (result != "in" or to[0] == start[0]):
            result = "bad_serve"  # RB Serving: lands across the net, not in its column
        self.last_shot = {"side": side, "from": list(start), "to": list(to), "result": result}
        self.shot_in_point = True
        if result != "in":
            self._award(1 - side, result)
            return True
        # R "Enchantments bind a player": the hitting side's bonds lapse with
        # this shot; the new ones bind for the opponents' next shot.
        self.bound = [b for b in self.bound if self.teams[b[0]] != side] + binds
        self.side_hits[side] += 1
        self.due_serve = False
        self.hitting = 1 - side
        self.ball = to
        self.rally += 1
        self.longest = max(self.longest, self.rally)
        return True

    def _serve(self, f: dict) -> bool:
        return self._hit(f, serve=True)

    def _shot(self, f: dict) -> bool:
        return self._hit(f, serve=False)

    def _point(self, f: dict) -> bool:
        if not set(f) <= {"winner", "reason"} or f.get("winner") not in (0, 1) \
                or type(f.get("winner")) is not int:
            return self._no("C: point names the winning side")
        winner, reason = f["winner"], f.get("reason", "no_return")
        if reason not in REASONS:
            return self._no("C: a known reason")
        receivers = 1 - self.serving
        if reason == "bad_serve":
            # R2: a bad_serve point goes to the receiving side; once the serve
            # is recorded the calculator judged it good: the record contradicts it.
            if winner != receivers:
                return self._no("R2: a bad_serve point goes to the receiving side")
            if not self.due_serve:
                return self._no("R2: the recorded serve was good")
        elif not self.due_serve and winner == self.hitting:
            # R2: with shots recorded, the point goes to the side that hit
            # last (no_return); out or net for the other side would say the
            # last recorded shot, judged in, was out.
            return self._no("R2: the point goes to the side that hit last")
        self._award(winner, reason)
        return True

    def _award(self, winner: int, reason: str) -> None:
        self.score[winner] += 1
        self.by_reason[winner][reason] += 1
        self.last_point = {"winner": winner, "reason": reason}
        if not self.shot_in_point:
            self.last_shot = None  # C: null after a point awarded before any shot of it
        if self.score[winner] >= self.target:
            self.winner = winner
        self.serving = 1 - winner  # RB: the player who lost the point serves
        self._new_point()
