"""The tree is ruff clean (the same check a developer runs by hand)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_clean():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", str(ROOT)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
