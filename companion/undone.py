"""What an undo took back, in a few words ("point to Ann", "#21 hit #45: out").

The words come from what the table already tells of an event: the game's own text
of its last play, when its view keeps one for this very event (Wizard Dodgeball's
``last.text``); else the event's type and whom it was for (a point's winner, the
player who acted), named as the view names its sides and players. Pure: the host
page and the phones say "Undone: …" with it (``POST /api/undo``'s ``undone``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

JSON = Mapping[str, Any]


def undone_words(view: JSON, players: Sequence[str], event: JSON) -> str:
    """``event`` in words, from ``view``: the game's view after the event (before the
    undo) and ``players``, the start record's names."""
    last = view.get("last")
    if (isinstance(last, Mapping) and last.get("type") == event.get("type")
            and isinstance(last.get("text"), str)):
        return last["text"]
    kind = str(event.get("type", "action")).replace("_", " ")
    if isinstance(event.get("winner"), int):
        return f"{kind} to {_name(view.get('sides'), players, event['winner'])}"
    who = event.get("player", event.get("by"))
    if isinstance(who, int) and not isinstance(who, bool):
        return f"{kind} by {_name(view.get('players'), players, who)}"
    return kind


def _name(listed: Any, players: Sequence[str], index: int) -> str:
    """Entry ``index`` of the view's list of sides or players (a name, or an object with
    one), else the start record's player of that index."""
    if isinstance(listed, Sequence) and not isinstance(listed, str) and 0 <= index < len(listed):
        entry = listed[index]
        if isinstance(entry, str):
            return entry
        if isinstance(entry, Mapping) and isinstance(entry.get("name"), str):
            return entry["name"]
    return players[index] if 0 <= index < len(players) else f"#{index}"
