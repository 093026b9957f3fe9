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

Only complete lines are acted on. Anything else coming in is garbage:
unknown words, bytes that are not ASCII, lines over 64 characters, and a line
whose bytes were spread over more than :data:`PARTIAL_MAX_AGE` seconds (a pad
that stalled or restarted mid-line; its end, whenever it comes, is dropped
with it, so a fragment is never taken for a command). Garbage is counted in
:attr:`SerialPad.garbage` and logged: the first line at once, then a summary
at most every :data:`GARBAGE_LOG_EVERY` seconds. When the port goes away
(unplugged), the pad reconnects with a growing backoff and then resends the
state.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import serial

from companion.config import ConfigError, Section, within
from companion.i18n import _
from companion.inputs import BUTTONS, Input, seat
from companion.table import Snapshot

log = logging.getLogger(__name__)

MAX_LINE = 64
BACKOFF_START, BACKOFF_MAX = 0.2, 10.0
#: How long a read waits for bytes before the reader looks around (stop, ages, log).
READ_TIMEOUT = 0.5
#: Seconds a line may take from its first byte to its newline; older, it is garbage.
PARTIAL_MAX_AGE = 3.0
#: After the first garbage line is logged, further ones are summed up at most this often.
GARBAGE_LOG_EVERY = 60.0
#: Bytes of a garbage line shown in the log.
SAMPLE = 40


# --- the [serial] section of the config file --------------------------------------

#: The slowest and fastest rates pyserial names (``serial.Serial.BAUDRATES``).
BAUDRATES = (50, 4_000_000)


@dataclass(frozen=True)
class SerialConfig:
    """An optional serial pad: seat buttons in, scoreboard lines out."""

    url: str | None = None
    baudrate: int = 115200


def _check_serial(s: SerialConfig) -> None:
    if s.url is not None and (not s.url.strip() or not s.url.isprintable()):
        raise ConfigError(_("{key}: must be a device path or pyserial URL such as "
                            "/dev/ttyUSB0, got {value}; leave it out for no pad",
                            key="[serial] url", value=repr(s.url)))
    within("[serial] baudrate", s.baudrate, *BAUDRATES)


SERIAL = Section("serial", SerialConfig, check=_check_serial)


def parse(line: bytes) -> Input | str | None:
    """One incoming line: an Input, ``"PING"``, or None for garbage."""
    if len(line.rstrip(b"\r\n")) > MAX_LINE:
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
        return seat(int(command[1]) - 1)
    if command in ("TAP", "HOLD") and len(words) == 2 and words[1].lower() in BUTTONS:
        return Input(words[1].lower(), hold=command == "HOLD")
    return None


def state_lines(snapshot: Snapshot) -> bytes:
    """The ``STATE`` and ``TURN`` lines for a snapshot."""
    body = json.dumps(snapshot.to_json(), separators=(",", ":"), ensure_ascii=True)
    turn = snapshot.match["turn"] if snapshot.match else []
    seats = ",".join(str(s + 1) for s in turn) or "-"
    return f"STATE {snapshot.version} {body}\nTURN {seats}\n".encode("ascii")


class LineCutter:
    """Cuts a byte stream into complete lines; everything else is garbage.

    :meth:`feed` takes the bytes read (possibly none, after a read timed
    out) and the time, and returns what they complete: ``(line, None)`` for a
    line ending in ``\\n`` to act on, ``(sample, why)`` for a garbage one. A
    line over MAX_LINE characters, or one still unfinished PARTIAL_MAX_AGE
    seconds after its first byte, is garbage at once, and so is the rest of it
    up to its newline (skipped, not counted twice).
    """

    def __init__(self) -> None:
        self._partial = bytearray()
        self._started = 0.0
        self._skipping = False  # inside a line already counted as garbage

    def feed(self, data: bytes, now: float) -> list[tuple[bytes, str | None]]:
        out: list[tuple[bytes, str | None]] = []
        *complete, rest = data.split(b"\n")
        for piece in complete:
            if self._skipping:
                self._skipping = False  # that newline ends the skipped line
                continue
            if self._partial and now - self._started > PARTIAL_MAX_AGE:
                out.append(self._stale())
                self._skipping = False
                continue
            line = bytes(self._partial + piece) + b"\n"
            self._partial.clear()
            out.append((line, None) if len(line) <= MAX_LINE + 2 else
                       (line[:SAMPLE], f"over {MAX_LINE} characters"))
        if not self._skipping and rest:
            if not self._partial:
                self._started = now
            self._partial += rest
            if len(self._partial) > MAX_LINE + 1:  # + 1: room for a \r
                out.append((bytes(self._partial[:SAMPLE]), f"over {MAX_LINE} characters"))
                self._partial.clear()
                self._skipping = True
        if self._partial and now - self._started > PARTIAL_MAX_AGE:
            out.append(self._stale())
        return out

    def cut_off(self) -> list[tuple[bytes, str | None]]:
        """The connection ended: an unfinished line is garbage. Starts afresh."""
        out: list[tuple[bytes, str | None]] = \
            [(bytes(self._partial[:SAMPLE]), "cut off by the disconnection")] \
            if self._partial else []
        self._partial.clear()
        self._skipping = False
        return out

    def _stale(self) -> tuple[bytes, str]:
        sample = bytes(self._partial[:SAMPLE])
        self._partial.clear()
        self._skipping = True
        return sample, f"a line unfinished after {PARTIAL_MAX_AGE:g} s"


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
        #: Garbage lines so far (see the module docstring).
        self.garbage = 0
        self._garbage_kinds: Counter[str] = Counter()  # since the last log line
        self._garbage_logged_at: float | None = None
        self._garbage_sample = b""
        self.connections = 0
        self._port: serial.SerialBase | None = None
        #: Writes under way, per port. A port dropped (unplugged, closing) in the middle
        #: of a write is closed by the last of its writes to end, never under one:
        #: pyserial's write breaks with a TypeError, not a SerialException, on a port
        #: closed under it, and that would end the writer thread for good.
        self._writing: Counter[serial.SerialBase] = Counter()
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
                port = serial.serial_for_url(self.url, baudrate=self.baudrate,
                                             timeout=READ_TIMEOUT)
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
            lines = LineCutter()
            try:
                self._read_lines(port, lines)
            except (serial.SerialException, OSError) as err:
                log.warning("serial pad %s lost (%s); reconnecting", self.url, err)
            finally:
                self.connected.clear()
                self._drop()
                self._take(lines.cut_off(), time.monotonic())

    def _read_lines(self, port: serial.SerialBase, lines: LineCutter) -> None:
        while not self._stop.is_set():
            # Whatever is waiting, else up to READ_TIMEOUT for a first byte.
            # Every port serial_for_url opens (posix, loop://) has in_waiting; the stubs
            # put it on those subclasses, not on SerialBase.
            data = port.read(min(max(1, port.in_waiting), 4096))  # type: ignore[attr-defined]
            now = time.monotonic()
            self._take(lines.feed(data, now), now)

    def _take(self, lines: list[tuple[bytes, str | None]], now: float) -> None:
        for line, garbage in lines:
            if garbage is None:
                self._handle(line, now)
            else:
                self._garbage(line, garbage, now)
        self._log_garbage(now)

    def _handle(self, line: bytes, now: float) -> None:
        parsed = parse(line)
        if parsed is None:
            if len(line.rstrip(b"\r\n")) > MAX_LINE:
                why = f"over {MAX_LINE} characters"
            else:
                why = "not a command" if line.isascii() else "not ASCII"
            self._garbage(line[:SAMPLE], why, now)
        elif parsed == "PING":
            self._send(b"PONG\n")
        elif isinstance(parsed, Input):
            try:
                self._sink(parsed)
            except Exception:
                log.exception("serial input %r was not taken", parsed)

    def _garbage(self, sample: bytes, why: str, now: float) -> None:
        self.garbage += 1
        self._garbage_kinds[why] += 1
        self._garbage_sample = sample
        if self._garbage_logged_at is None:
            self._log_garbage(now)

    def _log_garbage(self, now: float) -> None:
        """Log the garbage not logged yet: the very first at once, then at most every
        GARBAGE_LOG_EVERY seconds, so a babbling pad cannot flood the journal."""
        if not self._garbage_kinds:
            return
        if self._garbage_logged_at is None:
            (why, _), = self._garbage_kinds.items()
            log.warning("serial pad %s: ignored %r (%s); more garbage is summed up at most "
                        "every %g s", self.url, self._garbage_sample, why, GARBAGE_LOG_EVERY)
        elif now - self._garbage_logged_at >= GARBAGE_LOG_EVERY:
            kinds = ", ".join(f"{n} {why}" for why, n in self._garbage_kinds.most_common())
            log.warning("serial pad %s: ignored %d more garbage lines (%s), the last %r; "
                        "%d in all", self.url, self._garbage_kinds.total(), kinds,
                        self._garbage_sample, self.garbage)
        else:
            return
        self._garbage_logged_at = now
        self._garbage_kinds.clear()

    def _drop(self) -> None:
        """Let go of the port: close it now, or, when a write to it is under way, cut
        that write short and leave the closing to the write (see ``_writing``)."""
        with self._lock:
            port, self._port = self._port, None
            if port is not None and self._writing[port]:
                # Under the lock, so the write cannot close the port meanwhile. A write
                # stuck on a pad that reads nothing ends now instead of never.
                cancel = getattr(port, "cancel_write", None)  # some URL handlers have none
                if cancel is not None:
                    with contextlib.suppress(serial.SerialException, OSError):
                        cancel()
                return
        if port is not None:
            self._close(port)

    @staticmethod
    def _close(port: serial.SerialBase) -> None:
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
            assert data is not None and port is not None   # the wait ends with both
            self._write(port, data)

    def _send(self, data: bytes) -> None:
        with self._lock:
            port = self._port
        if port is not None:
            self._write(port, data)

    def _write(self, port: serial.SerialBase, data: bytes) -> None:
        """Write ``data`` to ``port`` unless it has been dropped since it was taken
        (what is lost so goes again on the next connection: it gets the newest state)."""
        with self._lock:
            if port is not self._port:
                return
            self._writing[port] += 1
        try:
            with self._write_lock:
                port.write(data)
        except (serial.SerialException, OSError) as err:
            # The reader notices the loss too and reconnects.
            log.warning("serial pad write failed: %s", err)
        finally:
            with self._lock:
                self._writing[port] -= 1
                last = not self._writing[port]
                if last:
                    del self._writing[port]
                # The last write on a port dropped meanwhile closes it (see _drop).
                dropped = last and port is not self._port
            if dropped:
                self._close(port)
