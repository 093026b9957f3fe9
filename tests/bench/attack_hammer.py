"""One address hammering the server on 16 keep-alive connections: the host's action latency.

Run: .venv/bin/python -m tests.bench.attack_hammer (port 18917 free). Prints; asserts nothing.
"""

import http.client
import statistics
import subprocess
import threading
import time

from tests.bench.attack_stranger import login


def main() -> None:
    port = 18917
    p = subprocess.Popen(
        [
            ".venv/bin/companion",
            "run",
            "--sim",
            "--data",
            "/tmp/attack-hammer",
            "--port",
            str(port),
            "--pin",
            "2468",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    for line in p.stdout:
        if "Simulator" in line:
            break
    c, t = login(port, "2468", "127.0.0.80")
    H = {"Cookie": c, "X-CSRF-Token": t, "Content-Type": "application/json"}

    def act():
        conn = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=30, source_address=("127.0.0.80", 0)
        )
        t0 = time.monotonic()
        conn.request("POST", "/api/undo", b"{}", H)
        conn.getresponse().read()
        conn.close()
        return time.monotonic() - t0

    base = [act() for _ in range(20)]
    stop = False
    count = [0]

    def hammer(path):
        conn = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=30, source_address=("127.0.0.81", 0)
        )
        while not stop:
            try:
                conn.request("GET", path)
                conn.getresponse().read()
                count[0] += 1
            except Exception:
                conn.close()
                conn = http.client.HTTPConnection(
                    "127.0.0.1", port, timeout=30, source_address=("127.0.0.81", 0)
                )
        conn.close()

    for path in ("/api/state", "/api/history", "/nope"):
        stop = False
        count[0] = 0
        ths = [threading.Thread(target=hammer, args=(path,)) for _ in range(16)]
        [t.start() for t in ths]
        time.sleep(1)
        under = [act() for _ in range(20)]
        stop = True
        [t.join() for t in ths]
        med, top = 1000 * statistics.median(under), 1000 * max(under)
        calm = 1000 * statistics.median(base)
        print(
            f"16 connections from one address hammering GET {path} ({count[0]} answers): "
            f"host action median {med:.1f} ms, max {top:.1f} ms (no attack: median {calm:.1f} ms)"
        )
    p.terminate()
    p.communicate(timeout=20)


if __name__ == "__main__":
    main()
