"""A game's script words come with the game's scripts (web/i18n.py game_words): a page
carries the words of the game on the table only, and a game loaded later brings its own,
so every page keeps its weight budget in every language however many games speak it."""

from __future__ import annotations

import re

from tests.web.conftest import START

CC = {"game": "center-court", "players": ["Łukasz", "李小龙"], "options": {"sets": 3}}


def words_block(html: bytes) -> bytes:
    found = re.search(rb'<script id="words" type="application/json">(.*?)</script>', html)
    assert found is not None
    return found.group(1)


def test_the_game_on_the_table_brings_its_words_before_its_script(client, host):
    assert host.post("/api/match", CC).status_code == 200
    page = client.get("/", headers={"Accept-Language": "de"}).data
    scripts = re.findall(rb'<script src="([^"]+)"', page)
    words, board = b"/words/de/center-court.js", b"/static/center-court.js"
    assert words in scripts and board in scripts
    assert scripts.index(words) < scripts.index(board)
    # The page's own block does not carry them: only its own scripts' words.
    assert b"Matchstatistik" not in words_block(page)
    said = client.get(words.decode())
    assert said.status_code == 200 and said.mimetype == "text/javascript"
    assert said.get_data(as_text=True).startswith("Object.assign(TC.words, {")
    assert "Matchstatistik" in said.get_data(as_text=True)  # "Match stats"
    assert '"Won"' not in said.get_data(as_text=True)  # common.js's: the page's own


def test_another_game_s_words_are_in_the_page_s_map_to_load_with_it(client, host):
    assert host.post("/api/match", START).status_code == 200
    page = client.get("/host", headers={"Accept-Language": "pl"}).data
    modules = re.search(rb'<script id="modules" type="application/json">(.*?)</script>', page)
    assert modules is not None
    assert b"/words/pl/alakaslam.js" in modules.group(1)
    assert b"/words/pl/alakaslam-host.js" in modules.group(1)


def test_english_needs_no_words_script(client, host):
    assert host.post("/api/match", CC).status_code == 200
    page = client.get("/", headers={"Accept-Language": "en"}).data
    assert b"/words/" not in page


def test_a_phone_is_answered_not_modified_while_the_words_stay(client):
    first = client.get("/words/fr/center-court.js")
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache"
    again = client.get("/words/fr/center-court.js",
                       headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


def test_only_a_game_s_script_in_a_shipped_language(client):
    for path in ("/words/de/common.js", "/words/de/host.js", "/words/xx/center-court.js",
                 "/words/en-US/center-court.js", "/words/de/..%2fcommon.js",
                 "/words/de/" + "a" * 5000 + ".js", "/words/de/center-court.css"):
        assert client.get(path).status_code == 404, path
    # English is shipped: no words (the scripts' own are English).
    assert client.get("/words/en/center-court.js").get_data(as_text=True) == \
        "Object.assign(TC.words, {});\n"
