"""tools/bootstrap.sh (behind ./run and ./test): which Python and which venv."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSION = "{}.{}".format(*sys.version_info[:2])


def bootstrap(extras: str = "test", **env: str) -> subprocess.CompletedProcess[str]:
    """Source the bootstrap as ./test does (./run: ``extras=""``), with ``env``
    added; prints the venv's python."""
    return subprocess.run(
        ["bash", "-c", f'source tools/bootstrap.sh "{extras}" && echo "$VENV_PY"'],
        cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, timeout=60,
    )


def fake_venv(folder: Path, version: str) -> Path:
    """A venv folder whose python says it is ``version`` (nothing is installed)."""
    (folder / "bin").mkdir(parents=True)
    python = folder / "bin" / "python"
    # It says its version, and notes every call (pip installs) beside itself.
    python.write_text(f'#!/bin/sh\necho "$@" >>"{folder}/calls"\necho {version}\n')
    python.chmod(0o755)
    return folder


def test_a_venv_of_another_python_stops_with_what_to_do(tmp_path):
    venv = fake_venv(tmp_path / "venv", "3.12" if VERSION != "3.12" else "3.11")
    result = bootstrap(PYTHON=sys.executable, VENV=str(venv))
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"but PYTHON={sys.executable} is {VERSION}" in result.stderr
    assert f"set VENV=.venv-{VERSION}" in result.stderr


def test_a_python_that_does_not_run_is_named(tmp_path):
    result = bootstrap(PYTHON=str(tmp_path / "python3.99"), VENV=str(tmp_path / "venv"))
    assert result.returncode == 1
    assert f"PYTHON={tmp_path / 'python3.99'} does not run as Python 3.11 or newer" \
        in result.stderr
    assert not (tmp_path / "venv").exists()  # nothing made



def test_run_after_test_installs_nothing_again(tmp_path):
    venv = fake_venv(tmp_path / "venv", VERSION)
    pyproject = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()[:16]
    (venv / ".installed").write_text(f"{pyproject} .[test]\n")
    assert bootstrap(extras="", VENV=str(venv)).returncode == 0  # ./run
    # (With PYTHON set, as in CI, the venv's python is asked its version: that is no install.)
    calls = venv / "calls"
    assert "-m pip" not in (calls.read_text() if calls.exists() else "")
    # The other way round the test extra is missing: it is installed.
    (venv / ".installed").write_text(f"{pyproject} .\n")
    assert bootstrap(VENV=str(venv)).returncode == 0  # ./test
    assert "-m pip install" in (venv / "calls").read_text()
