"""Against `companion run`: streams that stop reading, Idempotency-Key, sessions.

Run: start `.venv/bin/companion run --sim --data /tmp/attack-data --port 18911 --pin 2468`,
then PYTHONPATH=. .venv/bin/python -m tests.bench.attack_misc. Prints; asserts nothing.
"""

import json
import socket
import time

from tests.bench.attack_stranger import login, open_stream, raw, request, statuses


def main() -> None:
    port = 18911
    pin = "2468"
    cookie, csrf = login(port, pin, "127.0.0.30")
    H = {"Cookie": cookie, "X-CSRF-Token": csrf, "Content-Type": "application/json"}

    def post(path, body, extra=None, src="127.0.0.30"):
        a = raw(port, request("POST", path, {**H, **(extra or {})}, json.dumps(body).encode()), src)
        return statuses(a)[0], a.partition(b"\r\n\r\n")[2][:160]

    print("end any match", post("/api/match/end", {}))
    print(
        "start",
        post(
            "/api/match",
            {
                "game": "center-court",
                "players": ["Ann", "Bob"],
                "options": {"sets": 3, "first_server": "coin"},
            },
        )[0],
    )
    # stops reading: 8 streams from one address, never read
    hogs = []
    for _ in range(8):
        s, st = open_stream(port, "127.0.0.20")
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        hogs.append(s)
    t0 = time.monotonic()
    n = 0
    while True:
        n += 1
        post("/api/action", {"type": "point", "winner": n % 2})
        post("/api/undo", {})
        s, st = open_stream(port, "127.0.0.20")
        s.close()
        if st == "200":
            break
        if time.monotonic() - t0 > 60:
            print("stopped-reader still holds after 60 s")
            break
    print(
        f"8 streams that stop reading: a new stream from that address gets 200 after "
        f"{time.monotonic() - t0:.1f} s ({2 * n} changes)"
    )
    for s in hogs:
        s.close()
    # idempotency: same key twice -> applied once; many distinct keys
    v0 = json.loads(raw(port, request("GET", "/api/state")).partition(b"\r\n\r\n")[2])["version"]
    a = post("/api/action", {"type": "point", "winner": 0}, {"Idempotency-Key": "k-1"})
    b = post("/api/action", {"type": "point", "winner": 0}, {"Idempotency-Key": "k-1"})
    v1 = json.loads(raw(port, request("GET", "/api/state")).partition(b"\r\n\r\n")[2])["version"]
    print("same Idempotency-Key twice:", a[0], b[0], "versions applied:", v1 - v0)
    print(
        "same key, other request:",
        post("/api/action", {"type": "point", "winner": 1}, {"Idempotency-Key": "k-1"}),
    )
    # sessions: second browser, logout on one, the other's cookie
    c2, t2 = login(port, pin, "127.0.0.31")
    print("logout on browser 1:", post("/api/logout", {})[0])
    a = raw(
        port,
        request(
            "POST",
            "/api/undo",
            {"Cookie": c2, "X-CSRF-Token": t2, "Content-Type": "application/json"},
            b"{}",
        ),
        "127.0.0.31",
    )
    print("browser 2's cookie after logout:", statuses(a), a.partition(b"\r\n\r\n")[2][:120])
    a = raw(
        port,
        request(
            "POST",
            "/api/undo",
            {
                "Cookie": c2,
                "X-CSRF-Token": t2,
                "Content-Type": "application/json",
                "Sec-Fetch-Site": "cross-site",
            },
            b"{}",
        ),
        "127.0.0.31",
    )
    print("Sec-Fetch-Site cross-site:", statuses(a))


if __name__ == "__main__":
    main()
