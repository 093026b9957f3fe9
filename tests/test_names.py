"""Short forms of names: distinct, within the width, and a name that fits kept whole."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.names import MIN_WIDTH, short_names

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
