"""A real Mosquitto for the tests: Debian's ``mosquitto`` on a free loopback port.

:class:`Mosquitto` writes a config file, starts the broker, waits until it
accepts connections, and can be killed and started again on the same port
(the retained messages are not persisted, so a restarted broker has lost
them: what a table publishes again after a reconnect is all there is).
Users (password file), an ACL file and a TLS listener with a CA made by
``openssl`` for the test are optional.

Outside CI a missing ``mosquitto`` skips the calling tests; in CI (which
installs it) it is an error.
"""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

MOSQUITTO = "/usr/sbin/mosquitto"
PASSWD = "mosquitto_passwd"
#: How long a broker may take to accept its first connection.
START_TIMEOUT = 10.0


def require_mosquitto() -> str:
    """The broker's path, or the calling test skipped when it is not installed."""
    path = MOSQUITTO if Path(MOSQUITTO).exists() else shutil.which("mosquitto")
    if path is None:
        if os.environ.get("CI"):
            raise RuntimeError(f"CI needs mosquitto for the MQTT tests; {MOSQUITTO} is missing")
        pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mosquitto:
    """One broker process in ``folder``; ``url`` is where clients connect.

    ``users`` (name -> password) turns anonymous access off; ``acl`` is the
    text of an ACL file; ``tls`` serves TLS only (``mqtts://``), with
    :attr:`ca_file` the CA that signed its certificate for ``localhost``.
    ``extra`` lines are appended to the config as they are.

    Or ``config``: a whole broker config of one's own (listener, users, ACL,
    TLS: a document's, say), listening on 127.0.0.1 at ``port``; ``tls`` and
    ``ca_file`` then only say how clients reach it. Either way the broker
    runs as the test's user, logs to its log file and keeps nothing on disk.
    """

    def __init__(self, folder: Path, *, users: dict[str, str] | None = None,
                 acl: str | None = None, tls: bool = False, extra: str = "",
                 config: str | None = None, port: int | None = None,
                 ca_file: Path | None = None) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.binary = require_mosquitto()
        assert (config is None) == (port is None), "a config of one's own names its port"
        self.port = port or free_port()
        self.tls = tls
        self.log = folder / "mosquitto.log"
        self.ca_file: Path | None = ca_file
        # Started by root (as in CI) mosquitto would drop to its own user, who
        # cannot read the test's private folder: stay the user who runs the test.
        lines = [f"user {getpass.getuser()}", "persistence false",
                 "log_dest stderr", "log_type error", "log_type warning",
                 "log_type notice", "log_type information", "connection_messages true"]
        if config is not None:
            self._write([*lines, config])
            return
        lines.append(f"listener {self.port} 127.0.0.1")
        if users:
            passwd = folder / "passwd"
            passwd.write_text("")
            for name, password in users.items():
                subprocess.run([PASSWD, "-b", str(passwd), name, password], check=True,
                               capture_output=True)
            lines += ["allow_anonymous false", f"password_file {passwd}"]
        else:
            lines += ["allow_anonymous true"]
        if acl is not None:
            (folder / "acl").write_text(acl)
            lines += [f"acl_file {folder / 'acl'}"]
        if tls:
            self.ca_file = make_certificates(folder)
            lines += [f"cafile {self.ca_file}", f"certfile {folder / 'server.crt'}",
                      f"keyfile {folder / 'server.key'}"]
        self._write([*lines, extra])

    def _write(self, lines: list[str]) -> None:
        """Write the config and start the broker."""
        self.config = self.folder / "mosquitto.conf"
        self.config.write_text("\n".join([*lines, ""]))
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the broker (again) on the same port and wait until it accepts."""
        assert self.process is None or self.process.poll() is not None, "already running"
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen([self.binary, "-c", str(self.config)],
                                            stdout=log, stderr=log)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited at start: {self.log.read_text()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    log = self.log.read_text()[-2000:]
                    raise RuntimeError(f"mosquitto did not listen on {self.port} within "
                                       f"{START_TIMEOUT} s: {log}") from None
                time.sleep(0.02)  # polling a port that is not open yet: nothing to wait on

    def kill(self) -> None:
        """SIGKILL the broker: no goodbye to any client, retained messages gone."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def __enter__(self) -> Mosquitto:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def make_certificates(folder: Path) -> Path:
    """A CA and a server certificate for ``localhost``/127.0.0.1, signed by it.

    Writes ca.crt, ca.key, server.crt and server.key in ``folder``; returns
    the CA certificate's path.
    """
    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=folder)

    # The extensions a real CA's certificates carry: Python 3.13 verifies strictly
    # (VERIFY_X509_STRICT) and refuses a CA certificate without key usage.
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-keyout", "ca.key", "-out", "ca.crt", "-subj", "/CN=Table Companion test CA",
            "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key",
            "-out", "server.csr", "-subj", "/CN=localhost")
    (folder / "san.ext").write_text(
        "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
        "keyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n"
        "authorityKeyIdentifier=keyid,issuer\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
            "-CAcreateserial", "-out", "server.crt", "-days", "2", "-extfile", "san.ext")
    return folder / "ca.crt"


@pytest.fixture
def mosquitto(tmp_path):
    """An anonymous broker for one test."""
    with Mosquitto(tmp_path / "broker") as broker:
        yield broker
