"""What an undo took back (or a redo put back): data, worded in each reader's language.

The table tells it as data (Snapshot.undone and .redone, the state JSON's ``undone``
and ``redone``), one message for every phone: ``type``, the event's type; ``to``, whom
it was for (a point's winner, named as the view names its sides) or ``by``, the player
who acted (named as the view names its players); and ``last``, the game's own account
of its last play when its view keeps one for this very event (Wizard Dodgeball's
``last``). Words are made from it where it is shown: on the OLED by :func:`undone_words`
with the game's words for its event kinds (Game.event_words), on the pages by
``TC.undoneWords`` (web/static/common.js) with the game script's. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.i18n import Text, _

JSON = Mapping[str, Any]


def undone_of(view: JSON, players: Sequence[str], event: JSON) -> dict[str, Any]:
    """``event`` as the table tells it (see the module), from ``view``: the game's view
    that shows it (before an undo, after a redo) and ``players``, the start record's
    names."""
    kind = event.get("type")
    told: dict[str, Any] = {"type": kind if isinstance(kind, str) else "action"}
    last = view.get("last")
    if isinstance(last, Mapping) and last.get("type") == kind \
            and isinstance(last.get("text"), str):
        told["last"] = dict(last)
        return told
    if isinstance(event.get("winner"), int) and not isinstance(event["winner"], bool):
        told["to"] = _name(view.get("sides"), players, event["winner"])
        return told
    who = event.get("player", event.get("by"))
    if isinstance(who, int) and not isinstance(who, bool):
        told["by"] = _name(view.get("players"), players, who)
    return told


def undone_words(told: JSON, kinds: Mapping[str, Text],
                 name: Callable[[str], str] = str) -> Text | str:
    """What :func:`undone_of` told, in words ("point to Ann", "#21 hit #45: out"): the
    game's own account of the play, else its word for the event's kind (``kinds``; a kind
    it has none for is said as it is named, underscores as spaces) and whom it was for,
    each name as ``name`` gives it (the OLED shortens them)."""
    last = told.get("last")
    if isinstance(last, Mapping) and isinstance(last.get("text"), str):
        said: Text | str = last["text"]
        return said
    kind = str(told.get("type", "action"))
    what: Text | str = kinds.get(kind) or kind.replace("_", " ")
    if isinstance(told.get("to"), str):
        return _("{what} to {name}", what=what, name=name(told["to"]))
    if isinstance(told.get("by"), str):
        return _("{what} by {name}", what=what, name=name(told["by"]))
    return what


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
