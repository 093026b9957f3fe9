"""The serial pad over a real pty and pyserial's loop://: protocol, garbage, unplug."""

from __future__ import annotations

import dataclasses
import json
import linecache
import logging
import os
import pty
import queue
import random
import select
import threading
import time
from pathlib import Path

import pytest
import serial

import drivers.serial_pad
from companion.inputs import Input
from companion.store import Store
from companion.table import Snapshot, Table
from drivers.serial_pad import SerialPad, parse
from tests.support import CATALOG

SNAPSHOT = Snapshot(7, {"id": 1, "game": "center-court", "players": ["Ann", "Bob"],
                        "options": {}, "status": "active", "can_undo": False,
                        "can_redo": False, "legal": [], "turn": [1], "view": {"x": "é"}})


#: How long a test waits for what must come: a bound for a hung thread, not for its speed
#: (on a busy machine a line may take seconds); a passing test never waits it out.
WAIT = 30.0


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

    def read_line(self, timeout: float = WAIT) -> bytes:
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


def wait_for(predicate, timeout: float = WAIT) -> None:
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
    (b"TAP ok" + b" " * 58 + b"\r\n", Input("ok")),  # 64 characters and the line end
    (b"TAP ok" + b" " * 59 + b"\n", None),
])
def test_parse(line, expected):
    assert parse(line) == expected


def test_taps_in_and_state_out_over_a_pty(link):
    end = Pty(link)
    inputs = queue.Queue()
    pad = SerialPad(str(link), inputs.put, snapshot=SNAPSHOT)
    try:
        assert pad.connected.wait(WAIT)
        first = end.read_line()
        assert first.startswith(b"STATE 7 {") and b'"x":"\\u00e9"' in first
        assert end.read_line() == b"TURN 2"
        end.write(b"TAP ok\nS1\n")
        assert inputs.get(timeout=WAIT) == Input("ok")
        assert inputs.get(timeout=WAIT) == Input("seat1")
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
        assert pad.connected.wait(WAIT)
        end.write(b"\xff\xfe\xfd\nFOO\n" + b"A" * 300 + b"\nTAP sideways\n\n")
        end.write(b"TAP next\n")
        assert inputs.get(timeout=WAIT) == Input("next")
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
        assert pad.connected.wait(WAIT)
        assert end.read_line().startswith(b"STATE 7")
        end.unplug()
        wait_for(lambda: not pad.connected.is_set())
        pad.show(Snapshot(9, None))  # changes while unplugged are not lost
        end = Pty(link)
        wait_for(lambda: pad.connections == 2)
        assert end.read_line() == b'STATE 9 {"version":9,"epoch":0,"match":null}'
        end.write(b"S4\n")
        assert inputs.get(timeout=WAIT) == Input("seat4")
    finally:
        pad.close()
        end.unplug()


def held_inside_a_write(held: threading.Event, release: threading.Event):
    """A trace hook for the threads a pad starts: its writer stops inside pyserial's
    ``write`` once, its bytes written, where it is about to wait for the port to drain
    (the moment an unplug caught it in CI), until ``release`` is set. Only the order of
    the threads is forced; the pty and pyserial are the real ones."""
    write = serial.Serial.write.__code__

    def in_write(frame, event, arg):
        if (event == "line" and not held.is_set()
                and "select.select(" in linecache.getline(frame.f_code.co_filename,
                                                          frame.f_lineno)):
            held.set()
            release.wait(10)
        return in_write

    def on_call(frame, event, arg):
        if frame.f_code is write and threading.current_thread().name == "serial-write":
            return in_write
        return None

    return on_call


def test_an_unplug_while_the_writer_is_inside_a_write_loses_no_thread_and_no_state(link):
    end = Pty(link)
    inputs = queue.Queue()
    held, release = threading.Event(), threading.Event()
    previous = threading.gettrace()
    threading.settrace(held_inside_a_write(held, release))
    pad = SerialPad(str(link), inputs.put, snapshot=SNAPSHOT)
    try:
        # A new thread reads the hook only once it runs, maybe after start() has
        # returned: the hook stays set until the writer has shown it took it.
        assert held.wait(WAIT)  # STATE 7 is written; the writer is still inside that write
        threading.settrace(previous)
        assert end.read_line().startswith(b"STATE 7")
        end.unplug()
        wait_for(lambda: not pad.connected.is_set())
        pad.show(Snapshot(9, None))
        end = Pty(link)
        # The reader has dropped the old port and opened the new one, all while the
        # writer was in the middle of its write to the old one.
        wait_for(lambda: pad.connections == 2)
        release.set()
        assert end.read_line() == b'STATE 9 {"version":9,"epoch":0,"match":null}'
        end.write(b"S4\n")
        assert inputs.get(timeout=WAIT) == Input("seat4")
    finally:
        threading.settrace(previous)
        release.set()
        pad.close()
        end.unplug()


def test_closing_while_a_write_is_stuck_on_a_pad_that_reads_nothing_ends_both_threads(link):
    end = Pty(link)
    before = set(threading.enumerate())
    pad = SerialPad(str(link), queue.Queue().put)
    threads = set(threading.enumerate()) - before
    try:
        assert pad.connected.wait(WAIT)
        # Far more than the pty holds: the writer waits inside its write for the pad
        # to read, and the pad reads nothing.
        big = dataclasses.replace(SNAPSHOT, match={**SNAPSHOT.match, "view": {"x": "y" * 2**20}})
        pad.show(big)
        ready, _, _ = select.select([end.controller], [], [], 3)
        assert ready  # the write has begun
        pad.close()
        assert [t.name for t in threads if t.is_alive()] == []
    finally:
        pad.close()
        end.unplug()


def test_loop_url_reads_back_what_it_writes():
    # loop:// echoes our own scoreboard lines back: they are not inputs, so
    # they count as garbage, and nothing breaks.
    inputs = queue.Queue()
    pad = SerialPad("loop://", inputs.put, snapshot=SNAPSHOT)
    try:
        assert pad.connected.wait(WAIT)
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


def pause(seconds: float) -> None:
    """The pad goes quiet mid-line: the hostile behaviour itself, not a synchronisation."""
    threading.Event().wait(seconds)


@pytest.fixture
def pad_on_pty(link):
    end = Pty(link)
    inputs = queue.Queue()
    pad = SerialPad(str(link), inputs.put)
    try:
        assert pad.connected.wait(WAIT)
        yield end, pad, inputs
    finally:
        pad.close()
        end.unplug()


def garbage_logs(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "drivers.serial_pad" and r.levelno == logging.WARNING
            and "ignored" in r.getMessage()]


def test_a_line_split_by_a_pause_is_taken_whole(pad_on_pty):
    end, pad, inputs = pad_on_pty
    end.write(b"TAP ")
    pause(0.8)  # longer than a read waits
    end.write(b"ok\n")
    assert inputs.get(timeout=WAIT) == Input("ok")
    assert pad.garbage == 0


def test_the_end_of_a_line_after_a_pause_is_never_a_command(pad_on_pty, caplog):
    end, pad, inputs = pad_on_pty
    end.write(b"NOISE ")
    pause(0.8)
    end.write(b"S1\n")  # was read as a line of its own: a tap on seat 1
    end.write(b"TAP next\n")
    assert inputs.get(timeout=WAIT) == Input("next")
    assert inputs.empty() and pad.garbage == 1
    assert garbage_logs(caplog) == [
        f"serial pad {pad.url}: ignored b'NOISE S1\\n' (not a command); more garbage is "
        "summed up at most every 60 s"]


def test_a_line_left_unfinished_is_dropped_with_its_end(pad_on_pty, monkeypatch, caplog):
    end, pad, inputs = pad_on_pty
    monkeypatch.setattr(drivers.serial_pad, "PARTIAL_MAX_AGE", 0.3)
    end.write(b"TAP ")  # the pad restarts mid-line...
    wait_for(lambda: pad.garbage == 1)  # counted without waiting for the rest
    end.write(b"ok\nS2\n")  # ...and its end, whenever it comes, is no command
    assert inputs.get(timeout=WAIT) == Input("seat2")
    assert inputs.empty() and pad.garbage == 1
    assert "ignored b'TAP ' (a line unfinished after 0.3 s)" in garbage_logs(caplog)[0]


def test_an_over_long_line_is_garbage_to_its_end_even_after_a_pause(pad_on_pty):
    end, pad, inputs = pad_on_pty
    end.write(b"A" * 200)
    pause(1.2)  # more than two reads' wait
    end.write(b"S1\n")  # still the long line
    end.write(b"S3\n")
    assert inputs.get(timeout=WAIT) == Input("seat3")
    assert inputs.empty() and pad.garbage == 1


def test_a_babbling_pad_is_counted_and_logged_once(pad_on_pty, caplog):
    end, pad, inputs = pad_on_pty
    noise = random.Random(11).randbytes(450_000)
    for at in range(0, len(noise), 4096):
        end.write(noise[at:at + 4096])
    end.write(b"\nTAP next\n")
    assert inputs.get(timeout=WAIT) == Input("next")
    assert inputs.empty()
    assert pad.garbage > 1000
    logged = garbage_logs(caplog)
    assert len(logged) == 1 and "more garbage is summed up at most every 60 s" in logged[0]


def test_further_garbage_is_summed_up_at_most_every_interval(pad_on_pty, monkeypatch, caplog):
    end, pad, _ = pad_on_pty
    monkeypatch.setattr(drivers.serial_pad, "GARBAGE_LOG_EVERY", 0.5)
    end.write(b"FOO\n")
    wait_for(lambda: len(garbage_logs(caplog)) == 1)
    end.write(b"BAR\n\xff\n" + b"B" * 65 + b"\n")
    wait_for(lambda: len(garbage_logs(caplog)) == 2)
    assert garbage_logs(caplog)[1] == (
        f"serial pad {pad.url}: ignored 3 more garbage lines (1 not a command, 1 not ASCII, "
        f"1 over 64 characters), the last {b'B' * 40!r}; 4 in all")


def state_and_turn(end: Pty) -> tuple[dict, bytes]:
    """The next STATE line's JSON and the TURN line after it."""
    state = end.read_line()
    assert state.startswith(b"STATE ")
    _, version, body = state.split(b" ", 2)
    parsed = json.loads(body)
    assert parsed["version"] == int(version)
    return parsed, end.read_line()


def test_an_alakaslam_doubles_match_names_both_seats_of_the_side_to_play(link):
    """The pad follows a real table: each change sends the match's view and the side's seats."""
    end = Pty(link)
    store = Store(":memory:")
    table = Table(store, CATALOG, rng=random.Random(0))
    pad = SerialPad(str(link), queue.Queue().put, snapshot=table.snapshot)
    table.subscribe(pad.show)
    try:
        assert pad.connected.wait(WAIT)
        assert state_and_turn(end) == ({"version": 0, "epoch": store.epoch, "match": None},
                                       b"TURN -")
        table.start({"game": "alakaslam", "players": ["Ann", "Bob", "Cid", "Dee"],
                     "options": {"characters": ["austin", "rich", "toots", "sarissia"],
                                 "first_server": 1}})
        state, turn = state_and_turn(end)
        assert state["match"]["view"]["due"] == "serve"
        assert turn == b"TURN 3,4"  # Cid and Dee serve
        # Cid serves from the blue corner (4, 4); Dee's Support cards carry it on to (2, 1).
        table.act({"type": "serve", "player": 2, "corner": "blue", "cards": ["R3"],
                   "support": {"player": 3, "cards": ["R0"]}})
        state, turn = state_and_turn(end)
        view = state["match"]["view"]
        assert (view["ball"], view["hitting_side"], view["rally"]) == ([2, 1], 0, 1)
        assert view["last_shot"]["players"] == [2, 3]
        assert turn == b"TURN 1,2"  # Ann and Bob hit next
        table.act({"type": "point", "winner": 1})
        state, turn = state_and_turn(end)
        assert [s["score"] for s in state["match"]["view"]["sides"]] == [0, 1]
        assert turn == b"TURN 1,2"  # the side that lost serves
    finally:
        pad.close()
        end.unplug()
        store.close()


def test_an_alakaslam_canadian_match_names_the_single_player_alone(link):
    end = Pty(link)
    store = Store(":memory:")
    table = Table(store, CATALOG, rng=random.Random(0))
    table.start({"game": "alakaslam", "players": ["Ann", "Bob", "Cid"],
                 "options": {"characters": ["wendolyn", "laurie", "simon"], "target": 1}})
    pad = SerialPad(str(link), queue.Queue().put, snapshot=table.snapshot)
    table.subscribe(pad.show)
    try:
        assert pad.connected.wait(WAIT)
        assert state_and_turn(end)[1] == b"TURN 1"
        table.act({"type": "serve", "player": 0, "corner": "red", "cards": ["B3"]})
        assert state_and_turn(end)[1] == b"TURN 2,3"
        table.act({"type": "point", "winner": 0, "reason": "declined"})
        state, turn = state_and_turn(end)
        assert state["match"]["status"] == "finished" and state["match"]["view"]["winner"] == 0
        assert turn == b"TURN -"  # nobody plays once the match is won
    finally:
        pad.close()
        end.unplug()
        store.close()



@pytest.mark.parametrize("size", [2, 3, 4])
def test_an_alakazoo_match_lights_the_current_players_seat(link, size):
    """One seat at a time from the first player on, a forced pass skipped, none at the end."""
    end = Pty(link)
    store = Store(":memory:")
    table = Table(store, CATALOG, rng=random.Random(0))
    table.start({"game": "alakazoo", "players": ["Ann", "Bob", "Cleo", "Dan"][:size],
                 "options": {"first_player": size - 1, "creatures": [
                     "Drache", "Greif", "Einhorn", "Phönix", "Krake", "Hydra"]}})
    pad = SerialPad(str(link), queue.Queue().put, snapshot=table.snapshot)
    table.subscribe(pad.show)

    def act(action: dict) -> tuple[dict, bytes]:
        table.act(action)
        state, turn = state_and_turn(end)
        return state["match"]["view"], turn

    try:
        assert pad.connected.wait(WAIT)
        state, turn = state_and_turn(end)
        assert turn == f"TURN {size}".encode()  # the last seat plays first
        assert state["match"]["view"]["creatures"][3] == "Phönix"  # escaped to ASCII
        assert act({"type": "end_turn"})[1] == b"TURN 1"
        for _ in range(3):
            assert act({"type": "dark_power", "reason": "hand"})[1] == b"TURN 1"
        for seat in range(2, size + 1):  # Ann ends her turn at 3 Dark Power
            view, turn = act({"type": "end_turn"})
            assert turn == f"TURN {seat}".encode() and view["passes"] == []
        view, turn = act({"type": "end_turn"})  # Ann's turn is a forced pass
        assert turn == b"TURN 2" and view["passes"] == [{"player": 0, "reset": True}]
        for space in range(1, 10):  # Bob completes his portal, three a turn: the final round
            if space in (4, 7):  # two turns not recorded: Bob's 0 tokens back to 6
                for _ in range(2):
                    view, turn = act({"type": "end_turn"})
                    while turn != b"TURN 2":
                        view, turn = act({"type": "end_turn"})
            view, turn = act({"type": "display", "space": space, "creature": 2})
        assert view["final_round"] and turn == b"TURN 2"
        while turn != b"TURN -":
            view, turn = act({"type": "end_turn"})
        assert view["ended"] == "final_round" and view["winner"] == [1]
    finally:
        pad.close()
        end.unplug()
        store.close()
