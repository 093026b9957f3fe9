"""The MQTT tests' tools: a real subscriber (paho-mqtt, every message kept) and a
simulated companion publishing to the test broker."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from app.config import Config
from app.runtime import Companion, WebOptions
from drivers.broker import stop_client
from drivers.mqtt import MqttConfig
from tests.mqtt_support import Mosquitto
from tests.web.conftest import PIN

#: How long a test waits for a message the broker should deliver: a bound for a broker
#: or a client that never delivers, not for their speed on a busy machine; a passing
#: test never waits it out.
TIMEOUT = 30.0
START = {"game": "center-court", "players": ["Ann", "Bob"], "options": {"sets": 3}}


def on_broker(broker: Mosquitto, table: str = "a", **keys: Any) -> Config:
    """The default config with ``[mqtt]`` pointing at ``broker`` as ``table``."""
    return replace(Config(), mqtt=MqttConfig(url=broker.url, table=table, **keys))


def companion(cfg: Config, data: Path, password: str | None = None) -> Companion:
    """A simulated companion serving its pages on a free port."""
    return Companion(cfg, sim=True, data=data, mqtt_password=password,
                     web=WebOptions(host="127.0.0.1", port=0, pin=PIN, keepalive=1.0))


class Listener:
    """Subscribed (QoS 1) to ``topics`` on ``broker`` once constructed; keeps every message.

    Retained messages the broker holds arrive first, as for any new subscriber.
    """

    def __init__(self, broker: Mosquitto, topics: Iterable[str] = ("#",), *,
                 username: str | None = None, password: str | None = None) -> None:
        self.messages: list[mqtt.MQTTMessage] = []
        self._changed = threading.Condition()
        client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        if username is not None:
            client.username_pw_set(username, password)
        if broker.ca_file is not None:
            client.tls_set(ca_certs=str(broker.ca_file))
        subscribed = threading.Event()
        client.on_subscribe = lambda *args: subscribed.set()
        client.on_message = self._message
        client.connect("127.0.0.1", broker.port)
        client.subscribe([(topic, 1) for topic in topics])
        client.loop_start()
        self.client = client
        if not subscribed.wait(TIMEOUT):
            self.close()
            raise AssertionError("the test subscriber was not subscribed in time")

    def _message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self._changed:
            self.messages.append(message)
            self._changed.notify_all()

    def on(self, topic: str) -> list[mqtt.MQTTMessage]:
        """The messages received on ``topic``, oldest first."""
        with self._changed:
            return [m for m in self.messages if m.topic == topic]

    def last(self, topic: str) -> bytes | None:
        """The newest payload on ``topic`` (None: none came)."""
        got = self.on(topic)
        return got[-1].payload if got else None

    def json(self, topic: str) -> Any:
        payload = self.last(topic)
        assert payload is not None, f"nothing on {topic}"
        return json.loads(payload)

    def wait_for(self, check: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
        """Wait until ``check()`` holds; fail naming ``what`` if it does not in time."""
        with self._changed:
            if not self._changed.wait_for(check, timeout):
                topics = [(m.topic, m.payload[:80]) for m in self.messages][-10:]
                raise AssertionError(f"waited {timeout} s for {what}; last messages: {topics}")

    def wait_payload(self, topic: str, payload: bytes, timeout: float = TIMEOUT) -> None:
        """Wait until the newest message on ``topic`` is ``payload``."""
        self.wait_for(lambda: self.last(topic) == payload, f"{payload!r} on {topic}", timeout)

    def close(self) -> None:
        stop_client(self.client)

    def __enter__(self) -> Listener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
