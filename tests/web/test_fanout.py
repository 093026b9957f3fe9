"""The fan-out thread on real socket pairs: framing, keep-alives, slow and vanished clients."""

from __future__ import annotations

import socket
import sys
import threading
from collections.abc import Callable, Iterator

import pytest

from web.fanout import KEEPALIVE, SNDBUF, TCP_USER_TIMEOUT, Fanout, chunk

Pair = tuple[socket.socket, socket.socket]


@pytest.fixture
def fanout():
    f = Fanout(keepalive=0.2)
    yield f
    f.close()


@pytest.fixture
def socketpair() -> Iterator[Callable[[], Pair]]:
    """Makes ``(ours, phone)`` connected pairs; all are closed after the test."""
    made: list[socket.socket] = []

    def make() -> Pair:
        pair = socket.socketpair()
        made.extend(pair)
        return pair

    yield make
    for s in made:
        s.close()


def read_exactly(sock: socket.socket, size: int) -> bytes:
    sock.settimeout(5)
    data = b""
    while len(data) < size:
        data += sock.recv(size - len(data))
    return data


def test_messages_go_out_as_chunks_to_every_stream(fanout, socketpair):
    pairs = [socketpair() for _ in range(3)]
    handovers = [fanout.adopt(ours, True, 0) for ours, _ in pairs]
    fanout.publish(1, b"id: 1\nevent: state\ndata: {}\n\n")
    expected = chunk(b"id: 1\nevent: state\ndata: {}\n\n")
    for _, phone in pairs:
        assert read_exactly(phone, len(expected)) == expected
    assert not any(h.gone.is_set() for h in handovers)


def test_a_new_stream_catches_up_then_gets_each_message_before_publish_returns(
        fanout, socketpair):
    ours, phone = socketpair()
    fanout.publish(1, b"one")
    fanout.adopt(ours, False, 0)
    assert read_exactly(phone, 3) == b"one"  # caught up by the fan-out thread
    fanout.publish(2, b"two")
    phone.setblocking(False)
    assert phone.recv(16) == b"two"  # already there: written by publish itself


def test_an_older_version_is_never_sent_after_a_newer_one(fanout, socketpair):
    ours, phone = socketpair()
    fanout.publish(2, b"two")
    fanout.publish(1, b"one")
    fanout.adopt(ours, False, 0)
    assert read_exactly(phone, 3) == b"two"
    fanout.publish(3, b"new")
    assert read_exactly(phone, 3) == b"new"


def test_an_unchunked_stream_gets_plain_bytes_and_keep_alives(fanout, socketpair):
    ours, phone = socketpair()
    fanout.adopt(ours, False, 5)
    fanout.publish(5, b"old")  # already seen: not sent again
    assert read_exactly(phone, len(KEEPALIVE)) == KEEPALIVE


def test_a_vanished_client_ends_its_stream(fanout, socketpair):
    ours, phone = socketpair()
    handover = fanout.adopt(ours, True, 0)
    phone.close()
    fanout.publish(1, b"x")
    # The first write may still land; the next keep-alive surely fails.
    assert handover.gone.wait(5)


def test_a_client_that_closes_is_dropped_at_once_and_reported_once(socketpair):
    f = Fanout(keepalive=60)  # no keep-alive or message will find it out
    ours, phone = socketpair()
    ended = []
    handover = f.adopt(ours, True, 0, on_gone=lambda: ended.append(1))
    phone.close()
    assert handover.gone.wait(5)
    f.close()
    assert ended == [1]


def test_what_a_client_sends_is_read_and_ignored(fanout, socketpair):
    ours, phone = socketpair()
    handover = fanout.adopt(ours, False, 0)
    phone.sendall(b"GET /more HTTP/1.1\r\n\r\n")
    fanout.publish(1, b"v1")
    assert read_exactly(phone, 2) == b"v1"
    assert not handover.gone.is_set()


def test_a_slow_client_skips_to_the_newest_message(fanout, socketpair):
    ours, phone = socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    phone.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    fanout.adopt(ours, False, 0)
    big = b"A" * 200_000
    fanout.publish(1, big)
    received = read_exactly(phone, 10)  # the big one is on its way, the socket full
    for version in range(2, 6):
        fanout.publish(version, b"v%d" % version)
    phone.settimeout(5)
    while not received.endswith(b"v5"):
        received += phone.recv(65536)
    # The big message whole, then only the newest: v2-v4 were skipped.
    # (Publishes that arrive together are also coalesced to the newest.)
    assert received.startswith(big) and received[len(big):].replace(KEEPALIVE, b"") == b"v5"


def test_close_ends_every_stream_and_refuses_new_ones(socketpair):
    f = Fanout()
    ours, phone = socketpair()
    later, _ = socketpair()
    ended = []
    handover = f.adopt(ours, True, 0, on_gone=lambda: ended.append("first"))
    ours.close()  # as the server does once the fan-out has the connection
    f.publish(1, b"x")
    assert read_exactly(phone, len(chunk(b"x"))) == chunk(b"x")
    f.close()
    assert handover.gone.wait(5)
    assert read_exactly(phone, 5) == b"0\r\n\r\n"  # the response's last chunk
    assert phone.recv(1) == b""  # and then the connection is closed
    late = f.adopt(later, True, 0, on_gone=lambda: ended.append("late"))
    assert late.gone.is_set()
    assert ended == ["first", "late"]
    f.close()


def test_close_never_touches_the_wake_pipe_after_the_thread_has_closed_it():
    """close() once woke the thread after letting go of the lock: a thread that
    woke by itself in between (a keep-alive) saw the close, closed the pipe and
    ended, and the late wake wrote to a closed descriptor, or to whatever file
    or socket had reused its number. A tracer holds close() just before it
    writes that wake until the thread has had every chance to end."""
    before = set(threading.enumerate())
    f = Fanout(keepalive=0.01)
    (thread,) = set(threading.enumerate()) - before
    held = []

    def tracer(frame, event, arg):
        if event == "call" and frame.f_code.co_name == "_wake" and \
                frame.f_back.f_code.co_name == "close":
            held.append(True)
            thread.join(1)  # returns at once if the thread ended; else waits for nothing
        return None

    sys.settrace(tracer)
    try:
        f.close()
    finally:
        sys.settrace(None)
    assert held == [True]  # the tracer did hold close() at its wake
    assert not thread.is_alive()


def test_a_tcp_stream_gives_up_on_a_vanished_phone_and_buffers_little():
    """Without a FIN the kernel retransmits for about 15 minutes; the fan-out's
    sockets give up once sent bytes stay unacknowledged for its send timeout."""
    f = Fanout(keepalive=15, send_timeout=20)
    with socket.create_server(("127.0.0.1", 0)) as listener, \
            socket.create_connection(listener.getsockname()) as phone:
        ours, _ = listener.accept()
        with ours:
            handover = f.adopt(ours, False, 0)
            mine = handover.sock
            assert mine.getsockopt(socket.IPPROTO_TCP, TCP_USER_TIMEOUT) == 20_000
            assert mine.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) <= 2 * SNDBUF
            f.publish(1, b"v1")
            assert read_exactly(phone, 2) == b"v1"
    f.close()


def test_what_the_server_had_not_sent_goes_first_and_once(fanout, socketpair):
    ours, phone = socketpair()
    fanout.publish(2, b"two")
    released = []

    def release() -> bytes:
        released.append(True)
        return b"head+one"

    fanout.adopt(ours, False, 1, release=release)
    assert released == [True]
    assert read_exactly(phone, len(b"head+onetwo")) == b"head+onetwo"


def test_a_stream_that_cannot_take_a_message_in_time_is_dropped(socketpair):
    f = Fanout(keepalive=60, send_timeout=0.3)  # no keep-alive will find it out
    ours, phone = socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    phone.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    ended = []
    handover = f.adopt(ours, False, 0, on_gone=lambda: ended.append(1))
    f.publish(1, b"A" * 200_000)  # the phone reads none of it
    assert handover.gone.wait(5)
    assert ended == [1]
    f.close()


def test_a_slow_but_reading_phone_is_kept(socketpair):
    f = Fanout(keepalive=60, send_timeout=0.5)
    ours, phone = socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    phone.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    handover = f.adopt(ours, False, 0)
    for version in range(1, 4):
        f.publish(version, b"%d" % version * 20_000)
        # Each message takes a while, but each is taken well within the bound.
        assert read_exactly(phone, 20_000) == b"%d" % version * 20_000
    assert not handover.gone.is_set()
    f.close()
