"""Issue 24's Wizard Dodgeball and Center Court cases, through `companion replay` and the
HTTP API: each impossible line refused with what is wrong and what is allowed now,
and the lines the second-round rulings allow accepted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_cli import companion

ROSTERS = [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]


def wd(**options) -> dict:
    return {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
            "options": {"rosters": ROSTERS, **options}}


CC = {"game": "center-court", "players": ["Ann", "Bob"], "options": {"sets": 1}}
END = {"type": "end_activation"}
SPEED_21 = {"type": "cast", "caster": 21, "spell": "speed", "targets": [21]}

#: name -> (start record, accepted lines, the refused line, status, words of the refusal)
CASES = {
    "sped wizard throws twice, then no cast": (
        wd(), [SPEED_21, {"type": "hit", "thrower": 21, "target": 45},
               {"type": "hit", "thrower": 21, "target": 30}],
        {"type": "cast", "caster": 21, "spell": "freeze", "targets": [10]}, 409,
        "#21 has already cast this activation; left: no throw or cast (basic turn: move, "
        "throw and cast once each, and Speed gives one more throw or cast)"),
    "slowed wizard back from elimination casts, then no throw": (
        wd(), [END, {"type": "hit", "thrower": 45, "target": 58}, END,
               {"type": "cast", "caster": 58, "spell": "slow", "targets": [58]}],
        {"type": "hit", "thrower": 58, "target": 30}, 409,
        "#58 has already cast this activation; left: no throw or cast (basic turn with Slow"),
    "magic 1 names two wizards": (
        wd(wizards={"21": {"magic": 1}}), [],
        {"type": "cast", "caster": 21, "spell": "speed", "targets": [21, 58]}, 409,
        "#21's Magic is 1: its spells reach at most 1 wizard (the Magic is the number of "
        "connected spaces a spell covers, the caster counted when named); 2 named: name at "
        "most 1"),
    "a fireball throw with no fireball about": (
        wd(), [],
        {"type": "throw", "thrower": 21, "target": 45, "range": 2,
         "target_holding_ball": False, "fireball": True}, 409,
        "#21's ball cannot be a Fireball: no Fireball is on a ball now"),
    "a dropped fireball is caught": (
        wd(), [{"type": "cast", "caster": 21, "spell": "fireball", "targets": [21]}, END,
               {"type": "cast", "caster": 45, "spell": "butter_fingers", "targets": [21]},
               END],
        {"type": "catch", "thrower": 58, "catcher": 30, "fireball": True}, 409,
        "#58's ball is a Fireball: it cannot be caught"),
    "an uncaught throw with returning": (
        wd(), [],
        {"type": "throw", "thrower": 21, "target": 45, "range": 2,
         "target_holding_ball": False, "rolls": {"throw": [6, 6], "dodge": [1, 2]},
         "returning": None}, 400,
        "field 'returning' is only for a throw that is caught; this one was a hit"),
    "bought spells only": (
        wd(spell_list="bought", wizards={str(j): {"magic": 1} for r in ROSTERS for j in r},
           spells=[["freeze"], ["dispel"]]), [],
        {"type": "cast", "caster": 21, "spell": "shield", "targets": [21]}, 409,
        "Owls did not buy the Shield card"),
    "center court: the wrong player serves": (
        CC, [], {"type": "serve", "card": 3, "player": 1}, 409,
        "Ann serves now, not Bob (player 0, as 'legal' offers it)"),
}

#: name -> (start record, lines), each accepted to the end.
ALLOWED = {
    "fireball dropped, thrown by a teammate at 10": (
        wd(), [{"type": "cast", "caster": 21, "spell": "fireball", "targets": [21]}, END,
               {"type": "cast", "caster": 45, "spell": "butter_fingers", "targets": [21]},
               END, {"type": "throw", "thrower": 58, "target": 30, "range": 3,
                     "target_holding_ball": False, "fireball": True,
                     "rolls": {"throw": [], "dodge": [4, 5]}}]),
    "advanced turn, all ten cards, no magic": (
        wd(turn="advanced"), [SPEED_21, {"type": "hit", "thrower": 21, "target": 45},
                              {"type": "hit", "thrower": 21, "target": 30}]),
    "center court: legal's shape as it is": (
        CC, [{"type": "serve", "card": 3, "player": 0},
             {"type": "return", "card": 3, "player": 1}]),
}


def write(path: Path, record: dict, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(x) + "\n" for x in [record, *lines]))
    return path


@pytest.mark.parametrize("name", sorted(CASES))
def test_replay_refuses_naming_the_line_and_reason(tmp_path, name):
    record, lines, bad, _, words = CASES[name]
    result = companion("replay", str(write(tmp_path / "m.jsonl", record, [*lines, bad])))
    assert result.returncode == 2 and result.stdout == ""
    assert f"line {len(lines) + 2}" in result.stderr and words in result.stderr


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_replay_accepts_what_the_rulings_allow(tmp_path, name):
    record, lines = ALLOWED[name]
    result = companion("replay", str(write(tmp_path / "m.jsonl", record, lines)))
    assert result.returncode == 0, result.stderr
    view = json.loads(result.stdout)
    if name.startswith("fireball"):
        assert view["last"]["attack"] == 10 and view["last"]["result"] == "hit"


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_api_refuses_and_changes_nothing(client, host, name):
    record, lines, bad, status, words = CASES[name]
    assert host.post("/api/match", record).status_code == 200
    for line in lines:
        assert host.post("/api/action", line).status_code == 200, line
    before = client.get("/api/state").json
    response = host.post("/api/action", bad)
    assert response.status_code == status and words in response.json["error"]
    assert client.get("/api/state").json == before


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_the_api_accepts_what_the_rulings_allow(host, name):
    record, lines = ALLOWED[name]
    assert host.post("/api/match", record).status_code == 200
    for line in lines:
        response = host.post("/api/action", line)
        assert response.status_code == 200, (line, response.json)


def test_every_legal_shape_is_taken_back_by_the_api(client, host):
    """Center Court's shapes, sent back as the state offers them, one value each."""
    host.post("/api/match", CC)
    for _ in range(6):
        state = client.get("/api/state").json["match"]
        shape = next(s for s in state["legal"] if s["type"] != "point")
        action = {k: v[2] if isinstance(v, list) else v for k, v in shape.items()}
        response = host.post("/api/action", action)
        assert response.status_code == 200, (action, response.json)
