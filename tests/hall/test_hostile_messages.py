"""Any message on any hall topic, through a real Mosquitto: the hall keeps serving,
keeps every table's last good card, and takes the next good update. Retained
garbage is delivered again to a hall that starts later: that one survives too."""

from __future__ import annotations

import json
import urllib.request

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.topics import AVAILABILITY, DEFAULT_PREFIX, SUMMARY, TABLE_LEAVES, dumps
from hall.run import Hall
from tests.hall.hall_support import Sender, Watch, get

P = DEFAULT_PREFIX
#: A good summary of table ``good``; ``version`` is set per message.
GOOD = {"table": {"id": "good", "name": "Good", "url": "http://192.0.2.1/"},
        "version": 0, "epoch": 0, "game": "center-court", "title": "Center Court",
        "status": "active", "players": "Ann v Bob", "score": "0-0 (15-0)", "turn": "Bob",
        "winner": "", "columns": ["Sets", "Games", "Points"],
        "sides": [{"name": "Ann", "score": ["0", "0", "15"], "turn": False, "winner": False},
                  {"name": "Bob", "score": ["0", "0", "0"], "turn": True, "winner": False}]}

#: Any code points, lone surrogates included (hypothesis leaves them out by default).
any_text = st.text(st.characters(exclude_categories=[])
                   | st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), max_size=30)
#: Any JSON value.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | any_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(any_text, inner, max_size=4),
    max_leaves=12)


@st.composite
def summary_like(draw) -> dict:
    """A good summary with one part (a field, a side, a cell, the table) made anything."""
    body = json.loads(json.dumps(GOOD))
    where = draw(st.sampled_from(["top", "side", "cell", "table"]))
    value = draw(any_text | json_values)
    if where == "top":
        body[draw(st.sampled_from(sorted(body)))] = value
    elif where == "side":
        body["sides"][draw(st.integers(0, 1))][draw(st.sampled_from(
            ["name", "score", "turn", "winner"]))] = value
    elif where == "cell":
        body["sides"][0]["score"][draw(st.integers(0, 2))] = value
    else:
        body["table"][draw(st.sampled_from(["id", "name", "url"]))] = value
    return body


def as_bytes(value: object, how: str) -> bytes:
    """JSON text of ``value``: escaped (``"\\ud800"``) or raw (lone surrogates as
    the invalid UTF-8 a careless encoder writes)."""
    if how == "escaped":
        return json.dumps(value).encode("ascii")
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


summaries = st.builds(as_bytes, summary_like(), st.sampled_from(["escaped", "raw"]))
payloads = (summaries | summaries | st.binary(max_size=300)
            | st.builds(as_bytes, json_values, st.sampled_from(["escaped", "raw"]))
            | st.sampled_from([b"", b'"\\ud800"', b"online", b"offline", b"\xff\xfe",
                               b'{"table":{"name":"\\udfff"}}']))


def publishable(c: str) -> bool:
    """Whether Mosquitto takes ``c`` in a topic: not a wildcard or "/", and none of the
    code points it refuses (dropping the client): controls and non-characters."""
    n = ord(c)
    return (c not in "+#/" and not n <= 0x1F and not 0x7F <= n <= 0x9F
            and not 0xFDD0 <= n <= 0xFDEF and n & 0xFFFE != 0xFFFE)


#: A topic level a client may publish to (surrogates are not UTF-8: paho refuses them).
levels = st.text(st.characters(exclude_categories=["Cs"]).filter(publishable),
                 min_size=1, max_size=40)
#: Mostly the topics the hall reads, of a table it shows and of new ones.
read = st.builds(lambda t, leaf: f"{P}/{t}/{leaf}", st.sampled_from(["good", "other", "new-1"]),
                 st.sampled_from([SUMMARY, AVAILABILITY]))
topics = (read | read | read
          | st.builds(lambda t, leaf: f"{P}/{t}/{leaf}",
                    st.sampled_from(["good", "other", "x" * 33, "Bad!"]) | levels,
                    st.sampled_from(TABLE_LEAVES) | levels)
          | st.builds(lambda rest: f"{P}/{rest}", levels)
          | st.just(f"{P}/good/summary/more"))


def page_status(base: str, path: str) -> int:
    with urllib.request.urlopen(base + path, timeout=10) as response:
        response.read()
        return response.status


class GoodTable:
    """Publishes table ``good``'s summary, one version more each time."""

    def __init__(self, sender: Sender) -> None:
        self.sender, self.version = sender, 0

    def update(self) -> int:
        self.version += 1
        self.sender.send(f"{P}/good/summary", dumps({**GOOD, "version": self.version}))
        self.sender.send(f"{P}/good/{AVAILABILITY}", "online")
        return self.version


def check_alive(hall: Hall, watch: Watch, good: GoodTable) -> None:
    """Every page answers 200, and a good update reaches the card, unchanged otherwise."""
    version = good.update()
    # The summary and the availability come on two topics, in either order.
    watch.until(lambda w: w.cards.get("good", {}).get("version") == version
                and w.cards["good"]["online"] is True)
    base = hall.urls[0]
    for path in ("", "api/tables"):
        assert page_status(base, path) == 200, path
    body = get(base + "api/tables")[2]
    (card,) = [c for c in body["tables"] if c["id"] == "good"]
    assert card["version"] == version and card["summary"]["score"] == GOOD["score"]
    assert card["name"] == "Good" and card["online"] is True


def test_a_lone_surrogate_retained_neither_kills_the_hall_nor_the_next_one(mosquitto):
    sender = Sender(mosquitto)
    good = GoodTable(sender)
    try:
        with Hall(mosquitto.url, host="127.0.0.1", port=0, prefix=P) as hall, \
                Watch(hall.server.port) as watch:
            check_alive(hall, watch, good)
            bad = dumps({**GOOD, "version": 99, "players": "\ud800"})
            sender.send(f"{P}/good/{SUMMARY}", bad.encode("utf-8", "surrogatepass"))
            sender.send(f"{P}/evil/{SUMMARY}", json.dumps({**GOOD, "score": "\ud800"}))
            check_alive(hall, watch, good)
            assert "evil" not in watch.cards
            sender.send(f"{P}/good/{SUMMARY}", json.dumps({**GOOD, "version": 99,
                                                             "turn": "\udfff"}))
        # The lone surrogate is the retained summary now: a hall that starts gets it first.
        with Hall(mosquitto.url, host="127.0.0.1", port=0, prefix=P) as hall, \
                Watch(hall.server.port) as watch:
            watch.until(lambda w: w.connected)
            check_alive(hall, watch, good)
            assert hall.board.complain.count >= 1
    finally:
        sender.close()


def test_any_message_on_any_topic_leaves_the_hall_serving(mosquitto):
    sender = Sender(mosquitto)
    good = GoodTable(sender)
    try:
        with Hall(mosquitto.url, host="127.0.0.1", port=0, prefix=P) as hall, \
                Watch(hall.server.port) as watch:
            check_alive(hall, watch, good)

            @settings(max_examples=150, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])
            @given(st.lists(st.tuples(topics, payloads, st.booleans()), min_size=1,
                            max_size=4))
            @example([(f"{P}/good/{SUMMARY}", b'{"table":{}}', True),
                      (f"{P}/other/{SUMMARY}", as_bytes({**GOOD, "turn": "\ud800"}, "escaped"),
                       False)])
            def messages(batch):
                for topic, payload, retain in batch:
                    sender.send(topic, payload, retain=retain)
                check_alive(hall, watch, good)

            messages()
        # Whatever garbage stayed retained comes first to a hall started now.
        with Hall(mosquitto.url, host="127.0.0.1", port=0, prefix=P) as hall, \
                Watch(hall.server.port) as watch:
            watch.until(lambda w: w.connected)
            check_alive(hall, watch, good)
    finally:
        sender.close()
