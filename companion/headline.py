"""A table at a glance: the few lines a hall board or Home Assistant shows.

:func:`headline` reads only the ``/api/state`` JSON (the contract's view
keys), so the table that publishes it and a hall board that receives it
over MQTT compute the same card from the same message. The result is plain
JSON: strings short enough for a Home Assistant sensor (at most
:data:`MAX_TEXT` characters) and one row per side for a scoreboard card.

Its two words of its own ("No match", the "Pts" column) are marked (companion/i18n.py):
a reader in the same process says them in its language; the MQTT message carries
them in English, as one message for every reader (a hall says an idle table by its
``status``, not by the title).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.catalog import Catalog
from companion.games.base import JSON, Card, name_text, won
from companion.i18n import C_, _

#: Home Assistant keeps a sensor's state to 255 characters; a card has less room.
MAX_TEXT = 120
IDLE = "idle"


def headline(state: Mapping[str, Any], catalog: Catalog) -> JSON:
    """The card of one ``/api/state`` body (``{"version", "match"}``), its game read in
    ``catalog`` (a game it does not know gets the generic card under its id).

    Keys: ``game`` (id or None), ``title`` (the game's name, or "No match"),
    ``status`` (``"active"``, ``"finished"`` or ``"idle"``), ``players`` ("Ann v
    Bob"), ``score`` (the score line), ``turn`` (whose turn it is, "" when
    nobody's), ``winner`` ("" until the end), ``columns`` (the headings of
    each side's ``score`` cells) and ``sides``: ``[{"name", "score": [str],
    "turn": bool, "winner": bool}]`` in seat order. Every text is a string of
    at most :data:`MAX_TEXT` characters. Raises nothing for a well-formed
    state of any game; ValueError for any other body (a message off a broker
    may be anything).
    """
    if not isinstance(state, Mapping):
        raise ValueError("not a table state: not a JSON object")
    match = state.get("match")
    if match is None:
        return {"game": None, "title": _("No match"), "status": IDLE, "players": "",
                "score": "", "turn": "", "winner": "", "columns": [], "sides": []}
    try:
        return _match_card(match, catalog)
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as err:
        raise ValueError(f"not a table state: {err!r}") from None


def _match_card(match: Mapping[str, Any], catalog: Catalog) -> JSON:
    game = name_text(match["game"])
    kit = catalog.kit(game)
    status = match.get("status", "active")
    if not isinstance(status, str):
        raise TypeError(f"status {status!r}")
    card = score_card(match, catalog)
    sides = card["sides"]
    return {
        "game": game,
        "title": kit.game.title if kit else game,
        "status": _short(status),
        "players": _short(" v ".join(s["name"] for s in sides)),
        "score": card["score"],
        "turn": _short(" & ".join(s["name"] for s in sides if s["turn"])),
        "winner": _short(" and ".join(s["name"] for s in sides if s["winner"])),
        "columns": card["columns"],
        "sides": sides,
    }


def score_card(match: Mapping[str, Any], catalog: Catalog) -> JSON:
    """The score part of a match's card, read from the state's ``match`` (its
    ``game``, ``players``, ``turn`` and ``view``): ``score`` (the score line),
    ``columns`` (the headings of each side's cells) and ``sides`` (``[{"name",
    "score": [str], "turn", "winner"}]`` in seat order), texts of at most
    :data:`MAX_TEXT` characters. The game's card face when its kit in ``catalog`` brings one,
    else :func:`generic_card`: the hall's card, the MQTT summary and the pages'
    score header and generic board all draw this one reading. KeyError,
    TypeError, ValueError... for a match that is not well formed."""
    kit = catalog.kit(name_text(match["game"]))
    # A game this side does not know (a hall older than the table) gets the
    # generic card under its id: a valid state is never called malformed.
    card = kit.card(match["view"]) if kit and kit.card else generic_card(match)
    turn = set(match.get("turn") or ())
    return {"score": _short(card.score), "columns": list(card.columns),
            "sides": [{"name": _short(name_text(name)), "score": [_short(str(c)) for c in cells],
                       "turn": bool(turn & set(seats)), "winner": won}
                      for name, cells, seats, won in card.sides]}


def generic_card(match: Mapping[str, Any]) -> Card:
    """The card of a game whose kit brings none: a row per player (the match's
    ``players``) with their score when the view has a list of them (``scores``,
    else ``score`` or ``points``, one per seat), the view's ``winner`` marked."""
    players = [name_text(p) for p in match["players"]]
    view = match.get("view")
    view = view if isinstance(view, Mapping) else {}
    scores = next((view[k] for k in ("scores", "score", "points")
                   if isinstance(view.get(k), list) and len(view[k]) == len(players)), None)
    winner = view.get("winner")
    if scores is None:
        return Card("", [], [(name, [], (i,), won(winner, i)) for i, name in enumerate(players)])
    return Card("-".join(str(s) for s in scores), [C_("column", "Pts")],
                [(name, [str(scores[i])], (i,), won(winner, i))
                 for i, name in enumerate(players)])


def _short(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1] + "…"
