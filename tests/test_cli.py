"""The command line, run as users run it: the installed ``companion`` script."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import matchfile
from companion.store import Store
from companion.table import Table
from tests.support import NoDice

COMPANION = str(Path(sys.executable).parent / "companion")
START = {"game": "center-court", "players": ["Ann", "Bob"], "options": {"sets": 1}}


def companion(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([COMPANION, *args], input=stdin, capture_output=True, text=True,
                          timeout=60)


def write(path: Path, *objs: object, raw: str = "") -> Path:
    path.write_text("".join(json.dumps(o) + "\n" for o in objs) + raw)
    return path


def test_replay_prints_the_final_view(tmp_path):
    f = write(tmp_path / "m.jsonl", START,
              {"type": "serve", "card": 5, "roll": 5},
              {"type": "serve", "card": 3},
              {"type": "point", "winner": 0},
              {"type": "point", "winner": 1},
              {"type": "undo"}, {"type": "undo"}, {"type": "redo"})
    result = companion("replay", str(f))
    assert result.returncode == 0, result.stderr
    view = json.loads(result.stdout)
    assert view["points"] == ["15", "0"] and view["stats"][0]["faults"] == 1


def test_replay_reads_standard_input():
    text = json.dumps(START) + "\n" + json.dumps({"type": "point", "winner": 1}) + "\n"
    result = companion("replay", "-", stdin=text)
    assert result.returncode == 0 and json.loads(result.stdout)["points"] == ["0", "15"]


def test_unrolled_serves_follow_the_seed(tmp_path):
    f = write(tmp_path / "m.jsonl", START, *[{"type": "serve", "card": 5},
                                             {"type": "point", "winner": 0}] * 8)
    runs = [companion("replay", str(f), "--seed", str(seed)).stdout for seed in (1, 1, 2)]
    assert runs[0] == runs[1]
    assert json.loads(runs[0])["last_serve"]["roll"] in (1, 2, 5, 6)


@pytest.mark.parametrize(("lines", "expected"), [
    ([START, {"type": "point", "winner": 0}], None),
    ([START, {"type": "point", "winner": 0}, "{oops"], "line 3: not valid JSON"),
    ([START, [1, 2]], "line 2: an action must be a JSON object"),
    ([START, {"type": "return", "card": 3}], "line 2: no ball is in play"),
    ([START, {"type": "serve", "card": 3, "roll": 2}], "line 2: a serve of 3 is never rolled"),
    ([START, {"type": "redo"}], "line 2: nothing to redo"),
    ([{"game": "chess", "players": ["a", "b"]}], "line 1: unknown game 'chess'"),
    ([{**START, "options": {"sets": 2}}], "line 1: option 'sets' must be one of 1, 3, 5"),
    ([], "line 1: the file is empty"),
])
def test_a_bad_line_exits_2_naming_the_line_and_reason(tmp_path, lines, expected):
    f = tmp_path / "m.jsonl"
    f.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    result = companion("replay", str(f))
    if expected is None:
        assert result.returncode == 0
        return
    assert result.returncode == 2
    assert expected in result.stderr and result.stdout == ""


def test_replay_of_a_missing_file(tmp_path):
    result = companion("replay", str(tmp_path / "nope.jsonl"))
    assert result.returncode == 2 and "cannot read" in result.stderr


def play_stored_match(data: Path, seed: int = 3) -> Table:
    with Store(data / "companion.db") as store:
        table = Table(store, rng=random.Random(seed))
        table.start({**START, "options": {"sets": 1, "first_server": "coin"}})
        for card in (5, 1, 6, 2, 3):
            table.act({"type": "serve", "card": card})
            if table.match.state.rally is not None:
                table.act({"type": "point", "winner": card % 2})
        table.act({"type": "point", "winner": 1})
        table.undo()
        return table


def test_export_then_replay_reproduces_the_match(tmp_path):
    table = play_stored_match(tmp_path)
    exported = companion("export", str(table.match_id), "--data", str(tmp_path))
    assert exported.returncode == 0, exported.stderr
    lines = exported.stdout.splitlines()
    assert json.loads(lines[0])["options"]["coin_flip"] is True
    assert all("roll" in json.loads(line) for line in lines[1:]
               if json.loads(line)["type"] == "serve")
    replayed = companion("replay", "-", stdin=exported.stdout)
    assert json.loads(replayed.stdout) == table.snapshot.match["view"]


def test_history_lists_matches(tmp_path):
    assert companion("history", "--data", str(tmp_path)).stdout == "no matches yet\n"
    table = play_stored_match(tmp_path)
    result = companion("history", "--data", str(tmp_path))
    assert result.returncode == 0
    assert "Center Court" in result.stdout and "Ann v Bob" in result.stdout
    rows = json.loads(companion("history", "--json", "--data", str(tmp_path)).stdout)
    assert rows[0]["id"] == table.match_id and rows[0]["status"] == "active"


def test_history_uses_the_data_folder_from_the_environment(tmp_path):
    play_stored_match(tmp_path)
    result = subprocess.run([COMPANION, "history", "--json"], capture_output=True, text=True,
                            env={"COMPANION_DATA": str(tmp_path), "PATH": "/usr/bin:/bin"},
                            timeout=60)
    assert len(json.loads(result.stdout)) == 1


def test_export_of_an_unknown_match(tmp_path):
    result = companion("export", "99", "--data", str(tmp_path))
    assert result.returncode == 2 and "no match 99" in result.stderr


def test_import_adds_to_history_and_an_unfinished_match_resumes(tmp_path):
    f = write(tmp_path / "m.jsonl", START, {"type": "point", "winner": 0})
    result = companion("import", str(f), "--data", str(tmp_path / "d"))
    assert result.returncode == 0 and "unfinished" in result.stdout
    with Store(tmp_path / "d" / "companion.db") as store:
        assert Table(store).snapshot.match["view"]["points"] == ["15", "0"]
    again = companion("import", str(f), "--data", str(tmp_path / "d"))
    assert again.returncode == 2 and "in progress" in again.stderr


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32), steps=st.lists(
    st.one_of(st.tuples(st.just("serve"), st.integers(1, 6)),
              st.tuples(st.just("point"), st.integers(0, 1)),
              st.tuples(st.just("undo"), st.none())), max_size=80))
def test_exported_files_replay_exactly_with_no_dice_left_to_roll(seed, steps):
    with Store(":memory:") as store:
        table = Table(store, rng=random.Random(seed))
        table.start({**START, "options": {"first_server": "coin"}})
        for kind, value in steps:
            try:
                if kind == "serve":
                    table.act({"type": "serve", "card": value})
                elif kind == "point":
                    table.act({"type": "point", "winner": value})
                else:
                    table.undo()
            except ValueError:
                pass
        text = matchfile.dump(table.match.start, table.match.events)
        replayed = matchfile.replay(text.splitlines(), NoDice())
        assert replayed.state == table.match.state


WD_START = {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
            "options": {"rosters": [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]],
                        "first_side": 1}}


def test_a_dodgeball_match_file_replays_with_seeded_rolls_and_exports_exactly(tmp_path):
    f = write(tmp_path / "wd.jsonl", WD_START,
              {"type": "cast_roll", "caster": 45, "spell": "weak", "targets": [21, 58]},
              {"type": "throw", "thrower": 45, "target": 12, "range": 1,
               "target_holding_ball": False},
              {"type": "end_activation"}, {"type": "end_activation"})
    runs = [companion("replay", str(f), "--seed", str(seed)) for seed in (4, 4)]
    assert runs[0].returncode == 0, runs[0].stderr
    assert runs[0].stdout == runs[1].stdout
    view = json.loads(runs[0].stdout)
    assert view["activation"] == 3 and view["last"]["type"] in ("throw", "end_activation")
    # The resolved events replay with no die left to roll.
    match = matchfile.replay(f.read_text().splitlines(), random.Random(4))
    again = matchfile.replay(matchfile.dump(match.start, match.events).splitlines(), NoDice())
    assert again.state == match.state


def test_an_illegal_dodgeball_line_names_the_line_and_why(tmp_path):
    f = write(tmp_path / "wd.jsonl", WD_START,
              {"type": "end_activation"},
              {"type": "cast", "caster": 21, "spell": "freeze", "targets": [45]},
              {"type": "cast", "caster": 21, "spell": "freeze", "targets": [30]})
    result = companion("replay", str(f))
    assert result.returncode == 2 and result.stdout == ""
    assert "line 4" in result.stderr and "Freeze is recharging" in result.stderr
