"""The README's broker (its users, TLS and ACL, set up as it says) with the real hall:
the hall's offers go out under its own user, and an offer forged by any other user is
refused by the broker and never reaches a reader, nor replaces the hall's."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

from tests.hall.hall_support import HallProcess, Watch
from tests.hall.night_support import PIN, HttpDirector
from tests.mqtt.club import HOST, club_broker, doc_blocks, password
from tests.test_docs import blocks

README = Path(__file__).resolve().parents[2] / "README.md"


def test_only_the_hall_may_offer_a_table_its_next_game(tmp_path):
    with club_broker(doc_blocks(blocks(README)), tmp_path) as club:
        url = f"mqtts://{HOST}:{club.broker.port}"
        with HallProcess("--mqtt", url, "--ca-file", str(club.ca_file), "--user", "hall",
                         "--data", str(tmp_path / "hall"), "--director-pin", PIN,
                         env={"COMPANION_MQTT_PASSWORD": password("hall")}) as hall:
            # The hall clears the offer topic of each table of an open event at every
            # connection to the broker: connected first, only its offer follows.
            with Watch(urlsplit(hall.url).port) as watch:
                watch.until(lambda w: w.connected, timeout=30)
            reader = club.client("hall", name="-reader")  # reads every topic
            reader.subscribe("table-companion/_hall/offers/#")
            director = HttpDirector(hall.url)
            status, event = director.request("POST", "/api/events", {
                "name": "Forgery night", "game": "center-court", "format": "swiss",
                "rounds": 1, "players": ["Ann", "Bob"], "tables": ["table-1"]})
            assert status == 200, event
            state = director.change(f"/api/events/{event['id']}/rounds", {}, event["id"])
            topic, payload, _ = reader.next_message()
            assert topic == "table-companion/_hall/offers/table-1"
            offer = json.loads(payload)
            assert offer["offer"] == state["pairings"][0]["offer"]
            # Every other user of the README's broker tries to forge or withdraw it.
            for user in ("table-1", "table-2", "homeassistant"):
                forger = club.client(user)
                try:
                    for body in ('{"offer":"o-forged","players":["Eve","Mallory"]}', ""):
                        assert "Not authorized" in forger.publish(
                            "table-companion/_hall/offers/table-1", body, retain=True), user
                finally:
                    forger.close()
            assert reader.messages.empty()
            # A newcomer (a table reconnecting) gets the hall's offer, as the hall sent it.
            late = club.client("hall", name="-late")
            late.subscribe("table-companion/_hall/offers/table-1")
            assert late.next_message() == ("table-companion/_hall/offers/table-1", payload,
                                           True)
            late.close()
            reader.close()
            code, _, err = hall.stop()
            assert code == 0, err
