"""The tree type-checks: mypy, configured in pyproject.toml ([tool.mypy]).

companion/ (the core) passes with every function typed; the whole tree passes
with each function body checked. The exceptions (libraries that ship no types)
are listed there with their reasons.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow  # a first run (no cache: CI, a fresh venv) reads every module
def test_mypy_finds_no_error():
    # The cache lives in the venv that runs the suite (./test's .venv, or
    # .venv-3.13): a second run reads only what changed (about 1 s, not 30).
    cache = Path(sys.prefix) / "mypy_cache"
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(cache), "--no-error-summary",
         "--config-file", str(ROOT / "pyproject.toml")],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
