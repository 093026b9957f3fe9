"""The module structure holds: the core stays free of hardware, web and serial
libraries and of the layers above it (docs/design.md, "Layers"), and no module
imports itself round a circle."""

from __future__ import annotations

import ast
import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

import companion
from tests.support import CATALOG

#: What the core may not import: I/O libraries, and the layers built on it (the
#: drivers, the web, the composition root with its command line, the hall board).
FORBIDDEN = {"drivers", "web", "flask", "gpiozero", "luma", "serial", "tornado", "paho",
             "app", "hall"}
CORE = Path(companion.__file__).parent
ROOT = Path(__file__).resolve().parent.parent
#: The project's packages (pyproject.toml's list, and the tests).
PACKAGES = ("companion", "drivers", "app", "web", "hall", "tests")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def core_modules() -> list[Path]:
    """The core's modules, every one (``python -m app`` is the command line's door: the
    core has none)."""
    return list(CORE.rglob("*.py"))


def test_no_core_module_imports_an_io_library_or_a_layer_above():
    offenders = {
        str(path.relative_to(CORE)): sorted(imported_modules(path) & FORBIDDEN)
        for path in core_modules()
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_importing_the_whole_core_loads_none_of_them():
    code = (
        "import importlib, json, pkgutil, sys, companion\n"
        "for m in pkgutil.walk_packages(companion.__path__, 'companion.'):\n"
        "    importlib.import_module(m.name)\n"
        "print(json.dumps(sorted({n.split('.')[0] for n in sys.modules})))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    assert set(json.loads(out)) & FORBIDDEN == set()


#: A game folder's faces: what may draw or take buttons, and its kit, which joins
#: them to the rules. Every other module of companion/games/ is the game's pure
#: rules (state, options, rules, events, view, timeline, card).
FACES = {"panel.py", "oled.py", "kit.py"}


def rules_modules() -> list[Path]:
    return [p for p in sorted((CORE / "games").rglob("*.py")) if p.name not in FACES]


def test_a_games_rules_import_no_face_no_ui_and_not_the_catalog():
    """The rules are the game: its panel and OLED read them, never the other way."""
    assert len(rules_modules()) > 20  # the check reads the games' folders
    offenders = {}
    for path in rules_modules():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
                     if isinstance(node, ast.ImportFrom) else [])
            bad = [n for n in names if n.startswith(("companion.ui", "companion.catalog",
                                                      "companion.panel", "PIL"))
                   or n.split(".")[-1] in {"panel", "oled"}]
            if bad or (isinstance(node, ast.ImportFrom) and node.level):
                offenders.setdefault(str(path.relative_to(CORE)), []).append(
                    bad[0] if bad else "a relative import")
    assert offenders == {}


def test_the_rules_check_finds_a_face_imported():
    """The check above would pass on nothing: make sure a game's faces are found by it."""
    faces = [p for p in (CORE / "games").rglob("*.py") if p.name in FACES]
    assert {p.parent.name for p in faces} >= {"center_court", "wizard_dodgeball", "alakaslam",
                                               "alakazoo"}
    assert all(("companion.kit" if p.name == "kit.py" else "companion.ui") in p.read_text()
               for p in faces)


# --- import circles -------------------------------------------------------------
#
# Every import statement counts, wherever it stands: at the top, inside a
# function, under ``if TYPE_CHECKING``. A lazy import that only dodges a
# circle at load time still ties the two modules to each other; what the
# structure wants is each fact in one module below all of its users.


def project_modules(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the project's packages."""
    modules = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The project module ``name`` loads: itself, else its nearest package."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_edges(modules: dict[str, Path]) -> dict[tuple[str, str], int]:
    """(importer, imported) -> line of the first such import, among project modules."""
    edges: dict[tuple[str, str], int] = {}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        targets: list[tuple[str, int]] = []
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                targets += [(alias.name, node.lineno) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the importer's package, up level - 1
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                # `from pkg import name` loads pkg.name when that is a module.
                targets += [(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules
                             else base, node.lineno) for alias in node.names]
        for target, line in targets:
            found = _resolve(target, modules)
            if found is not None and found != module:
                edges.setdefault((module, found), line)
    edges.update(catalog_edges(modules))
    return edges


def catalog_edges(modules: dict[str, Path]) -> dict[tuple[str, str], int]:
    """The catalog's imports that no import statement shows: it loads each game folder
    it lists (``FOLDERS``) by name, its ``kit`` module when it has one."""
    if "companion.catalog" not in modules:
        return {}
    path = modules["companion.catalog"]
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "FOLDERS" for t in node.targets):
            folders, line = ast.literal_eval(node.value), node.lineno
            break
    else:
        raise AssertionError("companion/catalog.py lists no FOLDERS")
    return {("companion.catalog", _resolve(f"companion.games.{folder}.kit", modules)): line
            for folder in folders}


def import_circles(edges: dict[tuple[str, str], int]) -> list[list[str]]:
    """One circle (a, b, ..., a) through each group of modules that import each other."""
    graph: dict[str, list[str]] = {}
    for a, b in sorted(edges):
        graph.setdefault(a, []).append(b)
    # Tarjan's strongly connected components; a component of two or more
    # modules holds at least one circle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    circles = []
    for component in components:
        # The shortest way from the component's first module back to itself.
        start = min(component)
        paths = {start: [start]}
        queue = [start]
        while start not in paths or paths[start] == [start]:
            a = queue.pop(0)
            for b in graph[a]:
                if b == start:
                    paths[start] = [*paths[a], start]
                    break
                if b in component and b not in paths:
                    paths[b] = [*paths[a], b]
                    queue.append(b)
            else:
                continue
            break
        circles.append(paths[start])
    return circles


def test_no_import_circles_among_the_project_modules():
    modules = project_modules()
    edges = import_edges(modules)
    found = [
        " -> ".join(f"{a} ({modules[a].relative_to(ROOT)}:{edges[a, b]})"
                    for a, b in itertools.pairwise(circle)) + f" -> {circle[-1]}"
        for circle in import_circles(edges)
    ]
    assert found == [], "import circles:\n" + "\n".join(found)


def test_the_import_graph_sees_every_kind_of_import():
    """The circle check would pass on an empty graph: make sure it reads what it must."""
    edges = import_edges(project_modules())
    assert ("app.runtime", "companion.table") in edges  # `from pkg.mod import name`
    assert ("app.cli", "app.runtime") in edges  # inside a function
    assert ("app.cli", "companion.matchfile") in edges  # `from pkg import module`
    assert ("companion.games.center_court.kit", "companion.games.center_court.card") in edges
    assert ("companion.catalog", "companion.games.center_court.kit") in edges  # FOLDERS
    assert ("tests.web.test_server", "tests.web.conftest") in edges


def test_a_circle_is_found_and_named(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("from pkg.b import thing\n")
    (tmp_path / "pkg" / "b.py").write_text("def thing():\n    from . import c\n")
    (tmp_path / "pkg" / "c.py").write_text("import pkg.a\n")
    (tmp_path / "pkg" / "d.py").write_text("import pkg.a\n")
    modules = project_modules(tmp_path, ("pkg",))
    assert import_circles(import_edges(modules)) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]


def test_the_hall_uses_the_mqtt_toolkit_not_the_tables_publisher():
    """drivers/broker.py is what every MQTT client shares, and drivers/refusals.py the
    bookkeeping of what a broker refuses (the hall's offers too); drivers/mqtt.py
    publishes a table, and the hall board (which only reads tables) has no business
    with it."""
    edges = import_edges(project_modules())
    hall = {b for a, b in edges if a.startswith("hall")}
    assert "drivers.broker" in hall
    assert {b for b in hall if b.startswith("drivers")} == {"drivers.broker",
                                                          "drivers.refusals"}
    refusals = {b for a, b in edges if a == "drivers.refusals"}
    assert not {b for b in refusals if b.startswith("drivers")}


# --- one catalog ----------------------------------------------------------------


def test_generic_code_names_no_game():
    """A game is named by its folder and the catalog's FOLDERS only: the rest of the
    product reads games through the catalog. A game's id written anywhere else is a
    table keyed by game, which a fifth game would have to be added to."""
    ids = [re.escape(g) for g in CATALOG]
    named = re.compile(rf"(?<![\w-])({'|'.join(ids)})(?![\w-])")
    offenders = []
    for package in ("companion", "app", "web", "hall", "drivers"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if (CORE / "games") in path.parents or path == CORE / "catalog.py":
                continue
            tree = ast.parse(path.read_text(), filename=str(path))
            docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                          if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                                        | ast.AsyncFunctionDef)
                          and node.body and isinstance(node.body[0], ast.Expr)}
            offenders += [f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}"
                          for node in ast.walk(tree)
                          if isinstance(node, ast.Constant) and isinstance(node.value, str)
                          and id(node) not in docstrings and named.search(node.value)]
    assert ids and offenders == []


def test_shared_page_files_name_no_game():
    """The pages' shared scripts, styles and templates name no game either: a game's page
    files are its own (web/static/<game>.js, <game>-host.js, <game>.css,
    <game>-host.css), and what a shared page says of a game it reads from the catalog
    (a title, a kit's lineups)."""
    own = {f"{g}{end}" for g in CATALOG for end in (".js", "-host.js", ".css", "-host.css")}
    names = [re.escape(w) for g in CATALOG.games.values() for w in (g.id, g.title)]
    named = re.compile(rf"(?<![\w-])({'|'.join(names)})(?![\w-])", re.I)
    shared = [p for p in sorted((ROOT / "web" / "static").iterdir())
              if p.suffix in (".js", ".css") and p.name not in own]
    shared += sorted((ROOT / "web" / "templates").glob("*.html"))
    offenders = [f"{path.relative_to(ROOT)}:{number} {found.group(0)!r}"
                 for path in shared
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if (found := named.search(line))]
    assert len(shared) > 10 and offenders == []


def test_the_hall_takes_nothing_from_the_table_s_composition_root():
    """What the hall and a table share (the kept PINs and session key, web/pins.py) lives
    below both: no hall module imports app/runtime.py, and app/ reaches the hall only
    from its command line (``companion hall``). (The web server, app/server.py, and how
    a process waits for its stop, app/stopping.py, are what the hall still takes from
    app/: both serve ``companion run`` and ``companion hall`` alike.)"""
    edges = import_edges(project_modules())
    assert {(a, b) for a, b in edges if a.startswith("hall") and b.startswith("app")} <= {
        ("hall.run", "app.server"), ("hall.run", "app.stopping")}
    assert {a for a, b in edges if a.startswith("app") and b.startswith("hall")} == {"app.cli"}
    assert ("hall.run", "web.pins") in edges and ("app.runtime", "web.pins") in edges
