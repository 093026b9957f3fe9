"""A stored match checked against the rules as it is replayed.

The journal holds resolved events, so replaying it only needs ``apply``. But
a record damaged on the disk (a flipped bit in a card, a player index that
does not exist) would then resume as a silently wrong score. Here every
stored entry is checked the way a new action is: the rules must allow it at
that point and resolve it to exactly what is stored (dice included), undo and
redo must have something to act on, and the result stored with the match
(winner, summary, status) must be what the replay gives. Anything else is
:class:`~companion.errors.StoreDamaged`, naming the database, the match and
the entry.

It costs a ``resolve`` per event on top of the ``apply`` (about twice a
plain replay; tests/bench/bench_store.py measures the resume).
"""

from __future__ import annotations

import json
import random
from typing import Any

from companion.catalog import Catalog
from companion.errors import CompanionError, StoreDamaged
from companion.i18n import _, message
from companion.match import EVENT, REDO, UNDO, Match, StartRecord
from companion.store import ABANDONED, ACTIVE, FINISHED, StoredMatch


def replay_stored(stored: StoredMatch, catalog: Catalog, *, check_result: bool = True
                  ) -> Match:
    """``stored`` replayed through its game's rules in ``catalog``, every entry checked;
    StoreDamaged if one fails (a game the catalog does not know among them).

    ``check_result=False`` skips the check of the stored result (winner,
    summary, status), for a match whose result is to be stored from this replay.
    """
    # A stored entry carries its dice: resolving it must roll nothing, and
    # if the rules did roll (a die missing), the result differs and is caught.
    rng = random.Random(0)

    def damaged(where: str, why: str, entry: int | None = None) -> StoreDamaged:
        return StoreDamaged(stored.database or _("the match database"),
                            _("match {id}, {where}: {why}; the rules cannot replay what is "
                              "stored", id=stored.id, where=where, why=why),
                            match_id=stored.id, entry=entry)

    try:
        start = StartRecord.create(stored.start, rng, catalog)
    except CompanionError as err:
        raise damaged(_("its start record"), message(err), 0) from None
    if start.to_json() != stored.start:
        raise damaged(_("its start record"),
                      _("it is not complete as stored (options missing)"), 0)
    match = Match(start, catalog)
    for number, (op, event) in enumerate(stored.journal, start=1):
        try:
            if op == EVENT:
                resolved, state = match.resolve(event, rng)
                if resolved != event:
                    raise damaged(_("journal entry {n}", n=number),
                                  _("the rules resolve {stored} to {resolved}",
                                    stored=_text(event), resolved=_text(resolved)),
                                  number)
                match.push(resolved, state)
            elif op == UNDO:
                match.undo()
            elif op == REDO:
                match.redo()
            else:
                raise damaged(_("journal entry {n}", n=number),
                              _("unknown operation {op}", op=repr(op)), number)
        except CompanionError as err:
            if isinstance(err, StoreDamaged):
                raise
            raise damaged(_("journal entry {n} ({op} {event})", n=number, op=op,
                            event=_text(event)), message(err), number) from None
    if check_result:
        _check_result(stored, match, damaged)
    return match


def _check_result(stored: StoredMatch, match: Match, damaged: Any) -> None:
    winner = json.loads(json.dumps(match.game.winner(match.state)))
    summary = match.game.summary(match.state)
    if stored.winner != winner:
        raise damaged(_("its result"), _("the stored winner is {stored}, the replay gives "
                                         "{replayed}", stored=_text(stored.winner),
                                         replayed=_text(winner)))
    # A match just begun has no summary stored yet.
    if stored.summary != summary and (stored.journal or stored.summary):
        raise damaged(_("its result"), _("the stored score is {stored}, the replay gives "
                                         "{replayed}", stored=repr(str(stored.summary)),
                                         replayed=repr(str(summary))))
    expected = ABANDONED if stored.status == ABANDONED and winner is None else (
        FINISHED if winner is not None else ACTIVE)
    if stored.status != expected:
        raise damaged(_("its status"), _("it is stored as {stored}, the replay gives "
                                         "{replayed}", stored=stored.status,
                                         replayed=expected))


def _text(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
