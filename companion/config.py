"""The TOML configuration, checked key by key.

Every key is optional; ``config.example.toml`` at the repository root lists
them all with their defaults. A broken file raises :class:`ConfigError`
naming the file, the key and what is wrong, and nothing starts half
configured. Unknown keys are errors too, so a typo never passes silently.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from companion.errors import CompanionError

#: BCM numbers of the Raspberry Pi header's general purpose pins.
GPIO_PINS = range(2, 28)
PIN_BACKENDS = ("lgpio", "rpigpio")
DISPLAY_DRIVERS = ("ssd1306", "sh1106")
DISPLAY_INTERFACES = ("i2c", "spi")
MAX_SEATS = 4


class ConfigError(CompanionError, ValueError):
    """The configuration file is unreadable or a key in it is wrong."""


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


@dataclass(frozen=True)
class LedsConfig:
    """Optional seat LEDs (one pin per seat, seat order)."""

    seats: tuple[int, ...] = ()


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


@dataclass(frozen=True)
class SerialConfig:
    """An optional serial pad: seat buttons in, scoreboard lines out."""

    url: str | None = None
    baudrate: int = 115200


@dataclass(frozen=True)
class WebConfig:
    """The phone pages."""

    host: str = "0.0.0.0"
    port: int = 8080
    pin: str | None = None
    max_streams: int = 200


@dataclass(frozen=True)
class TableConfig:
    """The table itself: where matches are kept and the names offered."""

    data: Path = Path("/var/lib/companion")
    names: tuple[str, ...] = ("Player 1", "Player 2", "Player 3", "Player 4")


@dataclass(frozen=True)
class Config:
    """The whole configuration."""

    table: TableConfig = field(default_factory=TableConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    encoder: EncoderConfig = field(default_factory=EncoderConfig)
    leds: LedsConfig = field(default_factory=LedsConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    serial: SerialConfig = field(default_factory=SerialConfig)
    web: WebConfig = field(default_factory=WebConfig)


def load(path: Path | None) -> Config:
    """The configuration in ``path`` (all defaults when None).

    Raises ConfigError naming the file, the key and the problem.
    """
    if path is None:
        return Config()
    try:
        with open(path, "rb") as f:
            raw = tomllib.load(f)
    except OSError as err:
        raise ConfigError(f"cannot read the config file {path}: {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path} is not valid TOML: {err}") from None
    try:
        return parse(raw)
    except ConfigError as err:
        raise ConfigError(f"{path}: {err}") from None


def parse(raw: Mapping[str, Any]) -> Config:
    """A checked Config from parsed TOML; ConfigError names the bad key."""
    _unknown(raw, _SECTION_TYPES, "")
    built = {}
    for name in _SECTION_TYPES:
        table = raw.get(name, {})
        if not isinstance(table, Mapping):
            raise ConfigError(f"[{name}] must be a table of keys")
        built[name] = _section(name, table)
    config = Config(**built)
    _check(config)
    return config


_SECTION_TYPES = {
    "table": TableConfig, "buttons": ButtonsConfig, "encoder": EncoderConfig,
    "leds": LedsConfig, "display": DisplayConfig, "serial": SerialConfig, "web": WebConfig,
}


def _section(name: str, table: Mapping[str, Any]) -> Any:
    cls = _SECTION_TYPES[name]
    defaults = cls()
    known = {f.name for f in fields(cls)}
    _unknown(table, known, name)
    values = {}
    for key, value in table.items():
        default = getattr(defaults, key)
        values[key] = _convert(f"[{name}] {key}", value, default, cls.__annotations__[key])
    return cls(**values)


def _convert(where: str, value: Any, default: Any, annotation: str) -> Any:
    if annotation == "Path":
        if not isinstance(value, str) or not value:
            raise ConfigError(f"{where}: must be a folder path (a string)")
        return Path(value).expanduser()
    if annotation.startswith("tuple"):
        item = str if "str" in annotation else int
        if not isinstance(value, list) or not all(type(v) is item for v in value):
            kind = "strings" if item is str else "whole numbers"
            raise ConfigError(f"{where}: must be a list of {kind}, got {value!r}")
        return tuple(value)
    if annotation == "bool":
        if type(value) is not bool:
            raise ConfigError(f"{where}: must be true or false, got {value!r}")
        return value
    if annotation == "float":
        if type(value) not in (int, float) or value < 0:
            raise ConfigError(f"{where}: must be a number of seconds >= 0, got {value!r}")
        return float(value)
    if "int" in annotation:
        if type(value) is not int:
            raise ConfigError(f"{where}: must be a whole number, got {value!r}")
        return value
    if "str" in annotation:
        if not isinstance(value, str):
            raise ConfigError(f"{where}: must be a string, got {value!r}")
        return value
    raise AssertionError(f"no conversion for {annotation}")  # pragma: no cover


def _unknown(table: Mapping[str, Any], known: Any, section: str) -> None:
    for key in table:
        if key not in known:
            where = f"[{section}] " if section else ""
            raise ConfigError(
                f"{where}unknown key {key!r}; known keys: {', '.join(sorted(known))}"
            )


def _check(config: Config) -> None:
    """Checks that span values: ranges, choices and pins used twice."""
    b, e, d, w = config.buttons, config.encoder, config.display, config.web
    _one_of("[buttons] backend", b.backend, PIN_BACKENDS)
    _one_of("[display] driver", d.driver, DISPLAY_DRIVERS)
    _one_of("[display] interface", d.interface, DISPLAY_INTERFACES)
    _one_of("[display] rotate", d.rotate, (0, 1, 2, 3))
    if len(b.seats) > MAX_SEATS:
        raise ConfigError(f"[buttons] seats: at most {MAX_SEATS} seat buttons")
    if len(config.leds.seats) > MAX_SEATS:
        raise ConfigError(f"[leds] seats: at most {MAX_SEATS} seat LEDs")
    if (e.a is None) != (e.b is None):
        raise ConfigError("[encoder]: set both a and b (or neither)")
    if not 0.05 <= b.hold_time <= 5:
        raise ConfigError(f"[buttons] hold_time: must be 0.05-5 seconds, got {b.hold_time}")
    if not 0.001 <= b.debounce <= 0.2:
        raise ConfigError(f"[buttons] debounce: must be 0.001-0.2 seconds, got {b.debounce}")
    if not 0x03 <= d.i2c_address <= 0x77:
        raise ConfigError(f"[display] i2c_address: {d.i2c_address:#x} is not a 7-bit address")
    for key in ("contrast", "dim_contrast"):
        if not 0 <= getattr(d, key) <= 255:
            raise ConfigError(f"[display] {key}: must be 0-255")
    if not 1 <= w.port <= 65535:
        raise ConfigError(f"[web] port: must be 1-65535, got {w.port}")
    if w.max_streams < 1:
        raise ConfigError("[web] max_streams: must be at least 1")
    if w.pin is not None and not (w.pin.isdigit() and 4 <= len(w.pin) <= 12):
        raise ConfigError("[web] pin: must be 4 to 12 digits")
    if not config.table.names or any(not n.strip() or len(n) > 16 for n in config.table.names):
        raise ConfigError("[table] names: 1-16 characters each, at least one name")
    # The display's bus pins are taken before any button may claim them.
    if config.display.interface == "i2c":
        pins = {2: "the I2C bus (SDA)", 3: "the I2C bus (SCL)"}
    else:
        pins = {8: "the SPI bus (CE0)", 9: "the SPI bus (MISO)", 10: "the SPI bus (MOSI)",
                11: "the SPI bus (SCLK)"}
    for where, pin in _pins(config):
        if pin not in GPIO_PINS:
            raise ConfigError(f"{where}: GPIO {pin} is not a BCM pin number 2-27")
        if pin in pins:
            raise ConfigError(f"{where}: GPIO {pin} is already used by {pins[pin]}")
        pins[pin] = where


def _pins(config: Config) -> list[tuple[str, int]]:
    b, e = config.buttons, config.encoder
    pins = [(f"[buttons] {k}", getattr(b, k)) for k in ("prev", "next", "ok", "back")]
    pins += [(f"[buttons] seats[{i}]", p) for i, p in enumerate(b.seats)]
    pins += [(f"[encoder] {k}", getattr(e, k)) for k in ("a", "b", "button")
             if getattr(e, k) is not None]
    pins += [(f"[leds] seats[{i}]", p) for i, p in enumerate(config.leds.seats)]
    if config.display.interface == "spi":
        pins += [("[display] gpio_dc", config.display.gpio_dc),
                 ("[display] gpio_rst", config.display.gpio_rst)]
    return pins


def _one_of(where: str, value: Any, allowed: tuple[Any, ...]) -> None:
    if value not in allowed:
        raise ConfigError(f"{where}: must be one of {', '.join(map(str, allowed))}; "
                          f"got {value!r}")
