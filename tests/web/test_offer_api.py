"""The host's side of the hall's offer: read it, start it naming it, refused once it changed."""

from __future__ import annotations

import pytest

from tests.screens.test_offer_screen import offer_payload
from tests.test_offers import body


@pytest.fixture
def offers(services):
    return services.offers


def test_the_host_starts_the_offer_it_shows_and_a_changed_one_is_refused(client, host,
                                                                         offers, runner):
    assert client.get("/api/offer").json == {"offer": None, "problem": None, "played": None,
                                                  "notice": None}
    refused = host.post("/api/offer/start", {"offer": "o-1"})
    assert refused.status_code == 409 and "the hall's offer changed" in refused.json["error"]
    offers.receive(offer_payload(["Ann", "Bob"]))
    shown = client.get("/api/offer").json
    assert shown["offer"]["offer"] == "o-1" and shown["offer"]["players"] == ["Ann", "Bob"]
    offers.receive(offer_payload(["Cy", "Di"], offer="o-2"))
    refused = host.post("/api/offer/start", {"offer": "o-1"})
    assert refused.status_code == 409 and "the hall's offer changed" in refused.json["error"]
    assert runner.table.snapshot.match is None
    bad = host.post("/api/offer/start", {"offer": "o-2", "x": 1})
    assert bad.status_code == 400
    assert client.post("/api/offer/start", json={"offer": "o-2"}).status_code == 403
    started = host.post("/api/offer/start", {"offer": "o-2"})
    assert started.status_code == 200, started.json
    assert started.json["match"]["event"]["offer"] == "o-2"
    again = host.post("/api/offer/start", {"offer": "o-2"})
    assert again.status_code == 409


def test_an_unusable_offer_is_said_with_its_reason(client, offers):
    offers.receive(body(game="chess"))
    said = client.get("/api/offer").json
    assert said["offer"] is None and "chess" in said["problem"]
