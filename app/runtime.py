"""The running companion: the one place that wires the core to the hardware.

``companion run`` lands here. The core (``companion/``) never imports a
driver or an I/O library; this composition root does, and connects them in
the one direction DESIGN.md draws: inputs -> table writer thread -> outputs.
"""

from __future__ import annotations

import argparse
import gc
import logging
import signal
import sys
import threading
from dataclasses import replace
from pathlib import Path
from types import FrameType

import sdnotify
from gpiozero import Factory

from companion import config as config_module
from companion.cli import DB_NAME
from companion.config import Config
from companion.controls import Context
from companion.inputs import Input
from companion.panel import Panel
from companion.screens import render
from companion.store import Store
from companion.table import Table, TableRunner
from drivers.buttons import ButtonPanel, Finger
from drivers.display import Oled, open_device
from drivers.leds import SeatLeds
from drivers.pins import pin_factory
from drivers.serial_pad import SerialPad

log = logging.getLogger("companion")

#: How often the writer thread is checked before the systemd watchdog is fed.
WATCHDOG_EVERY = 10.0


class Companion:
    """Everything ``companion run`` runs, started in order and closed in reverse.

    Use as a context manager. ``sim`` selects gpiozero's mock pins, luma's
    dummy display and (without a configured pad) a pty for the serial pad.
    """

    def __init__(self, cfg: Config, *, sim: bool, data: Path, address: str | None = None) -> None:
        self.cfg = cfg
        self.sim = sim
        self._closers: list = []
        try:
            self._start(data, address)
        except BaseException:
            self.close()
            raise

    def _start(self, data: Path, address: str | None) -> None:
        cfg, sim = self.cfg, self.sim
        # Hardware first: a missing display or GPIO fails before anything is written.
        self.factory: Factory = pin_factory(cfg.buttons.backend, sim)
        self._closers.append(self.factory.close)
        device = open_device(cfg.display, sim)
        self.store = Store(data / DB_NAME)
        self._closers.append(self.store.close)
        self.table = Table(self.store)
        # The resumed match can be thousands of objects that live for good:
        # keep them out of the collector's sweeps, which would otherwise add
        # milliseconds to the odd button press.
        gc.freeze()
        # A press crosses three threads (buttons, table writer, display); with
        # Python's default 5 ms GIL switch interval each hand-over can wait
        # that long. 1 ms keeps a tap-to-frame well under 10 ms.
        sys.setswitchinterval(0.001)
        self.runner = TableRunner(self.table)
        self._closers.append(self.runner.close)
        self.ctx = Context(names=cfg.table.names, address=address)
        self.panel: Panel = self.runner.call(lambda table: Panel(table, self.ctx))
        self.oled = Oled(device, cfg.display, lambda state: render(state, self.ctx))
        self._closers.append(self.oled.close)
        self.runner.call(lambda _: self.panel.subscribe(self.oled.update))
        self.oled.update(self.panel.state)
        self.leds = SeatLeds(cfg.leds.seats, self.factory)
        self._closers.append(self.leds.close)
        self.runner.call(lambda table: (table.subscribe(self.leds.show),
                                        self.leds.show(table.snapshot)))
        self.buttons = ButtonPanel(cfg.buttons, cfg.encoder, self.factory, self.input)
        self._closers.append(self.buttons.close)
        self.finger: Finger | None = None
        if sim:
            self.finger = Finger(self.factory, self.buttons, cfg.buttons)
            self._closers.append(self.finger.close)
        self.pad: SerialPad | None = None
        if cfg.serial.url is not None:
            self.pad = SerialPad(cfg.serial.url, self.input, cfg.serial.baudrate,
                                 snapshot=self.table.snapshot)
            self._closers.append(self.pad.close)
            self.runner.call(lambda table: table.subscribe(self.pad.show))

    def input(self, inp: Input) -> None:
        """Any input source's entry: wake the display, queue the input for the writer."""
        self.oled.activity()
        self.runner.submit(lambda _: self.panel.handle(inp))

    def press(self, button: str, hold: bool = False) -> None:
        """Simulated finger on the button's mock pin (sim only); returns at once."""
        if self.finger is None:
            raise RuntimeError("only simulated buttons can be pressed from software")
        self.finger.press(button, hold)

    def __enter__(self) -> Companion:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop inputs, finish queued work, stop outputs, close the store. Idempotent."""
        while self._closers:
            closer = self._closers.pop()
            try:
                closer()
            except Exception:
                log.exception("error while shutting down %r", closer)


def run(args: argparse.Namespace) -> int:
    """``companion run``: serve until SIGTERM or SIGINT, then shut down cleanly."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    cfg = config_module.load(args.config)
    if args.data is not None:
        cfg = replace(cfg, table=replace(cfg.table, data=args.data))
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    notify = sdnotify.SystemdNotifier()
    with Companion(cfg, sim=args.sim, data=cfg.table.data) as companion:
        hardware = "simulated hardware" if args.sim else "GPIO buttons and OLED"
        print(f"Table Companion running with {hardware}; data in {cfg.table.data}", flush=True)
        if cfg.serial.url:
            print(f"Serial pad: {cfg.serial.url}", flush=True)
        notify.notify("READY=1")
        while not stop.wait(WATCHDOG_EVERY):
            # Feed the watchdog only while the writer thread answers, so a
            # stuck table is restarted by systemd.
            try:
                companion.runner.call(lambda _: None, timeout=WATCHDOG_EVERY)
            except TimeoutError:
                log.error("the table's writer thread is not answering")
                continue
            notify.notify("WATCHDOG=1")
        notify.notify("STOPPING=1")
    print("Table Companion stopped.", flush=True)
    return 0
