"""A check of SQLite's write-ahead log, made before SQLite reads it.

SQLite recovers a WAL by reading its frames in order and stopping at the
first frame whose salts or checksum are wrong; every frame after that is
ignored without a word. A torn write after a power cut looks like that, and
ignoring it is right: the transaction was never acknowledged. But a bit
flipped in the middle of the log looks the same to SQLite, and then every
acknowledged change after the flip is silently rolled back.

The two differ in what follows the bad frame. The database runs with
``synchronous=FULL``: a commit returns only after its frames are synced, and
the next transaction writes only after that. So a power cut can only tear
the LAST transaction. Each frame header carries the cumulative checksum up to
and including itself, so a frame can be checked on its own, starting from its
predecessor's stored checksum. If, after the first bad frame, a later
transaction's commit frame still checks out (current salts, checksum
chaining from the frame before), acknowledged history is being thrown away:
that is damage. Frames from an older WAL generation (other salts), left
behind when the log restarted, are normal and ignored.

The header is checked the same way: a damaged header makes SQLite ignore
the whole log, so frames that still chain from it (or whose salts differ
from it by one flipped bit) mean damage, while a header torn as the log
restarted (new salts over the old, already checkpointed frames) does not.

The first bad frame's transaction ends at the first commit frame from it on,
the bad frame included, and a flipped bit may be in that very frame's header.
Whether it was written as a commit frame is told from its checksum (which
covers its page number and size: one bit flipped back that checks out) and,
as the checksum is a plain sum that cannot always say which bit it was, from
the pages around it: SQLite writes a page once per transaction, and every
change writes the version's page, so a page written both before and after
the bad frame puts a commit between them. The changes lost are the commit
frames from the damage on.

Limit: a flip inside the last transaction's own frames cannot be told from a
torn write; at most that last change is lost, as after a power cut.

Format: https://www.sqlite.org/fileformat2.html#walformat
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

from companion.i18n import N_, _

_MAGIC = (0x377F0682, 0x377F0683)  # the low bit: checksums in big-endian words
#: Bytes in the log's header, before the first frame.
HEADER, _FRAME_HEADER = 32, 24
_MASK = 0xFFFFFFFF


def _checksum(data: bytes, s0: int, s1: int, big_endian: bool) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes) continued from (s0, s1):
    for each pair of 32-bit words (a, b), s0 += a + s1, then s1 += b + s0, modulo 2**32."""
    # A restart after a power cut checks every frame of the log, thousands of pages: four
    # pairs a turn straight from the bytes, masked once a turn (the sums only add, so
    # their low 32 bits come out the same), 30% faster than a pair a turn. A page is a
    # multiple of 32 bytes; the rest (a frame header's 8) goes a pair at a time.
    end = len(data) - len(data) % 32
    whole = memoryview(data)
    for a0, b0, a1, b1, a2, b2, a3, b3 in struct.iter_unpack(">8I" if big_endian else "<8I",
                                                               whole[:end]):
        s0 += a0 + s1
        s1 += b0 + s0
        s0 += a1 + s1
        s1 += b1 + s0
        s0 += a2 + s1
        s1 += b2 + s0
        s0 += a3 + s1
        s1 += b3 + s0
        s0 &= _MASK
        s1 &= _MASK
    for a, b in struct.iter_unpack(">II" if big_endian else "<II", whole[end:]):
        s0 = (s0 + a + s1) & _MASK
        s1 = (s1 + b + s0) & _MASK
    return s0, s1


def _page_size(field: int) -> int | None:
    size = 65536 if field == 1 else field
    return size if 512 <= size <= 65536 and size & (size - 1) == 0 else None


def db_page_size(db: Path) -> int | None:
    """The page size in a database file's header, or None if it cannot be read."""
    try:
        with open(db, "rb") as f:
            head = f.read(18)
    except OSError:
        return None
    if len(head) < 18:
        return None
    return _page_size(struct.unpack(">H", head[16:18])[0])


@dataclass(frozen=True)
class Damage:
    """Damage found in a WAL file: what it is, and what is intact before it."""

    #: In words: which frame, and what SQLite would silently drop.
    reason: str
    #: How many bytes at the start of the file are intact: the header and every
    #: transaction committed before the damage (0: not even the header).
    intact: int
    #: How many committed transactions (changes) follow the damage, the damaged one included.
    lost: int


def schema_in_log(db: Path) -> bool:
    """Whether the database file ``db`` holds no schema yet (its header's schema cookie is
    0): then the transaction that made the schema is in the log, not in the file."""
    try:
        with open(db, "rb") as f:
            head = f.read(44)
    except OSError:
        return True
    return len(head) < 44 or struct.unpack(">I", head[40:44])[0] == 0


def damage(wal: Path, fallback_page_size: int | None = None) -> str | None:
    """What is wrong with the WAL file ``wal``, or None if SQLite will read all it should.

    :func:`find` tells more: what is intact before the damage.
    """
    found = find(wal, fallback_page_size)
    return None if found is None else found.reason


def find(wal: Path, fallback_page_size: int | None = None) -> Damage | None:
    """The damage in the WAL file ``wal``, or None if SQLite will read all it should.

    None too when there is no such file, it is empty, or only its last
    transaction is incomplete (a torn write after a power cut). A Damage says
    in words what acknowledged history SQLite would drop, how much of the file
    is intact before it and how many changes follow. ``fallback_page_size``
    (the database's) is used when the WAL header's own is unreadable.
    Reads the whole file: call it before SQLite opens the database, which
    would otherwise recover and then checkpoint the damage away.
    """
    try:
        data = wal.read_bytes()
    except FileNotFoundError:
        return None
    if len(data) <= HEADER:
        return None  # no frame yet: nothing was ever committed in it
    magic, _version, size_field, _ckpt, salt1, salt2, c0, c1 = struct.unpack(
        ">8I", data[:HEADER])
    header_ok = magic in _MAGIC and _page_size(size_field) is not None
    orders = [magic == _MAGIC[1]] if magic in _MAGIC else [True, False]
    page_size = _page_size(size_field) or fallback_page_size
    # Unknown (a damaged header over a database never checkpointed): each
    # size is tried; frames only check out with the right one.
    sizes = [page_size] if page_size else [512 << k for k in range(8)]
    if not header_ok or _checksum(data[:24], 0, 0, orders[0]) != (c0, c1):
        header_ok = False
        # A header torn by a power cut as the log restarted holds new salts
        # (salt-1 plus one, a new random salt-2) over old frames: those do
        # not match it, and no alarm is raised. Frames whose salts differ
        # from the header's by a single bit are this log's, under a flipped bit.
        first = struct.unpack(">2I", data[HEADER + 8:HEADER + 16])
        if ((first[0] ^ salt1).bit_count() + (first[1] ^ salt2).bit_count()) == 1:
            salt1, salt2 = first
    for size in sizes:
        if len(data) < HEADER + _FRAME_HEADER + size:
            continue  # not one whole frame: nothing was ever committed in it
        for big_endian in orders:
            found = _scan(data, size, salt1, salt2, (c0, c1), big_endian, header_ok)
            if found:
                return found
    return None


def _explained(frame: bytes, previous: tuple[int, int], big_endian: bool
               ) -> tuple[list[tuple[int, int]], tuple[tuple[int, int], ...]]:
    """For a frame that fails its checksum, if one bit flipped: the (page number, database
    size after commit) it may have been written with, and the cumulative checksums the
    next frame may chain from.

    The checksum covers the frame's page number, that size and its page, and
    the frame stores the sum itself. A flip in the page number or size is one
    of 64 bits that, flipped back, checks out: each such is a candidate. The
    stored pair is one too (a flip in the page, a salt or the stored sum, or
    more than one bit): the checksum is a plain sum, so a flipped high bit
    in the page can look like one in the size. The next frame chains from
    the stored sum, or, if the computed one is one bit off it, from either.
    """
    stored = struct.unpack(">2I", frame[16:24])
    written = [struct.unpack(">2I", frame[:8])]
    page = frame[_FRAME_HEADER:]
    head = int.from_bytes(frame[:8], "big")
    for bit in range(64):
        mended = (head ^ (1 << bit)).to_bytes(8, "big")
        if _checksum(mended + page, *previous, big_endian) == stored:
            written.append(struct.unpack(">2I", mended))
    computed = _checksum(frame[:8] + page, *previous, big_endian)
    one_bit = ((computed[0] ^ stored[0]).bit_count() + (computed[1] ^ stored[1]).bit_count()
               == 1)
    return written, ((stored, computed) if one_bit else (stored,))


def _ends_transaction(written: list[tuple[int, int]], left: list[int], right: list[int]
                      ) -> bool:
    """Whether the first bad frame was written as a commit frame.

    ``written``: what its page number and size may have been (:func:`_explained`);
    ``left``: the page numbers of the frames between the last good commit and
    it; ``right``: those after it, up to the next commit frame. SQLite writes
    a page once per transaction, in page order, and every change writes the
    page of ``meta`` (the version): a page both left and right of the bad
    frame puts a commit between them, which can only be the bad frame; a
    transaction on the left without one is still open. With nothing on the
    left, the candidates decide if they agree; if not (the size's flip
    cannot be told from one in the page), the bad frame is a one-page
    transaction, whose page the next one writes too, or the first of a
    longer one, whose pages the rest of it does not repeat.
    """
    if set(left) & set(right):
        return True
    if left:
        return False
    commits = {bool(size) for _page, size in written}
    if len(commits) == 1:
        return commits.pop()
    return written[0][0] in right


def _scan(data: bytes, page_size: int, salt1: int, salt2: int, start: tuple[int, int],
          big_endian: bool, header_ok: bool) -> Damage | None:
    """Walk the frames; Damage if a checked commit follows the first bad frame's transaction.

    That transaction (the one a power cut may have torn) ends at the first
    commit frame from the bad frame on, the bad frame included: its own
    header may be what is damaged, so whether it is a commit frame is taken
    as it was written (:func:`_ends_transaction`). Each commit frame from the
    bad one on is a change SQLite would drop.
    """
    frame_size = _FRAME_HEADER + page_size
    count = (len(data) - HEADER) // frame_size
    # The cumulative checksums the next frame of this log may chain from.
    seeds: tuple[tuple[int, int], ...] = (start,)
    first_bad: int | None = None if header_ok else -1   # -1: the header itself
    last_good_commit = 0
    written: list[tuple[int, int]] = []   # what the first bad frame may have been written as
    left: list[int] = []    # the pages written since the last good commit, before the bad frame
    right: list[int] = []   # the pages after the bad frame, up to the next commit frame
    after: list[bool] = []  # each commit frame after the bad one: whether it checks out
    for i in range(count):
        at = HEADER + i * frame_size
        frame = data[at:at + frame_size]
        page, db_size, f_salt1, f_salt2, f0, f1 = struct.unpack(">6I", frame[:24])
        exact = (f_salt1, f_salt2) == (salt1, salt2)
        # Only a frame with this log's salts is part of it; leftovers of an older
        # generation are not, and their stored checksums mean nothing here. A
        # frame whose salts are one bit off is this log's, under a flipped bit.
        if not exact and (f_salt1 ^ salt1).bit_count() + (f_salt2 ^ salt2).bit_count() != 1:
            continue
        body = frame[:8] + frame[_FRAME_HEADER:]
        ok = exact and page != 0 and any(
            _checksum(body, *seed, big_endian) == (f0, f1) for seed in seeds)
        if first_bad is None and not ok:
            first_bad = i
            written, seeds = _explained(frame, seeds[0], big_endian)
            continue
        seeds = ((f0, f1),)
        if first_bad is None:
            if db_size:
                last_good_commit = i + 1
                left.clear()
            else:
                left.append(page)
            continue
        if not after:
            right.append(page)
        if db_size:
            after.append(ok)
    if first_bad is None:
        return None
    # The commit frames the damage takes, and those of them after the first bad
    # frame's transaction that check out: a power cut cannot have torn those.
    bad_commit = first_bad != -1 and bool(after) and _ends_transaction(written, left, right)
    lost = bad_commit + len(after)
    checked = sum(after[0 if bad_commit or first_bad == -1 else 1:])
    if checked >= 1:
        where = (_("its header") if first_bad == -1
                 else _("frame {number} of {count}", number=first_bad + 1, count=count))
        reason = _("{where} fails its checksum, and {transactions} from it on would be "
                   "silently dropped (SQLite keeps only {frames} before it)", where=where,
                   transactions=N_("{n} committed transaction", "{n} committed transactions",
                                   lost),
                   frames=N_("the {n} frame", "the {n} frames", last_good_commit))
        intact = 0 if first_bad == -1 else HEADER + last_good_commit * frame_size
        return Damage(reason, intact, lost)
    return None


FRAME_HEADER = _FRAME_HEADER


def page_size(field: int) -> int | None:
    """The page size a header's 2- or 4-byte field gives (1: 65536), or None if it is none."""
    return _page_size(field)


def frames(data: bytes, page_size: int) -> list[tuple[int, int, bool]]:
    """The frames of the log ``data`` whose pages can be trusted, as (page number, frame
    index, of the current generation): each checks out, its checksum chained from the
    stored one of the frame before it (so a damaged frame loses itself only, never the
    frames after it), and a commit frame that checks out follows it in its generation
    (a transaction a power cut tore was never acknowledged). Frames of an older
    generation (other salts) are given as such: older than the database file."""
    if len(data) < HEADER:
        return []
    magic, _v, _size, _ckpt, salt1, salt2, c0, c1 = struct.unpack(">8I", data[:HEADER])
    big_endian = magic != _MAGIC[0]
    frame_size = _FRAME_HEADER + page_size
    count = (len(data) - HEADER) // frame_size
    header_ok = magic in _MAGIC and _checksum(data[:24], 0, 0, big_endian) == (c0, c1)
    good: list[tuple[int, int, bool, bool]] = []   # page, index, current, commit
    previous: tuple[int, int, int, int] | None = None   # the frame before: salts and stored sums
    for i in range(count):
        at = HEADER + i * frame_size
        frame = data[at:at + frame_size]
        page, db_size, f1, f2, s0, s1 = struct.unpack(">6I", frame[:24])
        current = (f1, f2) == (salt1, salt2)
        if previous is not None and previous[:2] == (f1, f2):
            seed: tuple[int, int] | None = (previous[2], previous[3])
        else:
            seed = (c0, c1) if current and header_ok and i == 0 else None
        previous = (f1, f2, s0, s1)
        if seed is None or page == 0:
            continue
        if _checksum(frame[:8] + frame[_FRAME_HEADER:], *seed, big_endian) == (s0, s1):
            good.append((page, i, current, db_size != 0))
    out, committed = [], {True: False, False: False}
    for page, i, current, commit in reversed(good):
        committed[current] = committed[current] or commit
        if committed[current]:
            out.append((page, i, current))
    return out[::-1]
