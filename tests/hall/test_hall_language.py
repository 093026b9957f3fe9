"""The hall's own language (``companion hall --language``): its pages speak it unless a
browser chose another, so the TV can be set apart from the director's phone."""

from __future__ import annotations

import logging
import re

import pytest

from hall.app import create_hall_app, hall_broker
from hall.cards import Board
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
