"""Every game in the catalog, the test-only one included, played to the end on a table
(tests/conformance.py says what is checked at every change); and two broken versions of
a game (tests/broken/) that it must refuse.

A game is covered by its catalog line alone: the games come from the catalog, nothing
here names one. Cost of one match, measured on this 2-core machine while other test
runs shared it (``TMPDIR=/dev/shm``, one process): First to N and AlakaSLAM about
0.1 s, Alakazoo (50 to 200 changes) 1 to 7 s, Wizard Dodgeball (about 60 changes and 170
refusals) 2 to 7 s, Center Court (200 to 900 changes) 10 to 40 s. So Center Court
plays one random match a run, Wizard Dodgeball 3, the others 5. Measured with
``./test tests/test_conformance.py -n 2 --durations=10`` on the machine shared with
seven other test runs (load average about 25 on 2 cores), with the panel's turns and
an export at every deep check: Alakazoo 76 s, Center Court 60 s, Wizard Dodgeball
57 s, AlakaSLAM 13 s, First to N 6 s (each game is its own test, marked slow so that
it starts first).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.catalog import load
from tests.conformance import Unconforming, conform
from tests.support import with_first_to

GAMES = with_first_to()
#: Random matches per game: few of the long ones (see the module's docstring).
EXAMPLES = {"center-court": 1, "wizard-dodgeball": 3}


@pytest.mark.slow
@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_plays_to_the_end_on_every_output(game_id, tmp_path_factory):
    @settings(max_examples=EXAMPLES.get(game_id, 5), deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    # A seed, not st.randoms(): a match draws thousands of choices, which hypothesis's own
    # random would spend its whole input on (and shrink for minutes).
    @given(seed=st.integers(0, 2**32 - 1))
    def play(seed: int) -> None:
        played = conform(GAMES, game_id, random.Random(seed), tmp_path_factory.mktemp(game_id))
        assert played.changes > 0

    play()


@pytest.mark.parametrize("package, symptom", [
    # The winning point cannot be recorded: the host's tap fails (500), not refused.
    ("tests.broken.summary_raises", "answered 500"),
    # The second point is logged as it cannot be resolved again: a restart calls it damage.
    ("tests.broken.resolve_grows", "does not replay through the rules"),
])
def test_a_broken_game_is_caught(package, symptom, tmp_path):
    """Each broken version passes a check one action deep (its start and first point are
    sound) and fails the suite, the way a table would find it."""
    kit = load(package)
    games = GAMES.plus(kit)
    with pytest.raises(Unconforming, match=symptom) as caught:
        for seed in range(5):
            conform(games, kit.id, random.Random(seed), tmp_path / str(seed))
    assert str(caught.value).startswith(f"{kit.id}, change ")


def test_the_sound_game_they_are_broken_from_conforms(tmp_path):
    """The broken versions' own game passes the same runs (so what fails them is their
    fault, not the suite's)."""
    for seed in range(5):
        conform(GAMES, "first-to", random.Random(seed), tmp_path / str(seed))
