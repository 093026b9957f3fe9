"""A new phone always finds a stream place: a few addresses holding every place give
the oldest stream of the one holding the most to a newcomer; the simulator's frame
streams are shared out the same way.

Over real sockets from different loopback addresses (127.0.0.x are other phones), and
as a property of the broker's rule.
"""

from __future__ import annotations

import contextlib
import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.config import Config
from app.runtime import SIM_PAGES, SIM_PAGES_PER_ADDRESS, Companion, WebOptions
from tests.hostile.test_streams import served
from tests.web.conftest import PIN
from tests.web.sse import SseClient
from tests.web.test_server import wait_until
from web.stream import Broker, TooManyStreams


def test_a_few_addresses_holding_every_place_do_not_keep_a_new_phone_out(tmp_path):
    """Today's hostile numbers scaled down: 25 addresses x 8 streams held all 200 places."""
    with served(tmp_path / "companion.db", max_streams=12, per_address=4) as s:
        hogs = {a: [s.phone(source=f"127.0.0.{a}") for _ in range(4)] for a in (2, 3, 4)}
        try:
            assert all(h.status == 200 for hs in hogs.values() for h in hs)
            assert s.broker.streams == 12
            for h in (h for hs in hogs.values() for h in hs):
                h.next_state()
            for newcomer in (20, 21, 22):
                phone = s.phone(source=f"127.0.0.{newcomer}")
                hogs.setdefault(newcomer, []).append(phone)
                assert phone.status == 200, phone.response.read()
                assert phone.next_state().json()["version"] == 0
            # Each took the oldest stream of an address holding the most: those ended
            # (their pages reconnect, and wait their turn), the others go on.
            for a in (2, 3, 4):
                assert stream_ended(hogs[a][0])
            assert sorted(s.broker.holders().values()) == [1] * 3 + [3] * 3
            assert s.broker.streams == 12
        finally:
            for hs in hogs.values():
                for h in hs:
                    h.close()


def stream_ended(phone: SseClient, within: float = 5.0) -> bool:
    """Whether the stream ends within ``within`` seconds (its keep-alives read meanwhile)."""
    deadline = time.monotonic() + within
    try:
        while time.monotonic() < deadline:
            phone.next_event(skip_comments=False)
    except (ConnectionError, OSError):
        return True
    return False


def test_a_fair_share_is_never_taken_and_the_refusal_says_so(tmp_path):
    with served(tmp_path / "companion.db", max_streams=4, per_address=4) as s:
        phones = [s.phone(source=f"127.0.0.{a}") for a in (2, 3, 4, 5)]
        try:
            assert [p.status for p in phones] == [200] * 4
            # Every address holds one: a second from any of them would take another's only.
            refused = s.phone(source="127.0.0.2")
            with contextlib.closing(refused):
                assert refused.status == 503 and refused.response.getheader("Retry-After")
                assert "all 4 places are taken" in json.loads(refused.response.read())["error"]
            newcomer = s.phone(source="127.0.0.9")
            with contextlib.closing(newcomer):
                assert newcomer.status == 503  # four phones really are watching
        finally:
            for p in phones:
                p.close()


def test_one_address_cannot_take_every_simulator_frame_stream(tmp_path):
    with Companion(Config(), sim=True, data=tmp_path,
                   web=WebOptions(host="127.0.0.1", port=0, pin=PIN, keepalive=0.3)) as c:
        port = c.server.port
        pages = []
        try:
            for _ in range(SIM_PAGES_PER_ADDRESS):
                pages.append(SseClient("127.0.0.1", port, path="/api/sim/events",
                                       source="127.0.0.2"))
            assert [p.status for p in pages] == [200] * SIM_PAGES_PER_ADDRESS
            more = SseClient("127.0.0.1", port, path="/api/sim/events", source="127.0.0.2")
            with contextlib.closing(more):
                assert more.status == 503 and "127.0.0.2" in json.loads(more.response.read())[
                    "error"]
            mine = SseClient("127.0.0.1", port, path="/api/sim/events", source="127.0.0.3")
            pages.append(mine)
            assert mine.status == 200
            assert c.frames.streams == SIM_PAGES_PER_ADDRESS + 1 <= SIM_PAGES
        finally:
            for p in pages:
                p.close()
        wait_until(lambda: c.frames.streams == 0)


# --- the rule, as a property ---------------------------------------------------------------

LIMIT, PER_ADDRESS = 12, 5
ADDRESSES = [f"10.0.0.{n}" for n in range(8)]
STEPS = st.lists(st.tuples(st.sampled_from(["open", "close"]), st.sampled_from(ADDRESSES),
                           st.integers(0, 100)), max_size=80)


def held(broker: Broker) -> dict[str, int]:
    holders = broker.holders()
    return {a: holders.get(a, 0) for a in ADDRESSES}


@settings(max_examples=200, deadline=None)
@given(steps=STEPS)
def test_the_sharing_rule(steps):
    """Whatever opens and closes come: never more than the limits; a newcomer is refused
    only when it holds as many as any address would keep, and then nothing changes; a
    stream is shed only from an address holding the most, and its oldest."""
    broker = Broker("state", LIMIT, keepalive=60, per_client=PER_ADDRESS)
    open_: dict[str, list] = {a: [] for a in ADDRESSES}
    try:
        for kind, address, pick in steps:
            if kind == "close":
                if open_[address]:
                    open_[address].pop(pick % len(open_[address])).close()
                continue
            counts = held(broker)
            mine, most = counts[address], max(counts.values())
            total = sum(counts.values())
            try:
                stream = broker.open(None, client=address)
            except TooManyStreams:
                assert mine >= PER_ADDRESS or (total >= LIMIT and most - 1 < mine + 1)
                assert held(broker) == counts
                continue
            assert mine < PER_ADDRESS and (total < LIMIT or most - 1 >= mine + 1)
            open_[address].append(stream)
            after = held(broker)
            assert after[address] == mine + 1 and sum(after.values()) <= LIMIT
            if total >= LIMIT:
                shed = [a for a in ADDRESSES if after[a] < counts[a]]
                assert len(shed) == 1 and counts[shed[0]] == most
                assert broker.streams == LIMIT
            assert max(after.values()) <= PER_ADDRESS
    finally:
        for streams in open_.values():
            for stream in streams:
                stream.close()
    assert broker.streams == 0


def test_a_shed_stream_that_waits_ends_at_once():
    broker = Broker("state", 2, keepalive=60, per_client=2)
    broker.publish(1, "{}")
    old = broker.open(None, client="a")
    assert b"retry" in next(old) and b"id: 1" in next(old)
    broker.open(None, client="a")
    newcomer = broker.open(None, client="b")  # takes a's oldest place
    with pytest.raises(StopIteration):
        next(old)  # it was parked for the next message: woken and ended
    old.close()
    newcomer.close()
    assert broker.streams == 1
