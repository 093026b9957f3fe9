"""Bringing back what a damaged match database's journal holds (``companion salvage``).

The journal holds every match whole: its start record (entry 0), each
event, undo and redo, and its ending when it was abandoned
(companion/store.py). :func:`read` finds every journal entry and match row
the damaged files still hold, page by page (:mod:`companion.pages`: a damaged
page, the root of a table or page 1 included, loses only what lies on it;
the write-ahead log's frames that check out count too). :func:`salvage` then
replays each match through the rules (companion/integrity.py), entry by
entry, as far as its entries follow one another and the rules take them, and
copies it into a store, unless the store holds it already (a match begun at
the same moment: a salvage run twice adds nothing). What could not be brought
back is said: a match whose start record no page holds, entries after a gap or
a refusal.

Nothing here writes to the damaged files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import pages
from companion.catalog import Catalog
from companion.errors import CompanionError, StoreDamaged
from companion.i18n import C_, N_, Text, _
from companion.integrity import replay_stored
from companion.standings import standing
from companion.store import ABANDONED, ACTIVE, FINISHED, Restored, Store, StoredMatch

OPS = ("start", "event", "undo", "redo", "end")
STATUSES = (ACTIVE, FINISHED, ABANDONED)
#: A match's status in a person's words.
STATUS_WORDS = {ACTIVE: C_("status", "active"), FINISHED: C_("status", "finished"),
                ABANDONED: C_("status", "abandoned")}


@dataclass
class Found:
    """What the damaged files hold: the newest copy of each row."""

    #: (match id, seq) -> (rank, op, event text, at)
    journal: dict[tuple[int, int], tuple[Any, str, str | None, float]] = field(
        default_factory=dict)
    #: match id -> (rank, game, start text, status, started_at, updated_at)
    matches: dict[int, tuple[Any, str, str, str, float, float]] = field(default_factory=dict)
    #: meta key -> (rank, value)
    meta: dict[str, tuple[Any, int]] = field(default_factory=dict)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def read(db: Path) -> Found:
    """The rows of the damaged database file ``db`` (and its ``-wal``), told apart by
    their shape: a journal entry, a match, a meta value."""
    found = Found()

    def keep(table: dict[Any, Any], key: Any, row: tuple[Any, ...]) -> None:
        if key not in table or table[key][0] <= row[0]:
            table[key] = row

    for cell in pages.read(db):
        v = cell.values
        if cell.kind == "index" and len(v) == 5 and isinstance(v[0], int) and isinstance(
                v[1], int) and v[2] in OPS and (v[3] is None or isinstance(v[3], str)) \
                and _number(v[4]) and v[0] > 0 and v[1] >= 0:
            keep(found.journal, (v[0], v[1]), (cell.rank, v[2], v[3], float(v[4])))
        elif cell.kind == "table" and len(v) in (8, 9) and v[0] is None and isinstance(
                v[1], str) and isinstance(v[2], str) and v[3] in STATUSES \
                and _number(v[6]) and _number(v[7]) and cell.rowid is not None \
                and cell.rowid > 0:
            keep(found.matches, cell.rowid, (cell.rank, v[1], v[2], v[3], float(v[6]),
                                             float(v[7])))
        elif cell.kind == "table" and len(v) == 2 and v[0] in ("version", "roster") \
                and isinstance(v[1], int):
            keep(found.meta, v[0], (cell.rank, v[1]))
    return found


@dataclass(frozen=True)
class Back:
    """A match brought back (or found in the store already)."""

    id: int
    game: str
    #: The game's name (its id for a game the catalog does not know).
    title: str
    players: tuple[str, ...]
    #: Its journal entries brought back, and those seen after them that could not be.
    entries: int
    missing: int
    status: str
    #: Why its entries stop where they do ("": they do not; a marked message).
    why: str = ""


@dataclass
class Report:
    """What a salvage brought back and what it could not."""

    back: list[Back] = field(default_factory=list)
    already: list[int] = field(default_factory=list)
    #: (match id, why) of the matches that could not be brought back at all.
    lost_matches: list[tuple[int, Text]] = field(default_factory=list)
    #: The changes the copy acknowledged (None: its version could not be read), and those
    #: brought back (in this salvage or in the store already).
    acknowledged: int | None = None
    changes: int = 0

    @property
    def lost(self) -> int | None:
        """Acknowledged changes not brought back (None: not known); an imported match was
        one change and counts as more, so this errs towards too few."""
        if self.acknowledged is None or self.acknowledged < self.changes:
            return None
        return self.acknowledged - self.changes

    def lines(self) -> list[Text]:
        """The report in words, a line each (marked messages: :func:`translate` says
        them in a language, ``str()`` in English)."""
        out = []
        for b in self.back:
            line = N_("match {id} ({title}: {players}): {n} entry, {status}",
                      "match {id} ({title}: {players}): {n} entries, {status}", b.entries,
                      id=b.id, title=b.title, players=" v ".join(b.players),
                      status=STATUS_WORDS.get(b.status, b.status))
            if b.missing or b.why:
                line = _("{line}; {why}", line=line, why=b.why or _(
                    "the entries after it could not be read"))
            out.append(line)
        for match_id, why in self.lost_matches:
            out.append(_("match {id} could not be brought back: {why}", id=match_id,
                         why=why))
        if self.already:
            out.append(_("{count} match(es) were in the database already",
                         count=len(self.already)))
        lost = _("an unknown number of") if self.lost is None else str(self.lost)
        out.append(_("{count} match(es) brought back; {lost} acknowledged change(s) are "
                     "lost", count=len(self.back), lost=lost))
        return out


def _entries(found: Found, match_id: int) -> tuple[list[tuple[int, str, Any, float]], int]:
    """The match's entries 1, 2, 3... as long as they follow one another, decoded; and how
    many entries were seen after a gap."""
    seqs = sorted(seq for m, seq in found.journal if m == match_id and seq > 0)
    out: list[tuple[int, str, Any, float]] = []
    for seq in seqs:
        if seq != len(out) + 1:
            break
        _rank, op, text, at = found.journal[(match_id, seq)]
        try:
            event = None if text is None else json.loads(text)
        except ValueError:
            break
        if op == "start" or (op == "end" and event is not None):
            break
        out.append((seq, op, event, at))
        if op == "end":
            break
    return out, len(seqs) - len(out)


def _replayed(match_id: int, start: dict[str, Any], entries: list[tuple[int, str, Any, float]],
              where: str, catalog: Catalog) -> tuple[Any, int, str]:
    """The match replayed through the rules as far as they take its entries: (match, how
    many entries, why it stopped or "")."""
    plays = [(op, event) for _seq, op, event, _at in entries if op != "end"]
    why = ""
    while True:
        stored = StoredMatch(match_id, start, ACTIVE, tuple(plays), 0.0, database=where)
        try:
            return replay_stored(stored, catalog, check_result=False), len(plays), why
        except StoreDamaged as err:
            if not err.entry:
                raise
            why = _("entry {entry} is refused by the rules ({reason})", entry=err.entry,
                    reason=err.reason)
            plays = plays[:err.entry - 1]


def salvage(damaged: Path, store: Store, catalog: Catalog) -> Report:
    """Bring back into ``store`` every match the journal of the damaged database file
    ``damaged`` replays through the rules of ``catalog``'s games, as far as it can; a
    report of what came back and what not."""
    found = read(damaged)
    report = Report()
    report.acknowledged = found.meta["version"][1] if "version" in found.meta else None
    ids = sorted({m for m, _ in found.journal} | set(found.matches))
    newest = max(ids, default=0)
    known = {m.started_at: m.id for m in store.history()}
    for match_id in ids:
        starts = []
        if (match_id, 0) in found.journal and found.journal[(match_id, 0)][1] == "start":
            starts.append(found.journal[(match_id, 0)][2])
        row = found.matches.get(match_id)
        if row is not None:
            starts.append(row[2])
        entries, gap = _entries(found, match_id)
        best = None
        for text in starts:
            try:
                start = json.loads(text or "")
                match, played, why = _replayed(match_id, start, entries, str(damaged), catalog)
            except (ValueError, CompanionError):
                continue
            if best is None or played > best[2]:
                best = (start, match, played, why)
        if best is None:
            seen = sum(1 for m, s in found.journal if m == match_id and s > 0)
            report.lost_matches.append((match_id, _(
                "no page holds its start record ({count} journal entries seen)", count=seen)
                if not starts else _("its start record is refused by the rules")))
            continue
        start, match, played, why = best
        kept = entries[:played]
        ended = len(entries) > played and entries[played][1] == "end" and not why
        winner = match.game.winner(match.state)
        if winner is not None:
            status = FINISHED
        elif ended or (row is not None and row[3] == ABANDONED) or match_id != newest:
            status = ABANDONED  # a later match was begun: this one was ended
        else:
            status = ACTIVE
        started_at = found.journal[(match_id, 0)][3] if (match_id, 0) in found.journal \
            else row[4] if row is not None else 0.0
        last = [at for _s, _op, _e, at in kept] + ([entries[played][3]] if ended else [])
        updated_at = last[-1] if last else (row[5] if row is not None else started_at)
        changes = 1 + played + (status == ABANDONED)
        report.changes += changes
        missing = len(entries) - played - ended + gap
        if started_at in known:
            report.already.append(known[started_at])
            continue
        view = match.view()
        restored = Restored(
            id=match_id, game=start["game"], start=start, status=status,
            winner=winner, summary=match.game.summary(match.state),
            started_at=started_at, updated_at=updated_at,
            standing=None if winner is None else standing(catalog.kit(start["game"]), view),
            journal=[(op, event, at) for _seq, op, event, at in kept],
            ended_at=(entries[played][3] if ended else updated_at)
            if status == ABANDONED else None)
        new_id = store.restore(restored)
        report.back.append(Back(new_id, start["game"], catalog.title(start["game"]),
                                tuple(start["players"]), played,
                                missing, status, why))
    if "roster" in found.meta:
        report.changes += found.meta["roster"][1]
    return report

