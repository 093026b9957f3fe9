"""The hall's own language (``companion hall --language``): its pages speak it unless a
browser chose another, so the TV can be set apart from the director's phone."""

from __future__ import annotations

import json
import logging
import re
import socket
import time

import pytest

from drivers.broker import BrokerAddress
from hall.app import create_hall_app, hall_broker
from hall.cards import Board
from hall.listener import Listener
from web.i18n import COOKIE

PREFIX = "club"


@pytest.fixture
def hall_app():
    board = Board(PREFIX)
    broker = hall_broker(board.first, 4, 1.0, 2)
    yield create_hall_app(board, broker, language="de")
    broker.close()


def lang_of(html: bytes) -> str:
    found = re.search(rb'<html lang="([^"]+)"', html)
    assert found is not None
    return found.group(1).decode()


def test_the_hall_speaks_its_own_language_whatever_the_tv_s_browser_says(hall_app):
    client = hall_app.test_client()
    page = client.get("/", headers={"Accept-Language": "en-US,en;q=0.9"})
    assert page.status_code == 200 and lang_of(page.data) == "de"


def test_a_browser_in_the_hall_can_choose_another_and_keeps_it(hall_app):
    tv = hall_app.test_client()
    assert lang_of(tv.get("/?lang=fr").data) == "fr"
    assert lang_of(tv.get("/").data) == "fr"
    phone = hall_app.test_client()
    assert lang_of(phone.get("/").data) == "de"  # the director's phone: not the TV's
    phone.set_cookie(COOKIE, "pl")
    assert lang_of(phone.get("/").data) == "pl"
    assert lang_of(tv.get("/").data) == "fr"


def test_a_hall_language_naming_none_is_logged_once_and_english_is_spoken(caplog):
    from hall.run import chosen_language
    with caplog.at_level(logging.WARNING):
        assert chosen_language("tlh", "--language") == "en"
    assert len(caplog.records) == 1 and "--language" in caplog.records[0].getMessage()


#: The hall's link to a broker that is not there, as each language says it (the
#: port is the test's; the retry's seconds are the first try's).
NOBODY = {"en": "nothing listens on 127.0.0.1:{port} (connection refused); retry in 1 s",
          "de": "auf 127.0.0.1:{port} lauscht nichts (Verbindung abgelehnt); neuer Versuch "
                "in 1 s",
          "fr": "rien n'écoute sur 127.0.0.1:{port} (connexion refusée) ; nouvel essai dans "
                "1 s",
          "es": "nada escucha en 127.0.0.1:{port} (conexión rechazada); nuevo intento en 1 s",
          "pl": "nic nie nasłuchuje na 127.0.0.1:{port} (połączenie odrzucone); ponowna "
                "próba za 1 s"}


def test_the_broker_status_comes_in_every_language_with_the_board():
    """The board's one stream serves every screen: its ``broker`` stays the log's English
    (pages and programs compare it) and ``broker_words`` says it in each shipped language
    (hall.js and night.js show the page's)."""
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # bound, never listening: connections are refused
        board = Board(PREFIX)
        assert json.loads(board.json_text())["broker_words"] == {
            "en": "connecting", "de": "verbindet", "fr": "connexion en cours",
            "es": "conectando", "pl": "łączenie"}
        listener = Listener(BrokerAddress.parse(f"mqtt://127.0.0.1:{port}"), PREFIX,
                            board.receive, board.connection)
        try:
            deadline = time.monotonic() + 20
            while "retry" not in json.loads(board.json_text())["broker"]:
                assert time.monotonic() < deadline, board.json_text()
                time.sleep(0.05)
        finally:
            listener.close()
    body = json.loads(board.json_text())
    assert body["connected"] is False
    assert body["broker"] == NOBODY["en"].format(port=port)
    assert body["broker_words"] == {lang: said.format(port=port)
                                    for lang, said in NOBODY.items()}
