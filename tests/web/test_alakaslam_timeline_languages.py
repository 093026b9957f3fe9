"""AlakaSLAM's timeline through the API in each shipped language (issue #40): the
chart's title, axes, marks (who won each point and why, a pair in the plural), its
description and its bars said in the request's ``Accept-Language``, every placeholder
filled (names in any script, the 16-capital name, the point's number, each reason in
the same language); the data (series, x and y values, the bars' counts) the same in
every language. And the history's summary line and the hall's card, marked words said in
each language."""

# ruff: noqa: E501 (each expected sentence on one line, as a reader compares them)

from __future__ import annotations

import json
import random

import pytest

from companion.games.alakaslam.card import card
from companion.games.alakaslam.view import summary
from companion.i18n import Text, translate
from companion.matchfile import replay
from tests.support import CATALOG

NAMES = ["Łukasz", "李小龙", "Σοφία", "WWWWWWWWWWWWWWWW"]
START = {"game": "alakaslam", "players": NAMES,
         "options": {"characters": ["toots", "laurie", "rich", "austin"], "target": 2}}
#: Toots' ability, a serve in (a rally of one shot), then three points: no return to
#: Łukasz & 李小龙, out to Σοφία & WWWWWWWWWWWWWWWW, net to Łukasz & 李小龙 (2-1).
PLAY = [{"type": "ability", "player": 0},
        {"type": "serve", "player": 0, "corner": "red", "cards": ["B1"],
         "support": {"player": 1, "cards": ["B1", "E3"], "enchant": 2}},
        {"type": "point", "winner": 0, "reason": "no_return"},
        {"type": "point", "winner": 1, "reason": "out"},
        {"type": "point", "winner": 0, "reason": "net"}]
A, B = "Łukasz & 李小龙", "Σοφία & WWWWWWWWWWWWWWWW"

#: (title, x axis, y axis, the three marks, the description, the bars' title and labels)
SAID = {
    "en": ("Points by reason", "point", "score",
           [f"{A} score point 1: no return", f"{B} score point 2: out", f"{A} score point 3: net"],
           f"Points: {A} 2 (no return 1, net 1), {B} 1 (out 1).",
           "Points by reason", ["no return", "declined", "out", "net", "bad serve"]),
    "de": ("Punkte nach Grund", "Punkt", "Punkte",
           [f"{A} punkten (Punkt 1): kein Rückschlag", f"{B} punkten (Punkt 2): aus",
            f"{A} punkten (Punkt 3): Netz"],
           f"Punkte: {A} 2 (kein Rückschlag 1, Netz 1), {B} 1 (aus 1).",
           "Punkte nach Grund", ["kein Rückschlag", "verzichtet", "aus", "Netz", "Fehlaufschlag"]),
    "fr": ("Points par raison", "point", "points",
           [f"{A} marquent le point 1 : pas de retour", f"{B} marquent le point 2 : dehors",
            f"{A} marquent le point 3 : filet"],
           f"Points : {A} 2 (pas de retour 1, filet 1), {B} 1 (dehors 1).",
           "Points par raison", ["pas de retour", "refusé", "dehors", "filet", "service raté"]),
    "es": ("Puntos por motivo", "punto", "puntos",
           [f"{A} ganan el punto 1: sin devolución", f"{B} ganan el punto 2: fuera",
            f"{A} ganan el punto 3: red"],
           f"Puntos: {A} 2 (sin devolución 1, red 1), {B} 1 (fuera 1).",
           "Puntos por motivo", ["sin devolución", "rechazado", "fuera", "red", "saque malo"]),
    "pl": ("Punkty według powodu", "punkt", "punkty",
           [f"punkt 1 dla {A}: brak odbicia", f"punkt 2 dla {B}: aut", f"punkt 3 dla {A}: siatka"],
           f"Punkty: {A} 2 (brak odbicia 1, siatka 1), {B} 1 (aut 1).",
           "Punkty według powodu", ["brak odbicia", "odmowa", "aut", "siatka", "zły serwis"]),
}
#: The history's line for the same match.
SUMMARY = {
    "en": f"2-1 · {A}: 1 no return, 1 net · {B}: 1 out · longest rally 1 · 1 ability used",
    "de": f"2-1 · {A}: 1 kein Rückschlag, 1 Netz · {B}: 1 aus · längster Ballwechsel 1 · 1 Fähigkeit genutzt",
    "fr": f"2-1 · {A} : 1 pas de retour, 1 filet · {B} : 1 dehors · plus long échange 1 · 1 pouvoir utilisé",
    "es": f"2-1 · {A}: 1 sin devolución, 1 red · {B}: 1 fuera · peloteo más largo 1 · 1 habilidad usada",
    "pl": f"2-1 · {A}: 1 brak odbicia, 1 siatka · {B}: 1 aut · najdłuższa wymiana 1 · 1 użyta zdolność",
}


@pytest.fixture
def played(client, host):
    assert host.post("/api/match", START).status_code == 200
    for action in PLAY:
        answer = host.post("/api/action", action)
        assert answer.status_code == 200, answer.json
    return client


def chart_data(chart: dict) -> tuple:
    """What a chart draws, apart from its words."""
    return ([(s["name"], s["points"]) for s in chart["series"]],
            [(m["x"], m["kind"]) for m in chart["marks"]], chart["bars"]["values"])


@pytest.mark.parametrize("lang", list(SAID))
def test_the_timeline_is_said_in_the_asker_s_language(played, lang):
    title, x, y, marks, told, bars, labels = SAID[lang]
    english = played.get("/api/timeline").json
    for path in ("/api/timeline", "/api/matches/1/timeline"):
        chart = played.get(path, headers={"Accept-Language": f"{lang},en;q=0.5"}).json
        assert (chart["title"], chart["x_label"], chart["y_label"]) == (title, x, y), chart
        assert [m["label"] for m in chart["marks"]] == marks
        assert chart["summary"] == told
        assert (chart["bars"]["title"], chart["bars"]["categories"]) == (bars, labels)
        # The data are the same in every language; only the words are said.
        assert chart_data(chart) == chart_data(english)


@pytest.mark.parametrize("lang", list(SUMMARY))
def test_the_history_s_summary_is_marked_words_said_in_each_language(lang):
    match = replay([json.dumps(START), *map(json.dumps, PLAY)], random.Random(0), CATALOG)
    line = summary(match.state)
    assert isinstance(line, Text)
    assert translate(line, lang) == SUMMARY[lang]


#: The hall's card of the same match: its score line and its column.
CARD = {"en": ("2-1 (to 2)", "Pts"), "de": ("2-1 (bis 2)", "Pkt"), "fr": ("2-1 (en 2)", "Pts"),
        "es": ("2-1 (a 2)", "Pts"), "pl": ("2-1 (do 2)", "Pkt")}


@pytest.mark.parametrize("lang", list(CARD))
def test_the_hall_s_card_is_said_in_each_language(lang):
    match = replay([json.dumps(START), *map(json.dumps, PLAY)], random.Random(0), CATALOG)
    shown = card(match.view())
    assert (translate(shown.score, lang), translate(shown.columns[0], lang)) == CARD[lang]
    assert [side[0] for side in shown.sides] == [A, B]  # names as entered, in any script
