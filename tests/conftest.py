"""Shared fixtures. Every test gets fresh state: a new store in tmp_path."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, settings

from companion.catalog import Catalog
from companion.kit import Kit
from companion.store import Store
from companion.table import Table
from tests import first_to
from tests.support import CATALOG, with_first_to

# CI runs derandomized so a red build can be reproduced; locally hypothesis
# explores new examples on every run.
settings.register_profile(
    "ci", derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# The command line speaks the terminal's language (app/terminal.py): the suite's
# commands, and the browsers it starts, speak English whatever the machine's locale is
# (tests that choose a language set these themselves).
os.environ["LANGUAGE"] = "en"


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (pyproject's addopts): two workers per core this process may use.

    A test's time is partly computing and partly waiting (on chromium's pages, on a
    companion or a broker in a subprocess, on a server thread's answer); a second
    worker per core computes while the first waits. Measured in full runs on 2
    cores (3.13): 3 workers 242 s, 4 workers 220 s, 6 workers 220 s, the cores
    95% busy from 4 on. PYTEST_XDIST_AUTO_NUM_WORKERS still sets the number
    outright (pytest-xdist's own hook reads it).
    """
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return 2 * (cores or 1)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` first, the rest in their order.

    pytest-xdist's work-stealing scheduling (``--dist worksteal`` in pyproject's
    addopts) hands each worker an equal block of the list at the start, so the
    slow tests (mostly pure Python: properties, the crash test) start on the
    first worker at once, and a worker that runs out of tests takes half of what
    another has not started yet: the run ends on short tests, every worker busy
    to within a few seconds of the end. Measured in full runs on 2 cores: the
    workers ended 199, 199, 224 and 246 s in with load scheduling (which only
    hands out what no worker holds yet, so the last 45 s ran on one or two), and
    between 230 and 235 s with work stealing.
    """
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def own_data_folder(tmp_path_factory, monkeypatch):
    """Every test's default data folder is its own (``$COMPANION_DATA``): a hall or a
    companion started without ``--data``, here or in a subprocess that inherits the
    environment, never writes the user's folder, shared by every worker and run."""
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path_factory.mktemp("data")))


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "companion.db") as s:
        yield s


@pytest.fixture
def memory_store():
    """A store in memory (no disk sync per change), closed after the test."""
    with Store(":memory:") as s:
        yield s


@pytest.fixture
def table(store, catalog):
    return Table(store, catalog, rng=random.Random(1234))


@pytest.fixture
def catalog(request) -> Catalog:
    """The games the test's tables play: those companion/catalog.py's FOLDERS lists, and
    the test-only game too when the test asks for it (``first_to_game``)."""
    return with_first_to() if "first_to_game" in request.fixturenames else CATALOG


@pytest.fixture
def first_to_game(catalog) -> Kit:
    """The test-only game (tests/first_to/, First to N), in this test's ``catalog`` (and
    in no other test's: a catalog is a value, given to the table)."""
    return catalog.kits[first_to.GAME_ID]
