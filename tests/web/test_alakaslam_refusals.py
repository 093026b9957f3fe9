"""AlakaSLAM's refusals through the API in each shipped language (issue #40): shots,
Laurie's ability, a point the record contradicts, the Enchantments binding a player;
every placeholder filled (names in any script, counts, the reason of a point said in
the same language), the API's field names English."""

# ruff: noqa: E501 (each expected refusal on one line, as a reader compares them)

from __future__ import annotations

import pytest

from companion.i18n import LANGUAGES

SINGLES = {"game": "alakaslam", "players": ["Łukasz", "李小龙"],
           "options": {"characters": ["austin", "laurie"]}}
SERVE = {"type": "serve", "player": 0, "corner": "red", "cards": ["B2"]}

EXPECTED: dict[str, dict[str, str]] = {
    "en": {
        "too_many": "李小龙 plays 1 to 3 cards in a shot; got 4",
        "straight": "only Austin plays a Hit-2 straight: 李小龙 plays \"S2\" as \"R2\" or \"B2\"",
        "laurie": "李小龙's Laurie ability is part of a shot: send the serve or shot with \"ability\": true (as the Support, \"support\": {..., \"ability\": true})",
        "point": "Łukasz hit last and the ball landed in: a point (net) goes to Łukasz, not to 李小龙, who is to hit",
        "austin": "Łukasz (Austin) has no once-per-point ability to use here",
        "enchanted": "李小龙 is under Enchant-2: play exactly 2 cards",
    },
    "de": {
        "too_many": "李小龙 spielt 1 bis 3 Karten pro Schlag; erhalten: 4",
        "straight": "nur Austin spielt eine Hit-2-Straße: 李小龙 spielt \"S2\" als \"R2\" oder \"B2\"",
        "laurie": "die Laurie-Fähigkeit von 李小龙 gehört zu einem Schlag: sende den Aufschlag oder Schlag mit \"ability\": true (als Unterstützung \"support\": {..., \"ability\": true})",
        "point": "Łukasz hat zuletzt geschlagen und der Ball war drin: ein Punkt (Netz) geht an Łukasz, nicht an 李小龙, der am Schlag ist",
        "austin": "Łukasz (Austin) hat keine Fähigkeit einmal pro Punkt, die hier nutzbar ist",
        "enchanted": "李小龙 steht unter Enchant-2: spiele genau 2 Karten",
    },
    "fr": {
        "too_many": "李小龙 joue de 1 à 3 cartes par coup ; reçu : 4",
        "straight": "seul Austin joue une suite Hit-2 : 李小龙 joue \"S2\" comme \"R2\" ou \"B2\"",
        "laurie": "le pouvoir de Laurie de 李小龙 fait partie d'un coup : envoyez le service ou le coup avec \"ability\": true (en soutien, \"support\": {..., \"ability\": true})",
        "point": "Łukasz a frappé en dernier et la balle est tombée dedans : un point (filet) va à Łukasz, pas à 李小龙, qui doit frapper",
        "austin": "Łukasz (Austin) n'a pas de pouvoir une fois par point à utiliser ici",
        "enchanted": "李小龙 est sous Enchant-2 : jouez exactement 2 cartes",
    },
    "es": {
        "too_many": "李小龙 juega de 1 a 3 cartas por golpe; recibido: 4",
        "straight": "solo Austin juega una escalera Hit-2: 李小龙 juega \"S2\" como \"R2\" o \"B2\"",
        "laurie": "la habilidad de Laurie de 李小龙 va con un golpe: envía el saque o el golpe con \"ability\": true (como apoyo, \"support\": {..., \"ability\": true})",
        "point": "Łukasz golpeó el último y la bola entró: un punto (red) es para Łukasz, no para 李小龙, que tiene que golpear",
        "austin": "Łukasz (Austin) no tiene una habilidad de una vez por punto que usar aquí",
        "enchanted": "李小龙 está bajo Enchant-2: juega exactamente 2 cartas",
    },
    "pl": {
        "too_many": "李小龙 zagrywa od 1 do 3 kart w uderzeniu; podano: 4",
        "straight": "tylko Austin zagrywa strita Hit-2: 李小龙 zagrywa \"S2\" jako \"R2\" lub \"B2\"",
        "laurie": "zdolność Laurie gracza 李小龙 jest częścią uderzenia: wyślij serwis lub uderzenie z \"ability\": true (jako wsparcie: \"support\": {..., \"ability\": true})",
        "point": "ostatnie uderzenie: Łukasz, piłka była w korcie: punkt (siatka) dostaje Łukasz, nie 李小龙, bo teraz uderza 李小龙",
        "austin": "Łukasz (Austin) nie ma tu zdolności raz na punkt",
        "enchanted": "李小龙 jest pod działaniem Enchant-2: zagraj dokładnie 2 karty",
    },
}


def refusals(host, lang: str) -> dict[str, str]:
    """Each refusal of a singles match after Łukasz's serve, in ``lang``."""
    headers = {"Accept-Language": lang}
    assert host.post("/api/match", SINGLES).status_code == 200
    assert host.post("/api/action", SERVE).status_code == 200, "Łukasz serves"
    tries = {
        "too_many": {"type": "shot", "player": 1, "cards": ["R1", "B1", "R2", "B2"]},
        "straight": {"type": "shot", "player": 1, "cards": ["S2"]},
        "laurie": {"type": "ability", "player": 1},
        "point": {"type": "point", "winner": 1, "reason": "net"},
        "austin": {"type": "ability", "player": 0},
    }
    said = {}
    for key, action in tries.items():
        answer = host.post("/api/action", action, headers=headers)
        assert answer.status_code == 409, (key, answer.json)
        said[key] = answer.json["error"]
    # A new match: Łukasz serves an Enchant-2, and 李小龙 answers with 1 card.
    assert host.post("/api/match/end", {}).status_code == 200
    assert host.post("/api/match", SINGLES).status_code == 200, "a new match"
    assert host.post("/api/action", dict(SERVE, cards=["B2", "E2"])).status_code == 200
    answer = host.post("/api/action", {"type": "shot", "player": 1, "cards": ["R1"]},
                       headers=headers)
    assert answer.status_code == 409, answer.json
    said["enchanted"] = answer.json["error"]
    return said


@pytest.mark.parametrize("lang", LANGUAGES)
def test_alakaslam_refusals_in_each_language_with_their_placeholders(host, lang):
    said = refusals(host, lang)
    assert said == EXPECTED[lang]


FOUR = ["Łukasz", "Σοφία", "Ольга", "דוד"]
DOUBLES = {"game": "alakaslam", "players": FOUR,
           "options": {"characters": ["simon", "laurie", "wendolyn", "sarissia"]}}
#: Simon's copy without a character: each "or" of the choices in the asker's language.
WHOM = {
    "en": "missing field 'character': whom Simon copies, \"laurie\" (Laurie) or \"wendolyn\" (Wendolyn) or \"sarissia\" (Sarissia)",
    "de": "Feld 'character' fehlt: wen Simon kopiert, \"laurie\" (Laurie) oder \"wendolyn\" (Wendolyn) oder \"sarissia\" (Sarissia)",
    "fr": "champ 'character' manquant : qui Simon copie, \"laurie\" (Laurie) ou \"wendolyn\" (Wendolyn) ou \"sarissia\" (Sarissia)",
    "es": "falta el campo 'character': a quién copia Simon, \"laurie\" (Laurie) o \"wendolyn\" (Wendolyn) o \"sarissia\" (Sarissia)",
    "pl": "brak pola 'character': kogo kopiuje Simon, \"laurie\" (Laurie) lub \"wendolyn\" (Wendolyn) lub \"sarissia\" (Sarissia)",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_simons_choices_are_joined_in_each_language(host, lang):
    assert host.post("/api/match", DOUBLES).status_code == 200
    answer = host.post("/api/action", {"type": "copy", "player": 0},
                       headers={"Accept-Language": lang})
    assert answer.status_code == 400, answer.json
    assert answer.json["error"] == WHOM[lang]
