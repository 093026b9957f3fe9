"""The MQTT tests' broker fixture."""

from tests.mqtt_support import mosquitto  # noqa: F401 (the fixture)
