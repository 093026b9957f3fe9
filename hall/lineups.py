"""Who plays with and against whom in an event's games: its *lineup* (docs/club-night.md,
"Teams and tables").

- ``singles``: one player against one (every game takes it; the default).
- ``doubles``: AlakaSLAM with four ``characters`` in its options. Teams of two
  are formed once, when the first round starts, with rating totals as even as
  can be (:func:`hall.director.groups.teams`); the event's format (Swiss, round
  robin, knockout) then pairs teams. It needs an even number of players.
- ``canadian``: AlakaSLAM with three ``characters`` (Canadian doubles, one
  against two). Every round seats the players three to a table (repeat
  opponents as few as can be, then even averages:
  :func:`hall.director.groups.tables`); the best-rated of the three plays
  alone against the other two. Who the count leaves over (1 or 2) rests with
  a bye: those with fewest byes, then fewest points, then lowest rating.
  Swiss only (the tables are formed anew each round).
- ``tables``: Alakazoo at tables of 3 and 4 (10 players: 4 + 3 + 3; 5: 3 + 2;
  a single player left rests), formed each round as Canadian tables are;
  every player for themselves, equal totals sharing a place. Swiss only.

A game plays the lineups its kit allows (``Kit.lineups``, companion/kit.py), one
against one when it says nothing; the games named above are those that allow
more today. A game at ``tables`` seats two to four.

The game's players go in the seat order its start record expects
(CONTRACT.md): for AlakaSLAM, a team takes the seats its ``teams`` option
gives its side (default ``[0, 0, 1, 1]``, Canadian ``[0, 1, 1]``: side 0's seat
is the one alone); Alakazoo's seats are the turn order, best-rated first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.catalog import Catalog
from companion.i18n import _
from companion.kit import Lineups
from companion.offers import JOIN, label

__all__ = ["JOIN", "LINEUPS", "allowed", "label", "lineup_of", "options_for", "seat_teams",
           "sides_of"]

LINEUPS = ("singles", "doubles", "canadian", "tables")
#: The lineups seated anew each round (so only a Swiss can run them).
EACH_ROUND = ("canadian", "tables")
#: The seats a game of each lineup has (a table of three or four: 2 to 4).
SEATS = {"singles": (2,), "doubles": (4,), "canadian": (3,), "tables": (2, 3, 4)}
#: The sides by seat when the options give no ``teams`` (CONTRACT.md, AlakaSLAM's).
DEFAULT_SIDES = {3: (0, 1, 1), 4: (0, 0, 1, 1)}


def _lineups(catalog: Catalog, game: str) -> Lineups:
    """What the game's kit in ``catalog`` says of its lineups (one against one, if it
    says nothing)."""
    found = catalog.kit(game)
    return found.lineups if found is not None else Lineups()


def allowed(catalog: Catalog, game: str) -> tuple[str, ...]:
    """The lineups ``game`` can be played as, in the order a director is offered them."""
    return _lineups(catalog, game).allowed


def lineup_of(catalog: Catalog, game: str, options: Mapping[str, Any], asked: Any) -> str:
    """The lineup of an event of ``game`` (of ``catalog``) with ``options`` (``asked``: the
    director's ``lineup``, or None). ValueError saying why when the game cannot be played
    so.

    A lineup the game's options fix (AlakaSLAM's, by its characters) is the
    event's, and asking for another is refused; else the one asked, if the game
    plays it (``singles`` when none is asked)."""
    if asked is not None and asked not in LINEUPS:
        raise ValueError(_("lineup is one of {lineups}, not {lineup}",
                           lineups=", ".join(LINEUPS), lineup=repr(asked)))
    lineups = _lineups(catalog, game)
    fixed = lineups.fixed(options) if lineups.fixed is not None else None
    if fixed is not None:
        if asked is not None and asked != fixed:
            raise ValueError(_("{game} with these options is {fixed}, not {lineup}: its "
                               "options say how many play", game=catalog.title(game),
                               fixed=fixed, lineup=asked))
        return fixed
    lineup = asked or "singles"
    if lineup not in lineups.allowed:
        raise ValueError(_("{game} plays {lineups}, not {lineup}", game=game,
                           lineups=" or ".join(lineups.allowed), lineup=lineup))
    return lineup


def options_for(catalog: Catalog, game: str, options: Mapping[str, Any], seats: int
                ) -> dict[str, Any]:
    """The event's options as a game of ``seats`` players starts with them (the game's
    kit may fit them to the table: Alakazoo's portals, one per player)."""
    seated = _lineups(catalog, game).seated
    return seated(options, seats) if seated is not None else dict(options)


def sides_of(lineup: str, options: Mapping[str, Any], seats: int) -> tuple[int, ...]:
    """Each seat's side in a game of ``lineup`` (``()``: every player for themselves)."""
    if lineup not in ("doubles", "canadian"):
        return ()
    given = options.get("teams")
    return tuple(given) if isinstance(given, list) else DEFAULT_SIDES[seats]


def seat_teams(options: Mapping[str, Any], lineup: str, first: Sequence[str],
               second: Sequence[str]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The players of ``first`` v ``second`` (teams, or one player and a pair) in seat
    order, and each seat's side: ``first`` takes side 0's seats, ``second`` side 1's,
    each in the order given."""
    seats = len(first) + len(second)
    sides = sides_of(lineup, options, seats)
    if sorted(sides) != sorted([0] * len(first) + [1] * len(second)):
        raise ValueError(_("the teams option {sides} does not seat {first} against {second}",
                           sides=str(list(sides)), first=len(first), second=len(second)))
    left, right = list(first), list(second)
    return tuple(left.pop(0) if s == 0 else right.pop(0) for s in sides), sides
