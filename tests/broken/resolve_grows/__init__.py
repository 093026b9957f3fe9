"""First to N whose ``resolve()`` adds a field from the second point on (tests/broken/):
the event it logs no longer resolves to itself."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.base import JSON
from tests import first_to


def resolve(state: first_to.State, action: Mapping[str, Any], rng: random.Random) -> JSON:
    event = first_to.resolve(state, action, rng)
    if sum(state.scores) >= 1:
        # The author's slip: a field the event gains, which resolve() itself refuses in
        # an action, so the logged event does not resolve to itself.
        event["lead"] = state.scores[0] - state.scores[1]
    return event


GAME = replace(first_to.GAME, id="broken-resolve", title="Broken resolve", resolve=resolve)
