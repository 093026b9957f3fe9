"""Golden OLED images of Wizard Dodgeball's screens in each shipped language other than
English (whose goldens are tests/screens/test_golden.py's): the boards, every action
menu, the cards, the setup's roster rows and the jersey editor. The same presses as the
English scenes; only the context's language differs (German's long words first)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.login_code import LoginCodes
from companion.panel import Panel
from companion.store import Store
from companion.table import Table
from companion.ui.oled import render
from tests.screens.test_golden import CTX, SCENES, assert_golden
from tests.support import CATALOG

#: Every Wizard Dodgeball scene of the English goldens.
WD_SCENES = [s for s in SCENES if "wd" in s.split("-")]
LANGS = ["de", "fr", "es", "pl"]


def test_the_game_s_scenes_are_all_here():
    assert len(WD_SCENES) >= 30 and "board-wd-play" in WD_SCENES and "setup-wd" in WD_SCENES


@pytest.mark.parametrize("scene", WD_SCENES)
@pytest.mark.parametrize("lang", LANGS)
def test_wizard_dodgeball_s_screens_in_each_language(lang, scene):
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(0))
        panel = Panel(table, replace(CTX, language=lang),
                      codes=LoginCodes(draw=lambda: "K7QM3XPA"))
        SCENES[scene](table, panel)
        assert panel.state.language == lang
        assert_golden(render(panel.state, panel.ctx), f"lang-{lang}-{scene}")
