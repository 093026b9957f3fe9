"""Golden OLED images of Center Court's screens in each shipped language other than
English (whose goldens are tests/screens/test_golden.py's), German first: the board's
calls and status lines, the result, and the serve, roll and return rows with their soft
keys and hints. The same presses as the English scenes; only the language differs."""

from __future__ import annotations

import pytest

from companion.i18n import LANGUAGES
from tests.screens.test_language_goldens import assert_scene_in

#: Each scene of tests/screens/test_golden.py that draws Center Court's own words.
CC_SCENES = ("board-new", "board-fault", "board-double-fault", "board-served", "board-in-play",
             "board-advantage", "board-deuce", "board-tiebreak", "board-over",
             "board-over-five-sets", "board-over-match-tiebreak", "serve", "serve-five",
             "roll", "return", "setup-start")
ORDER = ["de", *(lang for lang in LANGUAGES if lang not in ("de", "en"))]


@pytest.mark.parametrize("scene", CC_SCENES)
@pytest.mark.parametrize("lang", ORDER)
def test_center_court_s_screens_in_each_language(lang, scene):
    assert_scene_in(lang, scene, f"cc-{scene}")
