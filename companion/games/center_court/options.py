"""Center Court's options: the match format, checked and completed before the first serve."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import InvalidAction
from companion.games.base import (
    JSON,
    OptionSpec,
    again_with,
    check_option_keys,
    check_players,
)
from companion.i18n import C_, _

# Labels and choices are drawn on the OLED's start menu (its value column) and the host's
# start form: short. "Player 1" has a context of its own: a seat named by its number, not
# the default name of a player (which is data, never translated).
OPTIONS = (
    OptionSpec("sets", _("Sets"), ((1, _("Best of 1")), (3, _("Best of 3")),
                                   (5, _("Best of 5"))), 3),
    OptionSpec("no_ad", _("Deuce"), ((False, _("Advantage")), (True, _("No-ad"))), False),
    OptionSpec("final_set", _("Final set"),
               (("tiebreak", C_("tennis", "Tiebreak")), ("advantage", _("Advantage")),
                ("match-tiebreak", _("Match TB 10"))), "tiebreak"),
    OptionSpec("first_server", _("Serves 1st"), ((0, C_("seat", "Player 1")),
                                                 (1, C_("seat", "Player 2")),
                                                 ("coin", _("Coin flip"))), 0),
)


#: Written by prepare: whether the device flipped for the first server.
COIN_FLIP = OptionSpec("coin_flip", _("Coin flip"), ((False, _("No")), (True, _("Yes"))), False)


def prepare(players: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> JSON:
    """Checked, complete options; ``first_server: "coin"`` is flipped here.

    Only the device writes ``coin_flip: true``, always with the ``first_server`` its
    flip chose (as AlakaSLAM's start): a flip given with ``"coin"``, which asks for a
    new one, or a flip given alone, which says no server, is refused, so the history
    never shows a device flip that was not made nor drops the one asked for."""
    check_players(players, (2, 2))
    options = check_option_keys(options, [o.key for o in (*OPTIONS, COIN_FLIP)])
    prepared = {spec.key: spec.read(options) for spec in (*OPTIONS, COIN_FLIP)}
    flip = COIN_FLIP.key in options
    if prepared["first_server"] == "coin" and flip:
        # Requests no page sends (the API's own fields, for a programmer): not said.
        raise InvalidAction(
            "option 'coin_flip' records a flip the device made, and "  # i18n: not said
            "'first_server': \"coin\" asks it for a new one: give 'first_server' \"coin\" "
            "alone for a new flip, or 'first_server' 0 or 1 with 'coin_flip' true to keep a "
            "flip already made")
    if prepared["coin_flip"] and "first_server" not in options:
        raise InvalidAction(
            "option 'coin_flip' records the device's flip and comes with the "  # i18n: not said
            "'first_server' it chose: give 'first_server' 0 or 1 to choose who serves, or "
            "\"coin\" to have the device flip")
    if prepared["first_server"] == "coin":
        # Kept in the record so the history shows the device decided.
        prepared["first_server"], prepared["coin_flip"] = rng.randrange(2), True
    return prepared


def again(options: Mapping[str, Any]) -> JSON:
    """The options for a rematch: the same, with the coin flipped again if it was."""
    return again_with(options, COIN_FLIP.key, "first_server", "coin")

