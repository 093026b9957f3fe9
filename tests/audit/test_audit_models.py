"""A few random games per game against the API, each compared with a model
written from the rulebooks, RULINGS.md and the docs alone (the rules audit of
issue 36). The models and drivers run longer from the command line:

    .venv/bin/python tests/audit/cc_random.py 200 11
    .venv/bin/python tests/audit/wd_fuzz.py 200 31
    .venv/bin/python tests/audit/sl_random.py 300 3
    .venv/bin/python tests/audit/zoo_random.py 200 2 bound
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import cc_random
import legal_fuzz
import sl_random
import wd_fuzz
import zoo_random


def test_center_court_agrees_with_the_model():
    cc_random.problems.clear()
    assert cc_random.main(3, 11) == []


def test_dodgeball_takes_what_legal_offers_and_nothing_else():
    legal_fuzz.problems.clear()
    problems = legal_fuzz.run(
        "wizard-dodgeball",
        wd_fuzz.start,
        wd_fuzz.gen,
        4,
        31,
        on_view=wd_fuzz.on_view,
        on_accept=wd_fuzz.on_accept,
    )
    assert problems == []


def test_alakaslam_agrees_with_the_model():
    sl_random.problems.clear()
    assert sl_random.main(20, 3) == []


def test_alakazoo_agrees_with_the_model():
    zoo_random.problems.clear()
    # main has the third round's Magic Power bound (RULINGS), so the model keeps it too.
    assert zoo_random.main(4, 2, True) == []
