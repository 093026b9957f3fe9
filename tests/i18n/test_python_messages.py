"""Every message the Python code says is one the catalogs hold: Babel's Python extractor
(tools/catalogs) misses a ``_("...")`` written inside another marked call's arguments
(``_("play {counts}", counts=either([_("{n} (no E)")]))``: the inner message is never
extracted, so never translated, and every language shows it in English). The catalogs
are held to exactly what the extractor finds (test_catalogs.py); this reads the code
itself and finds what it misses, the way test_script_messages.py does for the scripts."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.i18n import DOMAIN, LOCALE_DIR
from tests.i18n.test_marked import NOT_YET

ROOT = Path(__file__).resolve().parents[2]
#: The marking functions and where their message (and context) stand in the arguments.
MARKS = {"_": None, "N_": None, "C_": 0}


def said(source: str) -> list[tuple[int, str | None, str]]:
    """Each message ``source`` marks with a literal: (line, context, message)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in MARKS and node.args):
            continue
        context = None
        args = node.args
        if MARKS[node.func.id] == 0:
            if not (isinstance(args[0], ast.Constant) and isinstance(args[0].value, str)):
                continue
            context, args = args[0].value, args[1:]
        if args and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
            found.append((node.lineno, context, args[0].value))
    return found


@pytest.fixture(scope="module")
def held() -> set[tuple[str | None, str]]:
    with (LOCALE_DIR / "de" / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as file:
        return {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id)
                for m in read_po(file) if m.id}


PYTHON_FILES = sorted(p for folder in ("companion", "app", "hall", "web", "drivers")
                      for p in (ROOT / folder).rglob("*.py")
                      if NOT_YET not in p.read_text())


@pytest.mark.parametrize("path", PYTHON_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_message_the_code_says_is_in_the_catalog(path, held):
    missed = [f"{path.relative_to(ROOT)}:{line}: {message!r}"
              + (f" (context {context!r})" if context else "")
              for line, context, message in said(path.read_text())
              if (context, message) not in held]
    assert not missed, ("not extracted (a marked call inside another's arguments: give "
                        "it a name of its own first):\n" + "\n".join(missed))


def test_the_search_finds_a_message_inside_another_s_arguments():
    source = ('x = _("play {counts}", counts=either([_("{n} (no E)", n=1)]))\n'
              'y = C_("key", "Serve")\nz = N_("{n} card", "{n} cards", 2)\n')
    assert sorted(said(source)) == [(1, None, "play {counts}"), (1, None, "{n} (no E)"),
                                    (2, "key", "Serve"), (3, None, "{n} card")]


def test_a_nested_message_the_extractor_missed_is_named(held):
    source = '_("Undone: {what}", what=_("a move nobody extracted"))\n'
    assert [message for _line, context, message in said(source)
            if (context, message) not in held] == ["a move nobody extracted"]
