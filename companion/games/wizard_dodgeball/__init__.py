"""Wizard Dodgeball: initiative order, spell recharge timers and the dice.

The companion keeps whose wizard acts, the score, who is off the court, the
spell cards in hand and recharging, the effect tokens on wizards, and it can
roll every throw and cast. The players keep the court (positions, balls,
moves). The rules applied (docs/rules.md, after shared/RULINGS.md):

- Two sides of five wizards, known by jersey (0-99, all ten different).
  Activations alternate: the first side's first wizard, the other side's
  first, ... the other side's fifth, then the next round. The activation
  count includes skipped slots.
- The actions recorded in an activation stay within the turn: basic, one
  throw (a pass is the throw) and one cast, Speed one more of either, Slow
  one of them in all; advanced, two actions (Speed +1, Slow -1, one fewer
  when back), none while frozen. The turn and the spell list (all ten cards,
  or bought with Magic) are separate options. A spell names at most the
  caster's Magic in wizards when the stats give it, the caster counted. A
  Shield absorbs the first failed resist however the cast is recorded.
- A Fireball is on a ball: a pass hands it on, Butter Fingers or an
  elimination leaves it on a loose ball, and the host says when a throw was
  that loose ball (the companion cannot see who picked it up).
- A cast card leaves the hand whatever the result and comes back, with every
  effect token of that cast, when activation ``cast + 10`` ends: the
  caster's next slot, whether the caster played it, sat it out or was off
  the court. A Fireball token also ends when its throw resolves.
- Points variant: +1 for a hit, +1 for a catch; the target wins at once. An
  eliminated wizard comes back at the start of its next slot (no move in
  the basic turn, one action fewer in the advanced one). Elimination
  variant: no points, eliminated wizards' slots are skipped, a side with no
  wizard on the court loses at once.
- Dice are named by colour, with configurable faces (a plain d6 unless
  ``dice`` says otherwise). Each stat has a left and a right die. Plus and
  minus one die effects (Strong/Weak, Shrink/Enlarge, Magic Boost/Drain)
  add the white die or take one away (the white one first, then the left
  one; never the last die)."""

from __future__ import annotations

from companion.games.base import Game
from companion.games.wizard_dodgeball.cards import CARD_OF, CARDS, SHORT, SPELLS, TITLES
from companion.games.wizard_dodgeball.events import EVENT_WORDS, apply
from companion.games.wizard_dodgeball.options import (
    DEFAULT_ROSTERS,
    JERSEY_MAX,
    OPTIONS,
    SIDE_SIZE,
    STATS,
    again,
    prepare,
)
from companion.games.wizard_dodgeball.rules import legal, resolve
from companion.games.wizard_dodgeball.state import setup
from companion.games.wizard_dodgeball.timeline import timeline
from companion.games.wizard_dodgeball.view import summary, turn, view, winner

GAME_ID = "wizard-dodgeball"

__all__ = ["CARDS", "CARD_OF", "GAME", "JERSEY_MAX", "SHORT", "SPELLS", "TITLES"]


GAME = Game(
    id=GAME_ID,
    title="Wizard Dodgeball",  # i18n: not said (the name on the box)
    seats=(2, 2),
    options=OPTIONS,
    prepare=prepare,
    setup=setup,
    legal=legal,
    resolve=resolve,
    apply=apply,
    view=view,
    winner=winner,
    summary=summary,
    turn=turn,
    again=again,
    timeline=timeline,
    event_words=EVENT_WORDS,
    extras={
        "cards": [{"id": c.id, "faces": list(c.faces), "cost": c.cost} for c in CARDS],
        "spells": {s: TITLES[s] for s in SPELLS},
        "side_size": SIDE_SIZE, "jersey_max": JERSEY_MAX,
        "defaults": {"rosters": [list(r) for r in DEFAULT_ROSTERS]},
        "stats": list(STATS),
    },
)
