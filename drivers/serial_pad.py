"""The serial pad: button lines in, scoreboard lines out, over any pyserial URL.

The line protocol (ASCII, one command per line, ``\\n`` or ``\\r\\n``):

Pad to companion:

- ``TAP <button>`` and ``HOLD <button>``: a press, where ``<button>`` is one
  of prev, next, ok, back, seat1..seat4 (any case).
- ``S1`` .. ``S4``: short for ``TAP seat1`` .. ``TAP seat4``, for the
  simplest pads.
- ``PING``: the companion answers ``PONG``.

Companion to pad:

- ``STATE <version> <json>`` after every change and on (re)connection: the
  table state as in ``GET /api/state`` (``{"version", "match"}``), as one
  line of ASCII JSON.
- ``TURN <seats>``: the seats whose turn it is, 1-based and comma
  separated (``TURN 2``; ``TURN -`` for none), for pads with seat LEDs.
- ``PONG``.

Anything else coming in (unknown words, bad bytes, lines over 64 characters)
is garbage: counted in :attr:`SerialPad.garbage`, logged, and ignored. When
the port goes away (unplugged), the pad reconnects with a growing backoff
and then resends the state.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Callable

import serial

from companion.inputs import BUTTONS, Input
from companion.table import Snapshot

log = logging.getLogger(__name__)

MAX_LINE = 64
BACKOFF_START, BACKOFF_MAX = 0.2, 10.0


def parse(line: bytes) -> Input | str | None:
    """One incoming line: an Input, ``"PING"``, or None for garbage."""
    if len(line) > MAX_LINE:
        return None
    try:
        words = line.decode("ascii").strip().split()
    except UnicodeDecodeError:
        return None
    if not words:
        return "" if not line.strip() else None
    command = words[0].upper()
    if command == "PING" and len(words) == 1:
        return "PING"
    if len(words) == 1 and len(command) == 2 and command[0] == "S" and command[1] in "1234":
        return Input(f"seat{command[1]}")
    if command in ("TAP", "HOLD") and len(words) == 2 and words[1].lower() in BUTTONS:
        return Input(words[1].lower(), hold=command == "HOLD")
    return None


def state_lines(snapshot: Snapshot) -> bytes:
    """The ``STATE`` and ``TURN`` lines for a snapshot."""
    body = json.dumps(snapshot.to_json(), separators=(",", ":"), ensure_ascii=True)
    turn = snapshot.match["turn"] if snapshot.match else []
    seats = ",".join(str(s + 1) for s in turn) or "-"
    return f"STATE {snapshot.version} {body}\nTURN {seats}\n".encode("ascii")


class SerialPad:
    """A pad on ``url`` (a device path or any pyserial URL such as ``loop://``).

    ``sink(input)`` is called on the pad's reader thread for every press.
    Call :meth:`show` (a table subscriber) with each snapshot; the newest is
    written by the pad's writer thread, never by the caller. ``close`` is
    idempotent.
    """

    def __init__(self, url: str, sink: Callable[[Input], None], baudrate: int = 115200,
                 snapshot: Snapshot | None = None) -> None:
        self.url = url
        self.baudrate = baudrate
        self._sink = sink
        self.garbage = 0
        self.connections = 0
        self._port: serial.SerialBase | None = None
        self._lock = threading.Condition()
        self._write_lock = threading.Lock()  # PONG (reader) and STATE (writer) never interleave
        self._outbox: bytes | None = state_lines(snapshot) if snapshot else None
        self._latest = self._outbox
        self._stop = threading.Event()
        self.connected = threading.Event()
        self._reader = threading.Thread(target=self._read_loop, name="serial-read", daemon=True)
        self._writer = threading.Thread(target=self._write_loop, name="serial-write",
                                        daemon=True)
        self._reader.start()
        self._writer.start()

    def show(self, snapshot: Snapshot) -> None:
        """Queue the scoreboard lines for ``snapshot`` (only the newest is kept)."""
        lines = state_lines(snapshot)
        with self._lock:
            self._outbox = self._latest = lines
            self._lock.notify()

    def close(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        with self._lock:
            self._lock.notify()
        # The reader sees the stop within its read timeout and closes the port
        # itself: closing it under a blocked read would break that read.
        self._reader.join(5)
        self._writer.join(5)
        self._drop()

    # --- reading and reconnecting -----------------------------------------------

    def _read_loop(self) -> None:
        backoff = BACKOFF_START
        while not self._stop.is_set():
            try:
                port = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0.5)
            except (serial.SerialException, OSError, ValueError) as err:
                log.info("serial pad %s not available (%s); retrying in %.1fs",
                         self.url, err, backoff)
                self._stop.wait(backoff)
                backoff = min(BACKOFF_MAX, backoff * 2)
                continue
            backoff = BACKOFF_START
            with self._lock:
                self._port = port
                self.connections += 1
                self._outbox = self._latest  # a new connection gets the state at once
                self._lock.notify()
            self.connected.set()
            log.info("serial pad connected on %s", self.url)
            try:
                self._read_lines(port)
            except (serial.SerialException, OSError) as err:
                log.warning("serial pad %s lost (%s); reconnecting", self.url, err)
            finally:
                self.connected.clear()
                self._drop()

    def _read_lines(self, port: serial.SerialBase) -> None:
        while not self._stop.is_set():
            line = port.read_until(b"\n", MAX_LINE + 2)
            if not line:
                continue
            if not line.endswith(b"\n") and len(line) > MAX_LINE:
                # Over-long: count it once and skip to the end of that line.
                self._garbage(line)
                while line and not line.endswith(b"\n") and not self._stop.is_set():
                    line = port.read_until(b"\n", 256)
                continue
            self._handle(line)

    def _handle(self, line: bytes) -> None:
        parsed = parse(line)
        if parsed is None:
            self._garbage(line)
        elif parsed == "PING":
            self._send(b"PONG\n")
        elif isinstance(parsed, Input):
            try:
                self._sink(parsed)
            except Exception:
                log.exception("serial input %r was not taken", parsed)

    def _garbage(self, line: bytes) -> None:
        self.garbage += 1
        log.debug("serial pad: ignored %r", line[:80])

    def _drop(self) -> None:
        with self._lock:
            port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()

    # --- writing ------------------------------------------------------------------

    def _write_loop(self) -> None:
        while True:
            with self._lock:
                while not self._stop.is_set() and (self._outbox is None or self._port is None):
                    self._lock.wait()
                if self._stop.is_set():
                    return
                data, self._outbox, port = self._outbox, None, self._port
            self._write(port, data)

    def _send(self, data: bytes) -> None:
        with self._lock:
            port = self._port
        if port is not None:
            self._write(port, data)

    def _write(self, port: serial.SerialBase, data: bytes) -> None:
        try:
            with self._write_lock:
                port.write(data)
        except (serial.SerialException, OSError) as err:
            # The reader notices the loss too and reconnects.
            log.warning("serial pad write failed: %s", err)
