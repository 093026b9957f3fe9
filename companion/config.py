"""The TOML configuration, checked key by key.

Every key is optional; ``config.example.toml`` at the repository root lists
them all with their defaults. A broken file raises :class:`ConfigError`
naming the file, the key and what is wrong, and nothing starts half
configured. Unknown keys are errors too, so a typo never passes silently.
"""

from __future__ import annotations

import codecs
import ipaddress
import math
import os
import re
import ssl
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from companion.catalog import GAMES
from companion.errors import CompanionError
from companion.games.base import MAX_NAME
from companion.inputs import PANEL, SEATS
from companion.topics import DEFAULT_PREFIX, DISCOVERY_PREFIX, prefix_problem, valid_table_id

#: BCM numbers of the Raspberry Pi header's general purpose pins.
GPIO_PINS = range(2, 28)
PIN_BACKENDS = ("lgpio", "rpigpio")
DISPLAY_DRIVERS = ("ssd1306", "sh1106")
DISPLAY_INTERFACES = ("i2c", "spi")
MAX_SEATS = len(SEATS)
#: Names the setup screen can offer; more only make its list long.
MAX_NAMES = 32
#: The longest wait any timing key may ask for: a day.
MAX_SECONDS = 86400.0
#: The slowest and fastest rates pyserial names (``serial.Serial.BAUDRATES``).
BAUDRATES = (50, 4_000_000)
#: Phone streams one process serves at most: each holds an open connection
#: (a file descriptor) and may hold a worker thread, created at start.
MAX_STREAMS = 1000
#: The broker's port when its URL names none: plain MQTT and MQTT over TLS.
#: The environment variable that holds the broker's password (never a file or an argument).
MQTT_PASSWORD_ENV = "COMPANION_MQTT_PASSWORD"
#: The port a broker URL without one means, by scheme.
MQTT_PORTS = {"mqtt": 1883, "mqtts": 8883}
#: Longest display name of a table (the hall's card and Home Assistant show it).
MAX_TABLE_NAME = 64
#: A host name as RFC 1123 spells one: dot-separated labels of letters, digits, hyphens.
_HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")


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
    #: Live streams one client address may hold: a phone shows one page (a
    #: few tabs at most), and a stranger must not take every place.
    streams_per_address: int = 8


@dataclass(frozen=True)
class BrokerAddress:
    """Where an MQTT broker is: ``mqtt://host[:port]``, or ``mqtts://`` for TLS."""

    host: str
    port: int
    tls: bool

    @classmethod
    def parse(cls, url: str) -> BrokerAddress:
        """The address in ``url``; ConfigError saying what is wrong (the caller names
        where the URL came from)."""
        example = "e.g. mqtt://broker.local or mqtts://broker.local:8883"
        if not url.isprintable() or not url.isascii():
            raise ConfigError(f"{url!r} holds a character a URL cannot hold")
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as err:
            why = "port must be 1-65535" if "port" in str(err).lower() else str(err)
            raise ConfigError(f"{url!r} is not a broker URL ({why}); {example}") from None
        if parts.scheme not in MQTT_PORTS:
            raise ConfigError(f"the scheme must be mqtt:// or mqtts:// (TLS), got {url!r}")
        if not parts.hostname or not valid_host(parts.hostname):
            raise ConfigError(f"{url!r} names no broker host; {example}")
        if port is not None and not 1 <= port <= 65535:
            raise ConfigError(f"port must be 1-65535, got {port}")
        if parts.username is not None or parts.password is not None:
            raise ConfigError("no user or password in the URL; set the user name apart, "
                              "and the password in COMPANION_MQTT_PASSWORD")
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise ConfigError(f"{url!r}: a broker URL has no path, query or fragment")
        return cls(parts.hostname, port or MQTT_PORTS[parts.scheme], parts.scheme == "mqtts")

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'mqtts' if self.tls else 'mqtt'}://{host}:{self.port}"


def ca_file_problem(path: Path) -> str | None:
    """Why ``path`` cannot be the CA file that checks a broker's certificate, or None."""
    if not path.is_file() or not os.access(path, os.R_OK):
        return f"{path} is not a readable file"
    try:
        ssl.create_default_context(cafile=str(path))
    except (ssl.SSLError, OSError, ValueError) as err:
        return f"{path} holds no CA certificate in PEM form ({err})"
    return None


@dataclass(frozen=True)
class MqttConfig:
    """An optional MQTT broker the table publishes itself to (none by default).

    The password is never here: it comes from ``COMPANION_MQTT_PASSWORD``.
    """

    url: str | None = None
    ca_file: str | None = None
    username: str | None = None
    table: str | None = None
    name: str | None = None
    prefix: str = DEFAULT_PREFIX
    discovery: bool = True
    discovery_prefix: str = DISCOVERY_PREFIX
    page: str | None = None

    @property
    def tls(self) -> bool:
        """Whether the broker is spoken to over TLS (``mqtts://``)."""
        return self.url is not None and self.url.startswith("mqtts://")

    @property
    def address(self) -> BrokerAddress:
        """The broker's host, port and TLS (the url must be set and checked)."""
        return BrokerAddress.parse(self.url or "")

    @property
    def display_name(self) -> str:
        """The table's name in the room: ``name``, else the table id."""
        return self.name or self.table or ""


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
    mqtt: MqttConfig = field(default_factory=MqttConfig)


def load(path: Path | None) -> Config:
    """The configuration in ``path`` (all defaults when None).

    Raises ConfigError naming the file, the key and the problem.
    """
    if path is None:
        return Config()
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise ConfigError(f"cannot read the config file {path}: {err.strerror}") from None
    # A byte order mark some editors write is not an error.
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        raw = tomllib.loads(data[bom:].decode("utf-8"))
    except UnicodeDecodeError as err:
        at = bom + err.start
        bad, line = data[at:at + 1], data.count(b"\n", 0, at) + 1
        raise ConfigError(f"{path} is not UTF-8 text: byte {at} (line {line}) is "
                          f"{bad!r}; save the file as UTF-8") from None
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
    "mqtt": MqttConfig,
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
        if type(value) not in (int, float) or not math.isfinite(value) or value < 0:
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
    b, e, d, s, w = config.buttons, config.encoder, config.display, config.serial, config.web
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
    _within("[buttons] hold_time", b.hold_time, 0.05, 5, " seconds")
    _within("[buttons] debounce", b.debounce, 0.001, 0.2, " seconds")
    for key in ("i2c_port", "spi_port", "spi_device"):
        # The bus numbers of /dev/i2c-N and /dev/spidevN.M.
        _within(f"[display] {key}", getattr(d, key), 0, 255)
    if not 0x03 <= d.i2c_address <= 0x77:
        raise ConfigError(f"[display] i2c_address: {d.i2c_address:#x} is not a 7-bit address")
    for key in ("contrast", "dim_contrast"):
        _within(f"[display] {key}", getattr(d, key), 0, 255)
    _within("[display] dim_after", d.dim_after, 0, MAX_SECONDS, " seconds")
    if d.shift_every != 0:
        # Each shift redraws the panel: more often than once a second only loads the bus.
        _within("[display] shift_every", d.shift_every, 1, MAX_SECONDS,
                " seconds (or 0: never shift)")
    if s.url is not None and (not s.url.strip() or not s.url.isprintable()):
        raise ConfigError(f"[serial] url: must be a device path or pyserial URL such as "
                          f"/dev/ttyUSB0, got {s.url!r}; leave it out for no pad")
    _within("[serial] baudrate", s.baudrate, *BAUDRATES)
    if not valid_host(w.host):
        raise ConfigError(f"[web] host: {w.host!r} is not an IP address or host name; "
                          "0.0.0.0 serves on every address")
    _within("[web] port", w.port, 1, 65535)
    _within("[web] max_streams", w.max_streams, 1, MAX_STREAMS)
    _within("[web] streams_per_address", w.streams_per_address, 1, MAX_STREAMS)
    if w.pin is not None and not valid_pin(w.pin):
        raise ConfigError("[web] pin: must be 4 to 12 digits")
    _check_table(config.table)
    _check_mqtt(config.mqtt)
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
    if config.display.interface == "i2c":
        # Unused with I2C, but a later switch to SPI should not find them broken.
        for key in ("gpio_dc", "gpio_rst"):
            if getattr(d, key) not in GPIO_PINS:
                raise ConfigError(f"[display] {key}: GPIO {getattr(d, key)} is not a BCM pin "
                                  "number 2-27")


def _check_table(table: TableConfig) -> None:
    """A usable folder path; names a match can start with, enough for every game's seats."""
    if any(c < " " or c == "\x7f" for c in str(table.data)):
        raise ConfigError(f"[table] data: {str(table.data)!r} holds a control character")
    # The setup screen seats the first names: each game's minimum must be there.
    least = max(game.seats[0] for game in GAMES.values())
    names = table.names
    if not least <= len(names) <= MAX_NAMES:
        raise ConfigError(f"[table] names: {least} to {MAX_NAMES} names, got {len(names)}")
    for i, name in enumerate(names):
        if not name.strip() or len(name) > MAX_NAME or not name.isprintable():
            raise ConfigError(f"[table] names[{i}]: {name!r} is not a name of 1-{MAX_NAME} "
                              "printable characters")
    if len({" ".join(n.split()).casefold() for n in names}) != len(names):
        raise ConfigError("[table] names: each name only once (the same name twice cannot "
                          "play one match)")


def _check_mqtt(m: MqttConfig) -> None:
    """The broker's address, the table's identity and the topic prefixes."""
    if m.url is None:
        for key in ("ca_file", "username", "table", "name", "page"):
            if getattr(m, key) is not None:
                raise ConfigError(f"[mqtt] {key}: set url too (or leave [mqtt] out: no broker)")
        return
    try:
        BrokerAddress.parse(m.url)
    except ConfigError as err:
        raise ConfigError(f"[mqtt] url: {err}") from None
    if m.ca_file is not None:
        if not m.tls:
            raise ConfigError("[mqtt] ca_file: only with an mqtts:// url (TLS)")
        if (problem := ca_file_problem(Path(m.ca_file).expanduser())) is not None:
            raise ConfigError(f"[mqtt] ca_file: {problem}")
    if m.username is not None and (not m.username or not m.username.isprintable()):
        raise ConfigError("[mqtt] username: must be printable text, not empty")
    if m.table is None:
        raise ConfigError("[mqtt] table: required with url: the table's id, e.g. "
                          "table = \"table-3\"")
    if not valid_table_id(m.table):
        raise ConfigError(f"[mqtt] table: {m.table!r} is not a table id: 1-32 of a-z, 0-9, "
                          "- and _, a letter or digit at each end")
    if m.name is not None and (not m.name.strip() or len(m.name) > MAX_TABLE_NAME
                               or not m.name.isprintable()):
        raise ConfigError(f"[mqtt] name: {m.name!r} is not a name of 1-{MAX_TABLE_NAME} "
                          "printable characters")
    for key in ("prefix", "discovery_prefix"):
        if (problem := prefix_problem(getattr(m, key))) is not None:
            raise ConfigError(f"[mqtt] {key}: {getattr(m, key)!r} {problem}")
    if m.page is not None:
        page = urlsplit(m.page) if m.page.isprintable() else None
        if page is None or page.scheme not in ("http", "https") or not page.hostname:
            raise ConfigError(f"[mqtt] page: {m.page!r} is not an http:// or https:// "
                              "address")


def valid_host(host: str) -> bool:
    """Whether ``host`` is an IP address (v4 or v6) or a well-formed host name."""
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    name = host.removesuffix(".")
    return 0 < len(name) <= 253 and all(_HOST_LABEL.fullmatch(p) for p in name.split("."))


def valid_pin(pin: str) -> bool:
    """Whether ``pin`` is a host PIN: 4 to 12 ASCII digits."""
    return pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 12


def _within(where: str, value: float, low: float, high: float, unit: str = "") -> None:
    if not low <= value <= high:
        raise ConfigError(f"{where}: must be {_number(low)}-{_number(high)}{unit}, "
                          f"got {_number(value)}")


def _number(value: float) -> str:
    """``value`` as written in TOML: 5 rather than 5.0."""
    return str(int(value)) if float(value).is_integer() else str(value)


def _pins(config: Config) -> list[tuple[str, int]]:
    b, e = config.buttons, config.encoder
    pins = [(f"[buttons] {k}", getattr(b, k)) for k in PANEL]
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
