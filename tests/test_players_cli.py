"""``companion players``: list, leaderboard, rename and merge on the command line."""

from __future__ import annotations

import json
import random

from app import cli
from companion.store import Store
from companion.table import Table
from tests.players_support import center_court
from tests.support import CATALOG


def seeded(tmp_path) -> None:
    with Store(tmp_path / "companion.db") as store:
        table = Table(store, CATALOG, rng=random.Random(1))
        center_court(table, ["Ann", "Bob"], 0)
        center_court(table, ["Annie", "Cleo"], 0)


def test_list_rename_merge_and_the_leaderboard(tmp_path, capsys):
    seeded(tmp_path)
    data = ["--data", str(tmp_path)]
    assert cli.main(["players", "list", *data]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("PLAYER") and "Annie" in out and "Bob" in out
    assert cli.main(["players", "merge", "annie", "ANN", *data]) == 0
    assert capsys.readouterr().out == "annie and Ann are one player: Ann\n"
    assert cli.main(["players", "rename", "ann", "Anna Lee", *data]) == 0
    assert capsys.readouterr().out == "ann is now Anna Lee\n"
    assert cli.main(["players", "list", "--game", "center-court", "--json", *data]) == 0
    board = json.loads(capsys.readouterr().out)
    assert [(p["place"], p["name"], p["matches"], p["wins"]) for p in board][:1] == \
        [(1, "Anna Lee", 2, 2)]
    assert cli.main(["players", "list", "--game", "center-court", *data]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:2] == ["1", "Anna"] and lines[-1].startswith("* provisional")
    assert cli.main(["history", "--json", *data]) == 0
    assert [m["players"] for m in json.loads(capsys.readouterr().out)] == \
        [["Anna Lee", "Cleo"], ["Anna Lee", "Bob"]]


def test_refusals_exit_2_with_the_reason_and_change_nothing(tmp_path, capsys):
    seeded(tmp_path)
    data = ["--data", str(tmp_path)]
    for argv, words in [(["rename", "Ann", "x" * 17], "at most 16 characters"),
                        (["rename", "Zed", "Zoe"], "no player 'Zed'"),
                        (["rename", "Ann", "bob"], "merge"),
                        (["merge", "Ann", "Bob"], "both played in match 1")]:
        assert cli.main(["players", *argv, *data]) == 2
        assert words in capsys.readouterr().err, argv
    with Store(tmp_path / "companion.db") as store:
        assert sorted(store.names().values()) == ["Ann", "Annie", "Bob", "Cleo"]
