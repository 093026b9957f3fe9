"""Every message a page script says is one the catalogs hold: Babel's JavaScript
extractor (tools/catalogs) reads no ``TC.t("...")`` inside another call's arguments
(``TC.t("{a}", {a: TC.t("b")})``: "b" is never extracted, so never translated), nor
one whose message is a template literal. The catalogs are held to exactly what the
extractor finds (test_catalogs.py); this finds what it misses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.i18n import LOCALE_DIR, SCRIPTS
from tests.i18n.test_marked import NOT_YET

ROOT = Path(__file__).resolve().parents[2]
#: A call that says a message: TC.t( and what starts its first argument.
CALL = re.compile(r"TC\.t\(\s*(\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`)")
#: Messages other areas' scripts say inside another call's arguments, not extracted
#: when this test was written (issue #40; their areas' helpers hoist them, then
#: their lines go from here).
KNOWN: set[tuple[str, str]] = set()


def said(path: Path) -> list[tuple[int, str]]:
    """Each message ``path`` says with TC.t, with its line (a template literal: "`")."""
    text = path.read_text()
    # Comments go, each replaced by as many line ends as it held.
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"(?m)^\s*//.*$|\s//\s.*$", "", text)
    return [(text.count("\n", 0, m.start()) + 1,
             m.group(1) if m.group(1) == "`" else m.group(1)[1:-1].replace('\\"', '"')
             .replace("\\'", "'")) for m in CALL.finditer(text)]


@pytest.fixture(scope="module")
def held() -> set[str]:
    with (LOCALE_DIR / "de" / "LC_MESSAGES" / f"{SCRIPTS}.po").open("rb") as file:
        return {m.id for m in read_po(file) if isinstance(m.id, str) and m.id}


SCRIPT_FILES = sorted(p for p in (ROOT / "web" / "static").glob("*.js")
                      if NOT_YET not in p.read_text())


@pytest.mark.parametrize("path", SCRIPT_FILES, ids=lambda p: p.name)
def test_every_message_a_script_says_is_in_the_catalog(path, held):
    missed = [f"{path.name}:{line}: {message!r}" for line, message in said(path)
              if message not in held and (path.name, message) not in KNOWN]
    assert not missed, ("not extracted (a TC.t inside another call's arguments: give it "
                        "a name of its own first; or a template literal):\n"
                        + "\n".join(missed))


def test_the_search_finds_a_message_hidden_in_another_s_arguments(tmp_path):
    script = tmp_path / "x.js"
    script.write_text('/* TC.t("in a comment") */\nconst a = TC.t("{who} {cell}", '
                      '{who: TC.t("receiver")});\nTC.t(`Hi ${a}`);  // TC.t("no")\n')
    assert said(script) == [(2, "{who} {cell}"), (2, "receiver"), (3, "`")]
