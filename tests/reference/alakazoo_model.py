"""Alakazoo as the rulebook and RULINGS.md describe it: what the companion tracks.

Written from /work/shared/rules/alakazoo-rulebook.txt, RULINGS.md (its
"Second round" and "Third round" override earlier lines) and the action and
view shapes of CONTRACT.md / docs/api.md only, never from the engine's code.
"RB" cites the rulebook, "R" the first rulings, "R2" the second round, "R3"
the third.

The model holds: each player's Dark Power, points won in play, portal; the
turn (current player, round, what this turn did); the firsts per space; the
creatures in the deck; the final round and the jury; the most Magic Power
tokens the record allows each player (R3 "Magic Power is bounded"). :meth:`ZooModel.act`
answers whether an action is accepted and applies it only then.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: The default Spell Die faces (docs/api.md): "Magic" gives a Magic Power
#: token anywhere; the other five are rune symbols (RB, "Take 1-3 Spell Dice").
FACES = ("Magic", "Fire", "Water", "Earth", "Air", "Light")
MAGIC = "Magic"
REASONS = ("no_rune", "magic_power", "hand", "helper")
DARK_MAX = 3
#: RB "Final score": 3 rows and 3 columns of the 3x3 portal, spaces 1-9.
ROWS = ((1, 2, 3), (4, 5, 6), (7, 8, 9))
COLS = ((1, 4, 7), (2, 5, 8), (3, 6, 9))
#: R2 "The deck by player count": 4 players all six creatures, 3 five, 2 four.
DECK_SIZE = {2: 4, 3: 5, 4: 6}
#: R3 "Magic Power is bounded": at most 6 tokens; a player starts with 1; a
#: turn whose action is not recorded may have been a roll of 3 dice.
TOKENS_MAX = 6
TOKENS_START = 1
UNRECORDED_GAIN = 3


@dataclass
class Player:
    creature: int
    dark_power: int = 0
    points: int = 0
    portal: list[int | None] = field(default_factory=lambda: [None] * 9)
    jury: dict | None = None
    #: R3: the most Magic Power tokens the record allows at the start of the turn.
    tokens: int = TOKENS_START


class ZooModel:
    """One Alakazoo game; ``act`` returns True when the rules accept the action."""

    def __init__(self, names: Sequence[str], portals: Sequence[int] | None = None,
                 first_player: int = 0, dark_power_reset: bool = True,
                 boxed: Sequence[int] | None = None) -> None:
        n = len(names)
        portals = list(portals) if portals else list(range(1, n + 1))
        self.names = list(names)
        self.players = [Player(c) for c in portals]
        self.first = first_player
        self.reset = dark_power_reset
        self.current: int | None = first_player
        self.round = 1
        self.final_round = False
        self.ender: int | None = None
        self.over = False
        self.firsts: dict[str, int] = {}
        # R2 "The deck by player count": the portals' creatures are always in
        # the deck; the first other creatures displayed fill the free places.
        self.deck: list[int] = list(portals)
        self.deck_size = DECK_SIZE[n]
        if boxed is not None:
            # R2: a start option may name the creatures put back in the box.
            self.deck = [c for c in range(1, 7) if c not in boxed]
        self._new_turn()

    def _new_turn(self) -> None:
        self.acted = False        # R2 "The turn's one action"
        self.displays = 0         # R2 "Displays per turn"
        self.helped = False       # the Magic Helper was used this turn (any of its uses)
        self.runes = 0            # dice of this turn's roll that showed a rune
        self.no_rune = 0          # no_rune Dark Power recorded this turn
        self.action: str | None = None  # "roll", "column", "helper" (R2 the one action)
        self.dice = 0             # dice of this turn's recorded roll
        self.spent = 0            # tokens spent this turn: 2 a display, 1 the Helper
        self.penalties: set[str] = set()  # "magic_power", "hand" recorded this turn (R3)

    # --- R3 "Magic Power is bounded" ----------------------------------------------------

    def _gain(self) -> int:
        """What this turn's action could give (R3): a roll of n dice n less its
        no_rune penalties, a column or the Helper 0, no recorded action 3."""
        if self.action == "roll":
            return self.dice - self.no_rune
        if self.action is None:
            return UNRECORDED_GAIN
        return 0

    def tokens_now(self) -> int:
        """R3: the bound now: never more than 6, less what this turn spent; a count of
        tokens, so never below 0 (RB: the tokens come from and go to the common pool)."""
        me = self.players[self.current]
        return max(0, min(TOKENS_MAX, me.tokens + self._gain()) - self.spent)

    def _no(self, why: str) -> bool:
        """Refuse, keeping the rule that refused for the test's message."""
        self.why = why
        return False

    def clone(self) -> ZooModel:
        """An independent copy (by hand: the tests clone on every step)."""
        twin = copy.copy(self)
        twin.players = [Player(p.creature, p.dark_power, p.points, list(p.portal),
                               copy.deepcopy(p.jury), p.tokens) for p in self.players]
        twin.firsts = dict(self.firsts)
        twin.deck = list(self.deck)
        twin.penalties = set(self.penalties)
        return twin

    # --- what the contract's view names ----------------------------------------------

    def view(self) -> dict[str, Any]:
        """The view keys of CONTRACT.md that this model tracks."""
        return {
            "players": [{"dark_power": p.dark_power, "points": p.points,
                         "portal": list(p.portal), "jury": p.jury,
                         "total": p.points + (p.jury["total"] if p.jury else 0),
                         # R3: the most Magic Power tokens the record allows the
                         # player now (this turn's gain and spending counted).
                         "magic_power": (self.tokens_now() if i == self.current
                                         and not self.over else p.tokens)}
                        for i, p in enumerate(self.players)],
            "current": None if self.over else self.current,
            "round": self.round,
            # docs/api.md: true once a portal is complete, until the game ends.
            "final_round": self.final_round and not self.over,
            "ender": self.ender,
            "firsts": dict(self.firsts),
            "winner": self.winner(),
        }

    def winner(self) -> list[int] | None:
        if not self.over:
            return None
        totals = [p.points + p.jury["total"] for p in self.players]
        return [i for i, t in enumerate(totals) if t == max(totals)]  # R: a tie is shared

    # --- actions ----------------------------------------------------------------------

    def act(self, action: Mapping[str, Any], faces: Sequence[str] | None = None) -> bool:
        """Apply ``action`` if the rules allow it now; False (nothing changed) if not.

        ``faces`` are the faces a device roll showed (from the resolved event).
        """
        if self.over:
            return self._no('contract: anything but undo once the game is over')
        if not isinstance(action, Mapping):
            return False
        if "by" in action and action["by"] != self.current:
            return self._no('docs/api.md: `by` naming a player whose turn it is not')
        kind = action.get("type")
        handler = {"display": self._display, "dark_power": self._dark_power,
                   "swap": self._swap, "roll": self._roll, "end_turn": self._end_turn,
                   "column": self._column, "helper": self._helper}.get(kind)
        if handler is None:
            return False
        fields = {k: v for k, v in action.items() if k not in ("type", "by")}
        before = self.clone()
        if not handler(fields, faces):
            return False
        if kind != "end_turn" and not self._penalties_possible():
            self.__dict__.update(before.__dict__)
            return self._no('R3: "accepted only where the record leaves it possible": '
                            "the turn's record no longer leaves a penalty possible")
        return True

    def _penalties_possible(self) -> bool:
        """R3, read over the whole turn as recorded (in whatever order): too much Magic
        Power only in a turn whose action is a roll or not recorded, with a bound that
        could pass 6; too many cards only in a turn whose action is not a roll."""
        if "hand" in self.penalties and self.action == "roll":
            return False
        if "magic_power" in self.penalties:
            if self.action not in (None, "roll"):
                return False
            if self.players[self.current].tokens + self._gain() <= TOKENS_MAX:
                return False
        return True

    def _is_int(self, value: Any, low: int, high: int) -> bool:
        return type(value) is int and low <= value <= high

    def _display(self, f: dict, _faces: Any) -> bool:
        if set(f) != {"space", "creature"}:
            return False
        s, c = f["space"], f["creature"]
        if not (self._is_int(s, 1, 9) and self._is_int(c, 1, 6)):
            return False
        me = self.players[self.current]
        if me.portal[s - 1] is not None:
            return self._no('RB: the element goes on an empty space')
        # RB l.97-99: 6 Magic Power tokens at most; l.131: 2 per display; l.113: the
        # Helper discards 1 of them first, leaving 5: two displays (R2's own reasoning).
        if self.displays >= (2 if self.helped else 3):
            return self._no('R2 "Displays per turn": 2 tokens each, 6 at most, 1 for the Helper')
        if self.tokens_now() < 2:
            return self._no('R3 "Magic Power is bounded": a display the bound cannot pay for')
        if self._on_table(c, s):
            return self._no('R2 "Each card exists once"')
        if not self._may_enter(c):
            return self._no('R2 "The deck by player count"')
        self._enter(c)
        me.portal[s - 1] = c
        self.displays += 1
        self.spent += 2  # R3: each display takes 2 from the bound
        # RB "After the player has displayed": +1 own creature, +1 first of the type.
        if c == me.creature:
            me.points += 1
        if str(s) not in self.firsts:
            self.firsts[str(s)] = self.current
            me.points += 1
        # RB "The end of the game": the first to place the ninth element +1, final round.
        if all(e is not None for e in me.portal) and self.ender is None:
            me.points += 1
            self.ender = self.current
            self.final_round = True
        return True

    def _on_table(self, c: int, s: int) -> bool:
        return any(p.portal[s - 1] == c for p in self.players)

    def _may_enter(self, c: int) -> bool:
        return c in self.deck or len(self.deck) < self.deck_size

    def _enter(self, c: int) -> None:
        if c not in self.deck:
            self.deck.append(c)

    def _gain_dark(self, p: Player) -> None:
        p.dark_power = min(DARK_MAX, p.dark_power + 1)  # RB: a fourth is not taken

    def _take_action(self, kind: str) -> bool:
        """R2 "The turn's one action": at most one per turn, before any display."""
        if self.acted:
            return self._no('R2 "The turn\'s one action": a second action in the turn')
        if self.displays:
            return self._no('R2 "The turn\'s one action": before any display')
        if kind == "helper" and self.players[self.current].tokens < 1:
            # RB action 3: "discard to the common pool one Magic Power token owned"; a
            # Helper turn rolls none, so it must be kept from earlier turns (R3 bound).
            return self._no("RB action 3: the Helper spends a token the bound allows")
        self.acted = True
        self.action = kind
        if kind == "helper":
            self.spent += 1  # R3: the Magic Helper takes 1 from the bound
        return True

    def _hand_trick_barred(self) -> bool:
        """RB l.123 and l.127: the hand trick is against another player, and at the end
        of the game the Helper cannot be used against one with all 9 elements: in the
        final round, with every other portal complete, it has no one to be used on."""
        return self.final_round and all(
            all(e is not None for e in p.portal)
            for i, p in enumerate(self.players) if i != self.current)

    def _dark_power(self, f: dict, _faces: Any) -> bool:
        if set(f) != {"reason"} or f["reason"] not in REASONS:
            return False
        reason = f["reason"]
        if reason == "no_rune":
            # R2 "No free rune": follows this turn's roll, one per rune die at most.
            if self.no_rune >= self.runes:
                return self._no('R2 "No free rune": one per rune die of this turn\'s roll')
            self.no_rune += 1
        elif reason == "helper":
            # docs/api.md, R2: the Helper's hand trick with another player is
            # recorded as what it is, the turn's action, with its Dark Power.
            if self._hand_trick_barred():
                return self._no('RB l.127: not against a player with all 9 elements')
            if not self._take_action("helper"):
                return False
            self.helped = True
        elif reason == "magic_power":
            # R3: only in a turn whose action is a roll or not recorded, and only
            # when the bound could pass 6 (so never in a first turn: 1 + 3).
            if self.action not in (None, "roll"):
                return self._no('R3: too much Magic Power needs a roll (or no recorded action)')
            if self.players[self.current].tokens + self._gain() <= TOKENS_MAX:
                return self._no('R3: too much Magic Power only when the bound could pass 6')
        elif reason == "hand" and self.action == "roll":
            # R3: too many cards only after a column, the Helper, or no recorded action.
            return self._no('R3: too many cards cannot follow a roll')
        if reason in ("magic_power", "hand"):
            self.penalties.add(reason)
        self._gain_dark(self.players[self.current])
        return True

    def _roll(self, f: dict, faces: Sequence[str] | None) -> bool:
        if len(f) != 1:
            return self._no('docs/api.md: both or neither of dice and faces')
        if "dice" in f:
            if not self._is_int(f["dice"], 1, 3):
                return False
        elif "faces" in f:
            given = f["faces"]
            if (not isinstance(given, list) or not 1 <= len(given) <= 3
                    or any(x not in FACES for x in given)):
                return False
            faces = given
        else:
            return False
        if not self._take_action("roll"):
            return self._no('RB: roll the dice is one of the three actions')
        if faces is None:
            # The engine refused the device roll (no faces shown): the model decides
            # without them; if it takes the roll, the views disagree as they should.
            faces = [MAGIC] * f["dice"]
        self.runes = sum(1 for x in faces if x != MAGIC)
        self.dice = f["dice"] if "dice" in f else len(faces)
        return True

    def _column(self, f: dict, _faces: Any) -> bool:
        """RB action 2: take a column or discard (docs/api.md `column`)."""
        if f:
            return self._no("docs/api.md: column has no fields")
        return self._take_action("column")

    def _helper(self, f: dict, _faces: Any) -> bool:
        """RB Helper 2, recorded as what it is (R2 "The turn's one action"):
        a hand card swapped with another player's (+1 Dark Power) or
        discarded for a card from a column (none)."""
        if set(f) != {"trick"} or f["trick"] not in ("hand", "column"):
            return self._no("docs/api.md: helper trick is hand or column")
        if f["trick"] == "hand" and self._hand_trick_barred():
            return self._no('RB l.127: not against a player with all 9 elements')
        if not self._take_action("helper"):
            return False
        self.helped = True
        if f["trick"] == "hand":
            self._gain_dark(self.players[self.current])
        return True

    def _swap(self, f: dict, _faces: Any) -> bool:
        if set(f) not in ({"space", "player"}, {"space", "creature"}):
            return False
        s = f["space"]
        if not self._is_int(s, 1, 9):
            return False
        me = self.players[self.current]
        mine = me.portal[s - 1]
        if "player" in f:
            o = f["player"]
            if not self._is_int(o, 0, len(self.players) - 1) or o == self.current:
                return self._no("contract: not the player's own portal")
            other = self.players[o]
            theirs = other.portal[s - 1]
            if mine is None or theirs is None:
                return self._no('contract: refused if a space is empty')
            if mine == theirs:
                return self._no('contract/R2: a swap of two equal elements is a no-op')
            if self.final_round and all(e is not None for e in other.portal):
                return self._no('RB "Note! At the end of the game ...": not against a full portal')
            if not self._take_action("helper"):
                return False
            self.helped = True
            me.portal[s - 1], other.portal[s - 1] = theirs, mine
            self._gain_dark(me)  # RB Helper 1: +1 Dark Power for another player's element
            return True
        c = f["creature"]
        if not self._is_int(c, 1, 6):
            return False
        if mine is None:
            return self._no('contract: refused if the space is empty')
        if mine == c:
            return self._no('R2: a swap of two equal elements is refused as a no-op')
        if self._on_table(c, s):
            return self._no('R2 "Each card exists once": that card lies on another portal')
        if not self._may_enter(c):
            return self._no('R2 "The deck by player count": no such card in the deck')
        if not self._take_action("helper"):
            return False
        self.helped = True
        self._enter(c)
        me.portal[s - 1] = c  # no Dark Power, no points (contract; R "Swaps never change points")
        return True

    def _end_turn(self, f: dict, _faces: Any) -> bool:
        if f:
            return False
        me = self.players[self.current]
        me.tokens = self.tokens_now()  # R3: the turn's gain in, its spending out
        n = len(self.players)
        nxt = self.current
        passes = 0
        while True:
            nxt = (nxt + 1) % n
            if nxt == self.first:
                if self.final_round:
                    # RB: when player one would start again, the game is finished.
                    self._finish()
                    return True
                self.round += 1  # contract: a new round when the turn reaches first_player
            p = self.players[nxt]
            if p.dark_power >= DARK_MAX:
                # RB: a player who starts a turn with 3 Dark Power passes;
                # R: and goes back to 0 under dark_power_reset.
                if self.reset:
                    p.dark_power = 0
                passes += 1
                if passes == n and not self.reset:
                    # R: with the reset off, a table all at 3 cannot go on: once
                    # every player has passed in a row, the game ends there.
                    self._finish()
                    return True
                continue
            self.current = nxt
            self._new_turn()
            return True

    def _finish(self) -> None:
        self.over = True
        for p in self.players:
            p.jury = jury(p.portal, p.creature)


def jury(portal: Sequence[int | None], creature: int) -> dict:
    """RB "Final score" with R "Jury details": only full lines score."""
    def line(spaces: tuple[int, ...]) -> int:
        elems = [portal[s - 1] for s in spaces]
        if None in elems:
            return 0
        return 1 if len(set(elems)) in (1, 3) else 0
    rows = [line(r) for r in ROWS]
    cols = [line(c) for c in COLS]
    pure = 1 if all(e == creature for e in portal) else 0
    return {"rows": rows, "cols": cols, "pure": pure, "total": sum(rows) + sum(cols) + pure}
