"""A request framed two ways (Transfer-Encoding and Content-Length) is refused and its
connection closed (RFC 9112 6.1 lets a server reject it): the bytes after it could be a
smuggled request. Tornado refuses such a body itself; the server answers first, as JSON."""

from __future__ import annotations

import socket

BODY = b'{"pin": "0000"}'
CHUNKED = b"%X\r\n%s\r\n0\r\n\r\n" % (len(BODY), BODY)
NEXT = b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def exchange(port: int, head: bytes, body: bytes) -> bytes:
    """Send a login then, on the same connection, a state read; all that comes back
    until the server closes (or 3 s of quiet)."""
    with socket.create_connection(("127.0.0.1", port), timeout=3) as sock:
        sock.sendall(b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\n" + head + b"\r\n" + body + NEXT)
        data = b""
        try:
            while chunk := sock.recv(65536):
                data += chunk
                if data.count(b"HTTP/1.1 ") == 2 and data.endswith(b"}"):
                    break  # both answered: the connection was kept
        except TimeoutError:
            pass
    return data


def test_transfer_encoding_and_content_length_close_the_connection(server):
    data = exchange(server.port, b"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n",
                    CHUNKED)
    head = data.partition(b"\r\n\r\n")[0].lower()
    assert data.startswith(b"HTTP/1.1 400"), data[:200]
    assert b"connection: close" in head
    assert b"not both" in data
    assert data.count(b"HTTP/1.1 ") == 1  # the bytes after it were not taken as a request


def test_either_framing_alone_keeps_the_connection(server):
    chunked = exchange(server.port, b"Transfer-Encoding: chunked\r\n", CHUNKED)
    assert chunked.count(b"HTTP/1.1 ") == 2, chunked
    sized = exchange(server.port, b"Content-Length: %d\r\n" % len(BODY), BODY)
    assert sized.count(b"HTTP/1.1 ") == 2, sized


def test_a_transfer_encoding_in_http_1_0_closes_too(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=3) as sock:
        sock.sendall(b"POST /api/login HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n"
                     b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                     b"Content-Length: %d\r\n\r\n%s" % (len(BODY), BODY) + NEXT)
        data = b""
        try:
            while chunk := sock.recv(65536):
                data += chunk
        except TimeoutError:
            pass
    assert data.startswith(b"HTTP/1.1 400"), data[:200]
    assert data.count(b"HTTP/1.") == 1
