"""A person's words in the converted modules are marked for translation (issue #40):
a string that reads as words (a capital and a space, or a sentence's end) and is not
inside ``_()``/``C_()``/``N_()`` (Python, templates) or ``TC.t()`` (scripts) fails,
unless it is in :data:`ALLOWED` with why. Logs, the API's field names, identifiers,
CSS and addresses are not words to translate and do not read as such here.

Not converted yet, so not checked: companion/games/* (the rules engines' refusals and
the games' own screens), the game scripts in web/static (<game>.js, <game>-host.js),
the simulator page (sim.html, sim.js) and the command line (app/cli.py)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHON = ["companion/ui/base.py", "companion/ui/controls.py", "companion/ui/menus.py",
          "companion/panel.py"]
TEMPLATES = ["base.html", "host.html", "spectator.html", "history.html", "players.html",
             "player.html", "hall.html", "night_base.html", "night_tv.html",
             "night_next.html", "_language.html", "night_director.html", "night_print.html"]
SCRIPTS = ["common.js", "spectator.js", "host.js", "history.js", "players.js", "hall.js",
           "night.js", "night-next.js", "night-tv.js", "night-director.js"]
#: Strings that read as words but are not said to a person in a language (with why).
ALLOWED = {
    "Table", "Companion",  # the product's name on the welcome screen
    "Player 1", "Player 2", "Player 3", "Player 4",  # default seat names: data, kept
    "Table Companion", "· Table Companion",  # the product's name in the page title
    "score card",  # a CSS class (TC.cardTable's)
    "use strict",
}
#: Reads as words: a capital letter followed by a lower-case one, or a space between
#: two words, or a sentence's end.
WORDS = re.compile(r"[A-Z][a-z]|[A-Za-z]{2,} [A-Za-z]{2,}|[a-z][.?!]$")
MARKERS = {"_", "C_", "N_"}
#: Calls whose strings are for the log or a programmer, not a person.
NOT_SAID = {"debug", "info", "warning", "error", "exception", "critical", "ValueError",
            "TypeError", "AssertionError", "KeyError", "RuntimeError", "getLogger"}


def python_words(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(
                node.func, "id", "")
            if name in MARKERS | NOT_SAID:
                skipped |= {id(n) for n in ast.walk(node)}
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Module)) and node.body \
                and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant):
            skipped.add(id(node.body[0].value))  # a docstring
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skipped.add(id(node.value))  # a string on its own: a comment
        elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            skipped |= {id(n) for n in ast.walk(node)}  # the names a module exports
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in skipped and WORDS.search(node.value) \
                and node.value not in ALLOWED:
            found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    return found


@pytest.mark.parametrize("name", PYTHON)
def test_python_words_are_marked(name):
    assert python_words(ROOT / name) == []


def template_words(path: Path) -> list[str]:
    text = re.sub(r"{#.*?#}|{{.*?}}|{%.*?%}|<!--.*?-->|<script.*?</script>|<style.*?</style>",
                  " ", path.read_text(), flags=re.S)
    found = []
    for m in re.finditer(r">([^<]+)<", text):
        words = " ".join(m.group(1).split())
        if re.search(r"[A-Za-z]{2,}", words) and words not in ALLOWED \
                and not re.fullmatch(r'[\w-]+="[^"]*"', words):  # a block's attribute
            found.append(f"{path.name}: text {words!r}")
    for m in re.finditer(r'(?:aria-label|placeholder|title|alt)="([^"]*)"', text):
        if re.search(r"[A-Za-z]{2,}", m.group(1)):
            found.append(f"{path.name}: attribute {m.group(0)!r}")
    return found


@pytest.mark.parametrize("name", TEMPLATES)
def test_template_words_are_marked(name):
    assert template_words(ROOT / "web" / "templates" / name) == []


#: A string literal of a script: "...", '...' or `...` (no nesting of templates).
LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`')


def script_words(path: Path) -> list[str]:
    text = path.read_text()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"(?m)^\s*//.*$|\s//\s.*$", " ", text)
    text = re.sub(r"/(?![*/])(?:[^/\\\n]|\\.)+/[gimsuy]*(?=[.,;)\s])", '""', text)  # regexes
    found = []
    for m in LITERAL.finditer(text):
        literal = m.group(0)
        body = re.sub(r"\$\{[^}]*\}", " ", literal[1:-1])
        before = text[max(0, m.start() - 5):m.start()]
        if before.endswith("TC.t(") or not WORDS.search(body) or body.strip() in ALLOWED:
            continue
        if re.fullmatch(r"[a-z][a-z0-9 -]*", body.strip()) \
                and "class:" in text[max(0, m.start() - 80):m.start()]:
            continue  # a class list
        if re.fullmatch(r"[\w\s#.:\[\]=>*,()\-\"'/?&%@!+]*", body) and (
                re.search(r"[#.\[]\w|\w\[|^\s*\w+[-\w]*\s*$|[=/]", body)):
            continue  # a selector, a class list, an id, an address
        found.append(f"{path.name}:{text.count(chr(10), 0, m.start()) + 1}: {literal[:60]}")
    return found


@pytest.mark.parametrize("name", SCRIPTS)
def test_script_words_are_marked(name):
    assert script_words(ROOT / "web" / "static" / name) == []
