"""``companion run --sim`` with an ``[mqtt]`` section: the banner, the password from the
environment, ``offline`` on a clean stop and by the last will after SIGKILL (a bad
``[mqtt]`` key: tests/e2e/test_run.py)."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

from companion.topics import Topics
from hall.run import Hall
from tests.e2e.test_run import run_companion
from tests.hall.hall_support import Watch
from tests.mqtt.support import TIMEOUT, Listener
from tests.mqtt_support import Mosquitto

A = Topics("table-companion", "a")


def started(tmp_path: Path, broker: Mosquitto, extra: str = "",
            password: str | None = None) -> tuple[subprocess.Popen, str]:
    """A companion run as table a on ``broker``; its banner once it is serving."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(f"[mqtt]\nurl = '{broker.url}'\ntable = 'a'\nname = 'Table A'\n{extra}")
    env = {**os.environ, "COMPANION_MQTT_PASSWORD": password or ""}
    proc = run_companion("--sim", "--config", str(cfg), "--data", str(tmp_path / "data"),
                         "--port", "0", "--pin", "2468", env=env)
    banner = ""
    while "MQTT:" not in banner:
        line = proc.stdout.readline()
        assert line, proc.stderr.read()
        banner += line
    return proc, banner


def test_sigkill_leaves_the_last_will(tmp_path, mosquitto):
    watch = Listener(mosquitto, [A.availability])
    proc, banner = started(tmp_path, mosquitto)
    try:
        assert f"  MQTT:       {mosquitto.url} as table a (Table A)\n" in banner
        watch.wait_payload(A.availability, b"online")
        proc.send_signal(signal.SIGKILL)
        proc.wait(TIMEOUT)
        # The broker saw the connection drop without a goodbye: it sends the will.
        watch.wait_payload(A.availability, b"offline")
    finally:
        proc.kill()
        proc.communicate()
        watch.close()
    fresh = Listener(mosquitto, [A.availability])
    fresh.wait_payload(A.availability, b"offline")  # retained
    fresh.close()


def test_a_companion_killed_is_marked_offline_on_the_hall(tmp_path, mosquitto):
    """The whole way: a real companion's table reaches the hall board, and after a
    SIGKILL its card is marked offline by the will the broker sends for it."""
    with Hall(mosquitto.url, host="127.0.0.1", port=0, prefix=A.prefix) as hall:
        watch = Watch(hall.server.port)
        proc, _ = started(tmp_path, mosquitto)
        try:
            watch.until(lambda w: (w.cards.get("a") or {}).get("online") is True
                        and w.cards["a"]["summary"] is not None, TIMEOUT)
            assert watch.cards["a"]["name"] == "Table A"
            proc.send_signal(signal.SIGKILL)
            proc.wait(TIMEOUT)
            watch.until(lambda w: w.cards["a"]["online"] is False, TIMEOUT)
            # What it showed last is kept, marked offline: the page says so in words.
            assert watch.cards["a"]["summary"]["title"] == "No match"
        finally:
            proc.kill()
            proc.communicate()
            watch.close()


def test_a_clean_stop_says_offline_with_the_password_from_the_environment(tmp_path):
    with Mosquitto(tmp_path / "broker", users={"a": "s3cret", "watch": "w"}) as broker:
        watch = Listener(broker, [A.availability], username="watch", password="w")
        proc, _ = started(tmp_path, broker, "username = 'a'\n", password="s3cret")
        try:
            watch.wait_payload(A.availability, b"online")
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=TIMEOUT * 2)
        finally:
            proc.kill()
        assert proc.returncode == 0, err
        watch.wait_payload(A.availability, b"offline")
        # Said by the companion itself, not by the broker for it.
        assert "Client table-companion-a disconnected." in broker.log.read_text()
        assert "s3cret" not in out + err
        watch.close()

