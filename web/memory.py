"""Giving memory back to the system once a load has passed (the C library's malloc).

CPython keeps its small objects in arenas of its own, which it frees when
they empty; everything larger (an answer's bytes, SQLite's pages, a
compressor's buffers) comes from the C library's ``malloc``. glibc gives
each thread that finds the main arena busy an arena of its own, up to eight
per processor, and keeps what is freed in them for the next allocation:
after 20 s of readers served by the server's sixteen workers the
companion's RSS stayed 35-40 MB above its rest with every answer gone
(tests/bench/bench_reads.py; docs/design.md, "Reads and play"). Two of
glibc's documented calls bound that: ``mallopt(M_ARENA_MAX, n)`` before the
threads start, and ``malloc_trim(0)`` once what was kept is let go.

A third keeps the large blocks (an answer's bytes, the history's columns:
web/reads.py) out of the arenas altogether: glibc maps a block of 128 KB or
more on its own and unmaps it when freed, but by default it raises that
threshold to the size of each mapped block freed, so after the first
history answer (1.4 MB) is let go every block up to that size is carved
from the arenas' heap, where the small blocks made meanwhile keep its pages
from the system (and from ``malloc_trim``) long after the load.
``mallopt(M_MMAP_THRESHOLD, n)`` fixes the threshold: after
``tests/bench/bench_reads.py``'s load the RSS came back to 9.6-10.5% above
its rest, not 12-13%, and its highest under the load was 4-5 MB lower
(docs/design.md, "Reads and play"). With another C library
(musl, macOS) these do nothing.
"""

from __future__ import annotations

import ctypes
import logging

log = logging.getLogger(__name__)

#: mallopt(3)'s parameter number for the most arenas (glibc's malloc.h).
M_ARENA_MAX = -8
#: mallopt(3)'s parameter number for the size from which a block is mapped on its own.
M_MMAP_THRESHOLD = -3
#: Blocks this big or bigger are mapped on their own (glibc's starting value, kept).
MAP_FROM = 128 * 1024
#: Arenas allowed: two threads allocate at once without waiting; the server's
#: workers, the writer and the display share them.
ARENAS = 2


def _glibc() -> ctypes.CDLL | None:
    """This process's C library when it is glibc (it has ``gnu_get_libc_version``)."""
    try:
        libc = ctypes.CDLL(None)
    except OSError:
        return None
    if not all(hasattr(libc, name) for name in ("gnu_get_libc_version", "mallopt",
                                                 "malloc_trim")):
        return None
    return libc


_LIBC = _glibc()


def _mallopt(param: int, value: int, refused: str) -> bool:
    """``mallopt(param, value)``; whether the C library took it (False: not glibc, or
    refused, and then ``refused`` is logged: what stays with the process)."""
    if _LIBC is None:
        return False
    if not _LIBC.mallopt(ctypes.c_int(param), ctypes.c_int(value)):
        log.warning("%s: memory freed after a load of readers may stay with the process",
                    refused)
        return False
    return True


def limit_arenas(arenas: int = ARENAS) -> bool:
    """Let malloc keep at most ``arenas`` arenas; call before the threads start. Whether
    the C library took it (False: not glibc, or refused)."""
    refused = f"malloc refused a limit of {arenas} arenas"  # i18n: not said (a log line)
    return _mallopt(M_ARENA_MAX, arenas, refused)


def map_large(size: int = MAP_FROM) -> bool:
    """Have malloc map every block of ``size`` bytes or more on its own, given back to the
    system as soon as it is freed, however large the blocks freed before (glibc raises
    its threshold otherwise). Whether the C library took it."""
    refused = f"malloc refused to map blocks of {size} bytes on their own"  # i18n: not said
    return _mallopt(M_MMAP_THRESHOLD, size, refused)


def give_back() -> bool:
    """Return the free pages of every malloc arena to the system (``malloc_trim(0)``);
    whether any was returned (False too where the C library is not glibc)."""
    if _LIBC is None:
        return False
    return bool(_LIBC.malloc_trim(ctypes.c_size_t(0)))
