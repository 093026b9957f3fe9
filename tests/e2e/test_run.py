"""The whole companion with simulated hardware: a press on a mock pin to the OLED frame."""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import os
import pty
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest

import web.sim
from app.config import Config
from app.runtime import Companion, WebOptions
from companion.ui.oled import render
from drivers.serial_pad import SerialConfig
from tests.web.conftest import PIN
from tests.web.test_server import HttpHost

COMPANION = str(Path(sys.executable).parent / "companion")


class Screen:
    """Waits until the simulated OLED shows what the panel state says it should."""

    def __init__(self, companion: Companion) -> None:
        self.companion = companion
        self.changed = threading.Condition()
        companion.oled.frames.add(self._frame)

    def _frame(self, image) -> None:
        with self.changed:
            self.changed.notify_all()

    def settle(self, check, timeout: float = 5.0) -> None:
        """Wait until ``check(snapshot)`` holds and the device shows that state."""
        c = self.companion

        def shown() -> bool:
            state = c.panel.state
            device = c.oled.device.image
            return (check(c.table.snapshot) and device is not None
                    and device.tobytes() == render(state, c.ctx).tobytes())

        with self.changed:
            assert self.changed.wait_for(shown, timeout), "the OLED did not show the state"


def points(snapshot) -> list[str] | None:
    return snapshot.match["view"]["points"] if snapshot.match else None


@pytest.fixture
def companion(tmp_path):
    with Companion(Config(), sim=True, data=tmp_path) as c:
        yield c


def test_set_up_a_match_and_score_with_the_buttons(companion):
    screen = Screen(companion)
    screen.settle(lambda s: s.match is None)
    companion.press("ok")               # New
    for _ in range(7):
        companion.press("next")         # down to Start
    companion.press("ok")               # Start
    screen.settle(lambda s: points(s) == ["0", "0"])
    companion.press("prev")             # +Player 1
    screen.settle(lambda s: points(s) == ["15", "0"])
    companion.press("back", hold=True)  # undo
    screen.settle(lambda s: points(s) == ["0", "0"])
    assert companion.table.snapshot.match["players"] == ["Player 1", "Player 2"]


def test_a_serve_entered_on_the_buttons(companion):
    companion.table.start({"game": "center-court", "players": ["Ann", "Bob"]})
    screen = Screen(companion)
    companion.press("ok")   # Serve: the card row opens on 3
    companion.press("ok")   # serve the 3: never rolled
    screen.settle(lambda s: s.match["view"]["in_play"])
    assert companion.table.snapshot.match["view"]["last_serve"]["card"] == 3


def test_the_match_resumes_after_a_restart(tmp_path):
    with Companion(Config(), sim=True, data=tmp_path) as first:
        first.table.start({"game": "center-court", "players": ["Ann", "Bob"]})
        screen = Screen(first)
        first.press("next")
        first.press("next")
        screen.settle(lambda s: points(s) == ["0", "30"])
        before = first.table.snapshot
    with Companion(Config(), sim=True, data=tmp_path) as second:
        screen = Screen(second)
        screen.settle(lambda s: s == before)


def test_a_serial_pad_scores_too(tmp_path):
    controller, device = pty.openpty()
    cfg = replace(Config(), serial=SerialConfig(url=os.ttyname(device)))
    try:
        with Companion(cfg, sim=True, data=tmp_path) as c:
            c.table.start({"game": "center-court", "players": ["Ann", "Bob"]})
            screen = Screen(c)
            assert c.pad.connected.wait(5)
            os.write(controller, b"S2\nS2\nS1\n")
            screen.settle(lambda s: points(s) == ["15", "30"])
    finally:
        os.close(controller)
        os.close(device)


@pytest.fixture
def served(tmp_path):
    """A simulated companion with its web server, and the host logged in over HTTP."""
    with Companion(Config(), sim=True, data=tmp_path,
                   web=WebOptions(host="127.0.0.1", port=0, pin=PIN)) as c:
        yield c, HttpHost(c.server.port)


def test_a_simulator_press_answers_once_the_table_has_handled_it(served):
    _, host = served
    status, _, state = host.post("/api/match", {"game": "center-court",
                                                "players": ["Ann", "Bob"]})
    assert status == 200
    expected = [0, 0]
    for button in ("prev", "next", "prev", "next", "next"):
        status, _, pressed = host.post("/api/sim/button", {"button": button})
        assert status == 200, pressed
        expected[button == "next"] += 1
        # The answer is the state after the press, and so is the next read.
        assert pressed["version"] == state["version"] + 1
        assert host.request("GET", "/api/state")[2] == pressed
        calls = ["0", "15", "30", "40"]
        assert pressed["match"]["view"]["points"] == [calls[expected[0]], calls[expected[1]]]
        state = pressed
    # A hold is answered after its release and handling: BACK held is undo.
    status, _, undone = host.post("/api/sim/button", {"button": "back", "hold": True})
    assert status == 200 and undone["version"] == state["version"] + 1
    assert undone["match"]["view"]["points"] == ["30", "30"]
    assert host.request("GET", "/api/state")[2] == undone
    # A press that changes only the panel answers the unchanged state.
    status, _, opened = host.post("/api/sim/button", {"button": "ok"})
    assert status == 200 and opened == undone
    # A button without a pin is refused at once.
    status, _, body = host.post("/api/sim/button", {"button": "seat4"})
    assert status == 409 and "no pin for button 'seat4'" in body["error"]


def test_a_simulator_press_that_is_not_json_is_said_to_be_so(served):
    """Not "'button' must be one of …": the body is not JSON, and the answer says so."""
    _, host = served
    conn = http.client.HTTPConnection("127.0.0.1", host.port, timeout=10)
    try:
        conn.request("POST", "/api/sim/button", body=b"button=ok", headers={
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": host.cookie,
            "X-CSRF-Token": host.csrf})
        response = conn.getresponse()
        assert response.status == 400
        assert "JSON" in json.loads(response.read())["error"]
    finally:
        conn.close()


def test_a_simulator_press_the_table_cannot_handle_in_time_says_so(served, monkeypatch):
    companion, host = served
    monkeypatch.setattr(web.sim, "WRITE_TIMEOUT", 0.3)
    host.post("/api/match", {"game": "center-court", "players": ["Ann", "Bob"]})
    busy = threading.Event()
    companion.runner.submit(lambda table: busy.wait(30))  # the writer thread is stuck
    try:
        status, _, body = host.post("/api/sim/button", {"button": "next"})
    finally:
        busy.set()
    assert status == 503
    assert "not handled within 0.3 s; it may still be handled" in body["error"]
    # It is handled once the table is free again: the next press answers after it.
    status, _, state = host.post("/api/sim/button", {"button": "next"})
    assert status == 200 and state["match"]["view"]["points"] == ["0", "30"]


def run_companion(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([COMPANION, "run", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kwargs)


def test_run_sim_starts_and_stops_cleanly_on_sigterm(tmp_path):
    proc = run_companion("--sim", "--data", str(tmp_path), "--port", "0")
    try:
        line = proc.stdout.readline()
        assert "running with simulated hardware" in line, proc.stderr.read()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "stopped" in out
    assert (tmp_path / "companion.db").exists()


@pytest.mark.skipif(Path("/dev/gpiochip0").exists(), reason="this machine has GPIO")
def test_no_gpio_and_no_sim_is_a_clear_error(tmp_path):
    proc = run_companion("--data", str(tmp_path), "--port", "0")
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert "/dev/gpiochip0" in err and "--sim" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(("text", "message"), [
    ("[buttons]\nok = 'middle'\n", "[buttons] ok: must be a whole number"),
    ("[mqtt]\nurl = 'http://broker.local'\ntable = 'a'\n",
     "[mqtt] url: the scheme must be mqtt:// or mqtts:// (TLS)"),
])
def test_a_broken_config_stops_the_start_naming_the_key(tmp_path, text, message):
    cfg = tmp_path / "config.toml"
    cfg.write_text(text)
    proc = run_companion("--sim", "--config", str(cfg), "--data", str(tmp_path))
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert f"{cfg}: {message}" in err
    assert "Traceback" not in err


@pytest.fixture
def port_in_use():
    """A port some other program listens on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield other.getsockname()[1]


def start_fails(*args: str) -> str:
    """``companion run --sim`` with ``args``: it must stop at once, exit 2, no traceback."""
    proc = run_companion("--sim", *args)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2, out + err
    assert "Traceback" not in err and "running" not in out
    return err


def test_a_port_in_use_is_one_line_naming_it(tmp_path, port_in_use):
    err = start_fails("--data", str(tmp_path), "--port", str(port_in_use))
    assert err == (f"companion: cannot serve on 127.0.0.1:{port_in_use}: the port is already "
                   "in use (another companion running?); stop that program or choose another "
                   "port (--port or [web] port)\n")


def test_a_port_in_use_named_in_the_config_too(tmp_path, port_in_use):
    cfg = tmp_path / "config.toml"
    cfg.write_text(f"[web]\nhost = '127.0.0.1'\nport = {port_in_use}\n")
    err = start_fails("--config", str(cfg), "--data", str(tmp_path))
    assert f"cannot serve on 127.0.0.1:{port_in_use}: the port is already in use" in err


@pytest.mark.parametrize(("args", "message"), [
    (["--host", "no-such-host.invalid"],
     "companion: cannot serve on no-such-host.invalid:0: 'no-such-host.invalid' is not an "
     "address of this machine ("),
    (["--host", "192.0.2.1"],  # TEST-NET-1: never this machine's
     "companion: cannot serve on 192.0.2.1:0: 192.0.2.1 is not an address of this machine; "
     "use one of its addresses (--host or [web] host; 0.0.0.0 serves on every address)"),
    (["--host", "my table"],
     "argument --host: 'my table' is not an IP address or host name"),
    (["--port", "70000"], "argument --port: must be a port number 0-65535, got '70000'"),
    (["--port", "-1"], "argument --port: must be a port number 0-65535, got '-1'"),
])
def test_a_bad_address_is_one_line_naming_it(tmp_path, args, message):
    err = start_fails("--data", str(tmp_path), "--port", "0", *args)
    assert message in err


def test_a_config_file_that_is_not_utf8_names_the_byte(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_bytes(b"[table]\nnames = ['J\xf6rg', 'Ann']\n")
    err = start_fails("--config", str(cfg), "--data", str(tmp_path))
    assert err == f"companion: {cfg} is not UTF-8 text: byte 19 (line 2) is b'\\xf6'; " \
                  "save the file as UTF-8\n"


def _start_and_read_pin(data: Path) -> tuple[subprocess.Popen, str, str]:
    """``companion run --sim`` on ``data``: the process, its base URL and its PIN line."""
    proc = run_companion("--sim", "--data", str(data), "--port", "0")
    lines = []
    while not any(line.startswith("  Host PIN:") for line in lines):
        line = proc.stdout.readline()
        assert line, proc.stderr.read()
        lines.append(line)
    url = next(line.split()[-1] for line in lines if "Host:" in line).removesuffix("host")
    return proc, url, lines[-1].strip()


def test_a_restart_without_a_chosen_pin_keeps_the_host_logged_in(tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_PIN", raising=False)
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def session(url: str) -> dict:
        with browser.open(f"{url}api/session", timeout=10) as answer:
            return json.load(answer)

    proc, url, line = _start_and_read_pin(tmp_path)
    try:
        assert "(new, kept for the next starts" in line
        pin = line.split()[2]
        login = urllib.request.Request(f"{url}api/login", data=json.dumps({"pin": pin}).encode(),
                                       headers={"Content-Type": "application/json"})
        with browser.open(login, timeout=10) as answer:
            assert answer.status == 200
        assert session(url)["host"] is True
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
    proc, url, line = _start_and_read_pin(tmp_path)
    try:
        assert line == f"Host PIN:   {pin} (as at the last start; --new-pin makes a new one)"
        assert session(url)["host"] is True  # the same cookie: still the host
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
