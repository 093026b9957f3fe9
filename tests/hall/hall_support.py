"""What the hall tests share: tables that publish with paho, the hall's stream as a model.

A table here is a real :class:`companion.table.Table` over a memory store;
:class:`Sender` publishes its snapshots' summaries with paho, as the table's
own publisher (drivers/mqtt.py) does, so the hall reads the real payloads of
companion/topics.py. :class:`Watch` follows ``/api/hall/events`` over a real
socket and keeps the cards as a page would.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.store import Store
from companion.table import Snapshot, Table
from companion.topics import DEFAULT_PREFIX, ONLINE, TableInfo, Topics, summary_payload
from drivers.broker import release
from tests.support import CATALOG
from tests.web.sse import SseClient

COMPANION = str(Path(sys.executable).parent / "companion")


class Sender:
    """A paho client connected to ``broker`` (a tests.mqtt_support.Mosquitto)."""

    def __init__(self, broker, client_id: str = "", **will: Any) -> None:
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
        up = threading.Event()
        self.client.on_connect = lambda *a: up.set()
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        assert up.wait(10), "the test's MQTT client did not connect"
        self._stores: list[Store] = []

    def send(self, topic: str, payload: str | bytes, retain: bool = True) -> None:
        """Publish and wait until the broker has it (QoS 1)."""
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(10)

    def table(self, info: TableInfo, prefix: str = DEFAULT_PREFIX) -> Table:
        """A fresh table whose every snapshot is published as ``info``'s summary."""
        store = Store(":memory:")
        self._stores.append(store)  # closed with the sender
        table = Table(store, CATALOG, rng=random.Random(7))
        topics = Topics(prefix, info.id)
        self.send(topics.availability, ONLINE)

        def show(snapshot: Snapshot) -> None:
            self.send(topics.summary,
                      summary_payload(json.loads(snapshot.json_text), info, CATALOG))

        table.subscribe(show)
        show(table.snapshot)
        return table

    def close(self) -> None:
        """Disconnect, and close the stores of the tables it made."""
        self.client.disconnect()
        self.client.loop_stop()
        release(self.client)
        for store in self._stores:
            store.close()


class Watch:
    """The hall's stream, read into ``cards`` (id -> card) and ``connected`` as it comes:
    ``tables`` replaces them all, ``table`` one card, ``gone`` takes one away.

    Use as a context manager: the stream's socket is then closed however the test
    ends (one left to the garbage collector is a ResourceWarning in whichever test
    runs when it is found)."""

    def __init__(self, port: int, timeout: float = 10.0) -> None:
        """Follow the hall serving on 127.0.0.1:``port``."""
        self.port, self.timeout = port, timeout
        self.cards: dict[str, dict] = {}
        self.connected: bool | None = None
        self.broker = ""
        self.events: list = []
        #: How often a gap in the change numbers made it start the stream again.
        self.gaps = 0
        #: Keep-alive comments read: the hall's fan-out thread sends them to the streams
        #: it has taken over, which from then on get every change as it is made.
        self.keepalives = 0
        self._open()

    def _open(self) -> None:
        self.sse = SseClient("127.0.0.1", self.port, path="/api/hall/events",
                             timeout=self.timeout)
        assert self.sse.status == 200
        self.seq: int | None = None

    def next(self) -> None:
        """Take the next message; a gap in the numbers (a message skipped because this
        client read too slowly) starts the stream again, as the page does."""
        event = self.sse.next_event(skip_comments=False)
        if event.comment:
            self.keepalives += 1
            return
        self.events.append(event)
        body = event.json()
        if event.event == "tables":
            self.cards = {c["id"]: c for c in body["tables"]}
            self.connected, self.broker = body["connected"], body["broker"]
        else:
            assert event.event in ("table", "gone"), event
            assert self.seq is not None, "the first message must be the whole list"
            if event.id != self.seq + 1:
                self.gaps += 1
                self.sse.close()
                self._open()
                return
            if event.event == "gone":
                self.cards.pop(body["id"], None)
            else:
                self.cards[body["id"]] = body
        self.seq = event.id

    def until(self, check: Callable[[Watch], bool], timeout: float = 10.0) -> Watch:
        """Read the stream until ``check(self)`` holds; AssertionError after ``timeout``."""
        deadline = time.monotonic() + timeout
        while not check(self):
            assert time.monotonic() < deadline, f"not seen in {timeout} s: {self.cards}"
            self.next()
        return self

    def close(self) -> None:
        self.sse.close()

    def __enter__(self) -> Watch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def get(url: str, method: str = "GET", headers: dict | None = None) -> tuple[int, dict, Any]:
    """``(status, headers, JSON body)`` of a request (errors included)."""
    request = urllib.request.Request(url, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), json.loads(err.read())


#: How long a hall may take to end after SIGTERM or SIGKILL: generous, for a loaded
#: machine (a 20 s wait once ran out under a load average of 20).
STOPPED = 90


class HallProcess:
    """``companion hall --host 127.0.0.1 --port 0 ARGS...`` in its own process.

    :attr:`url` is the page address it printed; :attr:`lines` what it printed
    before. ``stop()`` sends SIGTERM and returns the exit code and the output.
    """

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [COMPANION, "hall", "--host", "127.0.0.1", "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, **(env or {})})
        self.lines: list[str] = []
        self.url: str | None = None
        for line in self.proc.stdout:
            self.lines.append(line)
            if "Hall: " in line:
                self.url = line.split("Hall: ")[1].strip()
                break

    @property
    def port(self) -> int:
        assert self.url is not None, self.lines
        return int(self.url.rsplit(":", 1)[1].strip("/"))

    def stop(self) -> tuple[int, str, str]:
        self.proc.send_signal(signal.SIGTERM)
        out, err = self.proc.communicate(timeout=STOPPED)
        return self.proc.returncode, "".join(self.lines) + out, err

    def __enter__(self) -> HallProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate(timeout=STOPPED)


def score(card: dict) -> str | None:
    return card["summary"]["score"] if card.get("summary") else None
