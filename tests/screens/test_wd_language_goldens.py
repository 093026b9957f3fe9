"""Golden OLED images of Wizard Dodgeball's screens in each shipped language other than
English (whose goldens are tests/screens/test_golden.py's): the boards, every action
menu, the cards, the setup's roster rows and the jersey editor. The same presses as the
English scenes; only the context's language differs (German's long words first)."""

from __future__ import annotations

import pytest

from tests.screens.test_golden import SCENES
from tests.screens.test_language_goldens import assert_scene_in

#: Every Wizard Dodgeball scene of the English goldens.
WD_SCENES = [s for s in SCENES if "wd" in s.split("-")]
LANGS = ["de", "fr", "es", "pl"]


def test_the_game_s_scenes_are_all_here():
    assert len(WD_SCENES) >= 30 and "board-wd-play" in WD_SCENES and "setup-wd" in WD_SCENES


@pytest.mark.parametrize("scene", WD_SCENES)
@pytest.mark.parametrize("lang", LANGS)
def test_wizard_dodgeball_s_screens_in_each_language(lang, scene):
    assert_scene_in(lang, scene)
