"""Names: short forms (distinct, within the width, a name that fits kept whole), what a
name may be, and when two names are one player."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import InvalidAction
from companion.names import MIN_WIDTH, clean_name, fold, name_key, name_problem, short_names

# Names as the config and the host page allow them: 1-16 characters, letters,
# digits, spaces and a little punctuation, often sharing a long beginning.
LETTERS = st.sampled_from("AaBbEeNnRrXx 12.-")
NAME = st.text(LETTERS, min_size=1, max_size=16).filter(str.strip)
NAMES = st.lists(NAME, min_size=1, max_size=12)
WIDTH = st.integers(min_value=MIN_WIDTH, max_value=16)


@given(NAMES, WIDTH)
def test_short_forms_are_distinct_and_fit(names, width):
    forms = short_names(names, width)
    assert len(forms) == len(names)
    assert all(len(f) <= width for f in forms)
    by_name = dict(zip(names, forms, strict=True))
    assert len(set(by_name.values())) == len(by_name)  # distinct names, distinct forms
    assert all(by_name[n] == f for n, f in zip(names, forms, strict=True))  # equal, equal
    assert all(f == n for n, f in by_name.items() if len(n) <= width)


@given(st.lists(NAME, min_size=2, max_size=4, unique=True), WIDTH)
def test_a_common_beginning_does_not_make_names_alike(tails, width):
    names = ["Alexandr" + t for t in tails]
    forms = short_names(names, width)
    assert len(set(forms)) == len(forms)


@pytest.mark.parametrize(("names", "width", "forms"), [
    (["Player 1", "Player 2"], 7, ["Player1", "Player2"]),
    (["Player 1", "Player 2"], 6, ["Play.1", "Play.2"]),
    (["Player 1", "Player 2"], 5, ["Pla.1", "Pla.2"]),
    (["Alexandra", "Alexander"], 7, ["Alexa.a", "Alexa.r"]),
    (["Alexandra", "Bob"], 7, ["Alexan.", "Bob"]),
    (["Team Red", "Team Blue"], 7, ["Team R.", "Team B."]),
    (["Alexandra-Jones", "Alexandre-Jones"], 6, ["Alex.1", "Alex.2"]),
])
def test_examples(names, width, forms):
    assert short_names(names, width) == forms


def test_too_narrow_is_refused():
    with pytest.raises(ValueError, match="at least 3"):
        short_names(["Ann"], 2)


# --- what a name may be, and when two names are one player --------------------------------



@pytest.mark.parametrize(("one", "other"), [
    ("Zoë", "Zoe\u0308"),  # composed, and e with a combining diaeresis
    ("ÖZIL", "özil"),
    ("  Ann  ", "ANN"),
    ("Straße", "STRASSE"),
    ("Σοφία", "ΣΟΦΊΑ"),
])
def test_names_are_one_player_as_unicode_text_matches(one, other):
    assert name_key(one) == name_key(other)
    assert fold(other) in fold(f"{one} v Bob")


def test_a_name_is_kept_composed():
    assert clean_name("Zoe\u0308  Smith") == "Zoë Smith"
    assert len(clean_name("e\u0301" * 16)) == 16  # 16 letters, though 32 code points typed


@pytest.mark.parametrize("name", ["😀", "🎾 🎾", "★", "..."])
def test_a_name_without_a_letter_or_digit_is_refused_with_a_reason(name):
    assert "letter or a digit" in name_problem(name)
    with pytest.raises(InvalidAction, match="screen cannot draw"):
        clean_name(name)


@pytest.mark.parametrize("name", ["Łukasz", "Dvořák", "Işık", "Σοφία", "Ольга", "李小龙",
                                  "דוד", "محمد علي", "Ann 🎾", "R2-D2", "7"])
def test_a_name_in_any_script_is_a_name(name):
    assert name_problem(name) is None


def test_every_letter_and_digit_a_name_may_hold_has_a_glyph_on_the_oled():
    """The input rule (a letter or digit up to DRAWN_UP_TO) and the OLED's fonts agree:
    every such character is drawn in every text style, none as the replacement mark."""
    import unicodedata

    from companion.names import DRAWN_UP_TO
    from companion.ui import text

    missing = {style: [c for c in map(chr, range(DRAWN_UP_TO + 1))
                       if unicodedata.category(c)[0] in "LN" and not text.has_glyph(c, style)]
               for style in text.STYLES}
    assert not any(missing.values()), {s: "".join(m[:20]) for s, m in missing.items()}


def test_latin_extended_a_is_in_every_text_style():
    """Translations (Polish, German, French, Spanish...) need every size the OLED draws
    to hold Latin-1 and Latin Extended-A in its misc-fixed font (not a fallback)."""
    from companion.ui import text

    wanted = [chr(c) for c in range(0xA0, 0x180)]
    for style, fonts in text.STYLES.items():
        first = text.font(fonts[0])
        assert all(ord(c) in first.characters for c in wanted), style
