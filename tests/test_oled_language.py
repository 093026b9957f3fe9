"""The OLED's language: the config's ``[table] language`` until one is chosen on the
Language menu, which is kept in the data folder (app/oled_language.py)."""

from __future__ import annotations

import logging
import random

import pytest

from app.oled_language import FILE, keep_language, starting_language
from companion.config import parse
from companion.i18n import NAMES
from companion.inputs import Input
from companion.panel import Panel
from companion.store import Store
from companion.table import Table
from companion.ui.controls import Context
from companion.ui.oled import render
from tests.support import CATALOG

#: The stores the panels of a test stand on, closed after it.
STORES: list[Store] = []


@pytest.fixture(autouse=True)
def _closed_stores():
    yield
    while STORES:
        STORES.pop().close()


def panel_speaking(language: str, kept: list[str] | None = None) -> Panel:
    store = Store(":memory:")
    STORES.append(store)
    table = Table(store, CATALOG, rng=random.Random(0))
    return Panel(table, Context(CATALOG, language=language),
                 on_language=None if kept is None else kept.append)


def press(panel: Panel, *buttons: str) -> None:
    for b in buttons:
        panel.handle(Input(b))


def test_the_language_menu_lists_each_by_its_own_name_and_chooses():
    kept: list[str] = []
    panel = panel_speaking("en", kept)
    press(panel, "back", "prev")  # the menu, its last line
    assert panel.state.screen.items[panel.state.ui.cursor] == "Language"
    press(panel, "ok")
    assert panel.state.ui.screen == "language"
    assert panel.state.screen.items == tuple(NAMES.values())
    assert panel.state.ui.cursor == 0  # on the language spoken
    press(panel, "next", "ok")  # Deutsch
    assert kept == ["de"] and panel.state.language == "de"
    press(panel, "back")
    # The menu's words are German now, in the frame too (its soft keys).
    from companion.i18n import translate
    assert translate(panel.state.screen.title, panel.state.language) == "Menü"
    assert translate(panel.state.screen.label("back"), "de") == "Zurück"
    english = panel_speaking("en")
    press(english, "back")
    assert render(panel.state, panel.ctx) != render(english.state, english.ctx)


def test_the_language_menu_opens_on_the_language_spoken():
    panel = panel_speaking("es")
    press(panel, "back", "prev", "ok")
    assert panel.state.ui.cursor == 3


def test_one_refusal_is_said_in_each_reader_s_language():
    """The same refusal: on this OLED in Polish, to a phone in German (translated at
    each output, companion/i18n.py)."""
    from companion.i18n import translate
    panel = panel_speaking("pl")
    panel.handle(Input("back", hold=True))  # undo with no match
    said = panel.state.ui.message
    assert translate(said, "pl") == "żaden mecz nie trwa: najpierw zacznij mecz"
    assert translate(said, "de") == "es läuft kein Match: startet zuerst eins"


def test_the_config_chooses_first_a_broken_value_is_english_with_one_line(tmp_path, caplog):
    assert starting_language(tmp_path, "fr") == "fr"
    with caplog.at_level(logging.WARNING):
        assert starting_language(tmp_path, "français") == "en"
        assert starting_language(tmp_path, 42) == "en"
    assert [r.getMessage().startswith("[table] language = ") for r in caplog.records] == [
        True, True]


def test_a_choice_on_the_oled_is_kept_and_wins_over_the_config(tmp_path, caplog):
    keep_language(tmp_path, "pl")
    assert (tmp_path / FILE).read_text() == "pl\n"
    assert starting_language(tmp_path, "de") == "pl"
    (tmp_path / FILE).write_text("zz\n")
    with caplog.at_level(logging.WARNING):
        assert starting_language(tmp_path, "de") == "de"
    assert FILE in caplog.text


def test_a_choice_that_cannot_be_kept_is_logged_and_spoken(tmp_path, caplog):
    missing = tmp_path / "gone"
    with caplog.at_level(logging.ERROR):
        keep_language(missing, "es")
    assert "could not be kept" in caplog.text


@pytest.mark.parametrize("value", ["de", "xx", 5, ["de"]])
def test_the_config_never_refuses_a_language(value):
    config = parse({"table": {"language": value}}, _table_config())
    assert config.table.language == value


def _table_config():
    from app.config import Config
    return Config
