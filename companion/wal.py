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

Limit: a flip inside the last transaction's own frames cannot be told from a
torn write; at most that last change is lost, as after a power cut.

Format: https://www.sqlite.org/fileformat2.html#walformat
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

_MAGIC = (0x377F0682, 0x377F0683)  # the low bit: checksums in big-endian words
#: Bytes in the log's header, before the first frame.
HEADER, _FRAME_HEADER = 32, 24
_MASK = 0xFFFFFFFF


def _checksum(data: bytes, s0: int, s1: int, big_endian: bool) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes) continued from (s0, s1)."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & _MASK
        s1 = (s1 + words[i + 1] + s0) & _MASK
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


def _scan(data: bytes, page_size: int, salt1: int, salt2: int, start: tuple[int, int],
          big_endian: bool, header_ok: bool) -> Damage | None:
    """Walk the frames; a string if a checked commit follows the first bad frame's transaction."""
    frame_size = _FRAME_HEADER + page_size
    count = (len(data) - HEADER) // frame_size
    previous = start          # the stored cumulative checksum before this frame
    first_bad: int | None = None if header_ok else -1   # -1: the header itself
    commits_after_bad = 0
    lost = 0  # commit frames of this log after the damaged one, checked or not
    last_good_commit = 0
    # The database sizes (in pages) the commit frames around the damage record, and the
    # damaged frame's own: a commit's is close to its neighbours', a flipped bit's is not.
    good_size, bad_size, next_size = None, 0, None
    for i in range(count):
        at = HEADER + i * frame_size
        page, db_size, f_salt1, f_salt2, f0, f1 = struct.unpack(">6I", data[at:at + 24])
        ours = (f_salt1, f_salt2) == (salt1, salt2)
        # After the first bad frame only commit frames need their checksum.
        needed = first_bad is None or db_size != 0
        ok = ours and page != 0 and needed and _checksum(
            data[at:at + 8] + data[at + 24:at + frame_size], *previous, big_endian) == (f0, f1)
        # Only a frame with this log's salts is part of it; leftovers of an
        # older generation are not, and their stored checksums mean nothing here.
        if ours:
            previous = (f0, f1)
        if first_bad is None:
            if ok:
                if db_size:
                    last_good_commit, good_size = i + 1, db_size
                continue
            first_bad, bad_size = i, db_size
            continue
        if ours and db_size:
            lost += 1
            next_size = db_size if next_size is None else next_size
        if ok and db_size:
            commits_after_bad += 1
    # The transaction torn by a power cut is the one the first bad frame is
    # in: it may end in a commit frame that checks out. A second one cannot be.
    if commits_after_bad >= 2 or (commits_after_bad == 1 and first_bad == -1):
        where = ("its header" if first_bad == -1
                 else f"frame {first_bad + 1} of {count}")
        reason = (f"{where} fails its checksum, and {commits_after_bad} committed "
                  f"transaction(s) after it would be silently dropped (SQLite keeps only "
                  f"the {last_good_commit} frame(s) before it)")
        intact = 0 if first_bad == -1 else HEADER + last_good_commit * frame_size
        # The damaged frame ends its transaction if it is a commit frame; the bit may
        # have flipped in that very field, so its size is checked against its neighbours'.
        near = next_size if next_size is not None else good_size
        lost += bool(bad_size) and (near is None or abs(bad_size - near) <= 16)
        return Damage(reason, intact, lost)
    return None
