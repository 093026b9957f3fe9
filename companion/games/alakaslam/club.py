"""How a club night seats AlakaSLAM: its characters fix the lineup, one per player."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.alakaslam.options import CHARACTERS
from companion.games.base import OptionSpec
from companion.i18n import _

#: What AlakaSLAM can be played as at a club night.
LINEUPS = ("singles", "doubles", "canadian")
#: A director's form asks a character for each seat (their number is the lineup's).
PER_SEAT = (OptionSpec("characters", _("Character"), tuple(CHARACTERS.items()), None),)
#: The lineup by the number of characters (its option fixes the player count).
BY_CHARACTERS = {2: "singles", 3: "canadian", 4: "doubles"}


def fixed(options: Mapping[str, Any]) -> str:
    """The lineup the ``characters`` option fixes; ValueError when it fixes none (its
    words said to the director, in the director's language)."""
    characters = options.get("characters")
    found = BY_CHARACTERS.get(len(characters)) if isinstance(characters, list) else None
    if found is None:
        raise ValueError(_("options: AlakaSLAM's characters list one character per player: "
                           "2 (singles), 3 (Canadian doubles) or 4 (doubles)"))
    return found
