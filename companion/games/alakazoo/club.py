"""How a club night seats Alakazoo: one against one, or every player for themselves at
tables of three and four."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: What Alakazoo can be played as at a club night.
LINEUPS = ("singles", "tables")


def seated(options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """The event's options for a table of ``seats`` players: its ``portals`` (one per
    player) cut to the players there."""
    out = dict(options)
    if isinstance(out.get("portals"), list):
        out["portals"] = out["portals"][:seats]
    return out
