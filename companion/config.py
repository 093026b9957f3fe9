"""The TOML configuration, checked key by key: the generic part.

Every key is optional; ``config.example.toml`` at the repository root lists
them all with their defaults. A broken file raises :class:`ConfigError`
naming the file, the key and what is wrong, and nothing starts half
configured. Unknown keys are errors too, so a typo never passes silently.

The file is made of sections, and each is declared where its code is (a
:class:`Section`): the table's own ``[table]`` and ``[web]`` here, and each
driver's beside it (``[display]`` in drivers/display.py, ``[mqtt]`` in
drivers/mqtt.py, ...). This module never names a driver's section: the core
may not import the drivers (tests/test_boundaries.py), so the composition
root gathers the sections into its ``Config`` (app/config.py), one field
each, and a new output adds its section there, not here. What spans
sections is generic too: each section names the GPIO pins it claims and
the pins its bus takes, and no pin is claimed twice.
"""

from __future__ import annotations

import codecs
import ipaddress
import math
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Generic, TypeVar

from companion.errors import CompanionError
from companion.games.base import Game
from companion.i18n import Text, _, message
from companion.inputs import SEATS
from companion.names import MAX_NAME, name_key, name_problem

#: BCM numbers of the Raspberry Pi header's general purpose pins.
GPIO_PINS = range(2, 28)
MAX_SEATS = len(SEATS)
#: Names the setup screen can offer; more only make its list long.
MAX_NAMES = 32
#: The longest wait any timing key may ask for: a day.
MAX_SECONDS = 86400.0
#: Phone streams one process serves at most: each holds an open connection
#: (a file descriptor) and may hold a worker thread, created at start.
MAX_STREAMS = 1000
#: A host name as RFC 1123 spells one: dot-separated labels of letters, digits, hyphens.
_HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")  # i18n: not said

T = TypeVar("T")
C = TypeVar("C")


class ConfigError(CompanionError, ValueError):
    """The configuration file is unreadable or a key in it is wrong."""


def _no_check(value: Any) -> None:
    return None


def _no_pins(value: Any) -> list[tuple[str, int]]:
    return []


def _no_bus(value: Any) -> dict[int, str]:
    return {}


@dataclass(frozen=True)
class Section(Generic[T]):
    """One ``[name]`` section of the file, declared beside the code that uses it.

    ``type`` is a frozen dataclass: its fields are the section's keys, their
    annotations the kinds of value (``str``, ``int``, ``float`` seconds,
    ``bool``, ``Path``, ``tuple[int, ...]``, ``tuple[str, ...]``, each may be
    ``| None``) and their defaults the defaults. A value of the wrong kind is
    refused here, as ``[name] key: must be ..., got ...``. ``check`` then
    refuses what the kinds allow but the section does not (ranges, choices,
    keys that go together), raising ConfigError that starts with ``[name]
    key:`` and says why. ``pins`` lists the GPIO pins the section claims,
    each with the key that claims it (``"[leds] seats[0]"``); ``buses`` the
    pins its bus takes before any key may (``{2: "the I2C bus (SDA)"}``).
    """

    name: str
    type: type[T]
    check: Callable[[T], None] = _no_check
    pins: Callable[[T], Iterable[tuple[str, int]]] = _no_pins
    buses: Callable[[T], Mapping[int, str]] = _no_bus


def section(spec: Section[Any]) -> dict[str, Section[Any]]:
    """The metadata of a configuration dataclass's field that holds the section
    ``spec``: ``field(default_factory=spec.type, metadata=section(spec))``."""
    return {"section": spec}


def sections(config_type: type) -> list[Section[Any]]:
    """The sections of the configuration dataclass ``config_type``, in its order."""
    found = []
    for f in fields(config_type):
        spec = f.metadata.get("section")
        # A section's field makes its default with the section's class (typeshed types
        # default_factory as a protocol a class does not structurally match).
        factory: object = f.default_factory
        assert isinstance(spec, Section) and f.name == spec.name \
            and factory is spec.type, f"{f.name}: not a field of section(...)"  # i18n: not said
        found.append(spec)
    return found


def load(path: Path | None, config_type: type[C]) -> C:
    """The configuration in ``path`` (all defaults when None), as ``config_type``
    (a dataclass of :func:`section` fields).

    Raises ConfigError naming the file, the key and the problem.
    """
    if path is None:
        return config_type()
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise ConfigError(_("cannot read the config file {path}: {reason}", path=path,
                              reason=err.strerror or str(err))) from None
    # A byte order mark some editors write is not an error.
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        raw = tomllib.loads(data[bom:].decode("utf-8"))
    except UnicodeDecodeError as err:
        at = bom + err.start
        bad, line = data[at:at + 1], data.count(b"\n", 0, at) + 1
        raise ConfigError(_("{path} is not UTF-8 text: byte {at} (line {line}) is {bad}; "
                            "save the file as UTF-8", path=path, at=at, line=line,
                            bad=repr(bad))) from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(_("{path} is not valid TOML: {reason}", path=path,
                            reason=str(err))) from None
    try:
        return parse(raw, config_type)
    except ConfigError as err:
        raise ConfigError(_("{path}: {problem}", path=path, problem=message(err))) from None


def parse(raw: Mapping[str, Any], config_type: type[C]) -> C:
    """A checked ``config_type`` from parsed TOML; ConfigError names the bad key.

    Every section's kinds first, then each section's own checks, then the
    pins across sections.
    """
    specs = sections(config_type)
    _unknown(raw, [s.name for s in specs], "")
    built = {}
    for spec in specs:
        table = raw.get(spec.name, {})
        if not isinstance(table, Mapping):
            raise ConfigError(_("[{section}] must be a table of keys",
                                section=spec.name))
        built[spec.name] = _section(spec, table)
    for spec in specs:
        spec.check(built[spec.name])
    _check_pins([(spec, built[spec.name]) for spec in specs])
    return config_type(**built)


def _section(spec: Section[Any], table: Mapping[str, Any]) -> Any:
    cls = spec.type
    defaults = cls()
    known = {f.name for f in fields(cls)}
    _unknown(table, known, spec.name)
    values = {}
    for key, value in table.items():
        default = getattr(defaults, key)
        values[key] = _convert(f"[{spec.name}] {key}", value, default, cls.__annotations__[key])
    return cls(**values)


def _convert(where: str, value: Any, default: Any, annotation: str) -> Any:
    if annotation == "object":  # checked where it is used (see the field's comment)
        return value
    if annotation == "Path":  # i18n: not said
        if not isinstance(value, str) or not value:
            raise ConfigError(_("{key}: must be a folder path (a string)", key=where))
        return Path(value).expanduser()
    if annotation.startswith("tuple"):
        item = str if "str" in annotation else int
        if not isinstance(value, list) or not all(type(v) is item for v in value):
            if item is str:
                raise ConfigError(_("{key}: must be a list of strings, got {value}",
                                    key=where, value=repr(value)))
            raise ConfigError(_("{key}: must be a list of whole numbers, got {value}",
                                key=where, value=repr(value)))
        return tuple(value)
    if annotation == "bool":
        if type(value) is not bool:
            raise ConfigError(_("{key}: must be true or false, got {value}", key=where,
                                value=repr(value)))
        return value
    if annotation == "float":
        if type(value) not in (int, float) or not math.isfinite(value) or value < 0:
            raise ConfigError(_("{key}: must be a number of seconds >= 0, got {value}",
                                key=where, value=repr(value)))
        return float(value)
    if "int" in annotation:
        if type(value) is not int:
            raise ConfigError(_("{key}: must be a whole number, got {value}", key=where,
                                value=repr(value)))
        return value
    if "str" in annotation:
        if not isinstance(value, str):
            raise ConfigError(_("{key}: must be a string, got {value}", key=where,
                                value=repr(value)))
        return value
    raise AssertionError(f"no conversion for {annotation}")  # pragma: no cover


def _unknown(table: Mapping[str, Any], known: Any, section: str) -> None:
    for key in table:
        if key not in known:
            known_keys = ", ".join(sorted(known))
            if section:
                raise ConfigError(_("[{section}] unknown key {key}; known keys: {known}",
                                    section=section, key=repr(key), known=known_keys))
            raise ConfigError(_("unknown key {key}; known keys: {known}", key=repr(key),
                                known=known_keys))


def claimed_pins(config: Any) -> dict[int, str]:
    """The GPIO pins ``config`` (a dataclass of :func:`section` fields) claims, each
    with what claims it: its sections' keys and buses."""
    taken: dict[int, str] = {}
    for spec in sections(type(config)):
        value = getattr(config, spec.name)
        taken.update(spec.buses(value))
        taken.update({pin: where for where, pin in spec.pins(value)})
    return taken


def _check_pins(built: list[tuple[Section[Any], Any]]) -> None:
    """Each claimed pin is a BCM pin, claimed once, and not taken by a bus."""
    taken: dict[int, str] = {}
    for spec, value in built:
        taken.update(spec.buses(value))
    for spec, value in built:
        for where, pin in spec.pins(value):
            if pin not in GPIO_PINS:
                raise ConfigError(_("{key}: GPIO {pin} is not a BCM pin number 2-27",
                                    key=where, pin=pin))
            if pin in taken:
                raise ConfigError(_("{key}: GPIO {pin} is already used by {user}",
                                    key=where, pin=pin, user=taken[pin]))
            taken[pin] = where


# --- the table's own sections ----------------------------------------------------


@dataclass(frozen=True)
class TableConfig:
    """The table itself: where matches are kept and the names offered."""

    data: Path = Path("/var/lib/companion")
    names: tuple[str, ...] = ("Player 1", "Player 2", "Player 3", "Player 4")
    #: The OLED's language ("de"; companion/i18n.py LANGUAGES), until one is chosen on
    #: its Language menu. Any value is taken here: one naming no shipped language is
    #: said once in the log and English spoken (i18n.chosen_language), never refused.
    language: object = "en"


def _check_table(table: TableConfig) -> None:
    """A usable folder path; names a match can start with (whether they are enough for
    every game's seats is :func:`check_seats`'s, where the games are known)."""
    if any(c < " " or c == "\x7f" for c in str(table.data)):
        raise ConfigError(_("{key}: {value} holds a control character",
                            key="[table] data", value=repr(str(table.data))))
    names = table.names
    if not 1 <= len(names) <= MAX_NAMES:
        raise ConfigError(_("{key}: 1 to {most} names, got {count}", key="[table] names",
                            most=MAX_NAMES, count=len(names)))
    for i, name in enumerate(names):
        # Kept as written (no spaces made one here): a line break in it is refused.
        problem = name_problem(name) if name.isprintable() else _(
            "a character not printable")
        if problem is not None:
            key = f"[table] names[{i}]"
            raise ConfigError(_("{key}: {name} is not a name of 1-{most} printable "
                                "characters ({problem})", key=key, name=repr(name),
                                most=MAX_NAME, problem=problem))
    if len({name_key(n) for n in names}) != len(names):
        raise ConfigError(_("{key}: each name only once (the same name twice cannot play "
                            "one match)", key="[table] names"))


def check_seats(table: TableConfig, games: Iterable[Game]) -> None:
    """ConfigError unless ``[table] names`` seat the fewest players of each of ``games``
    (the setup screen seats a new match's players from the first names)."""
    least = max((game.seats[0] for game in games), default=1)
    if len(table.names) < least:
        raise ConfigError(_("{key}: {least} to {most} names, got {count} (a game here "
                            "seats at least {least})", key="[table] names", least=least,
                            most=MAX_NAMES, count=len(table.names)))


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


def _check_web(w: WebConfig) -> None:
    if not valid_host(w.host):
        raise ConfigError(_("{key}: {value} is not an IP address or host name; 0.0.0.0 "
                            "serves on every address", key="[web] host",
                            value=repr(w.host)))
    within("[web] port", w.port, 1, 65535)
    within("[web] max_streams", w.max_streams, 1, MAX_STREAMS)
    within("[web] streams_per_address", w.streams_per_address, 1, MAX_STREAMS)
    if w.pin is not None and not valid_pin(w.pin):
        raise ConfigError(_("{key}: must be 4 to 12 digits", key="[web] pin"))


TABLE = Section("table", TableConfig, check=_check_table)
WEB = Section("web", WebConfig, check=_check_web)


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


def within(where: str, value: float, low: float, high: float, unit: Text | None = None
           ) -> None:
    """ConfigError naming the key ``where`` unless ``low <= value <= high`` (``unit``:
    what the numbers count, a marked message such as :data:`SECONDS`)."""
    if low <= value <= high:
        return
    if unit is not None:
        raise ConfigError(_("{key}: must be {low}-{high} {unit}, got {value}", key=where,
                            low=number(low), high=number(high), unit=unit,
                            value=number(value)))
    raise ConfigError(_("{key}: must be {low}-{high}, got {value}", key=where,
                        low=number(low), high=number(high), value=number(value)))


#: The unit of a key in seconds, for :func:`within`.
SECONDS = _("seconds")


def number(value: float) -> str:
    """``value`` as written in TOML: 5 rather than 5.0."""
    return str(int(value)) if float(value).is_integer() else str(value)


def one_of(where: str, value: Any, allowed: tuple[Any, ...]) -> None:
    if value not in allowed:
        raise ConfigError(_("{key}: must be one of {allowed}; got {value}", key=where,
                            allowed=", ".join(map(str, allowed)), value=repr(value)))
