"""Alakazoo's refusals through the API in every shipped language (issue #40): the
request's ``Accept-Language`` says the rules' words, every placeholder filled (names in
any script, the 16-capital name, creatures as printed on the cards, counts in each
language's plural form, a refusal inside a refusal), the API's field names English,
nothing applied. RULINGS.md "Third round": each refusal keeps saying what is allowed."""

from __future__ import annotations

import pytest

NAMES = ["Łukasz", "WWWWWWWWWWWWWWWW"]
START = {"game": "alakazoo", "players": NAMES}

#: Łukasz's space 1 already shows the Dragon; what he may do: the empty spaces.
FILLED = {
    "en": "Łukasz's space 1 already shows Dragon; empty spaces: 2, 3, 4, 5, 6, 7, 8, 9",
    "de": "das Feld 1 von Łukasz zeigt schon Dragon; leere Felder: 2, 3, 4, 5, 6, 7, 8, 9",
    "fr": "la case 1 de Łukasz montre déjà Dragon ; cases vides : 2, 3, 4, 5, 6, 7, 8, 9",
    "es": "la casilla 1 de Łukasz ya muestra Dragon; casillas vacías: 2, 3, 4, 5, 6, 7, 8, 9",
    "pl": "pole 1 gracza Łukasz już pokazuje Dragon; puste pola: 2, 3, 4, 5, 6, 7, 8, 9",
}
#: Two runes rolled, two 'no_rune' penalties recorded: a count in each plural form.
RUNES = {
    "en": "no more 'no_rune' Dark Power: Łukasz's roll (Magic Fire Water) showed 2 runes "
          "and 2 have been recorded, one per rune die at most; display or end the turn",
    "de": "keine weitere Dunkle Macht 'no_rune': der Wurf von Łukasz (Magic Fire Water) "
          "zeigte 2 Runen, und 2 wurden schon eingetragen, höchstens eine je Runenwürfel; "
          "leg aus oder beende den Zug",
    "fr": "plus de Pouvoir sombre 'no_rune' : le lancer de Łukasz (Magic Fire Water) a "
          "montré 2 runes et 2 ont déjà été saisis, un par dé à rune au plus ; posez ou "
          "finissez le tour",
    "es": "no hay más Poder Oscuro 'no_rune': la tirada de Łukasz (Magic Fire Water) mostró "
          "2 runas y ya se han anotado 2, uno por dado con runa como mucho; coloca o termina "
          "el turno",
    "pl": "nie ma już Mrocznej Mocy 'no_rune': rzut gracza Łukasz (Magic Fire Water) pokazał "
          "2 runy, a wpisano już 2, najwyżej jedną na kość z runą; wyłóż albo zakończ turę",
}
#: The turn's one action is spent: the action refused, why, and what is left to do.
ACTED = {
    "en": "no column or discard now: Łukasz has rolled the Spell Dice this turn: one action "
          "per turn (roll the Spell Dice, take a column or discard, or the Magic Helper); "
          "display or end the turn",
    "de": "jetzt keine Spalte und kein Abwerfen: Łukasz hat in diesem Zug die Zauberwürfel "
          "geworfen: eine Aktion pro Zug (Zauberwürfel werfen, eine Spalte nehmen oder "
          "abwerfen, oder der Zauberhelfer); leg aus oder beende den Zug",
    "fr": "pas de colonne ni de défausse maintenant : Łukasz a lancé les dés de sort ce "
          "tour-ci : une action par tour (lancer les dés de sort, prendre une colonne ou "
          "défausser, ou l'Assistant magique) ; posez ou finissez le tour",
    "es": "ahora no hay columna ni descarte: Łukasz ha tirado los dados de hechizo este "
          "turno: una acción por turno (tirar los dados de hechizo, tomar una columna o "
          "descartar, o el Ayudante Mágico); coloca o termina el turno",
    "pl": "teraz nie ma kolumny ani odrzucenia: Łukasz rzucił(a) w tej turze kośćmi zaklęć: "
          "jedna akcja na turę (rzut kośćmi zaklęć, wzięcie kolumny lub odrzucenie albo "
          "Magiczny Pomocnik); wyłóż albo zakończ turę",
}
#: The 16-capital name's seat pressed on Łukasz's turn.
TURN = {
    "en": "it is Łukasz's turn, not WWWWWWWWWWWWWWWW's",
    "de": "Łukasz ist am Zug, nicht WWWWWWWWWWWWWWWW",
    "fr": "c'est le tour de Łukasz, pas celui de WWWWWWWWWWWWWWWW",
    "es": "es el turno de Łukasz, no de WWWWWWWWWWWWWWWW",
    "pl": "teraz tura gracza Łukasz, nie WWWWWWWWWWWWWWWW",
}
#: A start refused: the creature names must be six.
SIX = {
    "en": "option 'creatures' must be a list of 6 short names",
    "de": "die Option 'creatures' muss eine Liste von 6 kurzen Namen sein",
    "fr": "l'option 'creatures' doit être une liste de 6 noms courts",
    "es": "la opción 'creatures' debe ser una lista de 6 nombres cortos",
    "pl": "opcja 'creatures' musi być listą 6 krótkich nazw",
}


@pytest.mark.parametrize("lang", list(FILLED))
def test_alakazoo_refusals_in_the_asker_s_language(client, host, lang):
    said = {"Accept-Language": f"{lang},en;q=0.5"}
    bad = {**START, "options": {"creatures": ["Dragon"]}}
    started = host.post("/api/match", bad, headers=said)
    assert started.status_code == 400 and started.json["error"] == SIX[lang], started.json
    assert host.post("/api/match", START).status_code == 200

    def refused(action: dict, words: str) -> None:
        before = client.get("/api/state").json
        answer = host.post("/api/action", action, headers=said)
        assert answer.status_code == 409, answer.json
        assert answer.json["error"] == words
        assert client.get("/api/state").json == before  # nothing applied

    def ok(action: dict) -> None:
        assert host.post("/api/action", action).status_code == 200

    refused({"type": "end_turn", "by": 1}, TURN[lang])
    ok({"type": "roll", "faces": ["Magic", "Fire", "Water"]})
    refused({"type": "column"}, ACTED[lang])
    ok({"type": "dark_power", "reason": "no_rune"})
    ok({"type": "dark_power", "reason": "no_rune"})
    refused({"type": "dark_power", "reason": "no_rune"}, RUNES[lang])
    ok({"type": "display", "space": 1, "creature": 1})
    refused({"type": "display", "space": 1, "creature": 2}, FILLED[lang])


def test_a_polish_count_takes_its_own_form():
    """One, a few and many: Polish's three forms (the API says a Text as above)."""
    from companion.i18n import N_, translate
    msg = ("{name} can hold at most {n} Magic Power token now ({how}) and a display spends "
           "2: no display now; end the turn")
    plural = msg.replace("token now", "tokens now")
    said = [translate(N_(msg, plural, n, name="Łukasz", how="…"), "pl") for n in (1, 2, 5)]
    assert [s.split("najwyżej ")[1].split(" Magicznej")[0] for s in said] == \
        ["1 żeton", "2 żetony", "5 żetonów"]
