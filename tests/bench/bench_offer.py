"""Benchmark: the hall's offer to the table's OLED frame, on a real Mosquitto.

Run: .venv/bin/python -m tests.bench.bench_offer [--offers 50]

One Mosquitto (tests/mqtt_support.Mosquitto, loopback) and one simulated
companion as table-1 (app.runtime.Companion: its MQTT client, writer thread,
panel and OLED thread, as ``companion run --sim`` has them). A hall client
publishes ``--offers`` offers in turn (retained, QoS 1), each a new id; the
latency of one is from the publish call to the OLED frame that shows it
(the display thread's frame, taken from its ``frames`` subscribers). Also
from the publish to the offer kept in memory (the MQTT client's thread).
``time.perf_counter`` throughout. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from app.config import Config
from app.runtime import Companion
from companion.topics import Topics
from drivers.broker import stop_client
from drivers.mqtt import MqttConfig
from tests.mqtt_support import Mosquitto

TOPIC = Topics("table-companion", "table-1").offer
WAIT = 10.0


def payload(n: int) -> bytes:
    return (f'{{"offer": "o-{n}", "event": {{"id": "e-1", "name": "Tuesday Swiss", '
            f'"round": {n % 9 + 1}, "pairing": "p-{n}"}}, "game": "center-court", '
            f'"options": {{"sets": 3}}, "players": ["Ann{n % 7}", "Bob{n % 5}"]}}').encode()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--offers", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, Mosquitto(Path(tmp) / "broker") as broker:
        cfg = replace(Config(), mqtt=MqttConfig(url=broker.url, table="table-1"))
        with Companion(cfg, sim=True, data=Path(tmp) / "data") as table:
            cond = threading.Condition()
            kept: dict[str, float] = {}
            shown: dict[str, float] = {}

            def offer_kept(offers) -> None:
                current = offers.current
                if current is not None:
                    with cond:
                        kept.setdefault(current.id, time.perf_counter())
                        cond.notify_all()

            def frame(image) -> None:
                offer = table.panel.state.screen.offer
                if offer is not None:
                    with cond:
                        shown.setdefault(offer[0], time.perf_counter())
                        cond.notify_all()

            table.offers.subscribe(offer_kept)
            table.oled.frames.add(frame)
            hall = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-hall",
                               protocol=mqtt.MQTTv5)
            hall.connect("127.0.0.1", broker.port)
            hall.loop_start()
            to_memory, to_frame, missed = [], [], 0
            try:
                for n in range(args.offers):
                    sent = time.perf_counter()
                    hall.publish(TOPIC, payload(n), qos=1, retain=True)
                    with cond:
                        if not cond.wait_for(lambda n=n: f"o-{n}" in shown, WAIT):
                            missed += 1
                            continue
                    to_memory.append((kept[f"o-{n}"] - sent) * 1000)
                    to_frame.append((shown[f"o-{n}"] - sent) * 1000)
            finally:
                stop_client(hall)
    print("command: .venv/bin/python -m tests.bench.bench_offer --offers", args.offers)
    for label, values in (("publish -> offer kept", to_memory),
                          ("publish -> OLED frame", to_frame)):
        if values:
            print(f"{label:24} n={len(values):4}  p50 {statistics.median(values):6.2f} ms  "
                  f"p99 {percentile(values, 0.99):6.2f} ms  max {max(values):6.2f} ms")
    print(f"offers never shown within {WAIT:g} s: {missed}")


if __name__ == "__main__":
    main()
