"""AlakaSLAM's start menu in every language fits the OLED at 128x64 (issue #40): each
option row ("Serves: Side 1", "Target: 9 points") with its label and every choice,
German first. The game's board, soft keys and titles (oled.py, panel.py) are not
marked yet (their files say so)."""

from __future__ import annotations

import pytest

from companion.games.alakaslam.options import OPTIONS
from companion.i18n import LANGUAGES, Text, _, speaking, translate
from companion.ui import canvas

W = canvas.WIDTH
#: German first: its words are the longest.
ORDER = ["de", *(lang for lang in LANGUAGES if lang != "de")]
ROWS = [_("{option}: {choice}", option=spec.label, choice=label)
        for spec in OPTIONS for _value, label in spec.choices]


def width(text: object, font: str, lang: str) -> int:
    with speaking(lang):
        return canvas.text_width(translate(text), font)


def test_every_label_and_choice_is_marked():
    words = [w for spec in OPTIONS for w in (spec.label, *(c for _v, c in spec.choices))]
    assert all(isinstance(w, Text) for w in words), words


@pytest.mark.parametrize("lang", ORDER)
def test_the_start_menu_s_rows_fit_the_list(lang):
    """Each row whole within the list (the width less the cursor's margin), as in English."""
    for row in ROWS:
        said = translate(row, lang)
        assert width(row, canvas.BODY, lang) <= max(W - 8, width(row, canvas.BODY, "en")), said
        if lang != "en":
            assert said != str(row), ("still English", lang, said)
