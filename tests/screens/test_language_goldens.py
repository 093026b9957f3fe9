"""Golden OLED images of the panel's own screens in each shipped language other than
English (whose goldens are tests/screens/test_golden.py's): the menu, the question
before a new match ends the unfinished one, a refusal's box and the welcome. The same
presses as the English scenes; only the context's language differs."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.i18n import LANGUAGES
from companion.login_code import LoginCodes
from companion.panel import Panel
from companion.store import Store
from companion.table import Table
from companion.ui.oled import render
from tests.screens.test_golden import CTX, SCENES, assert_golden
from tests.support import CATALOG

#: The scenes drawn in every language.
LANGUAGE_SCENES = ("welcome", "menu", "confirm-new", "refused", "setup", "notice-undone",
                   "info-mqtt-refused")


@pytest.mark.parametrize("scene", LANGUAGE_SCENES)
@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_panel_s_screens_in_each_language(lang, scene):
    assert_scene_in(lang, scene)


def assert_scene_in(lang: str, scene: str, golden: str | None = None) -> None:
    """Scene ``scene`` (tests/screens SCENES) on a panel speaking ``lang`` matches its
    golden, ``lang-<lang>-<golden or scene>``: every language test's one drawing."""
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(0))
        panel = Panel(table, replace(CTX, language=lang),
                      codes=LoginCodes(draw=lambda: "K7QM3XPA"))
        SCENES[scene](table, panel)
        assert panel.state.language == lang
        assert_golden(render(panel.state, panel.ctx), f"lang-{lang}-{golden or scene}")
