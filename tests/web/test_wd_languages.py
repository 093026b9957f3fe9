"""A Wizard Dodgeball refusal through the HTTP API in each shipped language (issue #40):
the rules' words in the asker's language, every placeholder filled (jerseys, the side's
name, the spell as printed on the card, what the wizard may still do), the fields English;
and the same refusal said to another phone in English at the same time."""

from __future__ import annotations

import pytest

ROSTERS = [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]
START = {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
         "options": {"rosters": ROSTERS}}
#: #21 of the Owls is active; #45 of the Newts tries to throw out of turn.
OUT_OF_TURN = {"type": "hit", "thrower": 45, "target": 21}

#: The refusal in each language: every placeholder filled, nothing of English's words.
SAID = {
    "en": "it is #21's activation (Owls): #45 cannot throw now; #21 may still throw or "
          "cast, or end the activation",
    "de": "#21 ist dran (Owls): #45 kann jetzt nicht werfen; #21 kann noch werfen oder "
          "zaubern oder die Aktivierung beenden",
    "fr": "c'est l'activation de #21 (Owls) : #45 ne peut pas tirer maintenant ; #21 peut "
          "encore tirer ou lancer un sort, ou finir l'activation",
    "es": "es la activación de #21 (Owls): #45 no puede tirar ahora; #21 aún puede tirar o "
          "lanzar un hechizo, o terminar la activación",
    "pl": "trwa aktywacja #21 (Owls): #45 nie może teraz rzucać; #21 może jeszcze rzucać "
          "lub czarować albo zakończyć aktywację",
}


@pytest.mark.parametrize("lang", list(SAID))
def test_a_refusal_is_said_in_the_asker_s_language_with_its_placeholders(host, lang):
    assert host.post("/api/match", START).status_code == 200
    refused = host.post("/api/action", OUT_OF_TURN, headers={"Accept-Language": lang})
    assert refused.status_code == 409
    assert refused.json["error"] == SAID[lang]
    # The table is unchanged, and an English phone reads the same refusal in English.
    english = host.post("/api/action", OUT_OF_TURN)
    assert english.status_code == 409 and english.json["error"] == SAID["en"]


@pytest.mark.parametrize("lang", ["de", "fr", "es", "pl"])
def test_a_spell_s_refusal_keeps_its_card_name_and_counts(host, lang):
    """A Magic of 1 names two wizards: the counts in the language's plural, the spell
    name as printed on the card."""
    start = {**START, "options": {"rosters": ROSTERS, "wizards": {"21": {"magic": 1}}}}
    assert host.post("/api/match", start).status_code == 200
    refused = host.post("/api/action", {"type": "cast", "caster": 21, "spell": "speed",
                                        "targets": [21, 58]},
                        headers={"Accept-Language": lang})
    assert refused.status_code == 409
    error = refused.json["error"]
    assert "#21" in error and "Magic" in error and " 1 " in error and "2" in error
    assert "its spells reach" not in error and "{" not in error
