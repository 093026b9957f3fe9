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
threads start, and ``malloc_trim(0)`` once what was kept is let go. With
another C library (musl, macOS) both do nothing.
"""

from __future__ import annotations

import ctypes
import logging

log = logging.getLogger(__name__)

#: mallopt(3)'s parameter number for the most arenas (glibc's malloc.h).
M_ARENA_MAX = -8
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


def limit_arenas(arenas: int = ARENAS) -> bool:
    """Let malloc keep at most ``arenas`` arenas; call before the threads start. Whether
    the C library took it (False: not glibc, or refused)."""
    if _LIBC is None:
        return False
    if not _LIBC.mallopt(ctypes.c_int(M_ARENA_MAX), ctypes.c_int(arenas)):
        log.warning("malloc refused a limit of %d arenas: memory freed after a load of "
                    "readers may stay with the process", arenas)
        return False
    return True


def give_back() -> bool:
    """Return the free pages of every malloc arena to the system (``malloc_trim(0)``);
    whether any was returned (False too where the C library is not glibc)."""
    if _LIBC is None:
        return False
    return bool(_LIBC.malloc_trim(ctypes.c_size_t(0)))
