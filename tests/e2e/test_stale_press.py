"""A press made before a phone's change, handled after it, is not acted on (the whole app)."""

from __future__ import annotations

import threading

from app.config import Config
from app.runtime import Companion
from companion.controls import CHANGED
from companion.inputs import Input

WD_START = {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
            "options": {"rosters": [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]}}


def test_a_press_queued_behind_a_phone_change_only_brings_up_the_notice(tmp_path):
    with Companion(Config(), sim=True, data=tmp_path) as c:
        c.runner.call(lambda table: table.start(WD_START))
        # Hold the writer so the phone's change and the press queue up behind it,
        # as when the phone's request arrives a moment before the press.
        release = threading.Event()
        c.runner.submit(lambda _: release.wait(10))
        phone = c.runner.submit(lambda table: table.act({"type": "end_activation"}))
        c.input(Input("next"))  # "End" for #1, as the OLED still shows
        release.set()
        phone.result(10)
        state = c.runner.call(lambda _: c.panel.state)
        assert list(c.table.match.events) == [{"type": "end_activation"}]
        assert state.ui.message == CHANGED
        assert state.snapshot.match["view"]["active"]["jersey"] == 6
