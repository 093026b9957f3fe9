"""A change reaches the broker's subscribers at once, not after TCP's delayed ACK.

A change is several packets written one after the other (state, summary,
event). With Nagle's algorithm on the publisher's socket each packet after
the first waits for the broker's ACK of the one before, which Linux delays
by 40 ms: every change would reach the hall 40 ms late.
"""

from __future__ import annotations

import json
import random
import threading
import time

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.store import Store
from companion.table import Table
from companion.topics import TableInfo, Topics
from drivers.mqtt import MqttConfig, TablePublisher
from tests.support import CATALOG

START = {"game": "center-court", "players": ["Ann", "Bob"],
         "options": {"sets": 5, "final_set": "advantage"}}


def test_each_summary_arrives_well_within_a_delayed_ack(mosquitto, tmp_path):
    arrived: dict[int, float] = {}
    changed = threading.Condition()

    def on_message(client, userdata, message):
        now = time.perf_counter()
        if message.payload:
            with changed:
                arrived[json.loads(message.payload)["version"]] = now
                changed.notify_all()

    reader = mqtt.Client(CallbackAPIVersion.VERSION2)
    subscribed = threading.Event()
    reader.on_subscribe = lambda *args: subscribed.set()
    reader.on_message = on_message
    reader.connect("127.0.0.1", mosquitto.port)
    reader.subscribe(Topics.every("table-companion", "summary"), qos=1)
    reader.loop_start()
    assert subscribed.wait(10)
    with Store(tmp_path / "t.db") as store:
        table = Table(store, CATALOG, rng=random.Random(0))
        publisher = TablePublisher(MqttConfig(url=mosquitto.url, table="t1"),
                                   TableInfo("t1", "T1", None), CATALOG, password=None, data=None)
        try:
            table.subscribe(publisher.show)
            table.start(START)
            with changed:
                assert changed.wait_for(lambda: table.version in arrived, 10)
            took = []
            for i in range(21):
                version = table.act({"type": "point", "winner": i % 2}).version
                sent = time.perf_counter()
                with changed:
                    assert changed.wait_for(lambda v=version: v in arrived, 10)
                took.append(arrived[version] - sent)
        finally:
            publisher.close()
            reader.disconnect()
            reader.loop_stop()
    # The median: one slow moment on a busy machine does not decide it; Nagle's
    # 40 ms would be on every change.
    assert sorted(took)[len(took) // 2] < 0.025, [round(t * 1000) for t in sorted(took)]
