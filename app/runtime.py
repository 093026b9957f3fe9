"""The running companion: the one place that wires the core to the hardware.

``companion run`` lands here. The core (``companion/``) never imports a
driver or an I/O library; this composition root does, and connects them in
the one direction docs/design.md draws: inputs -> table writer thread -> outputs.
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import gc
import io
import ipaddress
import itertools
import logging
import os
import signal
import sys
import time
from concurrent.futures import Future
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import sdnotify
from gpiozero import Factory
from PIL import Image

from app.config import Config
from app.config import load as load_config
from app.notices import NoticeClock
from app.oled_language import keep_language, starting_language
from app.server import WebServer, page_urls
from app.stopping import block_stop_signals, serve_until_stopped, watchdog_every
from app.terminal import refused
from companion import config as config_module
from companion.catalog import Catalog, build
from companion.data_folder import DB_NAME, default_data_dir
from companion.errors import CompanionError
from companion.i18n import C_, Text, _, speaking, translate
from companion.inputs import Input
from companion.login_code import LoginCodes
from companion.offers import Offers
from companion.panel import Panel
from companion.recovery import DAMAGED_BANNER, open_table
from companion.table import Lane, Snapshot, Table, TableRunner
from companion.topics import TableInfo
from companion.ui.controls import Context
from companion.ui.oled import render
from drivers.broker import MQTT_PASSWORD_ENV
from drivers.buttons import ButtonPanel, Finger
from drivers.display import Oled, open_device
from drivers.leds import SeatLeds
from drivers.mqtt import TablePublisher
from drivers.pins import pin_factory
from drivers.serial_pad import SerialPad
from web.app import create_app
from web.auth import Sessions
from web.fanout import Fanout
from web.memory import give_back, limit_arenas, map_large
from web.pins import Pin, kept_pin, new_pin, secret_key
from web.services import Services, Simulator
from web.stream import Broker

log = logging.getLogger("companion")

#: The file in the data folder whose epoch host sessions must match (web/auth.py).
SESSIONS_FILE = "host_sessions"

#: How often the writer thread is checked before the systemd watchdog is fed, when
#: systemd does not say (app/stopping.py: a third of the unit's WatchdogSec=30).
WATCHDOG_EVERY = 10.0
#: One piece of the writer's work running longer than this means it is stuck
#: (a commit waits 5 s at most for the database lock); systemd's
#: WatchdogSec=30 then restarts the companion.
STALL_LIMIT = 20.0
#: Inputs (buttons, serial pad) waiting for the writer at most; a flood past
#: this is dropped (and logged, at most every DROP_LOG_EVERY s).
INPUT_QUEUE = 64
DROP_LOG_EVERY = 10.0
#: The simulator's OLED frame streams (``/api/sim/events``): in all, and per address,
#: shared out like the phones' state streams (web/stream.py).
SIM_PAGES = 16
SIM_PAGES_PER_ADDRESS = 4


@dataclass(frozen=True)
class WebOptions:
    """Where and how the phone pages are served."""

    host: str
    port: int
    pin: str
    keepalive: float = 15.0


def tune_for_presses() -> None:
    """Process-wide settings that keep a press quick; call once the table is loaded.

    The resumed match can be thousands of objects that live for good:
    freezing keeps them out of the collector's sweeps, which would otherwise
    add milliseconds to the odd press. And a press crosses three threads
    (buttons, table writer, display), and a host's point more (the server's
    loop, a worker, the writer, the fan-out) while the writer gives the
    interpreter up at each SQLite call and the sync: under readers, each time it
    wants it back it waits up to the GIL's switch interval. Python's default is
    5 ms; 0.1 ms halved a host action's p50 under 8 reading addresses here
    (tests/bench/bench_reads.py; bench_panel.py measures the presses).
    """
    gc.freeze()
    sys.setswitchinterval(0.0001)


class Companion:
    """Everything ``companion run`` runs, started in order and closed in reverse.

    Use as a context manager. ``sim`` selects gpiozero's mock pins and luma's
    dummy display; ``web`` (None: no web server) serves the phone pages. It plays
    the games of ``catalog`` (None: those companion/catalog.py's FOLDERS lists),
    which it hands to the table, the panel, the pages and the publisher.
    ConfigError when ``[table] names`` cannot seat one of those games.
    """

    def __init__(self, cfg: Config, *, sim: bool, data: Path,
                 web: WebOptions | None = None, mqtt_password: str | None = None,
                 catalog: Catalog | None = None) -> None:
        self.cfg = cfg
        self.sim = sim
        #: The games this companion plays.
        self.catalog = build() if catalog is None else catalog
        config_module.check_seats(cfg.table, self.catalog.games.values())
        self._closers: list = []
        try:
            self._start(data, web, mqtt_password)
        except BaseException:
            self.close()
            raise

    def _start(self, data: Path, web: WebOptions | None, mqtt_password: str | None) -> None:
        cfg, sim = self.cfg, self.sim
        # Hardware first: a missing display or GPIO fails before anything is written.
        self.factory: Factory = pin_factory(cfg.buttons.backend, sim)
        self._closers.append(self.factory.close)
        device = open_device(cfg.display, sim)
        # Checked before the table resumes: a damaged database is set aside
        # and the table starts on a new one (companion/recovery.py).
        opened = open_table(data / DB_NAME, self.catalog)
        self.store, self.table = opened.store, opened.table
        self._closers.append(self.store.close)
        #: What was wrong with the stored database at start, or None.
        self.notice = opened.notice
        #: Where damaged files found at start were kept, and how many changes were lost.
        self.kept, self.lost = opened.kept, opened.lost
        if opened.notice:
            log.error("%s", opened.notice)
        self.runner = TableRunner(self.table)
        self._closers.append(self.runner.close)
        self.inputs = Lane(self.runner, INPUT_QUEUE)
        self._drop_logged = -DROP_LOG_EVERY
        self.urls: list[str] = []
        #: The hall's offer of the next match (companion/offers.py): read from the broker
        #: when there is one, shown by the panel and the host page, started on a press.
        self.offers = Offers(self.catalog)
        #: The one-time login codes the panel shows and the web app takes (with web only).
        self.login_codes: LoginCodes | None = None
        if web is not None:
            self._start_web(data, web)
        self.ctx = Context(self.catalog, names=cfg.table.names,
                           address=self.urls[0] if self.urls else None,
                           language=starting_language(data, cfg.table.language))
        self.panel: Panel = self.runner.call(lambda table: Panel(
            table, self.ctx, codes=self.login_codes, offers=self.offers,
            on_language=lambda chosen: keep_language(data, chosen)))

        def offer_changed(offers: Offers) -> None:  # paho's thread: hand it to the writer
            with contextlib.suppress(RuntimeError):  # the runner closed: shutting down
                self.runner.submit(lambda table: self._hall_said(table, offers))
        self.offers.subscribe(offer_changed)
        if self.login_codes is not None:
            def code_taken() -> None:  # a web thread: the panel is the writer's
                with contextlib.suppress(RuntimeError):  # the runner closed: shutting down
                    self.runner.submit(lambda _: self.panel.code_taken())
            self.login_codes.on_taken = code_taken
        if self.notice:
            # Seen at the table too, until the next press; the log has the details.
            self.runner.call(lambda _: self.panel.notify(opened.banner or DAMAGED_BANNER))
        self.oled = Oled(device, cfg.display, lambda state: render(state, self.ctx))
        self._closers.append(self.oled.close)
        if web is not None:
            count = itertools.count(1)
            self.oled.frames.add(lambda image: self.frames.publish(n := next(count), str(n)))
        self.runner.call(lambda _: self.panel.subscribe(self.oled.update))
        self.notices = NoticeClock(self.panel, self.runner)
        self._closers.append(self.notices.close)
        self.runner.call(lambda _: self.panel.subscribe(self.notices.shown))
        self.oled.update(self.panel.state)
        self.leds = SeatLeds(cfg.leds.seats, self.factory)
        self._closers.append(self.leds.close)
        leds = self.leds

        def light(table: Table) -> None:
            table.subscribe(leds.show)
            leds.show(table.snapshot)

        self.runner.call(light)
        self.buttons = ButtonPanel(cfg.buttons, cfg.encoder, self.factory, self.input)
        self._closers.append(self.buttons.close)
        self.finger: Finger | None = None
        if sim:
            self.finger = Finger(self.factory, self.buttons, cfg.buttons)
            self._closers.append(self.finger.close)
            if web is not None:
                self.simulator.buttons = tuple(self.buttons.pins)
        self.pad: SerialPad | None = None
        if cfg.serial.url is not None:
            pad = self.pad = SerialPad(cfg.serial.url, self.input, cfg.serial.baudrate,
                                       snapshot=self.table.snapshot)
            self._closers.append(pad.close)
            self.runner.call(lambda table: table.subscribe(pad.show))
        self.publisher: TablePublisher | None = None
        if cfg.mqtt.url is not None:
            self._start_mqtt(data, mqtt_password)

    def _hall_said(self, table: Table, offers: Offers) -> None:
        """On the writer: the offer topic changed. The panel shows the offer; the hall's
        rulings are laid on the history, each once (a store that cannot take them now
        said so through the table's trouble: they come again with the next message)."""
        try:
            table.apply_rulings(offers.rulings)
        finally:
            self.panel.show_offer()

    def _start_mqtt(self, data: Path, password: str | None) -> None:
        """Publish the table to the broker; its status goes to the info screen."""
        m = self.cfg.mqtt
        assert m.table is not None  # its section (drivers/mqtt.py) requires it with a url
        self.mqtt_info = TableInfo(m.table, m.display_name,
                                   m.page or (self.urls[0] if self.urls else None))

        def on_status(status: str) -> None:  # paho's thread: hand it to the writer
            with contextlib.suppress(RuntimeError):  # the runner closed: shutting down
                self.runner.submit(lambda _: self.panel.show_broker(status))

        def start(table: Table) -> TablePublisher:
            # On the writer thread: no change can come between the first state and
            # the subscription.
            # Home Assistant's sensor names in the table's language (the OLED's: its
            # menu may change it; the sensors take it at the next connection).
            publisher = TablePublisher(m, self.mqtt_info, self.catalog, password=password,
                                       data=data, on_status=on_status, offers=self.offers,
                                       language=lambda: self.panel.ctx.language)
            table.subscribe(publisher.show)
            publisher.show(table.snapshot)
            self.panel.show_broker(publisher.status)
            return publisher

        self.publisher = self.runner.call(start)
        # Closed right after the runner (closers run last to first): the writer's
        # last changes are queued by then, and go out before `offline`.
        self._closers.insert(self._closers.index(self.runner.close), self.publisher.close)

    def _start_web(self, data: Path, web: WebOptions) -> None:
        self.frames = Broker("frame", limit=SIM_PAGES, per_client=SIM_PAGES_PER_ADDRESS,
                             keepalive=web.keepalive,
                             fanout=Fanout(web.keepalive))
        sim = None
        if self.sim:
            # Its buttons are filled in once the button panel has its pins.
            self.simulator = sim = Simulator(press=lambda button, hold: self.press(button, hold),
                                             display_png=self.display_png, frames=self.frames)
        self.login_codes = LoginCodes()
        services = Services(runner=self.runner, pin=web.pin, secret_key=secret_key(data),
                            login_codes=self.login_codes,
                            max_streams=self.cfg.web.max_streams, keepalive=web.keepalive,
                            streams_per_address=self.cfg.web.streams_per_address,
                            sim=sim, sessions=Sessions(web.pin, data / SESSIONS_FILE),
                            notice=self.notice, offers=self.offers)
        self.app = create_app(services)
        self.server = WebServer(self.app, web.host, web.port, self.cfg.web.max_streams)
        self._closers.append(self.server.close)
        # Closed first (closers run last to first): live streams end before the
        # server waits for its worker threads.
        self._closers.append(self.app.extensions["companion.broker"].close)
        self._closers.append(self.frames.close)
        self.urls = page_urls(web.host, self.server.port)

    def display_png(self) -> bytes:
        """The simulated OLED's current frame as a 128x64 PNG."""
        image = self.oled.device.image or Image.new("1", (128, 64))
        out = io.BytesIO()
        image.convert("1").save(out, "PNG")
        return out.getvalue()

    def input(self, inp: Input) -> None:
        """Any input source's entry: wake the display, queue the input for the writer.

        The press is stamped with the panel's epoch now, on the source's
        thread: if a phone's change is handled before it, the panel knows the
        press was meant for the screen before that change and does not act on it.
        """
        self.oled.activity()
        seen = self.panel.epoch
        handled = self.inputs.submit(lambda _: self.panel.handle(inp, seen))
        if handled is not None:
            handled.add_done_callback(lambda done: _log_failure(done, inp))
        else:
            now = time.monotonic()
            if now - self._drop_logged >= DROP_LOG_EVERY:
                self._drop_logged = now
                log.warning("%d inputs are waiting for the table: dropped %s (%d dropped so "
                            "far); is a serial pad or a button sending a flood?",
                            self.inputs.limit, inp, self.inputs.dropped)

    def press(self, button: str, hold: bool = False) -> Future[Snapshot]:
        """Simulated finger on the button's mock pin (sim only); returns at once.

        The future resolves with the table's snapshot once the press has been
        handled: the finger let go, the button panel turned the edges into
        inputs, and the writer thread ran the panel on them (its queue is
        first in, first out, so a snapshot read queued after the inputs sees
        their effect). KeyError (at once) for a button with no pin; the future
        is cancelled if the companion shuts down first.
        """
        if self.finger is None:
            raise RuntimeError("only simulated buttons can be pressed from software")
        handled: Future[Snapshot] = Future()

        # Each step is queued from the thread that finished the one before,
        # so no thread waits on another.
        def released(step: Future[None]) -> None:
            if _succeeded(step, handled):
                self.buttons.drained().add_done_callback(drained)

        def drained(step: Future[None]) -> None:
            if _succeeded(step, handled):
                try:
                    self.runner.submit(lambda table: table.snapshot).add_done_callback(read)
                except RuntimeError:  # the runner closed meanwhile
                    handled.cancel()

        def read(step: Future[Snapshot]) -> None:
            if _succeeded(step, handled):
                handled.set_result(step.result())

        self.finger.press(button, hold).add_done_callback(released)
        return handled

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


def _log_failure(handled: Future[Any], inp: Input) -> None:
    """Log what handling ``inp`` raised: nobody else reads an input's future, and a
    fault the panel could not show itself must not pass in silence."""
    if not handled.cancelled() and (err := handled.exception()) is not None:
        log.error("handling %s failed", inp, exc_info=err)


def _succeeded(step: Future[Any], outcome: Future[Any]) -> bool:
    """Whether ``step`` succeeded; if not, ``outcome`` ends the same way."""
    if step.cancelled():
        outcome.cancel()
        return False
    if (err := step.exception()) is not None:
        outcome.set_exception(err)
        return False
    return True


#: Seat buttons the simulator offers when no config names any.
SIM_SEATS = (20, 21, 16, 26)


#: The file in the data folder that keeps a made-up host PIN from one start to the next.
PIN_FILE = "host_pin"


def host_pin(args: argparse.Namespace, cfg: Config, data: Path | None = None) -> Pin:
    """The host PIN: --pin, else the config, else $COMPANION_PIN, else the PIN kept in
    ``data`` (made up at an earlier start), else a new random one, kept there.

    A kept PIN keeps hosts logged in across restarts (a new PIN logs every
    host out). ``--new-pin`` makes a new one. The file is the service's own
    (mode 0600); one that does not hold a PIN is set aside, named in the log,
    and replaced. Raises ConfigError for a chosen PIN that is not 4-12 digits.
    """
    for source, pin in (("--pin", args.pin), ("[web] pin", cfg.web.pin),
                        ("COMPANION_PIN", os.environ.get("COMPANION_PIN"))):
        if pin:
            if not config_module.valid_pin(pin):
                raise config_module.ConfigError(_("the host PIN ({source}) must be 4 to 12 "
                                                  "digits 0-9", source=source))
            return Pin(pin, "chosen")
    if data is None:
        return Pin(new_pin(), "new")
    return kept_pin(data / PIN_FILE, renew=getattr(args, "new_pin", False))


def host_banner(pin: Pin) -> Text | None:
    """The banner's host PIN, with where it comes from (None for a chosen PIN, which the
    user knows)."""
    if pin.source == "kept":
        return _("{pin} (as at the last start; --new-pin makes a new one)", pin=pin.pin)
    if pin.source == "new":
        return _("{pin} (new, kept for the next starts; --pin chooses one)", pin=pin.pin)
    if pin.source == "unkept":
        return _("{pin} (new for this start only: see the log)", pin=pin.pin)
    return None


def banner(companion: Companion, cfg: Config, sim: bool, pin: Pin) -> list[str]:
    """What ``companion run`` prints once it serves: where the pages are, the host PIN,
    damage found at start, the serial pad and the broker; in the language spoken. Each
    line's label is padded to the longest label in that language."""
    rows: list[tuple[Text, object]] = [(_("Spectators:"), url) for url in companion.urls]
    if companion.urls:
        rows.append((_("Host:"), companion.urls[0] + "host"))
        if sim:
            rows.append((_("Simulator:"), companion.urls[0] + "sim"))
    if (line := host_banner(pin)) is not None:
        rows.append((_("Host PIN:"), line))
    if companion.kept is not None:
        count = (_("an unknown number of") if companion.lost is None
                 else str(companion.lost))
        rows.append((_("DAMAGED:"), _("{count} changes lost; the damaged files are in "
                                      "{folder} (the log says more)", count=count,
                                      folder=companion.kept)))
    if cfg.serial.url:
        rows.append((_("Serial pad:"), cfg.serial.url))
    if companion.publisher is not None:
        info = companion.mqtt_info
        rows.append((C_("banner", "MQTT:"), _("{url} as table {id} ({name})",
                                              url=cfg.mqtt.url, id=info.id, name=info.name)))
    first = (_("Table Companion running with simulated hardware; data in {folder}",
               folder=cfg.table.data) if sim else
             _("Table Companion running with GPIO buttons and OLED; data in {folder}",
               folder=cfg.table.data))
    labels = [translate(label) for label, _value in rows]
    width = max(map(len, labels), default=0) + 1
    return [translate(first), *(f"  {label:<{width}}{translate(value)}"
                                for label, (_label, value) in zip(labels, rows, strict=True))]


def ipv6_warning(host: str) -> str | None:
    """Why serving on ``host`` weakens the per-address bounds (None: it does not).

    On IPv6 a device can take any number of addresses of its network's /64,
    so the bounds per client address (connections, streams, wrong PINs) do
    not hold a stranger there (docs/api.md).
    """
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None  # a name or an IPv4 address
    if address.version != 6 or address.is_loopback:
        return None
    # Logged (the log stays English).
    return (f"serving on IPv6 ({host}): a device there can use many addresses, "  # i18n: not said
            "so the limits per client address do not hold on an open network; serve on IPv4 "
            "([web] host = \"0.0.0.0\") there")


def feed_watchdog(runner: TableRunner, notify: sdnotify.SystemdNotifier,
                  server: WebServer | None = None, limit: float = STALL_LIMIT) -> bool:
    """Feed systemd's watchdog unless the table's writer is stuck or the web server dead.

    Returns whether it was fed. Stuck means one piece of work running past
    ``limit``, not a long queue: a writer working through slow commits is
    healthy, and a restart would only throw its queue away. A dead web
    server (``server.healthy()`` false) leaves every phone hanging for good
    while the table works, so systemd restarts that too.
    """
    if runner.stalled(limit):
        log.error("the table's writer thread has been stuck for over %g s", limit)
        return False
    if server is not None and not server.healthy():
        log.error("the web server is not serving; not feeding the watchdog")
        return False
    notify.notify("WATCHDOG=1")
    return True


def sim_seats(cfg: Config) -> Config:
    """The simulator's config: its four seat buttons (:data:`SIM_SEATS`) when ``cfg``
    names none, on pins it leaves free (a config tried with ``--sim --config`` keeps the
    simulator's seat buttons); ``cfg`` as it is when it names seat buttons, or uses one
    of those pins (logged: the simulator then has none)."""
    if cfg.buttons.seats:
        return cfg
    taken = {pin: what for pin, what in config_module.claimed_pins(cfg).items() if pin in SIM_SEATS}
    if taken:
        log.warning("the simulator has no seat buttons: %s", ", ".join(
            f"GPIO {pin} is used by {what}" for pin, what in sorted(taken.items())))
        return cfg
    return replace(cfg, buttons=replace(cfg.buttons, seats=SIM_SEATS))


def run(args: argparse.Namespace) -> int:
    """``companion run``: serve until SIGTERM or SIGINT, then shut down cleanly."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    cfg = load_config(args.config)
    data = args.data
    if data is None and args.sim and args.config is None:
        data = default_data_dir()  # a PC without a config: the user's folder
    if data is not None:
        cfg = replace(cfg, table=replace(cfg.table, data=data))
    if args.sim:
        cfg = sim_seats(cfg)
    term = getattr(args, "terminal", None)
    try:
        return _serve(args, cfg)
    except CompanionError as err:
        if term is not None and term.named is not None:
            raise  # the command line says it in the terminal's language (app/cli.py)
        # Where the environment names no language (a service's usual case), a start
        # refused once the config is read is said as the banner is: in the table's own.
        with speaking(starting_language(cfg.table.data, cfg.table.language)):
            return refused(err)


def _serve(args: argparse.Namespace, cfg: Config) -> int:
    """``companion run`` with its config read: start, serve, stop."""
    pin = host_pin(args, cfg, cfg.table.data)
    host = args.host or ("127.0.0.1" if args.sim else cfg.web.host)
    port = cfg.web.port if args.port is None else args.port
    # SIGTERM and SIGINT are blocked (in every thread started from here on) and taken by
    # serve_until_stopped below, synchronously; a stop and continue is not one of them.
    block_stop_signals()
    # Before any thread starts: what a burst of readers made is given back to the system
    # once they are gone, not kept in an arena per thread nor among the arenas' small
    # blocks (web/memory.py).
    limit_arenas()
    map_large()
    # `kill -USR1` writes every thread's stack to stderr (the journal on the Pi): what a
    # table that seems stuck is doing, without stopping it.
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    notify = sdnotify.SystemdNotifier()
    web = WebOptions(host=host, port=port, pin=pin.pin)
    with Companion(cfg, sim=args.sim, data=cfg.table.data, web=web,
                   mqtt_password=os.environ.get(MQTT_PASSWORD_ENV) or None,
                   catalog=args.catalog) as companion:
        tune_for_presses()
        # The terminal's language; where its environment names none, the table's.
        term = getattr(args, "terminal", None)
        spoken = companion.ctx.language if term is None or term.named is None \
            else term.language
        with speaking(spoken):
            print(*banner(companion, cfg, args.sim, pin), sep="\n")
        if (warning := ipv6_warning(host)) is not None:
            log.warning("%s", warning)
        sys.stdout.flush()
        # What starting took and let go (modules' code read and compiled, the database
        # checked) goes back to the system: 1.5-2.5 MB of RSS (web/memory.py).
        give_back()
        notify.notify("READY=1")
        serve_until_stopped(lambda: feed_watchdog(companion.runner, notify, companion.server),
                            watchdog_every(default=WATCHDOG_EVERY))
        notify.notify("STOPPING=1")
        with speaking(spoken):
            stopped = translate(_("Table Companion stopped."))
    print(stopped, flush=True)
    return 0
