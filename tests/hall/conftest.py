"""Fixtures of the hall tests: a real Mosquitto, a hall served by app/server.py, a sender."""

from __future__ import annotations

import pytest

from hall.run import Hall
from tests.hall.hall_support import Sender
from tests.mqtt_support import mosquitto  # noqa: F401 (a fixture)


@pytest.fixture
def hall(mosquitto, catalog):  # noqa: F811
    with Hall(mosquitto.url, host="127.0.0.1", port=0, prefix="table-companion",
              keepalive=1.0, catalog=catalog) as h:
        yield h


@pytest.fixture
def sender(mosquitto):  # noqa: F811
    s = Sender(mosquitto)
    yield s
    s.close()
