"""A table's process for the hall tests: a paho client with the last will ``offline``.

``python -m tests.hall.table_process PORT TABLE NAME`` connects to the
broker on 127.0.0.1:PORT as ``table-companion-TABLE``, publishes ``online``
and a summary of a table with a match on it (retained), prints ``ready``
and waits to be killed. Killed with SIGKILL it says no goodbye: the
broker sends its will.
"""

from __future__ import annotations

import json
import random
import sys
import threading

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.store import Store
from companion.table import Table
from companion.topics import OFFLINE, ONLINE, TableInfo, Topics, summary_payload
from tests.support import CATALOG


def main(port: int, table_id: str, name: str) -> None:
    topics = Topics("table-companion", table_id)
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"table-companion-{table_id}")
    client.will_set(topics.availability, OFFLINE, qos=1, retain=True)
    up = threading.Event()
    client.on_connect = lambda *a: up.set()
    client.connect("127.0.0.1", port, keepalive=30)
    client.loop_start()
    if not up.wait(10):
        sys.exit("no broker")
    table = Table(Store(":memory:"), CATALOG, rng=random.Random(3))
    table.start({"game": "center-court", "players": ["Cat", "Dog"]})
    table.act({"type": "point", "winner": 1})
    client.publish(topics.availability, ONLINE, qos=1, retain=True).wait_for_publish(10)
    summary = summary_payload(json.loads(table.snapshot.json_text), TableInfo(table_id, name),
                              CATALOG)
    client.publish(topics.summary, summary, qos=1, retain=True).wait_for_publish(10)
    print("ready", flush=True)
    sys.stdin.read()  # until killed (or the test closes the pipe)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3])
