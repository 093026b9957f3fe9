"""A stranger on the club Wi-Fi against a running companion: odd requests, many streams, logins.

Run: .venv/bin/python -m tests.bench.attack_stranger --port PORT [--pin PIN] [--streams 300]

Start the companion first (``.venv/bin/companion run --sim --data /tmp/attack-data
--port PORT --pin PIN``). Each scenario sends real bytes from loopback
addresses (127.0.0.2 and up are other "phones") and prints what came back:
the status of every malformed request (any 5xx is a finding), whether one
address can take every stream slot, whether wrong PINs from one address lock
out another, and how the server holds up. Prints; asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import socket
import sys
import time
from pathlib import Path


def raw(port: int, data: bytes, source: str = "127.0.0.2", timeout: float = 5.0) -> bytes:
    """Send ``data`` on a new connection and read until the server closes or goes quiet."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                  source_address=(source, 0)) as sock:
        sock.sendall(data)
        got = b""
        with contextlib.suppress(TimeoutError, ConnectionResetError):
            while chunk := sock.recv(65536):
                got += chunk
        return got


def statuses(answer: bytes) -> list[str]:
    """The status codes of every response in ``answer`` (pipelining gives several)."""
    return [m.decode() for m in re.findall(rb"HTTP/1\.[01] (\d{3}) ", answer)]


def request(method: str, path: str, headers: dict[str, str] | None = None,
            body: bytes = b"", version: str = "HTTP/1.1") -> bytes:
    head = {"Host": "127.0.0.1", "Connection": "close", **(headers or {})}
    if body:
        head.setdefault("Content-Length", str(len(body)))
    lines = [f"{method} {path} {version}", *(f"{k}: {v}" for k, v in head.items())]
    return "\r\n".join(lines).encode("utf-8", "surrogateescape") + b"\r\n\r\n" + body


def login(port: int, pin: str, source: str) -> tuple[str, str]:
    """The session cookie and CSRF token of a host logged in from ``source``."""
    answer = raw(port, request("POST", "/api/login", {"Content-Type": "application/json"},
                               json.dumps({"pin": pin}).encode()), source)
    head, _, body = answer.partition(b"\r\n\r\n")
    cookie = next(line.split(b":", 1)[1].split(b";")[0].strip().decode()
                  for line in head.split(b"\r\n") if line.lower().startswith(b"set-cookie"))
    return cookie, json.loads(body)["csrf"]


def malformed(port: int, pin: str) -> None:
    cookie, csrf = login(port, pin, "127.0.0.3")
    host = {"Cookie": cookie, "X-CSRF-Token": csrf, "Content-Type": "application/json"}
    cases: list[tuple[str, bytes]] = [
        ("deep JSON on /api/login", request("POST", "/api/login",
                                            {"Content-Type": "application/json"},
                                            b"[" * 8000 + b"]" * 8000)),
        ("Last-Event-ID ²", request("HEAD", "/api/events", {"Last-Event-ID": "²"})),
        ("Last-Event-ID 5000 digits", request("HEAD", "/api/events",
                                              {"Last-Event-ID": "9" * 5000})),
        ("non-ASCII X-CSRF-Token", request("POST", "/api/undo",
                                           {**host, "X-CSRF-Token": "é\udcff"}, b"{}")),
        ("export id 2^63", request("GET", f"/api/matches/{2**63}/export")),
        ("export id -1", request("GET", "/api/matches/-1/export")),
        ("garbage method", request("FROB", "/api/state")),
        ("garbage path", request("GET", "/%00%ff/../../etc/passwd")),
        ("path of 15 KB", request("GET", "/" + "a" * 15000)),
        ("query of 15 KB", request("GET", "/api/state?" + "a=1&" * 3700)),
        ("headers past 16 KB", request("GET", "/api/state", {"X-A": "b" * 17000})),
        ("200 headers", request("GET", "/api/state", {f"X-{i}": "v" for i in range(200)})),
        ("header without colon", b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nnocolon\r\n\r\n"),
        ("bare LF line ends", b"GET /api/state HTTP/1.1\nHost: 127.0.0.1\n\n"),
        ("HTTP/1.0 without Host", b"GET /api/state HTTP/1.0\r\n\r\n"),
        ("HTTP/1.0 with Host", request("GET", "/api/state", version="HTTP/1.0")),
        ("HTTP/0.9", b"GET /api/state\r\n\r\n"),
        ("HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
        ("TLS hello on HTTP", bytes.fromhex("160301002a0100002603") + b"\x00" * 40),
        ("Host header odd", request("GET", "/api/state", {"Host": "evil.example"})),
        ("Content-Length negative", request("POST", "/api/login",
                                            {"Content-Length": "-1"})),
        ("Content-Length huge", request("POST", "/api/login",
                                        {"Content-Length": "9" * 40})),
        ("CL + TE smuggle", b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            b"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"
                            b"0\r\n\r\nGET /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
        ("TE obfuscated", b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Transfer-Encoding: xchunked\r\nContent-Length: 2\r\n\r\n{}"),
        ("chunk size garbage", b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                               b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"),
        ("pipelining 50 GETs", b"".join(
            b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" for _ in range(50))),
        ("Idempotency-Key 300 chars", request("POST", "/api/undo",
                                              {**host, "Idempotency-Key": "k" * 300}, b"{}")),
        ("Idempotency-Key non-ASCII", request("POST", "/api/undo",
                                              {**host, "Idempotency-Key": "ключ"}, b"{}")),
        ("options [] start record", request("POST", "/api/match", host, json.dumps(
            {"game": "center-court", "players": ["A", "B"], "options": []}).encode())),
        ("action 1e400", request("POST", "/api/action", host,
                                 b'{"type": "serve", "card": 1e400}')),
        ("action NaN", request("POST", "/api/action", host, b'{"type": "serve", "card": NaN}')),
        ("body not UTF-8", request("POST", "/api/action", host, b'{"type": "\xff\xfe"}')),
        ("cross-site Origin", request("POST", "/api/undo",
                                      {**host, "Origin": "http://evil.example"}, b"{}")),
        ("epoch=-1 stream", request("HEAD", "/api/events?epoch=-1")),
        ("sim press unknown", request("POST", "/api/sim/press", host, b'{"button": "x"}')),
    ]
    for label, data in cases:
        got = statuses(raw(port, data))
        flag = "  <-- 5xx" if any(s.startswith("5") for s in got) else ""
        shown = got if len(got) < 4 else f"{len(got)} x {sorted(set(got))}"
        print(f"  {label:32} {shown or 'closed, no answer'}{flag}", flush=True)


def open_stream(port: int, source: str) -> tuple[socket.socket, str]:
    """A live stream from ``source``: the socket (reading it is up to the caller) and status."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5,
                                    source_address=(source, 0))
    sock.sendall(request("GET", "/api/events", {"Connection": "keep-alive"}))
    head = b""
    with contextlib.suppress(TimeoutError):
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            if not chunk:
                break
            head += chunk
    return sock, (statuses(head) or ["closed"])[0]


def stream_hog(port: int, count: int) -> None:
    socks = []
    got: dict[str, int] = {}
    try:
        for _ in range(count):
            sock, status = open_stream(port, "127.0.0.4")
            socks.append(sock)
            got[status] = got.get(status, 0) + 1
        print(f"  one address opens {count} streams: {got}")
        phone, status = open_stream(port, "127.0.0.5")
        phone.close()
        print(f"  then a phone from another address: {status}"
              + ("  <-- locked out" if status != "200" else ""))
    finally:
        for sock in socks:
            sock.close()


def login_lockout(port: int, pin: str) -> None:
    for _ in range(8):
        raw(port, request("POST", "/api/login", {"Content-Type": "application/json"},
                          b'{"pin": "000000"}'), "127.0.0.6")
    attacker = statuses(raw(port, request("POST", "/api/login",
                                          {"Content-Type": "application/json"},
                                          json.dumps({"pin": pin}).encode()), "127.0.0.6"))
    host = statuses(raw(port, request("POST", "/api/login",
                                      {"Content-Type": "application/json"},
                                      json.dumps({"pin": pin}).encode()), "127.0.0.7"))
    print(f"  8 wrong PINs from 127.0.0.6: its right PIN now {attacker}; "
          f"the host from 127.0.0.7: {host}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pin", default="2468")
    parser.add_argument("--streams", type=int, default=300)
    args = parser.parse_args()
    print("command:", " ".join([Path(sys.executable).name, "-m",
                                "tests.bench.attack_stranger", *sys.argv[1:]]))
    print("malformed requests (status of each answer):")
    malformed(args.port, args.pin)
    print("streams:")
    stream_hog(args.port, args.streams)
    print("logins:")
    login_lockout(args.port, args.pin)
    t0 = time.monotonic()
    raw(args.port, request("GET", "/api/state"))
    print(f"afterwards GET /api/state answers in {1000 * (time.monotonic() - t0):.1f} ms")


if __name__ == "__main__":
    main()
