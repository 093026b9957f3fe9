"""Center Court's and AlakaSLAM's refusals through the API in each shipped language
(issue #40): the rules' words in the asker's language, every placeholder filled (names in
any script, the cards and counts), the API's field names English."""

from __future__ import annotations

import pytest

from companion.i18n import LANGUAGES

NAMES = ["Łukasz", "李小龙"]
START = {"game": "center-court", "players": NAMES, "options": {"sets": 3}}

#: The wrong player serves; a return of 2 with fours played as one card (it takes three).
WRONG_SERVER = {
    "en": "李小龙 serves now, not Łukasz (player 1, as 'legal' offers it)",
    "de": "李小龙 schlägt jetzt auf, nicht Łukasz (Spieler 1, wie 'legal' es anbietet)",
    "fr": "c'est à 李小龙 de servir, pas à Łukasz (joueur 1, comme 'legal' le propose)",
    "es": "ahora saca 李小龙, no Łukasz (jugador 1, como lo ofrece 'legal')",
    "pl": "teraz serwuje 李小龙, nie Łukasz (gracz 1, jak podaje 'legal')",
}
WRONG_COUNT = {
    "en": "to return 2 with 4s, play 3 (4-4-4), not 1",
    "de": "um 2 mit 4ern zu returnieren, spiele 3 (4-4-4), nicht 1",
    "fr": "pour renvoyer 2 avec des 4, jouez-en 3 (4-4-4), pas 1",
    "es": "para devolver 2 con cartas de 4, juega 3 (4-4-4), no 1",
    "pl": "aby odbić 2 kartami 4, zagraj 3 (4-4-4), nie 1",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_center_court_refusal_in_each_language_with_its_placeholders(host, lang):
    start = dict(START, options={"sets": 3, "first_server": 1})
    assert host.post("/api/match", start).status_code == 200
    headers = {"Accept-Language": lang}
    wrong = host.post("/api/action", {"type": "serve", "card": 3, "player": 0},
                      headers=headers)
    assert wrong.status_code == 409, wrong.json
    assert wrong.json["error"] == WRONG_SERVER[lang]
    assert host.post("/api/action", {"type": "serve", "card": 2, "roll": 1}).status_code == 200
    count = host.post("/api/action", {"type": "return", "card": 4, "count": 1},
                      headers=headers)
    assert count.status_code == 409, count.json
    assert count.json["error"] == WRONG_COUNT[lang]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_won_match_s_refusal_names_the_winner_in_each_language(host, lang):
    assert host.post("/api/match", dict(START, options={"sets": 1})).status_code == 200
    for _ in range(24):
        assert host.post("/api/action", {"type": "point", "winner": 1}).status_code == 200
    over = host.post("/api/action", {"type": "point", "winner": 0},
                     headers={"Accept-Language": lang})
    assert over.status_code == 409
    said = over.json["error"]
    assert "李小龙" in said and "{" not in said
    if lang != "en":
        assert "Undo to change" not in said


FOUR = ["Łukasz", "Σοφία", "Ольга", "דוד"]
DOUBLES = {"game": "alakaslam", "players": FOUR,
           "options": {"characters": ["toots", "laurie", "wendolyn", "sarissia"]}}
SINGLES = {"game": "alakaslam", "players": ["Łukasz", "李小龙"],
           "options": {"characters": ["austin", "laurie"]}}
#: A shot before the doubles side's serve; the wrong player serving in singles.
SHOT_FIRST = {
    "en": "a serve is due: Łukasz & Σοφία serve",
    "de": "ein Aufschlag ist dran: Łukasz & Σοφία schlagen auf",
    "fr": "un service est attendu : Łukasz & Σοφία servent",
    "es": "toca sacar: sacan Łukasz & Σοφία",
    "pl": "teraz serwis: serwują Łukasz & Σοφία",
}
WRONG_SLAM_SERVER = {
    "en": "Łukasz serves this point, not 李小龙",
    "de": "Łukasz schlägt in diesem Punkt auf, nicht 李小龙",
    "fr": "c'est Łukasz qui sert ce point, pas 李小龙",
    "es": "este punto lo saca Łukasz, no 李小龙",
    "pl": "w tym punkcie serwuje Łukasz, nie 李小龙",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_alakaslam_refusal_in_each_language_with_its_placeholders(host, lang):
    headers = {"Accept-Language": lang}
    assert host.post("/api/match", DOUBLES).status_code == 200
    shot = host.post("/api/action", {"type": "shot", "player": 2, "cards": ["R1"],
                                     "support": {"player": 3, "cards": ["B1"]}},
                     headers=headers)
    assert shot.status_code == 409, shot.json
    assert shot.json["error"] == SHOT_FIRST[lang]
    assert host.post("/api/match/end", {}).status_code == 200
    assert host.post("/api/match", SINGLES).status_code == 200, "a new match"
    serve = host.post("/api/action", {"type": "serve", "player": 1, "corner": "red",
                                      "cards": ["B2"]}, headers=headers)
    assert serve.status_code == 409, serve.json
    assert serve.json["error"] == WRONG_SLAM_SERVER[lang]
