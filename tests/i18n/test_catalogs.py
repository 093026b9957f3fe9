"""Every shipped catalog is complete: each message marked in the code (extracted as
tools/catalogs extracts it) is translated in every language, with the same named
placeholders, every plural form, nothing fuzzy, nothing left over."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, PLACEHOLDER, SCRIPTS

ROOT = Path(__file__).resolve().parents[2]
OTHERS = [lang for lang in LANGUAGES if lang != "en"]


@pytest.fixture(scope="module")
def templates(tmp_path_factory) -> dict[str, object]:
    """The messages marked in the code now, per domain (tools/catalogs pot)."""
    out = tmp_path_factory.mktemp("pot")
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run([str(ROOT / "tools" / "catalogs"), "pot", str(out)], check=True,
                   cwd=ROOT, env={"PYBABEL": str(pybabel), "PATH": "/usr/bin:/bin"},
                   timeout=120)
    found = {}
    for domain in (DOMAIN, SCRIPTS):
        with (out / f"{domain}.pot").open("rb") as file:
            found[domain] = read_po(file)
    return found


def test_a_new_language_starts_with_every_message_to_translate(templates, tmp_path):
    """README "Languages", step 1: ``tools/catalogs new it`` (written elsewhere here)."""
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run([str(ROOT / "tools" / "catalogs"), "new", "it"], check=True, cwd=ROOT,
                   env={"PYBABEL": str(pybabel), "PATH": "/usr/bin:/bin",
                        "CATALOGS_OUT": str(tmp_path)}, timeout=120)
    for domain in (DOMAIN, SCRIPTS):
        with (tmp_path / "it" / "LC_MESSAGES" / f"{domain}.po").open("rb") as file:
            started = read_po(file, locale="it")
        assert {key(m) for m in started if m.id} == {key(m) for m in templates[domain] if m.id}
        # A plural's forms are a tuple of empty strings: none of them written yet.
        assert all(not any([m.string] if isinstance(m.string, str) else m.string)
                   for m in started if m.id)


def key(message) -> tuple:
    """A catalog entry's identity: its context and its id (both forms of a plural)."""
    return (message.context, message.id if isinstance(message.id, str) else tuple(message.id))


def catalog(lang: str, domain: str):
    with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as file:
        return read_po(file, locale=lang)


def test_every_language_has_both_catalogs_and_no_other_is_there():
    shipped = {p.name for p in LOCALE_DIR.iterdir() if p.is_dir()}
    assert shipped == set(OTHERS)


@pytest.mark.parametrize("domain", [DOMAIN, SCRIPTS])
@pytest.mark.parametrize("lang", OTHERS)
def test_each_catalog_holds_exactly_the_marked_messages(templates, lang, domain):
    marked = {key(m) for m in templates[domain] if m.id}
    held = {key(m) for m in catalog(lang, domain) if m.id}
    assert not marked - held, f"{lang} {domain}.po misses (run tools/catalogs): " \
                              f"{sorted(map(str, marked - held))}"
    assert not held - marked, f"{lang} {domain}.po holds what nothing marks: " \
                              f"{sorted(map(str, held - marked))}"


@pytest.mark.parametrize("domain", [DOMAIN, SCRIPTS])
@pytest.mark.parametrize("lang", OTHERS)
def test_each_message_is_translated_with_its_placeholders(lang, domain):
    cat = catalog(lang, domain)
    forms = cat.num_plurals
    for m in cat:
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        texts = [m.string] if isinstance(m.string, str) else list(m.string)
        assert not m.fuzzy, f"{lang}: {ids[0]!r} is fuzzy"
        if len(ids) > 1:
            assert len(texts) == forms, f"{lang}: {ids[0]!r} needs {forms} plural forms"
        for text in texts:
            assert text, f"{lang} {domain}.po: {ids[0]!r} is not translated"
            wanted = set(PLACEHOLDER.findall(ids[-1])) | set(PLACEHOLDER.findall(ids[0]))
            had = set(PLACEHOLDER.findall(text))
            # A plural form may leave out {n} ("one point": "ein Punkt"), never add one.
            assert had <= wanted and wanted - had <= {"n"}, \
                f"{lang}: {ids[0]!r} has placeholders {sorted(had)}, not {sorted(wanted)}"
            assert text.count("{") == text.count("}"), f"{lang}: {text!r}"


def test_the_scripts_messages_have_no_plurals():
    """A script's TC.t takes one form; a count is said by the page's Python side."""
    for lang in OTHERS:
        assert all(isinstance(m.id, str) for m in catalog(lang, SCRIPTS))
