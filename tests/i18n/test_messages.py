"""Marked messages (companion/i18n.py): English as made, said in a language at output."""

from __future__ import annotations

import logging
import pickle

import pytest

from companion.errors import IllegalAction
from companion.i18n import (
    LANGUAGES,
    N_,
    Text,
    _,
    chosen_language,
    language,
    message,
    speaking,
    spoken,
    translate,
)


def test_a_message_is_its_english_words_until_it_is_said():
    said = _("Undone: {what}", what="point to Łukasz")
    assert said == "Undone: point to Łukasz"
    assert isinstance(said, str) and said.msgid == "Undone: {what}"
    assert translate(said, "de") == "Rückgängig: point to Łukasz"
    assert translate(said, "pl") == "Cofnięto: point to Łukasz"
    assert translate(said, "en") == said


def test_a_placeholder_that_is_a_message_is_said_in_the_same_language():
    inner = _("History")
    outer = _("Undone: {what}", what=inner)
    assert translate(outer, "fr") == "Annulé : Historique"
    assert translate(outer, "es") == "Deshecho: Historial"


def test_anything_not_marked_is_left_as_it_is():
    assert translate("李小龙", "de") == "李小龙"
    assert translate(7, "de") == "7"


def test_a_language_not_shipped_says_english():
    assert translate(_("History"), "ja") == "History"


def test_a_count_takes_its_language_s_form():
    # English by the count; the others by their catalog's rule (Babel's CLDR data:
    # Polish has three, 1, 2-4 but not 12-14, and the rest).
    assert N_("{n} point", "{n} points", 1) == "1 point"
    assert N_("{n} point", "{n} points", 3) == "3 points"
    from companion.i18n import translations
    plural = translations("pl").plural
    assert [plural(n) for n in (1, 2, 5, 12, 22, 25)] == [0, 1, 2, 2, 1, 2]


def test_the_output_step_chooses_the_language_and_restores_it():
    assert spoken() == "en"
    with speaking("de"):
        assert translate(_("Menu")) == "Menü"
        with speaking("xx"):  # not shipped: English
            assert translate(_("Menu")) == "Menu"
        assert spoken() == "de"
    assert spoken() == "en"


def test_messages_survive_pickling_with_their_id():
    said = _("Players: {count}", count=3)
    again = pickle.loads(pickle.dumps(said))
    assert again == said and translate(again, "de") == "Spieler: 3"


@pytest.mark.parametrize(("value", "found"), [
    ("de", "de"), ("de_DE", "de"), ("de-AT", "de"), ("DE", "de"), ("pl-PL", "pl"),
    ("ja", None), ("", None), ("xx-??", None), (5, None), (None, None), ("d" * 100, None),
    ("../../etc", None),
])
def test_a_language_is_named_by_its_code(value, found):
    assert language(value) == found


def test_a_setting_naming_no_language_says_so_once_and_english_is_spoken(caplog):
    with caplog.at_level(logging.WARNING):
        assert chosen_language("klingon", "[table] language") == "en"
    (record,) = caplog.records
    assert "[table] language" in record.getMessage()
    assert "klingon" in record.getMessage()
    assert chosen_language("fr_CA", "[table] language") == "fr"
    assert chosen_language(None, "[table] language") is None


def test_a_refusal_keeps_its_message_to_be_said_where_it_is_shown():
    err = IllegalAction(_("no match is running: start one first"))
    assert str(err) == "no match is running: start one first"
    assert translate(message(err), "es") == "no hay ningún partido en juego: empieza uno primero"
    assert message(ValueError("plain")) == "plain"


def test_every_shipped_language_is_listed_with_its_own_name():
    from companion.i18n import NAMES
    assert LANGUAGES[0] == "en" and set(NAMES) == set(LANGUAGES)
    assert isinstance(_("x"), Text)
