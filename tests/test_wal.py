"""The WAL check's checksum is SQLite's (https://www.sqlite.org/fileformat2.html#walformat):
checked here against the format's definition, word pair by word pair, for any data and
any starting sums; tests/hostile/test_damaged_storage.py checks it on logs SQLite wrote."""

from __future__ import annotations

import struct

from hypothesis import given
from hypothesis import strategies as st

from companion.wal import _checksum

WORD = 2**32


def by_the_format(data: bytes, s0: int, s1: int, big_endian: bool) -> tuple[int, int]:
    """The format's words: for each pair (x0, x1), s0 += x0 + s1; s1 += x1 + s0, mod 2**32."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) % WORD
        s1 = (s1 + words[i + 1] + s0) % WORD
    return s0, s1


@given(st.integers(0, 80).flatmap(lambda pairs: st.binary(min_size=8 * pairs,
                                                          max_size=8 * pairs)),
       st.integers(0, WORD - 1), st.integers(0, WORD - 1), st.booleans())
def test_the_checksum_is_the_formats(data, s0, s1, big_endian):
    assert _checksum(data, s0, s1, big_endian) == by_the_format(data, s0, s1, big_endian)


def test_a_page_and_a_frame_header():
    page = bytes(range(256)) * 16  # 4 KB, every byte value
    for data in (page, page[:8], page[:520]):
        for big_endian in (True, False):
            assert _checksum(data, 7, 11, big_endian) == by_the_format(data, 7, 11, big_endian)
