"""Memory given back to the system after a load (web/memory.py), where the C library is glibc."""

from __future__ import annotations

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
