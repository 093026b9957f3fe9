"""Center Court on the panel: the scoreboard's keys, serve, own-die roll and return."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.center_court.rules import format_return, return_count
from companion.games.center_court.state import ROLLED_SERVES, SERVICE_DIE
from companion.i18n import C_, _
from companion.inputs import Input, seat
from companion.ui.base import (
    Binding,
    Context,
    Outcome,
    Screen,
    Ui,
    choice_row,
)
from companion.ui.canvas import key_names

DIE_FACES = tuple(sorted(set(SERVICE_DIE)))


def board(ui: Ui, match: Mapping[str, Any]) -> dict[Input, Binding]:
    view = match["view"]
    # "+Ann": a point for Ann, the names told apart in what the key has room for.
    names = key_names(view["players"], "+")
    keys = {}
    for player, button in enumerate(("prev", "next")):
        point = Outcome(Ui(), ("act", {"type": "point", "winner": player}))
        keys[Input(button)] = Binding(f"+{names[player]}", point)
        keys[seat(player)] = Binding("", point)
    if view["in_play"]:
        cursor = view["volley"] - 1
        keys[Input("ok")] = Binding(_("Return"), Outcome(Ui(screen="return", cursor=cursor)))
    else:
        cursor = serve_card(view) - 1
        keys[Input("ok")] = Binding(_("Serve"), Outcome(Ui(screen="serve", cursor=cursor)))
    return keys


def serve_card(view: Mapping[str, Any]) -> int:
    """The card the serve row starts on: the server's own latest serve in this match.

    Players tend to serve the same way again, so their last card is one OK
    away; before a player's first serve it is 3, a serve that is never rolled.
    """
    return view["last_serve_card"][view["server"]] or 3


def _serve(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    card = ui.cursor + 1
    serve = Outcome(Ui(), ("act", {"type": "serve", "card": card}))
    screen = choice_row(ui, 6, Binding(_("Serve"), serve), Binding(_("Back"), Outcome(Ui())),
                        title=_("Serve which card?"), items=tuple(str(c) for c in range(1, 7)),
                        hint=_("hold OK: own die roll") if card in ROLLED_SERVES
                        else _("no roll: 3 or 4"))
    own_die = Outcome(Ui(screen="roll", card=card)) if card in ROLLED_SERVES else serve
    return replace(screen, keys={**screen.keys, Input("ok", hold=True): Binding("", own_die)})


def _roll(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    face = DIE_FACES[ui.cursor % len(DIE_FACES)]
    enter = Outcome(Ui(), ("act", {"type": "serve", "card": ui.card, "roll": face}))
    back = Outcome(Ui(screen="serve", cursor=(ui.card or 1) - 1))
    # A soft key's "Enter" (record the face), not the keyboard's key of that name.
    entered = C_("soft key: the die face is entered", "Enter")
    return choice_row(ui, len(DIE_FACES), Binding(entered, enter), Binding(_("Back"), back),
                      title=_("Serve {card}: die shows?", card=ui.card),
                      items=tuple(map(str, DIE_FACES)),
                      hint=_("{card} on the die is a fault", card=ui.card))


def _return(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    view = match["view"] if match else {}
    volley = view.get("volley") or 1
    card = ui.cursor + 1
    count = return_count(volley, card)
    ret = Outcome(Ui(), ("act", {"type": "return", "card": card, "count": count}))
    return choice_row(ui, 6, Binding(_("Return"), ret), Binding(_("Back"), Outcome(Ui())),
                      title=_("Return {volley} with", volley=volley),
                      items=tuple(str(c) for c in range(1, 7)),
                      hint=_("play {cards}", cards=format_return(card, count)))


#: Drafts all three: a change from elsewhere closes them (the serve, the roll
#: and the return they were opened for may not be the next thing any more).
SCREENS = {"serve": _serve, "roll": _roll, "return": _return}
