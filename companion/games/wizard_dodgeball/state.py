"""The match state and the facts derived from it (who acts, effects, cards)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import check_players
from companion.games.wizard_dodgeball.cards import CARD_OF
from companion.games.wizard_dodgeball.options import SIDE_SIZE, STATS, Setup, Wizard
from companion.games.wizard_dodgeball.words import joined
from companion.i18n import C_, N_, Text, _
from companion.turns import Timers, TurnOrder


@dataclass(frozen=True)
class Token:
    """An effect on a wizard, from a side's card (removed when that card returns).

    A Fireball is on a ball: its token sits on the wizard holding that ball,
    or has ``jersey`` None while the ball is loose (dropped, and picked up by
    someone the companion cannot see).
    """

    jersey: int | None
    spell: str
    side: int


@dataclass(frozen=True)
class Cast:
    """A card out of a side's hand: which face was cast, and by whom."""

    side: int
    card: str
    spell: str
    caster: int


@dataclass(frozen=True)
class Tally:
    """One side's counts over the match: ``hits`` (opponents its throws put out),
    ``catches`` (throws it caught), ``casts`` (spells it cast, Dispels included, whatever
    they did)."""

    hits: int = 0
    catches: int = 0
    casts: int = 0


@dataclass(frozen=True)
class State:
    """The match; everything shown is derived from it."""

    setup: Setup
    #: Whose slot it is; ``order.turn`` is the activation count.
    order: TurnOrder[int]
    off: frozenset[int] = frozenset()
    tokens: tuple[Token, ...] = ()
    #: Cards out of the hand, each until the end of its activation.
    recharging: Timers[Cast] = field(default_factory=Timers)
    #: Every spell cast in the match, newest first, each (side, spell) once.
    cast_history: tuple[Cast, ...] = ()
    score: tuple[int, int] = (0, 0)
    #: The active wizard came back at the start of this activation.
    returned: bool = False
    #: What the active wizard has recorded this activation, in order: "throw"
    #: (a throw at an opponent, hit or caught), "pass" or "cast" (Dispel too).
    used: tuple[str, ...] = ()
    #: The active wizard has used the action Speed gave it this activation: a
    #: Dispel of that Speed then takes away nothing more (RULINGS, third round).
    speed_used: bool = False
    #: What the last event did, for the outputs (JSON-ready).
    last: Mapping[str, Any] | None = None
    winner: int | None = None
    tally: tuple[Tally, Tally] = (Tally(), Tally())


def setup(players: Sequence[str], options: Mapping[str, Any]) -> State:
    """The match before the first activation, from prepared options."""
    names = check_players(players, (2, 2))
    rosters = (tuple(options["rosters"][0]), tuple(options["rosters"][1]))
    stats = {int(j): s for j, s in options["wizards"].items()}
    wizards = {}
    for side, roster in enumerate(rosters):
        for j in roster:
            s = stats.get(j, {})
            dice = tuple((k, (s[k][0], s[k][1])) for k in STATS if k in s)
            wizards[j] = Wizard(j, side, s.get("name"), s.get("move"), s.get("magic"), dice)
    first = options["first_side"]
    order = tuple(rosters[side][i] for i in range(SIDE_SIZE) for side in (first, 1 - first))
    return State(
        setup=Setup(
            sides=(names[0], names[1]), turn=options["turn"], variant=options["variant"],
            target=options["target"], first_side=first, rosters=rosters, wizards=wizards,
            cards=(tuple(options["spells"][0]), tuple(options["spells"][1])),
            # Options prepared before 'spell_list' existed bought spells only with
            # the advanced turn.
            spell_list=options.get("spell_list",
                                   "bought" if options["turn"] == "advanced" else "all"),
            dice={c: tuple(f) for c, f in options["dice"].items()},
        ),
        order=TurnOrder(order),
    )


def active(state: State) -> int:
    """The jersey whose activation it is."""
    return state.order.current


def has(state: State, jersey: int, spell: str) -> bool:
    """Whether ``jersey`` carries ``spell``: an effect counts once, however cast."""
    return any(t.jersey == jersey and t.spell == spell for t in state.tokens)


#: Each team has three spell markers of each kind; a paired card's two faces
#: share theirs (the card's id names the kind). Dispel and Teleport leave none.
MARKERS = 3


def markers(state: State, side: int, card: str) -> list[int | None]:
    """Where ``side``'s markers of ``card``'s kind lie: the wizards carrying one
    (None for a Fireball on a loose ball)."""
    return [t.jersey for t in state.tokens
            if t.side == side and CARD_OF[t.spell].id == card]


def loose_fireballs(state: State) -> list[Token]:
    """The Fireballs on balls no known wizard holds, oldest first."""
    return [t for t in state.tokens if t.jersey is None]


def effects(state: State, jersey: int) -> list[str]:
    return [t.spell for t in state.tokens if t.jersey == jersey]


def on_court(state: State, side: int) -> list[int]:
    """The side's wizards on the court, in initiative order."""
    return [j for j in state.setup.rosters[side] if j not in state.off]


def card_status(state: State, side: int, card: str) -> Cast | None:
    """The cast keeping ``card`` out of ``side``'s hand, or None if it is ready."""
    for cast, _until in recharges(state):
        if cast.side == side and cast.card == card:
            return cast
    return None


def returns_after(state: State, cast: Cast) -> int:
    return state.recharging.until[cast]


def ready(state: State, side: int) -> list[str]:
    """The spells ``side`` may cast now: both faces of each card in hand."""
    return [face for card in state.setup.cards[side] if card_status(state, side, card) is None
            for face in CARD_OF[card].faces]


#: What each recorded action uses of the active wizard's activation.
USE_OF = {"throw": "throw", "hit": "throw", "catch": "throw", "pass": "pass",
          "cast": "cast", "cast_roll": "cast", "dispel": "cast"}
#: The basic turn's action each use takes: a pass is the throw action.
BASIC_ACTION = {"throw": "throw", "pass": "throw", "cast": "cast"}
#: The actions the companion records (the move stays with the players).
RECORDED = ("throw", "cast")
BASIC_RULE = _("basic turn: move, throw and cast once each")
#: What is left of a basic turn, by the kinds of action still open.
LEFT = {("throw", "cast"): C_("left", "throw or cast"), ("throw",): C_("left", "throw"),
        ("cast",): C_("left", "cast"), (): C_("left", "no throw or cast")}


def actions(state: State) -> int | None:
    """Actions the active wizard has this activation (advanced turn only; None in basic).

    Two, +1 with Speed, -1 with Slow, -1 when back from elimination; none
    while frozen. Effects count from the moment they take hold, so a Speed
    cast on oneself gives its action at once and a rebounded Freeze ends the
    activation's actions.
    """
    if state.setup.turn != "advanced":
        return None
    j = active(state)
    if has(state, j, "freeze"):
        return 0
    count = 2 + sped(state) - has(state, j, "slow") - state.returned
    return max(0, count)


def sped(state: State) -> bool:
    """Whether Speed counts for the active wizard: it carries Speed, or it has
    used the action Speed gave it this activation (a Dispel of its Speed takes
    away only what Speed gave and is still unused)."""
    return has(state, active(state), "speed") or state.speed_used


def basic_extra(state: State) -> int:
    """The basic turn's change for Speed (+1: one more throw or cast) and Slow (-1:
    a throw or a cast, not both); 0 with neither or both."""
    return sped(state) - has(state, active(state), "slow")


def uses_speed(state: State) -> bool:
    """Whether what the active wizard has recorded needs the action its Speed gives:
    without Speed it would not fit the turn."""
    j = active(state)
    if not has(state, j, "speed") or has(state, j, "freeze"):
        return False
    slow = has(state, j, "slow")
    if state.setup.turn == "advanced":
        return len(state.used) > 2 - slow - state.returned
    return not _basic_fits(*_basic_counts(state), -int(slow))


def _basic_fits(throws: int, casts: int, extra: int) -> bool:
    """Whether ``throws`` throws (passes included) and ``casts`` casts fit a basic turn.

    The turn's throw and cast, plus one more of either with Speed; with Slow one
    of them in all (the unseen move is the one the wizard keeps).
    """
    if extra < 0:
        return throws + casts <= 1
    if extra > 0:
        return throws <= 2 and casts <= 2 and throws + casts <= 3
    return throws <= 1 and casts <= 1


def _basic_counts(state: State) -> tuple[int, int]:
    throws = sum(BASIC_ACTION[u] == "throw" for u in state.used)
    return throws, len(state.used) - throws


def open_actions(state: State) -> list[str]:
    """The kinds of action the active wizard may still record: "throw" (a pass
    included) and "cast", in that order; none when frozen, off the court or over."""
    j = active(state)
    if state.winner is not None or j in state.off or has(state, j, "freeze"):
        return []
    if state.setup.turn == "advanced":
        return list(RECORDED) if actions_left(state) else []
    throws, casts = _basic_counts(state)
    extra = basic_extra(state)
    return [a for a, more in (("throw", (throws + 1, casts)), ("cast", (throws, casts + 1)))
            if _basic_fits(*more, extra)]


def actions_left(state: State) -> int:
    """How many more actions the active wizard may record this activation.

    Advanced: ``actions`` minus those recorded (never below 0). Basic: how
    many more throws and casts fit the turn (0-2, 3 with Speed before any is
    used; 1 with Slow); the move is the players' to count.
    """
    j = active(state)
    if state.winner is not None or j in state.off or has(state, j, "freeze"):
        return 0
    count = actions(state)
    if count is not None:
        return max(0, count - len(state.used))
    throws, casts = _basic_counts(state)
    extra = basic_extra(state)
    # Slow cast on a wizard that already threw and cast leaves it over its turn:
    # nothing fits, and nothing is left (not an error).
    return max((t + c for t in range(3) for c in range(3)
                if _basic_fits(throws + t, casts + c, extra)), default=0)


def basic_rule(state: State) -> Text:
    """The basic turn as it stands for the active wizard, in words."""
    extra = basic_extra(state)
    if extra > 0 and not has(state, active(state), "speed"):
        return _("{rule}, and the extra throw or cast a Speed gave, used before the Speed "
                 "was dispelled", rule=BASIC_RULE)
    if extra > 0:
        return _("{rule}, and Speed gives one more throw or cast", rule=BASIC_RULE)
    if extra < 0:
        if state.returned:
            return _("basic turn with Slow: a throw or a cast, not both (no move: back from "
                     "elimination)")
        return _("basic turn with Slow: a throw or a cast, not both (the move is kept)")
    return BASIC_RULE


def budget_refusal(state: State, use: str) -> Text | None:
    """Why the active wizard cannot record ``use`` ("throw", "pass", "cast") now, or None.

    The message says what was used and what is left this activation.
    """
    j = active(state)
    if state.setup.turn == "basic":
        action = BASIC_ACTION[use]
        if action in open_actions(state):
            return None
        if not state.used:  # frozen, off the court or over: the caller says which
            if action == "cast":
                return _("#{j} has no cast this activation", j=j)
            return _("#{j} has no throw this activation", j=j)
        # What stands in the way: the same action done already, else the other one
        # (with Slow, either uses the turn's one throw or cast).
        throws, casts = _basic_counts(state)
        if (action == "cast" and casts) or (action == "throw" and not throws):
            done = C_("done", "cast twice") if casts == 2 else C_("done", "cast")
        elif [u for u in state.used if u != "cast"] == ["pass"]:
            done = _("passed (a pass is the throw action)")
        else:
            done = _("thrown twice") if throws == 2 else _("thrown")
        left = LEFT[tuple(open_actions(state))]
        return _("#{j} has already {done} this activation; left: {left} ({rule})",
                 j=j, done=done, left=left, rule=basic_rule(state))
    if actions_left(state):
        return None
    count = actions(state)
    assert count is not None
    why: list[Text] = [_("advanced turn: 2 actions")]
    if sped(state):
        why.append(_("+1 for Speed") if has(state, j, "speed") else
                   _("+1 for a Speed used before it was dispelled"))
    if has(state, j, "slow"):
        why.append(_("-1 for Slow"))
    if state.returned:
        why.append(_("-1 back from elimination"))
    recorded: str = joined([USED[u] for u in state.used]) or _("none recorded")
    return N_("#{j} has used its {n} action this activation ({done}); left: none ({why})",
              "#{j} has used its {n} actions this activation ({done}); left: none ({why})",
              count, j=j, done=recorded, why=joined(why))


#: What an activation's recorded action is called in a refusal's list of them.
USED = {"throw": C_("used", "throw"), "pass": C_("used", "pass"), "cast": C_("used", "cast")}


def reminder(state: State) -> Text | None:
    """What the players must remember about this activation, short enough for the OLED."""
    j = active(state)
    if state.winner is not None:
        return None
    if j in state.off:
        return _("off the court: End")
    if has(state, j, "freeze"):
        return _("frozen: no actions")
    if state.returned:
        if state.setup.turn == "basic":
            return _("back: no move this time")
        count = actions(state) or 0
        return N_("back: {n} action, no move", "back: {n} actions, no move", count)
    if state.setup.turn == "basic":
        extra = basic_extra(state)
        # Only while the wizard carries it: a Speed dispelled after its action was used
        # still counts for the turn, but there is no Speed left to remind of.
        if extra > 0 and has(state, j, "speed"):
            return _("Speed: +1 throw or cast")
        if extra < 0:
            return _("Slow: throw or cast")
    loose = loose_fireballs(state)
    if loose:
        # Nobody the companion knows holds it: the host says when it is thrown.
        return _("Fireball ball loose") if len(loose) == 1 else _("both Fireballs loose")
    return None


def recharges(state: State) -> list[tuple[Cast, int]]:
    return sorted(state.recharging.until.items(), key=lambda kv: (kv[1], kv[0].side))


def cannot_throw(state: State, j: int) -> Text | None:
    """Why ``j`` cannot throw at all, or None."""
    if has(state, j, "butter_fingers"):
        return _("#{j} has Butter Fingers and cannot hold a ball", j=j)
    if has(state, j, "sticky_fingers"):
        return _("#{j} has Sticky Fingers and cannot throw", j=j)
    return None


def cannot_receive(state: State, j: int) -> Text | None:
    """Why ``j`` cannot take a teammate's pass, or None."""
    if has(state, j, "butter_fingers"):
        return _("#{j} has Butter Fingers and cannot take a pass", j=j)
    return None


def cannot_catch(state: State, j: int) -> Text | None:
    """Why ``j`` cannot catch now, or None."""
    if has(state, j, "freeze"):
        return _("#{j} is frozen and cannot catch", j=j)
    if has(state, j, "shield"):
        return _("#{j} is shielded and cannot catch", j=j)
    if has(state, j, "butter_fingers"):
        return _("#{j} has Butter Fingers and cannot catch", j=j)
    return None


def dispel_token(state: State, target: int, effect: str, side: int) -> Token:
    """The token a Dispel by ``side`` cancels: an opponent's before its own side's."""
    tokens = [t for t in state.tokens if t.jersey == target and t.spell == effect]
    return sorted(tokens, key=lambda t: t.side == side)[0]
