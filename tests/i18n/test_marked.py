"""A person's words are marked for translation (issue #40): a string that reads as
words (a capital and a space, or a sentence's end) and is not inside
``_()``/``C_()``/``N_()`` (Python, templates) or ``TC.t()`` (scripts) fails, unless it
is in :data:`ALLOWED` with why, or its line says ``i18n: not said`` (a log line built
apart from its call, SQL, a programmer's error). Logs, the API's field names,
identifiers, CSS and addresses are not words to translate and do not read as such here.

Every module of the product is checked: companion/, app/, hall/ and web/'s Python,
every page template and every page script. A file whose own words are not marked yet
says so on a line of its own, :data:`NOT_YET`; the list of those files is printed by
``test_what_is_not_marked_yet`` so what is left is never hidden.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The line a file not converted yet carries (in its own comment syntax).
NOT_YET = "i18n: words not marked yet (issue #40)"
#: The line a string that reads as words but is not said to a person carries.
NOT_SAID = "i18n: not said"


def checked(paths: list[Path]) -> list[str]:
    """The files of ``paths`` that say their words are marked (no :data:`NOT_YET`)."""
    return [str(p.relative_to(ROOT)) for p in sorted(paths) if NOT_YET not in p.read_text()]


PYTHON = checked([p for folder in ("companion", "app", "hall", "web")
                  for p in (ROOT / folder).rglob("*.py")])
TEMPLATES = [Path(p).name for p in checked(list((ROOT / "web" / "templates").glob("*.html")))]
SCRIPTS = [Path(p).name for p in checked(list((ROOT / "web" / "static").glob("*.js")))]


def test_what_is_not_marked_yet():
    """Prints what is left (``pytest -s``); fails only if a marker names no real file."""
    left = [str(p.relative_to(ROOT)) for folder in ("companion", "app", "hall", "web")
            for p in sorted((ROOT / folder).rglob("*")) if p.suffix in (".py", ".html", ".js")
            and NOT_YET in p.read_text()]
    print("not marked yet:", *left, sep="\n  ")
    assert PYTHON and TEMPLATES and SCRIPTS


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
#: Calls whose strings are for the log, a database or a programmer, not a person.
QUIET_CALLS = {"debug", "info", "warning", "error", "exception", "critical", "ValueError",
            "TypeError", "AssertionError", "KeyError", "RuntimeError", "getLogger",
               "execute", "executemany", "executescript"}


def python_words(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(
                node.func, "id", "")
            if name in MARKERS | QUIET_CALLS:
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
    lines = path.read_text().splitlines()

    def said_not(node: ast.expr) -> bool:
        """Whether a line the string spans says it is not said."""
        end = node.end_lineno or node.lineno
        return any(NOT_SAID in lines[i - 1] for i in range(node.lineno, end + 1))

    for node in ast.walk(tree):
        # An f-string's parts carry their own lines from Python 3.12 on (one line each
        # before): the comment on any line of the whole f-string covers them all.
        if isinstance(node, ast.JoinedStr) and said_not(node):
            skipped |= {id(n) for n in ast.walk(node)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in skipped and WORDS.search(node.value) \
                and not said_not(node) and node.value not in ALLOWED:
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
    text = "\n".join(line if NOT_SAID not in line else ""
                     for line in path.read_text().split("\n"))
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
