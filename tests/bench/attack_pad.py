"""A pty as the serial pad: 200 KB of garbage, a line split by a 3.5 s pause, a flood of 5000 taps.

Run: .venv/bin/python -m tests.bench.attack_pad (port 18914 free). Prints what the pad got, the
version changes and the companion's log lines about the pad. Asserts nothing.
"""

import json
import os
import pty
import select
import subprocess
import time
import tty

from tests.bench.attack_stranger import raw, request


def main() -> None:
    master, slave = pty.openpty()
    tty.setraw(slave)
    name = os.ttyname(slave)
    with open("/tmp/attack-pad.toml", "w") as config:
        config.write(f'[serial]\nurl = "{name}"\n')
    p = subprocess.Popen(
        [
            ".venv/bin/companion",
            "run",
            "--sim",
            "--data",
            "/tmp/attack-pad",
            "--config",
            "/tmp/attack-pad.toml",
            "--port",
            "18914",
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

    def state():
        return json.loads(raw(18914, request("GET", "/api/state")).partition(b"\r\n\r\n")[2])

    def drain(t=0.5):
        got = b""
        end = time.monotonic() + t
        while select.select([master], [], [], max(0, end - time.monotonic()))[0]:
            got += os.read(master, 65536)
        return got

    print("pad got at start:", drain(1.0)[:80])
    v0 = state()["version"]
    os.write(master, os.urandom(200_000).replace(b"\n", b"x"))
    time.sleep(1)
    os.write(master, b"\n")  # ends the garbage line
    os.write(master, b"TA")
    time.sleep(3.5)
    os.write(master, b"P next\n")  # split by a pause past 3 s: never acted on
    time.sleep(0.5)
    print("pad got after garbage + split line:", drain(0.5)[-60:])
    print("version changed by garbage/fragment:", state()["version"] - v0)
    os.write(master, b"PING\n")
    print("PING ->", drain(1.0)[-20:])
    # flood of real commands
    os.write(master, b"TAP next\n" * 5000)
    time.sleep(2)
    print(
        "after 5000 TAP next: /api/state answers",
        state()["version"] - v0,
        "changes; pad state lines",
        drain(1.0).count(b"STATE"),
    )
    p.terminate()
    out = p.communicate(timeout=20)[0]
    print("log lines about the pad:")
    print(
        "\n".join(
            line for line in out.splitlines() if "pad" in line.lower() or "serial" in line.lower()
        )[:1500]
    )


if __name__ == "__main__":
    main()
