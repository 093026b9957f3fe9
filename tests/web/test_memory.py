"""Memory given back to the system after a load (web/memory.py), where the C library is glibc."""

from __future__ import annotations

import platform

import pytest

from web.memory import give_back, limit_arenas

glibc = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's malloc only")


@glibc
def test_the_arenas_are_limited_and_free_pages_given_back():
    assert limit_arenas(8) is True  # this process's own default, so no other test notices
    kept = [bytearray(256 * 1024) for _ in range(64)]  # 16 MB: pages of the arenas' heap
    del kept
    assert isinstance(give_back(), bool)
