"""Kill -9 a running companion after 20 actions, flip a bit in its WAL, restart with a new PIN.

Run: .venv/bin/python -m tests.bench.attack_restart /tmp/attack-wal (an empty or new folder;
port 18911 free). Prints the start message, the versions, the old cookie's answer. Asserts nothing.
"""

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.bench.attack_stranger import login, raw, request, statuses


def main() -> None:
    port = 18911
    data = Path(sys.argv[1])

    def start(pin):
        p = subprocess.Popen(
            [
                ".venv/bin/companion",
                "run",
                "--sim",
                "--data",
                str(data),
                "--port",
                str(port),
                "--pin",
                pin,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        out = []
        for line in p.stdout:
            out.append(line)
            if "Simulator" in line or "rror" in line or len(out) > 30:
                break
        return p, out

    def state():
        return json.loads(raw(port, request("GET", "/api/state")).partition(b"\r\n\r\n")[2])

    p, out = start("2468")
    c, t = login(port, "2468", "127.0.0.40")
    H = {"Cookie": c, "X-CSRF-Token": t, "Content-Type": "application/json"}
    raw(
        port,
        request(
            "POST",
            "/api/match",
            H,
            json.dumps(
                {
                    "game": "center-court",
                    "players": ["Ann", "Bob"],
                    "options": {"sets": 3, "first_server": "coin"},
                }
            ).encode(),
        ),
    )
    for i in range(20):
        raw(
            port,
            request(
                "POST", "/api/action", H, json.dumps({"type": "point", "winner": i % 2}).encode()
            ),
        )
    s = state()
    print("before kill -9: version", s["version"], "epoch", s["epoch"])
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    p.stdout.close()
    wal = data / "companion.db-wal"
    print("wal bytes", wal.stat().st_size)
    b = bytearray(wal.read_bytes())
    b[32 + 24 + 100] ^= 0x10
    wal.write_bytes(bytes(b))
    p, out = start("1357")
    print("restart after a WAL bit flip, new PIN:\n ", "  ".join(out).strip())
    s2 = state()
    print("after: version", s2["version"], "epoch", s2["epoch"])
    a = raw(port, request("POST", "/api/undo", H, b"{}"))
    print("old cookie after new PIN:", statuses(a))
    sk = socket.create_connection(("127.0.0.1", port), timeout=3)
    sk.sendall(
        request(
            "GET",
            f"/api/events?epoch={s['epoch']}",
            {"Last-Event-ID": str(s["version"]), "Connection": "keep-alive"},
        )
    )
    got = b""
    try:
        while b"event: state" not in got:
            got += sk.recv(65536)
    except TimeoutError:
        pass
    sk.close()
    print(
        "stream with the old database's Last-Event-ID and epoch gets:",
        got.rpartition(b"event: state")[2][:120],
    )
    print(sorted(x.name for x in data.iterdir()))
    os.kill(p.pid, signal.SIGTERM)
    p.wait()
    p.stdout.close()


if __name__ == "__main__":
    main()
