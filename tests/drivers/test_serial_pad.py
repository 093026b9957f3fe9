"""The serial pad over a real pty and pyserial's loop://: protocol, garbage, unplug."""

from __future__ import annotations

import os
import pty
import queue
import select
import time
from pathlib import Path

import pytest

from companion.inputs import Input
from companion.table import Snapshot
from drivers.serial_pad import SerialPad, parse

SNAPSHOT = Snapshot(7, {"id": 1, "game": "center-court", "players": ["Ann", "Bob"],
                        "options": {}, "status": "active", "can_undo": False,
                        "can_redo": False, "legal": [], "turn": [1], "view": {"x": "é"}})


class Pty:
    """A pty pair whose device end is reached through a link, like a USB port's name."""

    def __init__(self, link: Path) -> None:
        self.controller, self._device = pty.openpty()
        if link.is_symlink():
            link.unlink()
        link.symlink_to(os.ttyname(self._device))
        self.buffer = b""

    def write(self, data: bytes) -> None:
        os.write(self.controller, data)

    def read_line(self, timeout: float = 3.0) -> bytes:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            assert left > 0, f"no line from the pad; got {self.buffer!r}"
            ready, _, _ = select.select([self.controller], [], [], left)
            if ready:
                self.buffer += os.read(self.controller, 4096)
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def unplug(self) -> None:
        os.close(self.controller)
        os.close(self._device)


@pytest.fixture
def link(tmp_path):
    return tmp_path / "ttyPAD"


def wait_for(predicate, timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not met in time"
        select.select([], [], [], 0.01)


@pytest.mark.parametrize(("line", "expected"), [
    (b"TAP ok\n", Input("ok")),
    (b"tap Seat3\r\n", Input("seat3")),
    (b"HOLD back\n", Input("back", hold=True)),
    (b"S2\n", Input("seat2")),
    (b"PING\n", "PING"),
    (b"\n", ""),
    (b"TAP turbo\n", None),
    (b"S5\n", None),
    (b"TAP\n", None),
    (b"HELLO there\n", None),
    (b"\xff\xfe\n", None),
    (b"TAP ok " + b"x" * 80 + b"\n", None),
])
def test_parse(line, expected):
    assert parse(line) == expected


def test_taps_in_and_state_out_over_a_pty(link):
    end = Pty(link)
    inputs = queue.Queue()
    pad = SerialPad(str(link), inputs.put, snapshot=SNAPSHOT)
    try:
        assert pad.connected.wait(3)
        first = end.read_line()
        assert first.startswith(b"STATE 7 {") and b'"x":"\\u00e9"' in first
        assert end.read_line() == b"TURN 2"
        end.write(b"TAP ok\nS1\n")
        assert inputs.get(timeout=3) == Input("ok")
        assert inputs.get(timeout=3) == Input("seat1")
        end.write(b"PING\n")
        assert end.read_line() == b"PONG"
        pad.show(Snapshot(8, None))
        assert end.read_line() == b'STATE 8 {"version":8,"epoch":0,"match":null}'
        assert end.read_line() == b"TURN -"
    finally:
        pad.close()
        pad.close()
        end.unplug()


def test_garbage_is_counted_and_ignored(link):
    end = Pty(link)
    inputs = queue.Queue()
    pad = SerialPad(str(link), inputs.put)
    try:
        assert pad.connected.wait(3)
        end.write(b"\xff\xfe\xfd\nFOO\n" + b"A" * 300 + b"\nTAP sideways\n\n")
        end.write(b"TAP next\n")
        assert inputs.get(timeout=3) == Input("next")
        assert pad.garbage == 4
        assert inputs.empty()
    finally:
        pad.close()
        end.unplug()


def test_unplug_and_replug_reconnects_and_resends_the_state(link):
    end = Pty(link)
    inputs = queue.Queue()
    pad = SerialPad(str(link), inputs.put, snapshot=SNAPSHOT)
    try:
        assert pad.connected.wait(3)
        assert end.read_line().startswith(b"STATE 7")
        end.unplug()
        wait_for(lambda: not pad.connected.is_set())
        pad.show(Snapshot(9, None))  # changes while unplugged are not lost
        end = Pty(link)
        wait_for(lambda: pad.connections == 2, timeout=5)
        assert end.read_line() == b'STATE 9 {"version":9,"epoch":0,"match":null}'
        end.write(b"S4\n")
        assert inputs.get(timeout=3) == Input("seat4")
    finally:
        pad.close()
        end.unplug()


def test_loop_url_reads_back_what_it_writes():
    # loop:// echoes our own scoreboard lines back: they are not inputs, so
    # they count as garbage, and nothing breaks.
    inputs = queue.Queue()
    pad = SerialPad("loop://", inputs.put, snapshot=SNAPSHOT)
    try:
        assert pad.connected.wait(3)
        wait_for(lambda: pad.garbage >= 2)
        assert inputs.empty()
    finally:
        pad.close()


def test_a_port_that_never_appears_is_retried_quietly(tmp_path):
    pad = SerialPad(str(tmp_path / "ttyNOTHING"), lambda inp: None)
    try:
        assert not pad.connected.wait(0.5)
        assert pad.connections == 0
    finally:
        pad.close()
