"""The hall's offers on a real Mosquitto with the README's ACL: a simulated companion as
table-1 (buttons on mock pins, its OLED, its host page over HTTP), the hall's user
offering it matches, and table-2's user trying to forge one.

Nothing starts without the press; the press starts the match the OLED showed, with the
event; the finished match's ``results`` entry carries the event; a forged offer is
refused by the broker and never shown; an offer replaced or withdrawn while the screen
shows it is never started; an offer while a match is in play waits for its end.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paho.mqtt.enums import CallbackAPIVersion
from PIL import Image, ImageChops

from app.runtime import Companion
from companion.topics import Topics
from drivers.broker import stop_client
from tests.mqtt.support import TIMEOUT, Listener, companion, on_broker
from tests.mqtt_support import Mosquitto
from tests.screens.test_offer_screen import offer_payload
from tests.test_docs import blocks
from tests.web.conftest import PIN

ROOT = Path(__file__).resolve().parents[2]
T1 = Topics("table-companion", "table-1")
USERS = {"table-1": "pw-1", "table-2": "pw-2", "hall": "pw-hall"}
GOLDEN = ROOT / "tests" / "screens" / "golden"


def readme_acl() -> str:
    (block,) = [b for b in blocks(ROOT / "README.md")
                if b.marker.get("check") == "mosquitto-acl"]
    return block.text


class Seen:
    """Values handed over from other threads (OLED frames, offers), waited on."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._cond = threading.Condition()

    def add(self, item: Any) -> None:
        with self._cond:
            self.items.append(item)
            self._cond.notify_all()

    def wait(self, check: Callable[[Any], bool], what: str) -> Any:
        """The newest item once ``check`` holds for it."""
        with self._cond:
            if not self._cond.wait_for(lambda: self.items and check(self.items[-1]), TIMEOUT):
                raise AssertionError(f"waited {TIMEOUT} s for {what}")
            return self.items[-1]


def same_frame(golden: str) -> Callable[[Image.Image], bool]:
    with Image.open(GOLDEN / f"{golden}.png") as stored:
        want = stored.convert("L")
    return lambda image: ImageChops.difference(image.convert("L"), want).getbbox() is None


class Client:
    """A broker user that publishes at QoS 1 and learns the broker's answer (MQTT v5)."""

    def __init__(self, broker: Mosquitto, user: str) -> None:
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"test-{user}",
                                  protocol=mqtt.MQTTv5)
        self.client.username_pw_set(user, USERS[user])
        self._acks: dict[int, Any] = {}
        self._cond = threading.Condition()
        connected = threading.Event()
        self.client.on_connect = lambda *a: connected.set()
        self.client.on_publish = self._acked
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        assert connected.wait(TIMEOUT)

    def _acked(self, client, userdata, mid, reason, properties) -> None:
        with self._cond:
            self._acks[mid] = reason
            self._cond.notify_all()

    def publish(self, topic: str, payload: bytes) -> str | None:
        """Publish retained at QoS 1; None when the broker took it, else its reason."""
        info = self.client.publish(topic, payload, qos=1, retain=True)
        with self._cond:
            assert self._cond.wait_for(lambda: info.mid in self._acks, TIMEOUT)
            reason = self._acks[info.mid]
        return str(reason) if reason.is_failure else None

    def close(self) -> None:
        stop_client(self.client)


class Host:
    """The host page's requests over HTTP, logged in with the PIN."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        self.csrf = self.call("POST", "/api/login", {"pin": PIN})[1]["csrf"]

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if getattr(self, "csrf", None):
            request.add_header("X-CSRF-Token", self.csrf)
        try:
            with self.opener.open(request, timeout=TIMEOUT) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())


@pytest.fixture
def club(tmp_path):
    """The README's ACL on a real broker, table-1 (a simulated companion) on it, the hall's
    user, and what the table shows (OLED frames, offers) as it changes."""
    with Mosquitto(tmp_path / "broker", users=USERS, acl=readme_acl()) as broker:
        cfg = on_broker(broker, "table-1", username="table-1")
        with companion(cfg, tmp_path / "data", password=USERS["table-1"]) as table:
            frames, offers = Seen(), Seen()
            table.oled.frames.add(frames.add)
            table.offers.subscribe(lambda o: offers.add((o.current and o.current.id,
                                                         o.problem)))
            hall = Client(broker, "hall")
            try:
                yield broker, table, hall, frames, offers
            finally:
                hall.close()


def press(table: Companion, button: str) -> dict:
    return table.press(button).result(TIMEOUT).to_json()


def finish(table: Companion) -> None:
    """Ann wins the one-set match on the table (its host's taps, through the writer)."""
    def play(t) -> None:
        while t.snapshot.match["status"] == "active":
            t.act({"type": "point", "winner": 0})
    table.runner.call(play)


def test_an_offer_is_shown_started_by_the_press_and_its_result_carries_the_event(club):
    broker, table, hall, frames, offers = club
    watch = Listener(broker, [T1.summary, T1.leaf("results")], username="hall",
                     password=USERS["hall"])
    forger = Client(broker, "table-2")
    try:
        assert hall.publish(T1.offer, offer_payload(["Ann", "Bob"], options={"sets": 1})) \
            is None
        offers.wait(lambda o: o == ("o-1", None), "the offer read")
        frames.wait(lambda f: table.panel.state.screen.offer is not None, "a frame")
        host = Host(table.urls[0])
        shown = host.call("GET", "/api/offer")[1]["offer"]
        assert shown["players"] == ["Ann", "Bob"] and shown["event"]["round"] == 2
        # Shown, never started: the table is as it was.
        assert table.table.snapshot.match is None and table.table.version == 0
        # Another table's user forges an offer, and the table's own user offers itself one:
        # the broker refuses both, and a later offer of the hall's is the next one seen.
        forged = offer_payload(["Mallory", "Eve"], offer="o-forged")
        assert "Not authorized" in forger.publish(T1.offer, forged)
        assert "Not authorized" in forger.publish(T1.offer, b"")
        hall.publish(T1.offer, offer_payload(["Ann", "Bob"], offer="o-2",
                                             options={"sets": 1}))
        offers.wait(lambda o: o == ("o-2", None), "the hall's second offer")
        assert [o[0] for o in offers.items] == ["o-1", "o-2"]
        assert table.table.snapshot.match is None
        # The board showed o-1: o-2 (the same words) comes under the notice that the
        # offer changed, which the first press only clears. Then the press.
        frames.wait(lambda f: table.panel.state.ui.message == "Hall's offer changed",
                    "the notice")
        assert press(table, "ok")["match"] is None
        frames.wait(same_frame("offer-idle"), "the offer on the OLED")
        state = press(table, "ok")
        event = {"id": "e-1", "name": "Tuesday Swiss", "round": 2, "pairing": "p-17",
                 "offer": "o-2"}
        assert state["match"]["event"] == event and state["match"]["players"] == ["Ann", "Bob"]
        watch.wait_for(lambda: (watch.last(T1.summary) or b"{}") and
                       json.loads(watch.last(T1.summary)).get("event") == event,
                       "the summary with the event")
        finish(table)
        watch.wait_for(lambda: any(r.get("event") == event for r in
                                   json.loads(watch.last(T1.leaf("results")) or b'{"results":[]}')
                                   ["results"]), "the result with the event")
        # Finished, and the hall has not withdrawn the offer yet: it is not offered again.
        assert table.panel.state.screen.offer is None
        status, refused = host.call("POST", "/api/offer/start", {"offer": "o-2"})
        assert status == 409 and "started already" in refused["error"]
        # The hall's next pairing for this table.
        hall.publish(T1.offer, offer_payload(["Cy", "Di"], offer="o-3", round_=3))
        frames.wait(lambda f: (table.panel.state.screen.offer or ("",))[0] == "o-3",
                    "the next offer")
        status, started = host.call("POST", "/api/offer/start", {"offer": "o-3"})
        assert status == 200 and started["match"]["event"]["round"] == 3
    finally:
        forger.close()
        watch.close()


def test_an_offer_replaced_or_withdrawn_while_shown_never_starts(club):
    _, table, hall, frames, offers = club
    hall.publish(T1.offer, offer_payload(["Ann", "Bob"]))
    frames.wait(same_frame("offer-idle"), "the offer on the OLED")
    hall.publish(T1.offer, offer_payload(["Cy", "Di"], offer="o-2"))
    frames.wait(same_frame("offer-replaced"), "the replaced offer under its notice")
    state = press(table, "ok")  # only clears the notice
    assert state["match"] is None and table.panel.state.ui.message is None
    host = Host(table.urls[0])  # a page that showed o-1
    status, refused = host.call("POST", "/api/offer/start", {"offer": "o-1"})
    assert status == 409 and "the hall's offer changed" in refused["error"]
    hall.publish(T1.offer, b"")  # withdrawn
    offers.wait(lambda o: o == (None, None), "the withdrawal")
    frames.wait(lambda f: table.panel.state.screen.offer is None
                and table.panel.state.ui.message == "Hall's offer changed", "the notice")
    assert press(table, "ok")["match"] is None
    status, refused = host.call("POST", "/api/offer/start", {"offer": "o-2"})
    assert status == 409 and table.table.snapshot.match is None


def test_an_offer_while_a_match_is_in_play_waits_for_its_end(club):
    _, table, hall, frames, offers = club
    host = Host(table.urls[0])
    status, _ = host.call("POST", "/api/match", {"game": "center-court",
                                                 "players": ["Cy", "Di"],
                                                 "options": {"sets": 1}})
    assert status == 200
    hall.publish(T1.offer, offer_payload(["Ann", "Bob"]))
    offers.wait(lambda o: o == ("o-1", None), "the offer read")
    table.runner.call(lambda t: None)  # the panel has taken the offer in
    assert table.panel.state.screen.offer is None
    status, _ = host.call("POST", "/api/offer/start", {"offer": "o-1"})
    assert status == 409 and table.table.snapshot.match["players"] == ["Cy", "Di"]
    finish(table)
    frames.wait(lambda f: (table.panel.state.screen.offer or ("",))[0] == "o-1",
                "the offer once the match is over")
    press(table, "ok")  # the notice of the host's change, seen
    assert press(table, "ok")["match"]["event"]["offer"] == "o-1"


def test_an_unusable_offer_is_said_and_a_lost_broker_forgets_the_offer(club):
    broker, table, hall, _, offers = club
    hall.publish(T1.offer, offer_payload(["Ann", "Bob"], game="chess"))
    offers.wait(lambda o: o[1] is not None, "the refusal")
    host = Host(table.urls[0])
    said = host.call("GET", "/api/offer")[1]
    assert said["offer"] is None and "chess" in said["problem"]
    hall.publish(T1.offer, offer_payload(["Ann", "Bob"]))
    offers.wait(lambda o: o == ("o-1", None), "the offer")
    broker.kill()
    offers.wait(lambda o: o == (None, None), "the offer forgotten with the broker")
    assert table.table.snapshot.match is None


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(st.binary(max_size=300) | st.sampled_from([
    b"{}", b"null", b"[]", b'{"offer": "o-x"}', b"\xff\xfe", b"[" * 3000,
    offer_payload(["Ann", "Ann"]), offer_payload(["Ann", "Bob"], game="chess"),
    offer_payload(["Ann", "Bob"], options={"sets": 99}), b" " * 9000]), min_size=1,
    max_size=12))
def test_no_bytes_on_the_offer_topic_crash_the_table_or_start_anything(club, payloads):
    _, table, hall, _, offers = club
    for payload in payloads:
        assert hall.publish(T1.offer, payload) is None
    # The hall's last word is a good offer: the table read everything before it.
    hall.publish(T1.offer, offer_payload(["Ann", "Bob"], offer=f"o-end-{len(payloads)}"))
    offers.wait(lambda o: o == (f"o-end-{len(payloads)}", None), "the last offer")
    assert table.table.snapshot.match is None and table.table.version == 0
    assert table.publisher is not None and table.publisher.status == "connected"
    hall.publish(T1.offer, b"")
    offers.wait(lambda o: o == (None, None), "the withdrawal")
