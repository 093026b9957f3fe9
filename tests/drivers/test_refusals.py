"""The bookkeeping of what a broker refuses a table: each topic's scope (the ACL line that
grants it), episodes that begin once and end once, the status and the summary's list."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.topics import Topics, discovery_topics, retired_topics
from drivers.refusals import DISCOVERY, OFFERS, OLD, OWN, Refusals

T2 = Topics("table-companion", "table-2")
OLD_TOPICS = retired_topics(Topics("table-companion", "table-1"), "homeassistant")


def refusals(user: str | None = "table-2") -> Refusals:
    return Refusals(T2, "homeassistant", user)


def test_each_topic_is_granted_by_the_acl_line_of_its_table_or_its_configs():
    r = refusals()
    for topic in (T2.availability, T2.state, T2.summary, T2.events, T2.leaf("results")):
        assert r.scope(topic).kind == OWN
        assert r.scope(topic).acl == "topic write table-companion/table-2/#"
    for topic in discovery_topics("table-2"):
        assert r.scope(topic).kind == DISCOVERY
        assert r.scope(topic).acl == "topic write homeassistant/sensor/table_companion_table-2/#"
    assert {r.scope(t).acl for t in OLD_TOPICS} == {
        "topic write table-companion/table-1/#",
        "topic write homeassistant/sensor/table_companion_table-1/#"}
    assert all(r.scope(t).kind == OLD for t in OLD_TOPICS)
    assert r.scope(T2.offer).kind == OFFERS
    assert r.scope(T2.offer).acl == "topic read table-companion/_hall/offers/table-2"


@given(st.lists(st.tuples(st.sampled_from(OLD_TOPICS[:4]), st.booleans()), max_size=40))
def test_an_episode_begins_once_and_ends_once_whatever_the_answers(answers):
    """One scope (table-1's configs): a change is reported exactly when the scope goes from
    nothing refused to something refused, or back."""
    r = refusals()
    refused: set[str] = set()
    for topic, taken in answers:
        before = bool(refused)
        (refused.discard if taken else refused.add)(topic)
        change = r.answer(topic, None if taken else "Not authorized")
        if before == bool(refused):
            assert change is None
        else:
            assert change is not None and (change.reason is None) == taken
    assert bool(r.scopes()) == bool(refused)
    assert (r.status() is not None) == bool(refused)


def test_the_status_says_the_most_telling_refusal_and_the_summary_all():
    r = refusals()
    assert r.status() is None and r.to_json() == [] and not r.retained
    r.answer(T2.offer, "Not authorized")
    assert r.status() == "offers refused: not authorized" and not r.retained
    r.answer(OLD_TOPICS[0], "Not authorized")
    assert r.status() == "old id not cleared: not authorized" and r.retained
    r.answer(T2.events, "Quota exceeded")
    assert r.status() == "may not publish: quota exceeded"
    assert [e["acl"] for e in r.to_json()] == [
        "topic write table-companion/table-2/#",
        "topic write homeassistant/sensor/table_companion_table-1/#",
        "topic read table-companion/_hall/offers/table-2"]
    # Only the events refused: nothing retained to publish again.
    r.answer(OLD_TOPICS[0], None)
    assert not r.retained
    assert r.refuses([T2.events]) and not r.refuses([T2.availability])


def test_the_log_line_names_the_user_the_line_and_a_wrong_user():
    r = refusals(user="table-1")
    change = r.answer(T2.availability, "Not authorized")
    said = r.began(change, "table-2", 60)
    assert ("the broker refuses this table's messages (table-companion/table-2/availability: "
            "Not authorized)") in said
    assert "give user 'table-1' `topic write table-companion/table-2/#`" in said
    assert "is [mqtt] username right?" in said and "trying again every 60 s" in said
    anonymous = refusals(user=None)
    said = anonymous.began(anonymous.answer(OLD_TOPICS[-1], "Not authorized"), "table-2", 60)
    assert "give anonymous clients" in said and "clear the old id with its own user" in said
    assert r.ended(r.answer(T2.availability, None)) == (
        "the broker takes this table's messages again (topic write table-companion/table-2/#)")


def test_the_messages_waiting_for_an_acknowledgement_are_bounded(caplog):
    """A broker that never answers cannot make a client hold every message it sent: past
    the bound the oldest are forgotten, counted, and said once per episode."""
    import logging

    from drivers.refusals import MAX_PENDING, Pending

    caplog.set_level(logging.WARNING)
    pending: Pending[bytes] = Pending("offers")
    for mid in range(1, 3 * MAX_PENDING + 1):
        pending.put(mid, b"x" * 100)
    assert len(pending) == MAX_PENDING and pending.forgotten == 2 * MAX_PENDING
    assert 1 not in pending and 3 * MAX_PENDING in pending
    assert len([r for r in caplog.records if "acknowledgement" in r.getMessage()]) == 1
    pending.put(3 * MAX_PENDING, b"newer")  # an id reused is the newest
    assert pending.pop(3 * MAX_PENDING) == b"newer" and pending.pop(1) is None
