"""The host page names no game: each game's controls and start form are in its own host
script (web/static/<game>-host.js), registered in TC.hosts under the game's id, and the
page serves each game's script to the host only."""

from __future__ import annotations

import re
from pathlib import Path

from companion.games.base import MAX_NAME
from tests.support import CATALOG

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
HOST = (STATIC / "host.js").read_text(encoding="utf-8")

#: What would betray a game in the shared script: its id, its title, the words of its
#: module's file name, and the namespaces its board scripts define (TC.slam, TC.zoo, ...).
NAMESPACES = sorted(set(re.findall(r"^TC\.(\w+) = \{\};", "\n".join(
    p.read_text(encoding="utf-8") for p in STATIC.glob("*.js")), re.M)) - {"boards", "hosts"})


def game_words() -> set[str]:
    words: set[str] = set(NAMESPACES)
    for game in CATALOG.games.values():
        words |= {game.id, game.title}
        words |= {w for w in re.split(r"[-_ ]", game.id) if len(w) > 3}
    return words


def test_host_js_names_no_game():
    assert NAMESPACES, "the board scripts' namespaces were not found"
    text = HOST.lower()
    found = sorted(w for w in game_words() if re.search(rf"\b{re.escape(w.lower())}\b", text))
    assert not found, f"host.js names {found}: move it to the game's host script"


def test_every_host_script_registers_under_its_game():
    scripts = sorted(STATIC.glob("*-host.js"))
    assert {p.name.removesuffix("-host.js") for p in scripts} <= set(CATALOG)
    for path in scripts:
        game = path.name.removesuffix("-host.js")
        text = path.read_text(encoding="utf-8")
        registered = re.findall(r"TC\.hosts(?:\.([\w]+)|\[\"([\w-]+)\"\]) =", text)
        assert [a or b for a, b in registered] == [game], (path.name, registered)


def test_the_host_page_carries_each_game_s_host_script(client):
    page = client.get("/host").get_data(as_text=True)
    for path in STATIC.glob("*-host.js"):
        assert f"/static/{path.name}" in page, path.name


def test_the_form_s_name_limit_is_the_table_s():
    assert f"const MAX_NAME = {MAX_NAME};" in HOST
