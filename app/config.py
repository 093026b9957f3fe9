"""The whole configuration of ``companion run``: one field per section of the file.

Each section is declared beside its code (companion/config.py has the
machinery and the table's own ``[table]`` and ``[web]``; each driver module
its own). They are gathered here, in the composition root, because the core
may not import the drivers (tests/test_boundaries.py): a new output declares
its section in its module and adds one line below. The order of the fields
is the order the file's sections are checked in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import config
from companion.config import TABLE, WEB, TableConfig, WebConfig, section
from drivers.buttons import BUTTONS, ENCODER, ButtonsConfig, EncoderConfig
from drivers.display import DISPLAY, DisplayConfig
from drivers.leds import LEDS, LedsConfig
from drivers.mqtt import MQTT, MqttConfig
from drivers.serial_pad import SERIAL, SerialConfig


@dataclass(frozen=True)
class Config:
    """The whole configuration (every section at its defaults: ``Config()``)."""

    table: TableConfig = field(default_factory=TableConfig, metadata=section(TABLE))
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig, metadata=section(BUTTONS))
    encoder: EncoderConfig = field(default_factory=EncoderConfig, metadata=section(ENCODER))
    leds: LedsConfig = field(default_factory=LedsConfig, metadata=section(LEDS))
    display: DisplayConfig = field(default_factory=DisplayConfig, metadata=section(DISPLAY))
    serial: SerialConfig = field(default_factory=SerialConfig, metadata=section(SERIAL))
    web: WebConfig = field(default_factory=WebConfig, metadata=section(WEB))
    mqtt: MqttConfig = field(default_factory=MqttConfig, metadata=section(MQTT))


def load(path: Path | None) -> Config:
    """The configuration in ``path`` (all defaults when None).

    Raises ConfigError naming the file, the key and the problem.
    """
    return config.load(path, Config)


def parse(raw: Mapping[str, Any]) -> Config:
    """A checked Config from parsed TOML; ConfigError names the bad key."""
    return config.parse(raw, Config)
