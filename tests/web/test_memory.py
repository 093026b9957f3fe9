"""Memory given back to the system after a load (web/memory.py), where the C library is glibc."""

from __future__ import annotations

import ctypes
import platform
import subprocess
import sys

import pytest

from web.memory import give_back, limit_arenas

glibc = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's malloc only")


@glibc
def test_the_arenas_are_limited_and_free_pages_given_back():
    assert limit_arenas(8) is True  # this process's own default, so no other test notices
    kept = [bytearray(256 * 1024) for _ in range(64)]  # 16 MB: pages of the arenas' heap
    del kept
    assert isinstance(give_back(), bool)


def test_a_table_without_mqtt_never_loads_paho():
    """paho costs ~3 MB of a Pi's memory (6 MB at its import's peak); only a table that
    publishes (drivers/mqtt.py's publisher) or a hall loads it."""
    code = ("import sys, app.cli, app.runtime, app.server, drivers.broker, drivers.mqtt; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'paho'))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, timeout=120).stdout.strip()
    assert loaded == "[]"


@glibc
@pytest.mark.skipif(not hasattr(ctypes.CDLL(None), "mallinfo2"), reason="glibc 2.33 or later")
def test_large_blocks_are_mapped_on_their_own_however_large_the_ones_freed_before():
    # glibc raises its threshold to each mapped block freed: after a 4 MB answer is let go,
    # blocks of 256 KB would come from the arenas' heap, where small blocks made meanwhile
    # keep its pages. Fixed, each is a mapping of its own, unmapped when freed.
    code = """if True:
        import ctypes
        from web.memory import map_large

        class Info(ctypes.Structure):
            _fields_ = [(name, ctypes.c_size_t) for name in (
                "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                "uordblks", "fordblks", "keepcost")]

        mallinfo2 = ctypes.CDLL(None).mallinfo2
        mallinfo2.restype = Info
        print(map_large())
        answer = bytearray(4 << 20)
        del answer
        before = mallinfo2().hblks
        kept = [bytearray(256 << 10) for _ in range(8)]
        print(mallinfo2().hblks - before)
    """
    took, mapped = subprocess.run([sys.executable, "-c", code], capture_output=True,
                                  text=True, check=True, timeout=120).stdout.split()
    assert took == "True" and int(mapped) == 8
