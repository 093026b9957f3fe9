"""``POST /api/undo`` tells what it took back (``undone``), for every game, as data every
page words in its own language: the game's own account of the play when its view keeps
one, else the event's type and whom it was for; the OLED and the pages word it with the
game's words for its kinds (companion/undone.py, web/static/common.js)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction, InvalidAction
from companion.i18n import LANGUAGES, translate
from companion.match import Match, StartRecord
from companion.undone import undone_of, undone_words
from tests.e2e.browser_support import EACH_GAME
from tests.support import CATALOG

#: Each game's undo of an action: what the table tells, and the words in each language
#: (written as a club says them, not read from the catalogs).
UNDONE = {
    "cc-point": (EACH_GAME["center-court"], {"type": "point", "winner": 1},
                 {"type": "point", "to": "Bob"},
                 {"en": "point to Bob", "de": "Punkt Bob", "fr": "point pour Bob",
                  "es": "punto para Bob", "pl": "punkt (Bob)"}),
    "cc-serve": (EACH_GAME["center-court"], {"type": "serve", "card": 3}, {"type": "serve"},
                 {"en": "serve", "de": "Aufschlag", "fr": "service", "es": "saque",
                  "pl": "serwis"}),
    "dodgeball-hit": (EACH_GAME["wizard-dodgeball"],
                      {"type": "hit", "thrower": 21, "target": 45}, None,
                      {"en": "#21 hit #45: out", "de": "#21 traf #45: aus",
                       "fr": "#21 touche #45 : KO", "es": "#21 elimina a #45",
                       "pl": "#21 zbija #45"}),
    "dodgeball-end": (EACH_GAME["wizard-dodgeball"], {"type": "end_activation"},
                      {"type": "end_activation"},
                      {"en": "end activation", "de": "Aktivierung beendet",
                       "fr": "fin d'activation", "es": "fin de activación",
                       "pl": "koniec aktywacji"}),
    "slam-point": (EACH_GAME["alakaslam"], {"type": "point", "winner": 1,
                                            "reason": "no_return"},
                   {"type": "point", "to": "Cid & Dan"},
                   {"en": "point to Cid & Dan", "de": "Punkt Cid & Dan",
                    "fr": "point pour Cid & Dan", "es": "punto para Cid & Dan",
                    "pl": "punkt (Cid & Dan)"}),
    "slam-mulligan": (EACH_GAME["alakaslam"], {"type": "mulligan", "player": 1},
                      {"type": "mulligan", "by": "Bea"},
                      {"en": "mulligan by Bea", "de": "Mulligan von Bea",
                       "fr": "mulligan (Bea)", "es": "mulligan de Bea",
                       "pl": "mulligan (Bea)"}),
    "zoo-display": (EACH_GAME["alakazoo"],
                    {"type": "display", "by": 0, "space": 1, "creature": 1},
                    {"type": "display", "by": "Ann"},
                    {"en": "display by Ann", "de": "Auslegen von Ann",
                     "fr": "pose (Ann)", "es": "colocación de Ann",
                     "pl": "wyłożenie (Ann)"}),
}


@pytest.mark.parametrize("case", list(UNDONE))
def test_the_undo_answer_tells_what_it_took_back(host, client, case):
    setup, action, told, words = UNDONE[case]
    assert host.post("/api/match", setup).status_code == 200
    before = client.get("/api/state").json
    played = host.post("/api/action", action)
    assert played.status_code == 200, played.json
    undone = host.post("/api/undo")
    assert undone.status_code == 200
    if told is not None:
        assert undone.json["undone"] == told
    else:  # the game's own account of its last play: the view's ``last`` as it was
        assert undone.json["undone"]["type"] == action["type"]
        assert undone.json["undone"]["last"]["text"] == words["en"]
    # Otherwise the state, as every change answers: the table as before the action.
    assert undone.json["match"]["view"] == before["match"]["view"]
    # The table's state says it too, for every page and the stream (phones that did not
    # undo), until the next change.
    assert undone.json == client.get("/api/state").json


@pytest.mark.parametrize("case", list(UNDONE))
def test_what_was_undone_is_said_in_each_language(case):
    """The OLED's words (companion/undone.py with the game's words for its kinds): in
    each shipped language, every game's kinds. German
    leaves out "für" on the OLED, whose strip holds 24 characters ("Rückgängig: Punkt
    Bob"); its pages say "Punkt für Bob" (tests/e2e/test_spectator_boards.py)."""
    setup, action, _told, words = UNDONE[case]
    rng = random.Random(1)
    match = Match(StartRecord.create(setup, rng, CATALOG), CATALOG)
    event, state = match.resolve(action, rng)
    match.push(event, state)
    said = undone_words(undone_of(match.view(), match.start.players, event),
                        match.game.event_words)
    for lang, expected in words.items():
        assert translate(said, lang) == expected, lang
    assert set(words) == set(LANGUAGES)


def test_redo_and_other_changes_answer_the_state_only(host, client):
    host.post("/api/match", EACH_GAME["center-court"])
    host.post("/api/action", {"type": "point", "winner": 0})
    host.post("/api/undo")
    assert "undone" not in host.post("/api/redo").json
    assert "undone" not in host.post("/api/action", {"type": "point", "winner": 0}).json
    assert "undone" not in client.get("/api/state").json


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(EACH_GAME)), seed=st.integers(0, 2**32 - 1),
       moves=st.integers(1, 25))
def test_every_event_of_every_game_has_words(game, seed, moves):
    """Whatever was played, the words for taking back the last event are a short line
    naming only players of the match (or none), never an error."""
    rng = random.Random(seed)
    match = Match(StartRecord.create(EACH_GAME[game], rng, CATALOG), CATALOG)
    for _ in range(moves):
        event = play_one(match, rng)
        if event is None:
            break
        told = undone_of(match.view(), match.start.players, event)
        # Every kind has the game's word, unless the game's view words the play itself.
        assert "last" in told or event["type"] in match.game.event_words, event
        for lang in LANGUAGES:
            words = translate(undone_words(told, match.game.event_words), lang)
            assert words and len(words) <= 120 and "None" not in words, (event, words)


def play_one(match: Match, rng: random.Random) -> dict | None:
    """Some legal action played (tries a few shapes' first values), its event; None if none."""
    shapes = list(match.game.legal(match.state))
    rng.shuffle(shapes)
    for shape in shapes:
        action = {k: (rng.choice(v) if isinstance(v, list) and v else v) for k, v in shape.items()
                  if not k.startswith(("min_", "max_"))}
        try:
            event, state = match.resolve(action, rng)
        except (InvalidAction, IllegalAction):  # values that do not go together: another shape
            continue
        match.push(event, state)
        return event
    return None
