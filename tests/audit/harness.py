# ruff: noqa: B904
"""A small client of a simulated table's HTTP API, for the rules audit.

Starts `companion run --sim` in a fresh data folder on a free port, logs in
as the host, and exposes start/act/undo. Written from docs/api.md alone.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The companion of the Python running this (its venv's bin: CI's .venv-3.11 or
#: .venv-3.13 as well as the README's .venv).
COMPANION = Path(sys.executable).parent / "companion"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _exit_on_term(*_):
    raise SystemExit(1)


class Table:
    def __init__(self) -> None:
        self.dir = tempfile.TemporaryDirectory(prefix="audit-")
        self.port = free_port()
        self.pin = "482913"
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ)
        self.log = open(os.path.join(self.dir.name, "companion.log"), "wb")  # noqa: SIM115
        try:
            self.proc = self._spawn(env)
        except BaseException:
            self.log.close()
            self.dir.cleanup()
            raise
        self._wait_until_serving()

    def _spawn(self, env: dict[str, str]) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [
                str(COMPANION),
                "run",
                "--sim",
                "--data",
                self.dir.name,
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--pin",
                self.pin,
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )

    def _wait_until_serving(self) -> None:
        deadline = time.monotonic() + 120  # a bound for a companion that never serves
        while True:
            try:
                with urllib.request.urlopen(self.url + "/api/state", timeout=2) as r:
                    r.read()
                break
            except Exception:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.log.flush()
                    with open(self.log.name, "rb") as f:
                        out = f.read().decode(errors="replace")
                    self.close()
                    raise RuntimeError("companion did not start: " + out)
                time.sleep(0.2)
        # a driver stopped with SIGTERM still stops its server (see close)
        self._old_term = signal.signal(signal.SIGTERM, _exit_on_term)
        self.cookie = None
        status, body, headers = self._req("POST", "/api/login", {"pin": self.pin})
        assert status == 200, body
        self.csrf = body["csrf"]
        self.cookie = headers.get("Set-Cookie").split(";")[0]

    def _req(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if self.cookie:
            req.add_header("Cookie", self.cookie)
            req.add_header("X-CSRF-Token", self.csrf)
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.loads(r.read() or b"null"), r.headers
        except urllib.error.HTTPError as e:
            with e:
                raw = e.read()
            try:
                return e.code, json.loads(raw), e.headers
            except Exception:
                return e.code, raw.decode(errors="replace"), e.headers

    def state(self):
        return self._req("GET", "/api/state")[1]

    def start(self, record):
        st = self.state()
        if st["match"] is not None and st["match"]["status"] == "active":
            self._req("POST", "/api/match/end", {})
        return self._req("POST", "/api/match", record)

    def act(self, action):
        return self._req("POST", "/api/action", action)

    def undo(self):
        return self._req("POST", "/api/undo", {})

    def close(self):
        if hasattr(self, "_old_term"):
            signal.signal(signal.SIGTERM, self._old_term)
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()
        self.dir.cleanup()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def replay(lines, seed=1):
    """Run `companion replay -` on match lines; returns (rc, view-or-error)."""
    text = "\n".join(json.dumps(x) if not isinstance(x, str) else x for x in lines) + "\n"
    p = subprocess.run(
        [str(COMPANION), "replay", "-", "--seed", str(seed)],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if p.returncode == 0:
        return 0, json.loads(p.stdout)
    return p.returncode, p.stderr.strip()


def export_agrees(t: Table):
    """The match on the table, exported and replayed, gives the view the table shows.
    Returns None when it does, else a description of the difference."""
    st = t.state()
    m = st["match"]
    if m is None:
        return None
    req = urllib.request.Request(f"{t.url}/api/matches/{m['id']}/export")
    with urllib.request.urlopen(req, timeout=60) as r:
        text = r.read().decode()
    p = subprocess.run(
        [str(COMPANION), "replay", "-", "--seed", "999"],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if p.returncode != 0:
        return f"export of match {m['id']} does not replay: {p.stderr.strip()}"
    view = json.loads(p.stdout)
    if view != m["view"]:
        diff = {
            k: (m["view"].get(k), view.get(k))
            for k in set(view) | set(m["view"])
            if view.get(k) != m["view"].get(k)
        }
        return (
            f"export of match {m['id']} replays to another view (table, replay): {str(diff)[:800]}"
        )
    return None
