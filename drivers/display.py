"""The OLED through luma.oled: opening the device, and caring for the panel.

:func:`open_device` gives an ssd1306 or sh1106 on I2C or SPI as configured,
or luma's ``dummy`` device (which keeps the last frame) for --sim and tests.
A missing bus or a permission problem is a HardwareError naming the device
file and the fix.

:class:`Oled` shows panel states on a device from its own thread, so the
table's writer thread never waits for the I2C wire. It sends a frame only
when the pixels changed; after ``dim_after`` idle seconds it lowers the
contrast and shifts the picture by a pixel every ``shift_every`` seconds to
spare the OLED; any button wakes it.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from luma.core.device import device as LumaDevice
from luma.core.device import dummy
from PIL import Image

from companion.config import (
    GPIO_PINS,
    MAX_SECONDS,
    SECONDS,
    ConfigError,
    Section,
    one_of,
    within,
)
from companion.i18n import _
from companion.subscribers import Subscribers
from drivers.errors import (
    DeviceNotFoundError,
    DevicePermissionError,
    HardwareError,
    require_device,
)

log = logging.getLogger(__name__)

WIDTH, HEIGHT = 128, 64
#: Where the picture sits while dimmed, in turn: a small square walk.
SHIFTS = ((0, 0), (1, 0), (1, 1), (0, 1))
#: The longest the display thread sleeps: it looks again at least this often.
MAX_WAIT = 3600.0


# --- the [display] section of the config file -------------------------------------

DISPLAY_DRIVERS = ("ssd1306", "sh1106")
DISPLAY_INTERFACES = ("i2c", "spi")


@dataclass(frozen=True)
class DisplayConfig:
    """The OLED and how it is cared for."""

    driver: str = "ssd1306"
    interface: str = "i2c"
    i2c_port: int = 1
    i2c_address: int = 0x3C
    spi_port: int = 0
    spi_device: int = 0
    gpio_dc: int = 24
    gpio_rst: int = 25
    rotate: int = 0
    contrast: int = 255
    dim_after: float = 300.0
    dim_contrast: int = 8
    shift_every: float = 60.0


def _check_display(d: DisplayConfig) -> None:
    one_of("[display] driver", d.driver, DISPLAY_DRIVERS)
    one_of("[display] interface", d.interface, DISPLAY_INTERFACES)
    one_of("[display] rotate", d.rotate, (0, 1, 2, 3))
    for key in ("i2c_port", "spi_port", "spi_device"):
        # The bus numbers of /dev/i2c-N and /dev/spidevN.M.
        within(f"[display] {key}", getattr(d, key), 0, 255)
    if not 0x03 <= d.i2c_address <= 0x77:
        address = hex(d.i2c_address)
        raise ConfigError(_("{key}: {value} is not a 7-bit address",
                            key="[display] i2c_address", value=address))
    for key in ("contrast", "dim_contrast"):
        within(f"[display] {key}", getattr(d, key), 0, 255)
    within("[display] dim_after", d.dim_after, 0, MAX_SECONDS, SECONDS)
    if d.shift_every != 0:
        # Each shift redraws the panel: more often than once a second only loads the bus.
        within("[display] shift_every", d.shift_every, 1, MAX_SECONDS,
               _("seconds (or 0: never shift)"))
    if d.interface == "i2c":
        # Unused with I2C (so claimed by no one), but a later switch to SPI should
        # not find them broken.
        for key in ("gpio_dc", "gpio_rst"):
            if getattr(d, key) not in GPIO_PINS:
                where = f"[display] {key}"
                raise ConfigError(_("{key}: GPIO {pin} is not a BCM pin number 2-27",
                                    key=where, pin=getattr(d, key)))


def _display_pins(d: DisplayConfig) -> list[tuple[str, int]]:
    if d.interface == "spi":
        return [("[display] gpio_dc", d.gpio_dc), ("[display] gpio_rst", d.gpio_rst)]
    return []


def _display_bus(d: DisplayConfig) -> dict[int, str]:
    """The bus's pins, taken before any button may claim them."""
    if d.interface == "i2c":
        return {2: "the I2C bus (SDA)", 3: "the I2C bus (SCL)"}
    return {8: "the SPI bus (CE0)", 9: "the SPI bus (MISO)", 10: "the SPI bus (MOSI)",
            11: "the SPI bus (SCLK)"}


DISPLAY = Section("display", DisplayConfig, check=_check_display, pins=_display_pins,
                  buses=_display_bus)


def open_device(cfg: DisplayConfig, sim: bool, dev: Path = Path("/dev")) -> LumaDevice:
    """The configured display (``persist`` set, so a restart does not blank it)."""
    if sim:
        device = dummy(width=WIDTH, height=HEIGHT, rotate=cfg.rotate, mode="1")
    else:
        device = _open_hardware(cfg, dev)
        device.contrast(cfg.contrast)
    device.persist = True
    return device


def _open_hardware(cfg: DisplayConfig, dev: Path) -> LumaDevice:
    from luma.core.error import DeviceAddressError
    from luma.core.error import DeviceNotFoundError as LumaNotFound
    from luma.core.error import DevicePermissionError as LumaPermission
    from luma.core.interface.serial import i2c, spi
    from luma.oled.device import sh1106, ssd1306

    if cfg.interface == "i2c":
        path = dev / f"i2c-{cfg.i2c_port}"
        fix = ("enable I2C (sudo raspi-config nonint do_i2c 0, or dtparam=i2c_arm=on in "
               "/boot/firmware/config.txt) and reboot; check [display] i2c_port")
    else:
        path = dev / f"spidev{cfg.spi_port}.{cfg.spi_device}"
        fix = ("enable SPI (sudo raspi-config nonint do_spi 0) and reboot; "
               "check [display] spi_port and spi_device")
    require_device(path, "i2c" if cfg.interface == "i2c" else "spi", fix)
    try:
        if cfg.interface == "i2c":
            serial = i2c(port=cfg.i2c_port, address=cfg.i2c_address)
        else:
            serial = spi(port=cfg.spi_port, device=cfg.spi_device, gpio_DC=cfg.gpio_dc,
                         gpio_RST=cfg.gpio_rst)
        kind = ssd1306 if cfg.driver == "ssd1306" else sh1106
        return kind(serial, width=WIDTH, height=HEIGHT, rotate=cfg.rotate)
    except LumaNotFound as err:
        raise DeviceNotFoundError(f"{err}: {fix}") from None
    except LumaPermission as err:
        raise DevicePermissionError(f"{err}: add this user to the 'i2c' group") from None
    except DeviceAddressError as err:
        raise HardwareError(f"{err}: check [display] i2c_address") from None
    except OSError as err:
        # Typically errno 121 (remote I/O): nothing answers at that address.
        raise HardwareError(
            f"the display at {path}, address {cfg.i2c_address:#04x}, does not answer ({err}); "
            "check the wiring and the address (i2cdetect -y "
            f"{cfg.i2c_port} lists what is on the bus)"
        ) from None


class Oled:
    """Shows frames on a luma device from its own thread; see the module docstring.

    ``render(state)`` turns whatever :meth:`update` receives into a 128x64
    image. ``clock`` is injectable for tests of dimming.
    """

    def __init__(self, device: LumaDevice, cfg: DisplayConfig,
                 render: Callable[[Any], Image.Image],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.device = device
        self.cfg = cfg
        self._render = render
        self._clock = clock
        self._wake = threading.Condition()
        self._state: Any = None
        self._pending = False
        self._last_activity = clock()
        self._closed = False
        self.dimmed = False
        self.shift = (0, 0)
        self.frames_sent = 0
        self._last_bytes: bytes | None = None
        #: Told about each frame that reached the device (simulator page, tests).
        self.frames: Subscribers[Image.Image] = Subscribers()
        self._thread = threading.Thread(target=self._run, name="oled", daemon=True)
        self._thread.start()

    def update(self, state: Any) -> None:
        """Show ``state`` soon (only the newest state is drawn). Never blocks."""
        with self._wake:
            self._state, self._pending = state, True
            self._wake.notify()

    def activity(self) -> None:
        """A button was pressed: undim and restart the idle timer."""
        with self._wake:
            self._last_activity = self._clock()
            self._wake.notify()

    def close(self) -> None:
        """Stop drawing; the last frame stays on the panel (persist)."""
        with self._wake:
            if self._closed:
                return
            self._closed = True
            self._wake.notify()
        self._thread.join(5)

    def _run(self) -> None:
        image: Image.Image | None = None
        while True:
            with self._wake:
                timeout = self._next_change()
                if not self._pending and not self._closed:
                    self._wake.wait(timeout)
                if self._closed:
                    return
                state, pending = self._state, self._pending
                self._pending = False
            try:
                if pending:
                    image = self._render(state)
                self._care()
                if image is not None:
                    self._show(image)
            except Exception:  # an I2C hiccup must not end the display for good
                log.exception("the display could not be updated")

    def _next_change(self) -> float | None:
        """Seconds until dimming or the next pixel shift is due (None: never).

        Always a wait the thread can take: 0 to MAX_WAIT, whatever the
        timings (its config section refuses nan and inf, but a wait computed from one
        would spin the thread, nan, or end it, inf overflows the lock's timeout).
        """
        now = self._clock()
        if not self.dimmed:
            return _bounded(self._last_activity + self.cfg.dim_after - now)
        if self._last_activity + self.cfg.dim_after > now:
            return 0.0  # woken: undim now
        if not self.cfg.shift_every > 0:
            return None
        dim_at = self._last_activity + self.cfg.dim_after
        elapsed = now - dim_at
        return _bounded(self.cfg.shift_every - elapsed % self.cfg.shift_every)

    def _care(self) -> None:
        idle = self._clock() - self._last_activity
        dimmed = idle >= self.cfg.dim_after
        if dimmed != self.dimmed:
            self.dimmed = dimmed
            self.device.contrast(self.cfg.dim_contrast if dimmed else self.cfg.contrast)
        if dimmed and self.cfg.shift_every > 0:
            step = (idle - self.cfg.dim_after) // self.cfg.shift_every
            self.shift = SHIFTS[int(step) % len(SHIFTS)] if math.isfinite(step) else (0, 0)
        else:
            self.shift = (0, 0)

    def _show(self, image: Image.Image) -> None:
        if self.shift != (0, 0):
            moved = Image.new(image.mode, image.size, 0)
            moved.paste(image, self.shift)
            image = moved
        data = image.tobytes()
        if data == self._last_bytes:
            return
        self.device.display(image)
        self._last_bytes = data
        self.frames_sent += 1
        self.frames.notify(image)


def _bounded(wait: float) -> float:
    """``wait`` within 0..MAX_WAIT; MAX_WAIT for nan (a wait that never comes due)."""
    return MAX_WAIT if math.isnan(wait) else min(max(0.0, wait), MAX_WAIT)
