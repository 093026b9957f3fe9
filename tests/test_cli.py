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
from tests.support import CATALOG, NoDice

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
    ([{"players": ["a", "b"]}], 'line 1: the start record has no "game"; one of: '
                                "center-court, wizard-dodgeball"),
    ([{"game": "alakaslam", "players": ["a", "b"]}],
     "line 1: option 'characters' is required: one id per player, all different"),
    ([{"game": "alakazoo", "players": ["a"]}], "line 1: 'players' must be a list of 2 to 4"),
    ([{**START, "started": "yesterday"}], "line 1: 'started' must be a time in ISO 8601"),
    ([{**START, "started": "2024-05-01T18:02:11"}], "with its time zone"),
    ([{**START, "options": {"sets": 2}}], "line 1: option 'sets' must be one of 1, 3, 5"),
    ([], "line 1: the file is empty"),
    ([{**START, "options": []}, {"type": "point", "winner": 0}],
     "line 1: 'options' must be a JSON object of the game's options, such as {}; got []"),
    ([{**START, "options": 0}], "line 1: 'options' must be a JSON object"),
    ([{**START, "options": ""}], "line 1: 'options' must be a JSON object"),
    ([{**START, "options": False}], "line 1: 'options' must be a JSON object"),
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


def test_import_refuses_options_that_are_not_an_object(tmp_path):
    f = tmp_path / "m.jsonl"
    f.write_text(json.dumps({**START, "options": [["sets", 5]]}) + "\n")
    result = companion("import", str(f), "--data", str(tmp_path / "data"))
    assert result.returncode == 2
    assert "line 1: 'options' must be a JSON object" in result.stderr


def test_replay_of_a_missing_file(tmp_path):
    result = companion("replay", str(tmp_path / "nope.jsonl"))
    assert result.returncode == 2 and "cannot read" in result.stderr


def play_stored_match(data: Path, seed: int = 3) -> Table:
    with Store(data / "companion.db") as store:
        table = Table(store, CATALOG, rng=random.Random(seed))
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
    Store(tmp_path / "companion.db").close()  # as `companion run` leaves it before a match
    assert companion("history", "--data", str(tmp_path)).stdout == "no matches yet\n"
    table = play_stored_match(tmp_path)
    result = companion("history", "--data", str(tmp_path))
    assert result.returncode == 0
    assert "Center Court" in result.stdout and "Ann v Bob" in result.stdout
    rows = json.loads(companion("history", "--json", "--data", str(tmp_path)).stdout)
    assert rows[0]["id"] == table.match_id and rows[0]["status"] == "active"


def test_history_names_both_winners_of_a_team(tmp_path):
    slam = {"game": "alakaslam", "players": ["Ann", "Bea", "Cid", "Dan"],
            "options": {"characters": ["austin", "rich", "toots", "simon"], "target": 1}}
    f = write(tmp_path / "m.jsonl", slam, {"type": "point", "winner": 1})
    assert companion("import", str(f), "--data", str(tmp_path)).returncode == 0
    line = companion("history", "--data", str(tmp_path)).stdout.splitlines()[1]
    assert "AlakaSLAM" in line and "Ann & Bea v Cid & Dan: Cid & Dan won 0-1" in line
    rows = json.loads(companion("history", "--json", "--data", str(tmp_path)).stdout)
    assert rows[0]["winner"] == [2, 3] and rows[0]["teams"] == [[0, 1], [2, 3]]


def test_history_uses_the_data_folder_from_the_environment(tmp_path):
    play_stored_match(tmp_path)
    result = subprocess.run([COMPANION, "history", "--json"], capture_output=True, text=True,
                            env={"COMPANION_DATA": str(tmp_path), "PATH": "/usr/bin:/bin"},
                            timeout=60)
    assert len(json.loads(result.stdout)) == 1


def test_export_of_an_unknown_match(tmp_path):
    Store(tmp_path / "companion.db").close()
    result = companion("export", "99", "--data", str(tmp_path))
    assert result.returncode == 2 and "no match 99" in result.stderr


def test_import_adds_to_history_and_an_unfinished_match_resumes(tmp_path):
    f = write(tmp_path / "m.jsonl", START, {"type": "point", "winner": 0})
    result = companion("import", str(f), "--data", str(tmp_path / "d"))
    assert result.returncode == 0 and "unfinished" in result.stdout
    with Store(tmp_path / "d" / "companion.db") as store:
        assert Table(store, CATALOG).snapshot.match["view"]["points"] == ["15", "0"]
    other = write(tmp_path / "o.jsonl", START, {"type": "point", "winner": 1})
    again = companion("import", str(other), "--data", str(tmp_path / "d"))
    assert again.returncode == 2 and "in progress" in again.stderr


def test_history_on_a_machine_that_never_played_is_empty_and_makes_nothing(tmp_path):
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}  # no COMPANION_DATA, no XDG
    result = subprocess.run([COMPANION, "history"], capture_output=True, text=True, env=env,
                            timeout=60)
    assert (result.returncode, result.stdout) == (0, "no matches yet\n"), result.stderr
    result = subprocess.run([COMPANION, "history", "--json"], capture_output=True, text=True,
                            env=env, timeout=60)
    assert json.loads(result.stdout) == []
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [["history"], ["history", "--json"], ["export", "1"]])
def test_reading_commands_never_create_a_data_folder(tmp_path, command):
    typo = tmp_path / "dta"
    result = companion(*command, "--data", str(typo))
    assert result.returncode == 2 and result.stdout == ""
    assert f"no match database in {typo}" in result.stderr
    assert "the folder does not exist" in result.stderr
    assert not typo.exists()
    # A folder without a database stays without one.
    result = companion(*command, "--data", str(tmp_path))
    assert result.returncode == 2
    assert f"no match database in {tmp_path}" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_importing_the_same_match_twice_is_refused(tmp_path):
    finished = [START, *[{"type": "point", "winner": 1}] * 24]
    f = write(tmp_path / "m.jsonl", *finished)
    data = str(tmp_path / "d")
    first = companion("import", str(f), "--data", data)
    assert first.returncode == 0 and "imported as match 1 (finished)" in first.stdout
    again = companion("import", str(f), "--data", data)
    assert again.returncode == 2
    assert "already stored as match 1" in again.stderr and "nothing was imported" in again.stderr
    # The same actions written another way (an undone point, a redo) are the same match.
    detour = write(tmp_path / "detour.jsonl", *finished[:3], {"type": "undo"}, {"type": "redo"},
                   *finished[3:])
    assert "already stored as match 1" in companion("import", str(detour), "--data", data).stderr
    # Its own export, which carries the start time, is the same match too.
    exported = companion("export", "1", "--data", data).stdout
    result = companion("import", "-", "--data", data, stdin=exported)
    assert result.returncode == 2 and "already stored as match 1" in result.stderr
    assert len(json.loads(companion("history", "--json", "--data", data).stdout)) == 1
    # A different match with the same players is welcome.
    other = write(tmp_path / "o.jsonl", *finished[:-1], {"type": "point", "winner": 0},
                  {"type": "point", "winner": 1})
    assert companion("import", str(other), "--data", data).returncode == 0


def test_a_match_played_here_then_exported_is_already_stored(tmp_path):
    table = play_stored_match(tmp_path)
    exported = companion("export", str(table.match_id), "--data", str(tmp_path)).stdout
    result = companion("import", "-", "--data", str(tmp_path), stdin=exported)
    assert result.returncode == 2
    assert f"already stored as match {table.match_id}" in result.stderr


def test_export_writes_the_start_time_and_import_keeps_it(tmp_path):
    table = play_stored_match(tmp_path)
    listed = json.loads(companion("history", "--json", "--data", str(tmp_path)).stdout)[0]
    exported = companion("export", str(table.match_id), "--data", str(tmp_path)).stdout
    start = json.loads(exported.splitlines()[0])
    assert start["started"] == listed["started_at"]
    assert list(start) == ["game", "players", "options", "started"]
    # Replay accepts it; import into another folder keeps it.
    assert companion("replay", "-", stdin=exported).returncode == 0
    elsewhere = str(tmp_path / "other")
    assert companion("import", "-", "--data", elsewhere, stdin=exported).returncode == 0
    moved = json.loads(companion("history", "--json", "--data", elsewhere).stdout)[0]
    assert moved["started_at"] == listed["started_at"]
    # A written start time with an offset is kept as the same instant, in UTC.
    f = write(tmp_path / "m.jsonl", {**START, "started": "2023-04-05T08:07:08+02:00"})
    assert companion("import", str(f), "--data", str(tmp_path / "third")).returncode == 0
    rows = json.loads(companion("history", "--json", "--data", str(tmp_path / "third")).stdout)
    assert rows[0]["started_at"] == "2023-04-05T06:07:08Z"
    again = companion("export", str(rows[0]["id"]), "--data", str(tmp_path / "third")).stdout
    assert json.loads(again.splitlines()[0])["started"] == "2023-04-05T06:07:08Z"


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32), steps=st.lists(
    st.one_of(st.tuples(st.just("serve"), st.integers(1, 6)),
              st.tuples(st.just("point"), st.integers(0, 1)),
              st.tuples(st.just("undo"), st.none())), max_size=80))
def test_exported_files_replay_exactly_with_no_dice_left_to_roll(seed, steps):
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(seed))
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
        replayed = matchfile.replay(text.splitlines(), NoDice(), CATALOG)
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
    match = matchfile.replay(f.read_text().splitlines(), random.Random(4), CATALOG)
    again = matchfile.replay(matchfile.dump(match.start, match.events).splitlines(), NoDice(),
                             CATALOG)
    assert again.state == match.state


def test_an_illegal_dodgeball_line_names_the_line_and_why(tmp_path):
    f = write(tmp_path / "wd.jsonl", WD_START,
              {"type": "end_activation"},
              {"type": "cast", "caster": 21, "spell": "freeze", "targets": [45]},
              {"type": "end_activation"}, {"type": "end_activation"},
              {"type": "cast", "caster": 58, "spell": "freeze", "targets": [30]})
    result = companion("replay", str(f))
    assert result.returncode == 2 and result.stdout == ""
    assert "line 6" in result.stderr and "Freeze is recharging" in result.stderr
    f = write(tmp_path / "twice.jsonl", WD_START,
              {"type": "end_activation"},
              {"type": "cast", "caster": 21, "spell": "freeze", "targets": [45]},
              {"type": "cast", "caster": 21, "spell": "shield", "targets": [58]})
    result = companion("replay", str(f))
    assert result.returncode == 2 and "line 4: #21 has already cast this activation; left: " \
        "throw (basic turn: move, throw and cast once each)" in result.stderr


def test_a_dodgeball_match_file_with_passes_replays_and_exports_exactly(tmp_path):
    f = write(tmp_path / "wd.jsonl", WD_START,
              {"type": "cast", "caster": 45, "spell": "fireball", "targets": [45]},
              {"type": "pass", "thrower": 45, "to": 30},
              {"type": "end_activation"},
              {"type": "pass", "thrower": 21, "to": 58}, {"type": "end_activation"},
              {"type": "throw", "thrower": 30, "target": 58, "range": 1,
               "target_holding_ball": True})
    replayed = companion("replay", str(f), "--seed", "9")
    assert replayed.returncode == 0, replayed.stderr
    view = json.loads(replayed.stdout)
    assert view["last"]["fireball"] is True and view["last"]["attack"] == 10
    match = matchfile.replay(f.read_text().splitlines(), random.Random(9), CATALOG)
    text = matchfile.dump(match.start, match.events)
    assert '{"type": "pass", "thrower": 45, "to": 30, "fireball": true}' in text
    again = matchfile.replay(text.splitlines(), NoDice(), CATALOG)
    assert again.state == match.state and again.view() == json.loads(replayed.stdout)


def test_the_api_docs_pass_example_replays_and_its_refusal_is_as_quoted(tmp_path):
    text = (Path(__file__).parent.parent / "docs" / "api.md").read_text()
    after = text.split("An activation in a match file", 1)[1]
    block = after.split("```jsonl\n", 1)[1].split("```\n", 1)[0]
    lines = block.splitlines()
    f = tmp_path / "pass.jsonl"
    f.write_text(block)
    result = companion("replay", str(f), "--seed", "3")
    assert result.returncode == 0, result.stderr
    view = json.loads(result.stdout)
    assert view["last"]["thrower"] == 58 and view["last"]["fireball"] is True
    quoted = " ".join(after.split("would be refused: `", 1)[1].split("`", 1)[0].split())
    second = {"type": "cast", "caster": 21, "spell": "shield", "targets": [58]}
    f.write_text("\n".join([*lines[:2], json.dumps(second)]) + "\n")
    result = companion("replay", str(f))
    assert result.returncode == 2 and f"line 3: {quoted}\n" in result.stderr


SLAM_START = {"game": "alakaslam", "players": ["Ann", "Bob", "Cid"],
              "options": {"characters": ["wendolyn", "austin", "rich"], "target": 2,
                          "first_server": "coin"}}


def test_an_alakaslam_match_file_goes_through_every_command(tmp_path):
    """replay, import, history, export: the coin is flipped once and the export replays."""
    f = write(tmp_path / "slam.jsonl", SLAM_START,
              {"type": "point", "winner": 0, "reason": "declined"},
              {"type": "serve", "player": 1, "corner": "red", "cards": ["B3"],
               "support": {"player": 2, "cards": ["E2"]}},
              {"type": "undo"},
              {"type": "serve", "player": 1, "corner": "red", "cards": ["B1"],
               "support": {"player": 2, "cards": ["B2"]}})
    replayed = companion("replay", str(f), "--seed", "5")
    assert replayed.returncode == 0, replayed.stderr
    view = json.loads(replayed.stdout)
    assert view["format"] == "canadian" and [s["score"] for s in view["sides"]] == [1, 0]
    # Bob's B1 takes the ball from (1, 4) to (2, 3), Cid's B2 on over the net to (3, 1).
    assert view["ball"] == [3, 1] and view["hitting_side"] == 0
    data = str(tmp_path / "d")
    imported = companion("import", str(f), "--seed", "5", "--data", data)
    assert imported.returncode == 0 and "unfinished" in imported.stdout, imported.stderr
    listed = companion("history", "--data", data)
    assert "AlakaSLAM" in listed.stdout and "Ann v Bob & Cid 1-0 · Ann: 1 declined" in listed.stdout
    rows = json.loads(companion("history", "--json", "--data", data).stdout)
    assert (rows[0]["game"], rows[0]["status"]) == ("alakaslam", "active")
    exported = companion("export", str(rows[0]["id"]), "--data", data)
    assert exported.returncode == 0, exported.stderr
    lines = [json.loads(line) for line in exported.stdout.splitlines()]
    assert lines[0]["options"]["first_server"] == 1 and lines[0]["options"]["coin_flip"] == 1
    assert [x["type"] for x in lines[1:]] == ["point", "serve"]  # the undone serve is gone
    for seed in ("1", "2"):
        again = companion("replay", "-", "--seed", seed, stdin=exported.stdout)
        assert json.loads(again.stdout) == view


def test_an_illegal_alakaslam_line_names_the_line_and_what_to_play(tmp_path):
    f = write(tmp_path / "slam.jsonl",
              {"game": "alakaslam", "players": ["Ann", "Bob"],
               "options": {"characters": ["wendolyn", "austin"]}},
              {"type": "serve", "player": 0, "corner": "red", "cards": ["E2", "B3"]},
              {"type": "shot", "player": 1, "cards": ["R3"]})
    result = companion("replay", str(f))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "companion: line 3: Bob is under Enchant-2: play exactly 2 cards\n"


ZOO_START = {"game": "alakazoo", "players": ["Ann", "Bob", "Cleo"],
             "options": {"first_player": "roll", "portals": [2, 4, 6]}}


def test_an_alakazoo_match_file_goes_through_every_command(tmp_path):
    """replay, import, history, export: the first player and the Spell Dice are rolled once
    (by the seed), and the export replays to the same view whatever the seed."""
    f = write(tmp_path / "zoo.jsonl", ZOO_START,
              {"type": "roll", "dice": 3},
              {"type": "display", "space": 5, "creature": 2},
              {"type": "end_turn"},
              {"type": "roll", "dice": 2},
              {"type": "undo"},
              {"type": "roll", "faces": ["Fire", "Magic"]},
              {"type": "dark_power", "reason": "no_rune"},
              {"type": "end_turn"},
              {"type": "roll", "dice": 1})
    replayed = companion("replay", str(f), "--seed", "5")
    assert replayed.returncode == 0, replayed.stderr
    view = json.loads(replayed.stdout)
    assert view["round"] == 1 and view["current"] == (view["first_player"] + 2) % 3
    assert view["roll"]["device"] is True and len(view["roll"]["faces"]) == 1
    assert view["stats"]["rolls"] == [1, 1, 1]
    assert sum(p["points"] for p in view["players"]) >= 1
    data = str(tmp_path / "d")
    imported = companion("import", str(f), "--seed", "5", "--data", data)
    assert imported.returncode == 0 and "unfinished" in imported.stdout, imported.stderr
    listed = companion("history", "--data", data)
    assert "Alakazoo" in listed.stdout and "Ann v Bob v Cleo " in listed.stdout
    assert "1 Dark Power taken" in listed.stdout
    rows = json.loads(companion("history", "--json", "--data", data).stdout)
    assert (rows[0]["game"], rows[0]["status"]) == ("alakazoo", "active")
    exported = companion("export", str(rows[0]["id"]), "--data", data)
    assert exported.returncode == 0, exported.stderr
    lines = [json.loads(line) for line in exported.stdout.splitlines()]
    options = lines[0]["options"]
    assert options["first_player"] == options["first_roll"] == view["first_player"]
    rolls = [x for x in lines[1:] if x["type"] == "roll"]
    assert [len(x["faces"]) for x in rolls] == [3, 2, 1]  # the undone roll is gone
    assert [x["device"] for x in rolls] == [True, False, True]
    assert rolls[-1]["faces"] == view["roll"]["faces"]
    for seed in ("1", "2"):
        again = companion("replay", "-", "--seed", seed, stdin=exported.stdout)
        assert json.loads(again.stdout) == view


def test_a_finished_alakazoo_match_is_in_the_history_with_its_jury(tmp_path):
    # Three displays a turn after a column, each time with the 6 Magic Power tokens Ann
    # rolled in her two turns before: her nine Dragons take three such turns.
    f = write(tmp_path / "zoo.jsonl", {"game": "alakazoo", "players": ["Ann", "Bob"]},
              *[x for row in range(3) for x in (
                  *[x for n in ((3, 2) if row == 0 else (3, 3))
                    for x in (magic(n), {"type": "end_turn"}, {"type": "end_turn"})],
                  {"type": "column"},
                  *[{"type": "display", "space": s, "creature": 1}
                    for s in range(3 * row + 1, 3 * row + 4)],
                  {"type": "end_turn"}, {"type": "end_turn"})])
    data = str(tmp_path / "d")
    imported = companion("import", str(f), "--data", data)
    assert imported.returncode == 0 and "(finished)" in imported.stdout, imported.stderr
    listed = companion("history", "--data", data).stdout
    assert "Ann v Bob: Ann won 26-0 · Ann: 19 in play + 7 jury · Bob: 0 in play + 0 jury" \
        in listed


def test_an_alakazoo_tie_is_a_shared_win_in_the_history_not_a_team(tmp_path):
    # Ann: nine Unicorns (10 in play + 6 jury); Bob, in the final round, nine of his
    # own Griffins (9 + 7): level on 16.
    # Each row: both roll their Magic Power to 6 over two turns, then display three.
    f = write(tmp_path / "zoo.jsonl", {"game": "alakazoo", "players": ["Ann", "Bob"]},
              *[x for row in range(3) for x in (
                  *[x for n in ((3, 2) if row == 0 else (3, 3))
                    for x in (magic(n), {"type": "end_turn"}) * 2],
                  *[x for creature in (3, 2) for x in (
                      {"type": "column"},
                      *[{"type": "display", "space": s, "creature": creature}
                        for s in range(3 * row + 1, 3 * row + 4)],
                      {"type": "end_turn"})])])
    data = str(tmp_path / "d")
    assert companion("import", str(f), "--data", data).returncode == 0
    listed = companion("history", "--data", data).stdout
    assert "Ann v Bob: Ann and Bob share the win 16-16 ·" in listed, listed


def test_an_illegal_alakazoo_line_names_the_line_and_why(tmp_path):
    f = write(tmp_path / "zoo.jsonl", {"game": "alakazoo", "players": ["Ann", "Bob"]},
              {"type": "roll", "faces": ["Fire"]},
              {"type": "swap", "space": 5, "creature": 3})
    result = companion("replay", str(f))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == ("companion: line 3: no Magic Helper swap now: Ann has rolled the "
                             "Spell Dice this turn: one action per turn (roll the Spell Dice, "
                             "take a column or discard, or the Magic Helper); display or end "
                             "the turn\n")


ZOO_TWO = {"game": "alakazoo", "players": ["Ann", "Bob"]}


def magic(n: int) -> dict:
    """A roll of ``n`` dice that all show the Magic Power symbol: ``n`` tokens."""
    return {"type": "roll", "faces": ["Magic"] * n}
SHOW = "display"


@pytest.mark.parametrize("lines, said", [
    # The same card on two portals: a display, and a swap for a hand card.
    ([{"type": SHOW, "space": 1, "creature": 2}, {"type": "end_turn"},
      {"type": SHOW, "space": 1, "creature": 2}],
     "line 4: the Griffin for space 1 is on Ann's portal and each card exists once: Bob "
     "cannot display a second one; free for space 1: Dragon, Unicorn, Phoenix, Kraken, Hydra"),
    ([{"type": SHOW, "space": 1, "creature": 2}, {"type": "end_turn"},
      {"type": SHOW, "space": 1, "creature": 3}, {"type": "end_turn"}, {"type": "end_turn"},
      {"type": "swap", "space": 1, "creature": 2}],
     "line 7: the Griffin for space 1 is on Ann's portal and each card exists once: Bob "
     "cannot swap in a second one"),
    # Two players: four creatures in the deck, the portals' own and two more.
    ([{"type": SHOW, "space": 1, "creature": 5}, {"type": SHOW, "space": 2, "creature": 6},
      {"type": "end_turn"}, {"type": "end_turn"}, {"type": SHOW, "space": 3, "creature": 3}],
     "line 6: no Unicorn card is in this game: a 2-player deck holds 4 creatures; the "
     "creatures in play: Dragon, Griffin, Kraken, Hydra"),
    # 6 Magic Power rolled over two turns, a column, then a fourth display.
    ([magic(3), {"type": "end_turn"}, {"type": "end_turn"}, magic(2), {"type": "end_turn"},
      {"type": "end_turn"}, {"type": "column"},
      *({"type": SHOW, "space": s, "creature": 1} for s in range(1, 5))],
     "line 12: Ann has displayed 3 elements this turn: each display spends 2 Magic Power and "
     "a player holds at most 6, so 3 is the most in one turn; end the turn"),
    ([{"type": "dark_power", "reason": "no_rune"}],
     "line 2: no 'no_rune' Dark Power now: Ann has not rolled the Spell Dice this turn"),
    ([{"type": "roll", "faces": ["Magic", "Magic"]}, {"type": "dark_power", "reason": "no_rune"}],
     "line 3: no 'no_rune' Dark Power: Ann's roll (Magic Magic) showed only Magic"),
    ([{"type": "roll", "faces": ["Fire", "Magic"]}, {"type": "dark_power", "reason": "no_rune"},
      {"type": "dark_power", "reason": "no_rune"}],
     "line 4: no more 'no_rune' Dark Power: Ann's roll (Fire Magic) showed 1 rune and 1 has "
     "been recorded, one per rune die at most"),
    ([{"type": "helper", "trick": "column"}, {"type": "column"}],
     "line 3: no column or discard now: Ann has used the Magic Helper this turn"),
    ([{"type": "column"}, {"type": "helper", "trick": "hand"}],
     "line 3: no Magic Helper trick now: Ann has taken a column (or discarded) this turn"),
    ([{"type": SHOW, "space": 1, "creature": 1}, {"type": "helper", "trick": "column"}],
     "line 3: no Magic Helper trick now: Ann has displayed this turn: the turn's action comes "
     "before displaying"),
])
def test_an_impossible_alakazoo_game_is_refused_at_its_line(tmp_path, lines, said):
    f = write(tmp_path / "zoo.jsonl", ZOO_TWO, *lines)
    result = companion("replay", str(f))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"companion: {said}"), result.stderr


def test_an_alakazoo_deck_named_at_the_start_refuses_the_boxed_creatures(tmp_path):
    start = {**ZOO_TWO, "options": {"boxed": [3, 4]}}
    f = write(tmp_path / "zoo.jsonl", start, {"type": SHOW, "space": 1, "creature": 4})
    result = companion("replay", str(f))
    assert result.returncode == 2 and result.stderr == (
        "companion: line 2: no Phoenix card is in this game: it was put back in the box; the "
        "creatures in play: Dragon, Griffin, Kraken, Hydra\n")
    f = write(tmp_path / "late.jsonl", start, {"type": SHOW, "space": 1, "creature": 6},
              {"type": "roll", "faces": ["Fire"]})
    assert companion("replay", str(f)).returncode == 2  # the roll comes after a display
    f = write(tmp_path / "ok.jsonl", start,
              {"type": "roll", "faces": ["Fire", "Air", "Magic"]},
              {"type": "dark_power", "reason": "no_rune"},
              {"type": SHOW, "space": 1, "creature": 6},
              {"type": "dark_power", "reason": "no_rune"}, {"type": "end_turn"},
              {"type": "end_turn"}, {"type": "end_turn"},  # Bob's 1 token, then 4
              {"type": "helper", "trick": "hand"}, {"type": SHOW, "space": 1, "creature": 5})
    result = companion("replay", str(f))
    assert result.returncode == 0, result.stderr
    view = json.loads(result.stdout)
    assert view["deck"] == [1, 2, 5, 6] and view["boxed"] == [3, 4]
    assert [p["dark_power"] for p in view["players"]] == [2, 1]
    assert view["stats"]["tricks"] == [0, 1] and view["action"] == "helper"
