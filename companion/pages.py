"""The rows a damaged SQLite database still holds, read from its pages without SQLite.

When a page that SQLite needs to reach a table is damaged (the root page of a
table, an interior page, page 1 with the schema), SQLite reads none of that
table, although every other page of it is whole. Here every page of the file,
and every page of its write-ahead log that checks out, is read on its own as
the file format describes (https://www.sqlite.org/fileformat2.html): each leaf
page of a table or an index gives its cells' records (overflow chains
followed). Which table a record belongs to is for the caller to tell from its
shape; nothing here trusts what it reads beyond the format (a damaged page
gives no cell, or cells the caller's checks refuse).

Each cell comes with its page's recency: a frame of the log's current
generation is newer than the file's page, a later frame newer than an earlier
one; the file's pages are newer than frames a restarted log left behind.
Pages on the file's freelist hold nothing live and are left out.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import wal

#: The b-tree page types read: a table's leaf (rowid, record) and an index's leaf and
#: interior pages (records, a WITHOUT ROWID table's rows too: an index's interior cells
#: are rows no leaf repeats).
TABLE_LEAF, INDEX_LEAF, INDEX_INTERIOR, TABLE_INTERIOR = 0x0D, 0x0A, 0x02, 0x05
_HEADER = 100


@dataclass(frozen=True)
class Cell:
    """One record found on a leaf page."""

    #: ``"table"`` (with its ``rowid``) or ``"index"``.
    kind: str
    rowid: int | None
    values: tuple[Any, ...]
    #: How recent the page it was read from is: higher is newer.
    rank: tuple[int, int]
    page: int


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """SQLite's variable-length integer at ``at``: (value, next offset)."""
    value = 0
    for i in range(8):
        byte = data[at + i]
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + i + 1
    return (value << 8) | data[at + 8], at + 9


def _record(payload: bytes) -> tuple[Any, ...]:
    """The values of a record (format 4); ValueError when it is not one."""
    size, at = _varint(payload, 0)
    if not 0 < size <= len(payload):
        raise ValueError("record header out of bounds")
    types: list[int] = []
    while at < size:
        kind, at = _varint(payload, at)
        types.append(kind)
    body = size
    values: list[Any] = []
    for kind in types:
        if kind == 0:
            values.append(None)
        elif kind in (8, 9):
            values.append(kind - 8)
        elif 1 <= kind <= 6:
            width = (1, 2, 3, 4, 6, 8)[kind - 1]
            values.append(int.from_bytes(payload[body:body + width], "big", signed=True))
            body += width
        elif kind == 7:
            values.append(struct.unpack(">d", payload[body:body + 8])[0])
            body += 8
        elif kind >= 12:
            width = (kind - 12) // 2
            raw = payload[body:body + width]
            values.append(raw.decode("utf-8") if kind % 2 else raw)
            body += width
        else:
            raise ValueError(f"serial type {kind}")
        if body > len(payload):
            raise ValueError("record body out of bounds")
    return tuple(values)


class _Pages:
    """Page images by number and recency; overflow pages are looked up in the newest image
    no newer than the cell's own page."""

    def __init__(self, usable: int) -> None:
        self.usable = usable
        self.images: dict[int, list[tuple[tuple[int, int], bytes]]] = {}

    def add(self, number: int, rank: tuple[int, int], data: bytes) -> None:
        self.images.setdefault(number, []).append((rank, data))

    def at(self, number: int, rank: tuple[int, int]) -> bytes | None:
        found = [(r, d) for r, d in self.images.get(number, ()) if r <= rank]
        return max(found, key=lambda rd: rd[0])[1] if found else None

    def payload(self, local: bytes, overflow: int, total: int, rank: tuple[int, int]) -> bytes:
        out, seen = bytearray(local), set()
        while len(out) < total:
            if overflow in seen or overflow == 0:
                raise ValueError("overflow chain broken")
            seen.add(overflow)
            page = self.at(overflow, rank)
            if page is None:
                raise ValueError(f"overflow page {overflow} missing")
            overflow = int.from_bytes(page[:4], "big")
            out += page[4:self.usable][:total - len(out)]
        return bytes(out)


def _local(kind: int, total: int, usable: int) -> int:
    """How much of a cell's payload of ``total`` bytes lies on its page."""
    most = usable - 35 if kind == TABLE_LEAF else (usable - 12) * 64 // 255 - 23
    if total <= most:
        return total
    least = (usable - 12) * 32 // 255 - 23
    k = least + (total - least) % (usable - 4)
    return k if k <= most else least


def _cells(pages: _Pages, number: int, data: bytes, rank: tuple[int, int]) -> Iterator[Cell]:
    start = _HEADER if number == 1 else 0
    kind = data[start]
    if kind not in (TABLE_LEAF, INDEX_LEAF, INDEX_INTERIOR):
        return
    count = int.from_bytes(data[start + 3:start + 5], "big")
    usable = pages.usable
    head = start + (12 if kind == INDEX_INTERIOR else 8)
    if count > usable // 4:
        return
    for i in range(count):
        pointer = head + 2 * i
        at = int.from_bytes(data[pointer:pointer + 2], "big")
        if not head + 2 * count <= at < usable:
            continue
        try:
            if kind == INDEX_INTERIOR:
                at += 4  # the left child's page number
            total, at = _varint(data, at)
            rowid = None
            if kind == TABLE_LEAF:
                rowid, at = _varint(data, at)
                rowid = rowid - (1 << 64) if rowid >= 1 << 63 else rowid
            local = _local(TABLE_LEAF if kind == TABLE_LEAF else INDEX_LEAF, total, usable)
            payload = data[at:at + local]
            if local < total:
                overflow = int.from_bytes(data[at + local:at + local + 4], "big")
                payload = pages.payload(payload, overflow, total, rank)
            if len(payload) != total:
                continue
            values = _record(payload)
        except (IndexError, ValueError, UnicodeDecodeError, struct.error):
            continue  # a damaged cell: the others of the page may still read
        yield Cell("table" if kind == TABLE_LEAF else "index", rowid, values, rank, number)


def _page_size(db: bytes, log: bytes) -> tuple[int, int]:
    """(page size, reserved bytes per page) from the file's header, else the log's, else
    the size whose pages most often begin as b-tree pages do."""
    size = wal.page_size(int.from_bytes(db[16:18], "big")) if len(db) >= 100 else None
    if size is not None and db[:16] == b"SQLite format 3\x00":
        return size, db[20]
    if len(log) >= wal.HEADER:
        size = wal.page_size(int.from_bytes(log[8:12], "big"))
        if size is not None:
            return size, 0

    def looks_right(size: int) -> float:
        """The share of the places a page of ``size`` would begin at that begin as a b-tree
        page does (its type, its cell count and content offset within the page)."""
        starts = range(0, len(db) - 8, size)
        good = sum(db[at] in (INDEX_INTERIOR, TABLE_INTERIOR, INDEX_LEAF, TABLE_LEAF)
                   and int.from_bytes(db[at + 3:at + 5], "big") < size // 4
                   and 0 < int.from_bytes(db[at + 5:at + 7], "big") <= size
                   for at in starts)
        return good / max(1, len(starts))

    return max((512 << k for k in range(8)), key=looks_right), 0


def _free(db: bytes, size: int, usable: int) -> set[int]:
    """The page numbers on the file's freelist (none when page 1 cannot say)."""
    if db[:16] != b"SQLite format 3\x00":
        return set()
    pages = len(db) // size
    trunk, free, seen = int.from_bytes(db[32:36], "big"), set(), set()
    while 0 < trunk <= pages and trunk not in seen:
        seen.add(trunk)
        page = db[(trunk - 1) * size:trunk * size]
        count = int.from_bytes(page[4:8], "big")
        if count > (usable - 8) // 4:
            break  # a damaged trunk page: what it lists is not to be believed
        free.add(trunk)
        free.update(int.from_bytes(page[8 + 4 * i:12 + 4 * i], "big") for i in range(count))
        trunk = int.from_bytes(page[:4], "big")
    return free


def read(db_path: Path) -> Iterator[Cell]:
    """Every cell of every leaf page of the database file ``db_path`` and of the frames of
    its ``-wal`` file that check out (their checksum chained from the frame before, in a
    transaction whose commit frame is there), oldest first; none of a free page."""
    try:
        db = db_path.read_bytes()
    except OSError:
        db = b""
    try:
        log = db_path.with_name(db_path.name + "-wal").read_bytes()
    except OSError:
        log = b""
    size, reserved = _page_size(db, log)
    pages = _Pages(size - reserved)
    free = _free(db, size, size - reserved)
    for number in range(1, len(db) // size + 1):
        pages.add(number, (1, 0), db[(number - 1) * size:number * size])
    for number, index, current in wal.frames(log, size):
        pages.add(number, (2 if current else 0, index), log[
            wal.HEADER + index * (wal.FRAME_HEADER + size) + wal.FRAME_HEADER:
            wal.HEADER + (index + 1) * (wal.FRAME_HEADER + size)])
    for number, images in sorted(pages.images.items()):
        if number in free:
            continue
        for rank, data in sorted(images, key=lambda ri: ri[0]):
            yield from _cells(pages, number, data, rank)
