"""The pages' language (web/i18n.py): a phone's Accept-Language, a choice made on the
page (kept in a cookie), ``?lang``; never a refusal for a language; the API's errors
in the asker's language, its field names English."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import START
from web.i18n import COOKIE, choose


def lang_of(html: bytes) -> str:
    found = re.search(rb'<html lang="([^"]+)"', html)
    assert found is not None
    return found.group(1).decode()


@pytest.mark.parametrize(("header", "lang"), [
    ("de-DE,de;q=0.9,en;q=0.8", "de"),
    ("fr-CH, fr;q=0.9", "fr"),
    ("es-419", "es"),
    ("pl", "pl"),
    ("ja, pl;q=0.3", "pl"),
    ("ja", "en"),
    ("*", "en"),
    ("", "en"),
])
def test_a_phone_s_pages_follow_its_accept_language(client, header, lang):
    page = client.get("/", headers={"Accept-Language": header})
    assert page.status_code == 200
    assert lang_of(page.data) == lang


@pytest.mark.parametrize("header", [
    "de;q=zz,;;;,,==", "\x00\x01", "de" * 4000, "x-" * 3000 + ",de", ";q=1," * 1500,
    "🦆-🦆", "de;q=-1", "de;q=1e400",
])
def test_a_malformed_or_huge_accept_language_is_english_never_a_refusal(client, header):
    for path in ("/", "/host", "/history", "/players", "/api/state"):
        page = client.get(path, headers={"Accept-Language": header})
        assert page.status_code == 200, (path, header[:40])
    assert lang_of(client.get("/", headers={"Accept-Language": header}).data) in ("en", "de")


def test_a_choice_made_on_the_page_is_kept_and_wins_over_the_browser(client):
    client.set_cookie(COOKIE, "pl")
    page = client.get("/", headers={"Accept-Language": "de"})
    assert lang_of(page.data) == "pl"
    assert b"Wynik" in page.data  # the nav's "Score"
    assert b'<option value="pl" lang="pl" selected>' in page.data


def test_lang_in_the_address_chooses_and_is_kept_for_the_next_pages(client):
    page = client.get("/?lang=es", headers={"Accept-Language": "de"})
    assert lang_of(page.data) == "es"
    assert f"{COOKIE}=es" in page.headers.get("Set-Cookie", "")
    assert lang_of(client.get("/host", headers={"Accept-Language": "de"}).data) == "es"


@pytest.mark.parametrize("bad", ["xx", "", "de" * 50, "<script>", "../en"])
def test_a_cookie_or_lang_naming_no_language_falls_to_the_next_choice(client, bad):
    client.set_cookie(COOKIE, bad)
    page = client.get("/", query_string={"lang": bad}, headers={"Accept-Language": "fr"})
    assert page.status_code == 200 and lang_of(page.data) == "fr"
    assert "Set-Cookie" not in page.headers or f"{COOKIE}=" not in page.headers["Set-Cookie"]


def test_the_page_hands_its_scripts_their_words_in_its_language(client):
    english = client.get("/").data
    assert b'<script id="words" type="application/json">{}</script>' in english
    german = client.get("/", headers={"Accept-Language": "de"}).data
    words = re.search(rb'<script id="words" type="application/json">(.*?)</script>', german)
    assert words is not None and b"Gewonnen" in words.group(1)  # "Won"
    assert b"</" not in words.group(1)  # a word cannot end the block early


def test_an_api_refusal_is_said_in_the_asker_s_language_its_fields_english(host):
    undo = host.post("/api/undo", {}, headers={"Accept-Language": "de"})
    assert undo.status_code == 409
    assert set(undo.json) >= {"error"}
    assert undo.json["error"] == "es läuft kein Match: startet zuerst eins"
    assert host.post("/api/match", START).status_code == 200
    again = host.post("/api/undo", {}, headers={"Accept-Language": "pl-PL"})
    assert again.status_code == 409
    assert again.json["error"] == ("nie ma czego cofnąć: w tym meczu nie zapisano jeszcze "
                                   "ruchu")
    english = host.post("/api/undo", {})
    assert english.json["error"] == ("nothing to undo: no action has been recorded in this "
                                     "match")


def test_a_stale_page_is_told_in_its_language(host):
    assert host.post("/api/match", START).status_code == 200
    stale = host.post("/api/action", {"type": "point", "winner": 0},
                      headers={"Accept-Language": "fr", "X-Table-Version": "0"})
    assert stale.status_code == 409 and stale.json["stale"] is True
    assert stale.json["error"].startswith("la table a changé depuis que cette page")


def test_the_choice_order():
    assert choose("pl", "de", "fr", "es") == "pl"
    assert choose(None, "de", "fr", "es") == "de"
    assert choose(None, None, "fr", "es") == "fr"
    assert choose(None, None, None, "es") == "es"
    assert choose(None, None, None, None) == "en"
    assert choose("nope", "nope", None, "ja") == "en"


@pytest.mark.parametrize("lang", ["de", "fr", "es", "pl"])
def test_the_spectator_page_keeps_its_weight_in_every_language(client, host, lang):
    """The heaviest spectator page (AlakaSLAM's) in each language: its words for the
    scripts are only those of the scripts it loads (web/i18n.py script_words)."""
    from tests.web.test_api import LIGHT, SLAM_START, page_weight
    assert host.post("/api/match", SLAM_START).status_code == 200
    client.set_cookie(COOKIE, lang)
    total, _assets = page_weight(client, "/")
    print(f"{lang}: the AlakaSLAM spectator page weighs {total} bytes")
    assert total <= LIGHT, f"{lang}: {total} bytes"
