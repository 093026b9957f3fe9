"""``POST /api/undo`` says what it took back (``undone``), for every game: the game's own
text of the play when its view keeps one, else the event and whom it was for."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction, InvalidAction
from companion.match import Match, StartRecord
from companion.undone import undone_words
from tests.e2e.browser_support import EACH_GAME
from tests.support import CATALOG


@pytest.mark.parametrize(("setup", "action", "words"), [
    (EACH_GAME["center-court"], {"type": "point", "winner": 1}, "point to Bob"),
    (EACH_GAME["center-court"], {"type": "serve", "card": 3}, "serve"),
    (EACH_GAME["wizard-dodgeball"], {"type": "hit", "thrower": 21, "target": 45},
     "#21 hit #45: out"),
    (EACH_GAME["wizard-dodgeball"], {"type": "end_activation"}, "end activation"),
    (EACH_GAME["alakaslam"], {"type": "point", "winner": 1, "reason": "no_return"},
     "point to Cid & Dan"),
    (EACH_GAME["alakaslam"], {"type": "mulligan", "player": 1}, "mulligan by Bea"),
    (EACH_GAME["alakazoo"], {"type": "display", "by": 0, "space": 1, "creature": 1},
     "display by Ann"),
], ids=["cc-point", "cc-serve", "dodgeball-hit", "dodgeball-end", "slam-point",
        "slam-mulligan", "zoo-display"])
def test_the_undo_answer_says_what_it_took_back(host, client, setup, action, words):
    assert host.post("/api/match", setup).status_code == 200
    before = client.get("/api/state").json
    played = host.post("/api/action", action)
    assert played.status_code == 200, played.json
    undone = host.post("/api/undo")
    assert undone.status_code == 200
    assert undone.json["undone"] == words
    # Otherwise the state, as every change answers: the table as before the action.
    assert undone.json["match"]["view"] == before["match"]["view"]
    # The table's state says it too, for every page and the stream (phones that did not
    # undo), until the next change.
    assert undone.json == client.get("/api/state").json


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
        words = undone_words(match.view(), match.start.players, event)
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
