"""Each game's style is its own file (web/static/<game>.css), loaded with its scripts: the
shared stylesheets (app.css, host.css) style no game's own classes, and a page carries
the style of the game on the table only."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support import CATALOG
from tests.web.conftest import START

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
TEMPLATES = STATIC.parent / "templates"
SHARED = ("app.css", "host.css")


def selector_classes(css: str) -> set[str]:
    """The classes the stylesheet's selectors name (comments and declarations left out)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    selectors = re.findall(r"([^{}]+)\{", css)
    return {c for s in selectors if not s.strip().startswith("@")
            for c in re.findall(r"\.(-?[A-Za-z_][\w-]*)", s)}


def elsewhere(game: str) -> str:
    """What the pages say outside the game's own files: the shared scripts, the
    templates, and the other games' scripts."""
    return "\n".join(p.read_text(encoding="utf-8") for p in
                      [*STATIC.glob("*.js"), *TEMPLATES.glob("*.html")]
                      if not p.name.startswith((f"{game}.", f"{game}-")))


def own_classes(game: str) -> set[str]:
    """The classes the game's stylesheet styles that no other page, script or game uses:
    the game's own (its board's and its controls')."""
    others = elsewhere(game)
    return {c for c in selector_classes((STATIC / f"{game}.css").read_text(encoding="utf-8"))
            if not re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", others)}


def styled() -> list[str]:
    """The catalog's games that bring a stylesheet (page files are optional: a game
    without them is drawn the generic way)."""
    return [g for g in CATALOG if (STATIC / f"{g}.css").exists()]


def test_a_game_s_stylesheet_styles_classes_of_its_own():
    assert len(styled()) >= 4  # the four games bring theirs: the check reads something
    for game in styled():
        assert len(own_classes(game)) >= 2, game


def test_the_shared_stylesheets_style_no_game_s_own_classes():
    shared = set().union(*(selector_classes((STATIC / n).read_text(encoding="utf-8"))
                           for n in SHARED))
    found = {game: sorted(own_classes(game) & shared) for game in styled()}
    assert {g: c for g, c in found.items() if c} == {}, "move these rules to <game>.css"


def test_a_page_carries_the_style_of_the_game_on_the_table_only(client, host):
    assert host.post("/api/match", START).status_code == 200
    for path in ("/", "/host"):
        page = client.get(path).get_data(as_text=True)
        links = re.findall(r'<link rel="stylesheet" href="/static/([\w-]+)\.css">', page)
        assert START["game"] in links, (path, links)
        assert not set(links) & (set(CATALOG) - {START["game"]}), (path, links)
        # The others come when a match of theirs starts (the page's map of files).
        assert all(f"/static/{g}.css" in page for g in styled())


def test_the_host_s_controls_are_styled_on_the_host_page_only(client, host):
    """A game's host style (<game>-host.css: its controls, start form) is the host page's,
    after the board's; a spectator's phone downloads the board's only."""
    from tests.web.test_api import SLAM_START
    assert host.post("/api/match", SLAM_START).status_code == 200
    game = SLAM_START["game"]
    assert (STATIC / f"{game}-host.css").exists()
    links = {path: re.findall(r'<link rel="stylesheet" href="/static/([\w-]+)\.css">',
                              client.get(path).get_data(as_text=True)) for path in ("/", "/host")}
    assert game in links["/"] and f"{game}-host" not in links["/"], links
    assert links["/host"].index(game) < links["/host"].index(f"{game}-host"), links


def test_a_theme_sets_colours_only():
    """Every stylesheet's light or dark block sets colour variables on the page's root and
    nothing else: a theme cannot move anything, so a layout checked in one theme holds
    in the other (tests/e2e/test_layout_matrix.py checks each size in one)."""
    blocks = []
    for path in sorted(STATIC.glob("*.css")):
        css = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
        for match in re.finditer(r"@media[^{]*prefers-color-scheme[^{]*\{((?:[^{}]*\{[^{}]*\})*)"
                                 r"[^{}]*\}", css):
            for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", match.group(1)):
                names = [d.split(":", 1)[0].strip() for d in body.split(";") if d.strip()]
                blocks.append((path.name, selector.strip(), names))
    assert len(blocks) >= 3, blocks  # the check read the themes
    assert [b for b in blocks if b[1] != ":root" or not all(n.startswith("--") for n in b[2])] == []
