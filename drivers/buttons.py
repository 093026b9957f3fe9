"""The button panel on GPIO: PREV, NEXT, OK, BACK, seat buttons, a rotary encoder.

gpiozero calls our callbacks on its own threads; they only put the edge and
its time on a queue. One thread of ours runs a
:class:`~companion.inputs.Debouncer` per button over that queue, ticking at
the debouncers' deadlines, and hands each :class:`~companion.inputs.Input` to
``sink``. No timer runs while nothing is pending, so an idle panel uses no CPU.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass

from gpiozero import DigitalInputDevice, Factory, RotaryEncoder

from companion.config import MAX_SEATS, SECONDS, ConfigError, Section, one_of, within
from companion.i18n import _
from companion.inputs import PANEL, SEATS, Debouncer, Input

log = logging.getLogger(__name__)

Sink = Callable[[Input], None]


# --- the [buttons] and [encoder] sections of the config file ---------------------

@dataclass(frozen=True)
class ButtonsConfig:
    """The button panel: BCM pin numbers, wired from the pin to ground."""

    backend: str = "lgpio"
    prev: int = 5
    next: int = 6
    ok: int = 13
    back: int = 19
    seats: tuple[int, ...] = ()
    pull_up: bool = True
    hold_time: float = 0.8
    debounce: float = 0.03


@dataclass(frozen=True)
class EncoderConfig:
    """An optional rotary encoder: turning is PREV/NEXT, its push is OK."""

    a: int | None = None
    b: int | None = None
    button: int | None = None


#: The pin libraries the Pi may use (gpiozero's names for them).
PIN_BACKENDS = ("lgpio", "rpigpio")


def _check_buttons(b: ButtonsConfig) -> None:
    one_of("[buttons] backend", b.backend, PIN_BACKENDS)
    if len(b.seats) > MAX_SEATS:
        raise ConfigError(_("{key}: at most {most} seat buttons", key="[buttons] seats",
                            most=MAX_SEATS))
    within("[buttons] hold_time", b.hold_time, 0.05, 5, SECONDS)
    within("[buttons] debounce", b.debounce, 0.001, 0.2, SECONDS)


def _buttons_pins(b: ButtonsConfig) -> list[tuple[str, int]]:
    pins = [(f"[buttons] {k}", getattr(b, k)) for k in PANEL]
    return pins + [(f"[buttons] seats[{i}]", p) for i, p in enumerate(b.seats)]


def _check_encoder(e: EncoderConfig) -> None:
    if (e.a is None) != (e.b is None):
        raise ConfigError(_("{section}: set both a and b (or neither)",
                            section="[encoder]"))


def _encoder_pins(e: EncoderConfig) -> list[tuple[str, int]]:
    return [(f"[encoder] {k}", getattr(e, k)) for k in ("a", "b", "button")
            if getattr(e, k) is not None]


BUTTONS = Section("buttons", ButtonsConfig, check=_check_buttons, pins=_buttons_pins)
ENCODER = Section("encoder", EncoderConfig, check=_check_encoder, pins=_encoder_pins)


class ButtonPanel:
    """Debounced buttons from config, on the given pin factory.

    ``sink(input)`` is called on the panel's own thread, once per press.
    ``pins`` maps each button name to its BCM pin. Use as a context manager
    or call :meth:`close` (idempotent).
    """

    def __init__(self, buttons: ButtonsConfig, encoder: EncoderConfig, factory: Factory,
                 sink: Sink, clock: Callable[[], float] = time.monotonic) -> None:
        self._sink = sink
        self._clock = clock
        # Edges, drain markers (see drained), and None to stop.
        self._queue: queue.SimpleQueue[tuple[float, str, bool] | Future[None] | None] = (
            queue.SimpleQueue())
        # An edge's time is read and the edge queued under this lock, so once
        # the thread holds it and finds the queue empty, no edge from before
        # that moment can still arrive.
        self._edges = threading.Lock()
        self.pins: dict[str, int] = {
            **{name: getattr(buttons, name) for name in PANEL},
            **dict(zip(SEATS, buttons.seats, strict=False)),
        }
        self._debouncers: dict[str, Debouncer] = {}
        self._devices: list[DigitalInputDevice | RotaryEncoder] = []
        self._closed = False
        try:
            for name, pin in self.pins.items():
                self._add(name, name, pin, buttons, factory)
            if encoder.button is not None:
                self.pins["encoder"] = encoder.button
                self._add("encoder", "ok", encoder.button, buttons, factory)
            if encoder.a is not None and encoder.b is not None:
                dial = RotaryEncoder(encoder.a, encoder.b, max_steps=0, pin_factory=factory)
                dial.when_rotated_clockwise = lambda: self._queue.put((0.0, "cw", True))
                dial.when_rotated_counter_clockwise = lambda: self._queue.put((0.0, "ccw", True))
                self._devices.append(dial)
        except BaseException:
            self._close_devices()
            raise
        self._thread = threading.Thread(target=self._run, name="buttons", daemon=True)
        self._thread.start()

    def _add(self, line: str, button: str, pin: int, cfg: ButtonsConfig,
             factory: Factory) -> None:
        # bounce_time=None: debouncing is ours (and mock pins ignore it anyway).
        device = DigitalInputDevice(pin, pull_up=cfg.pull_up, bounce_time=None,
                                    pin_factory=factory)
        device.when_activated = lambda: self._edge(line, True)
        device.when_deactivated = lambda: self._edge(line, False)
        self._devices.append(device)
        self._debouncers[line] = Debouncer(button, quiet=cfg.debounce, hold_time=cfg.hold_time)

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the thread and release the pins."""
        if self._closed:
            return
        self._closed = True
        self._queue.put(None)
        self._thread.join(5)
        self._close_devices()

    def drained(self) -> Future[None]:
        """A future resolved once every edge seen so far has reached the sink.

        Edges are queued in the order the pins report them, so when the
        marker this queues comes up, the inputs of all earlier edges have
        been handed to ``sink``. An edge that ends a calm spell counts at once
        (see Debouncer), so for presses spaced as a finger spaces them that
        is every input they make. Cancelled if the panel closes first.
        """
        marker: Future[None] = Future()
        if self._closed:
            marker.cancel()
        else:
            self._queue.put(marker)
        return marker

    def _close_devices(self) -> None:
        for device in self._devices:
            device.close()
        self._devices.clear()

    def _edge(self, line: str, pressed: bool) -> None:
        with self._edges:
            self._queue.put((self._clock(), line, pressed))

    def _run(self) -> None:
        while True:
            deadlines = [d.deadline for d in self._debouncers.values() if d.deadline is not None]
            timeout = max(0.0, min(deadlines) - self._clock()) if deadlines else None
            # An edge, a marker to settle (a Future), None to stop; () when the wait ran out.
            item: tuple[float, str, bool] | tuple[()] | Future[None] | None
            try:
                item = self._queue.get(timeout=timeout)
            except queue.Empty:
                item = ()
            if item is None:
                self._cancel_markers()
                return
            if isinstance(item, Future):
                item.set_result(None)
            elif item:
                when, line, pressed = item
                if line in ("cw", "ccw"):
                    self._emit([Input("next" if line == "cw" else "prev")])
                    continue
                # Whatever became certain before this edge comes out before it.
                self._settle(when)
                self._emit(self._debouncers[line].edge(when, pressed))
            with self._edges:
                now = self._clock()
                behind = not self._queue.empty()
            if not behind:
                self._settle(now)
            # else edges from before now still wait (this thread fell behind,
            # say on a busy CPU): settling at now would skip them and turn a
            # bouncing press into several, or a quick OK into a hold. They
            # go first, each settling the others up to its own time.

    def _settle(self, t: float) -> None:
        for debouncer in self._debouncers.values():
            if debouncer.deadline is not None and debouncer.deadline <= t:
                self._emit(debouncer.tick(t))

    def _cancel_markers(self) -> None:
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, Future):
                item.cancel()

    def _emit(self, inputs: list[Input]) -> None:
        for inp in inputs:
            try:
                self._sink(inp)
            except Exception:  # a failing consumer must not stop the buttons
                log.exception("button input %r was not taken", inp)


class Finger:
    """Presses mock pins as a person would, one press at a time (for --sim).

    A press made by software in a microsecond would look like contact bounce
    to the debouncer, so each tap lasts ``tap`` seconds, a hold lasts past the
    hold time, and presses are spaced by more than the debounce quiet time.
    :meth:`press` queues and returns at once; the presses run on the finger's
    own thread, in order, and each press's future tells when it is over.
    """

    def __init__(self, factory: Factory, panel: ButtonPanel, cfg: ButtonsConfig,
                 tap: float = 0.06) -> None:
        self._factory = factory
        self._pins = panel.pins
        self._cfg = cfg
        self._tap = max(tap, 2 * cfg.debounce)
        self._queue: queue.SimpleQueue[tuple[str, bool, Future[None]] | None] = (
            queue.SimpleQueue())
        self._closed = False
        self._pause = threading.Event()  # never set: its wait() keeps the press's time
        self._thread = threading.Thread(target=self._run, name="sim-finger", daemon=True)
        self._thread.start()

    def press(self, button: str, hold: bool = False) -> Future[None]:
        """Queue a tap (or a hold) of ``button``; KeyError if it has no pin.

        The future is resolved once the button is let go, its release edge
        already reported to the pin's callbacks (mock pins call them on the
        thread that drives the pin). Cancelled if the finger closes first.
        """
        if button not in self._pins:
            raise KeyError(f"no pin for button {button!r}; buttons: {', '.join(self._pins)}")
        done: Future[None] = Future()
        if self._closed:
            done.cancel()
        else:
            self._queue.put((button, hold, done))
        return done

    def close(self) -> None:
        self._closed = True
        self._queue.put(None)
        self._thread.join(5)

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            button, hold, done = item
            if not done.set_running_or_notify_cancel():
                continue
            pin = self._factory.pin(self._pins[button])
            down, up = ((pin.drive_low, pin.drive_high) if self._cfg.pull_up
                        else (pin.drive_high, pin.drive_low))
            try:
                down()
                self._pause.wait(self._cfg.hold_time + 0.05 if hold else self._tap)
                up()
            except BaseException as err:
                done.set_exception(err)
                raise
            done.set_result(None)
            self._pause.wait(self._cfg.debounce + 0.02)
        # Presses still queued when the finger closes are never made.
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return
            if item is not None:
                item[2].cancel()
