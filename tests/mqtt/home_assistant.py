"""What Home Assistant's MQTT integration makes of a table, on a real broker.

:class:`HomeAssistant` is one MQTT client subscribed to everything it may
read, as Home Assistant is, and does with the table's messages what its MQTT
sensors do: a retained config on ``<discovery>/sensor/<node>/<key>/config``
makes a sensor (an empty one removes it, and the device goes with its last
sensor); a sensor reads each message on its ``state_topic``, the retained one
too when it is made, through its ``value_template`` (jinja2, as Home
Assistant renders it: ``value`` the payload, ``value_json`` the payload
parsed when it is JSON, the result stripped); ``None`` rendered is unknown,
and a rendered ``unknown`` or ``unavailable`` is shown as that state, as Home
Assistant's own; ``availability_topic`` turns it unavailable and back. Where
Home Assistant would log a template error (``value_json`` undefined for an
empty or non-JSON payload, a field the JSON lacks) this keeps it in
:attr:`errors`, stricter than Home Assistant, which only warns of a missing
field.

One connection, so the messages are seen in the order the broker sent them:
the order the table published them.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import jinja2
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from drivers.broker import stop_client
from tests.mqtt.support import TIMEOUT

CONFIG = re.compile(r"(?P<prefix>.+)/sensor/(?P<node>[A-Za-z0-9_-]+)/(?P<key>[A-Za-z0-9_-]+)"
                    r"/config")
#: What Home Assistant shows of a sensor that has no value.
UNKNOWN = "unknown"
UNAVAILABLE = "unavailable"


@dataclass
class Sensor:
    """One sensor as Home Assistant holds it."""

    config: dict[str, Any]
    state: str = UNKNOWN
    available: bool = True
    #: Every state it took, in order (unknown included).
    states: list[str] = field(default_factory=list)

    @property
    def shown(self) -> str:
        return self.state if self.available else UNAVAILABLE


class HomeAssistant:
    """Subscribed to ``topics`` on a broker (``connect(client)`` connects ``client``)."""

    def __init__(self, connect: Callable[[mqtt.Client], None],
                 topics: tuple[str, ...] = ("#",)) -> None:
        self._env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False)
        self._changed = threading.Condition()
        #: unique_id -> sensor, of the sensors that exist now.
        self.sensors: dict[str, Sensor] = {}
        #: Config topic -> unique_id.
        self._by_topic: dict[str, str] = {}
        #: The newest payload of each topic that is not a config (what a new sensor reads).
        self._retained: dict[str, bytes] = {}
        #: (topic, payload, what went wrong) of each template that could not render.
        self.errors: list[tuple[str, bytes, str]] = []
        #: Devices removed with their last sensor (their identifiers).
        self.removed_devices: list[str] = []
        client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        subscribed = threading.Event()
        client.on_subscribe = lambda *args: subscribed.set()
        client.on_message = self._message
        connect(client)
        client.subscribe([(topic, 1) for topic in topics])
        client.loop_start()
        self.client = client
        if not subscribed.wait(TIMEOUT):
            self.close()
            raise AssertionError("Home Assistant's subscriber was not subscribed in time")

    # --- what Home Assistant does ---------------------------------------------------

    def _message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self._changed:
            if CONFIG.fullmatch(message.topic):
                self._config(message.topic, message.payload)
            else:
                self._retained[message.topic] = message.payload
                for sensor in self.sensors.values():
                    if sensor.config["state_topic"] == message.topic:
                        self._read(sensor, message.topic, message.payload)
                    if sensor.config.get("availability_topic") == message.topic:
                        self._availability(sensor, message.payload)
            self._changed.notify_all()

    def _config(self, topic: str, payload: bytes) -> None:
        old = self._by_topic.pop(topic, None)
        if old is not None:
            device = self.sensors.pop(old).config["device"]["identifiers"][0]
            if not any(s.config["device"]["identifiers"][0] == device
                       for s in self.sensors.values()):
                self.removed_devices.append(device)
        if not payload:
            return
        config = json.loads(payload)
        sensor = Sensor(config)
        self.sensors[config["unique_id"]] = sensor
        self._by_topic[topic] = config["unique_id"]
        # Subscribing to its topics, the sensor gets their retained messages.
        if (available := self._retained.get(config.get("availability_topic", ""))) is not None:
            self._availability(sensor, available)
        if (state := self._retained.get(config["state_topic"])) is not None:
            self._read(sensor, config["state_topic"], state)

    def _read(self, sensor: Sensor, topic: str, payload: bytes) -> None:
        text = payload.decode("utf-8", "replace")
        variables: dict[str, Any] = {"value": text}
        with contextlib.suppress(ValueError):  # not JSON: value_json stays undefined
            variables["value_json"] = json.loads(text)
        try:
            rendered = self._env.from_string(sensor.config["value_template"]).render(variables)
        except jinja2.TemplateError as err:
            self.errors.append((topic, payload, f"{sensor.config['unique_id']}: {err}"))
            return  # Home Assistant keeps the sensor's state
        # Home Assistant strips what a template renders, and takes "None" for no value;
        # a state of "unknown" or "unavailable" is then its own state of that name.
        rendered = rendered.strip()
        sensor.state = UNKNOWN if rendered == "None" else rendered
        sensor.states.append(sensor.state)

    @staticmethod
    def _availability(sensor: Sensor, payload: bytes) -> None:
        if payload.decode("utf-8", "replace") == sensor.config.get("payload_available"):
            sensor.available = True
        elif payload.decode("utf-8", "replace") == sensor.config.get("payload_not_available"):
            sensor.available = False

    # --- the test's side --------------------------------------------------------------

    def shown(self, node: str) -> dict[str, str]:
        """What the device ``node`` (``table_companion_<table>``) shows: key -> state."""
        with self._changed:
            return {uid.removeprefix(f"{node}_"): s.shown for uid, s in self.sensors.items()
                    if s.config["device"]["identifiers"] == [node]}

    def wait_for(self, check: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
        with self._changed:
            if not self._changed.wait_for(check, timeout):
                raise AssertionError(f"waited {timeout} s for {what}; sensors: "
                                     f"{ {u: s.shown for u, s in self.sensors.items()} }, "
                                     f"errors: {self.errors}")

    def wait_shown(self, node: str, expected: dict[str, str]) -> None:
        """Wait until device ``node`` shows exactly ``expected``."""
        self.wait_for(lambda: self.shown(node) == expected, f"{node} to show {expected}")

    def close(self) -> None:
        stop_client(self.client)

    def __enter__(self) -> HomeAssistant:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
