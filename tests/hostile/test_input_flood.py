"""A serial pad flooding the table while its writer is busy: the input queue stays bounded.

A real pty as the pad's port, the real companion (simulated buttons and OLED).
"""

from __future__ import annotations

import logging
import os
import pty
import select
import threading
from dataclasses import replace

import app.runtime
from app.config import Config
from app.runtime import INPUT_QUEUE, Companion
from drivers.serial_pad import SerialConfig

FLOOD = 3000


class PadEnd:
    """The pad's end of the pty: reads everything the companion sends (as a pad does),
    and tells when a given line arrived."""

    def __init__(self, fd: int) -> None:
        self.fd, self.lines = fd, b""
        self.pong = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    return
                if b"PONG" in data:
                    self.pong.set()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)


def points_scored(view: dict) -> int:
    """Points won by player 0 in a match where only player 0 scores."""
    calls = {"0": 0, "15": 1, "30": 2, "40": 3}
    games = sum(s[0] for s in view["sets"]) + view["games"][0]
    return 4 * games + calls[view["points"][0]]


def test_a_flood_from_the_pad_is_dropped_past_the_bound_and_logged_once(tmp_path, caplog,
                                                                       monkeypatch):
    # Once for the whole flood however long a busy machine takes to send it: the drops are
    # logged at most every DROP_LOG_EVERY s, here longer than any run.
    monkeypatch.setattr(app.runtime, "DROP_LOG_EVERY", 3600.0)
    controller, device = pty.openpty()
    cfg = replace(Config(), serial=SerialConfig(url=os.ttyname(device)))
    try:
        with Companion(cfg, sim=True, data=tmp_path) as c:
            c.table.start({"game": "center-court", "players": ["Ann", "Bob"],
                           "options": {"sets": 5}})
            assert c.pad.connected.wait(5)
            pad = PadEnd(controller)
            gate = threading.Event()
            c.runner.submit(lambda _: gate.wait(20))  # the writer is stuck on a slow commit
            with caplog.at_level(logging.WARNING, logger="companion"):
                try:
                    for _ in range(FLOOD // 100):
                        os.write(controller, b"S1\n" * 100)
                    # The pad answers PING after every line before it has been taken in.
                    os.write(controller, b"PING\n")
                    assert pad.pong.wait(15)
                    # A host request still gets through once the writer is free.
                    snapshot = c.runner.submit(lambda table: table.snapshot)
                finally:
                    gate.set()
                view = snapshot.result(10).match["view"]
            drops = [r for r in caplog.records if "dropped" in r.getMessage()]
            scored = points_scored(view)
            pad.close()
    finally:
        os.close(controller)
        os.close(device)
    assert 0 < scored <= INPUT_QUEUE, scored
    assert len(drops) == 1, [r.getMessage() for r in drops]
    assert "serial pad" in drops[0].getMessage()
