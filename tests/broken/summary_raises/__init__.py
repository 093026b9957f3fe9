"""First to N whose ``summary()`` raises once the match is won (tests/broken/)."""

from __future__ import annotations

from dataclasses import replace

from tests import first_to


def summary(state: first_to.State) -> str:
    if first_to.winner(state) is not None:
        raise KeyError("winner")  # the author's slip: a key the won view lacks
    return first_to.GAME.summary(state)


GAME = replace(first_to.GAME, id="broken-summary", title="Broken summary", summary=summary)
