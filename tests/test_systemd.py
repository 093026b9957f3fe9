"""The systemd unit and the Pi install script, checked with systemd's own tools."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "companion.service"
INSTALLED = "/opt/table-companion/.venv/bin/companion"
INSTALL = ROOT / "systemd" / "install.sh"
BASH = shutil.which("bash")


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # keep systemd's key case
    parser.read(UNIT)
    return parser


def test_the_unit_verifies(tmp_path):
    # verify insists the ExecStart program exists: point it at this venv's.
    copy = tmp_path / "companion.service"
    copy.write_text(UNIT.read_text().replace(INSTALLED, str(Path(sys.executable).parent /
                                                                 "companion")))
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stderr.strip() == "", result.stderr


def test_the_unit_is_hardened_to_ok():
    # --threshold counts in tenths: 30 is the "3.0" systemd prints.
    result = subprocess.run(["systemd-analyze", "security", "--offline=true", "--threshold=30",
                             str(UNIT)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    assert "Overall exposure level for companion.service" in result.stdout


def test_the_unit_runs_unprivileged_with_a_watchdog():
    service = unit()["Service"]
    assert service["User"] == "companion"
    assert set(service["SupplementaryGroups"].split()) >= {"gpio", "i2c", "dialout"}
    assert service["Type"] == "notify" and int(service["WatchdogSec"]) > 0
    # Every exit the unit did not ask for is restarted, a clean one too (a table that
    # stops itself is not put away): not on-failure, which leaves an exit 0 stopped.
    assert service["Restart"] == "always"
    assert service["ExecStart"].startswith(f"{INSTALLED} run --config /etc/companion/")
    start = unit()["Unit"]
    assert int(start["StartLimitBurst"]) > 0 and int(start["StartLimitIntervalSec"]) > 0


def test_the_install_script_dry_run_lists_every_step():
    result = subprocess.run(["bash", str(ROOT / "systemd" / "install.sh"), "--dry-run"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "python3 -m venv --system-site-packages /opt/table-companion/.venv" in out
    assert "/etc/systemd/system/companion.service" in out
    assert "systemctl enable --now companion.service" in out
    assert "useradd --system" in out or "usermod" in out


@pytest.mark.parametrize("args", [["--dryrun"], ["--dry_run"], ["-n"], ["dry-run"],
                                  ["--dry-run=yes"], ["--dry-run", "--verbose"]])
def test_the_install_script_refuses_an_unknown_option_before_doing_anything(tmp_path, args):
    # An empty PATH leaves bash its builtins only: should the option not be
    # refused, the install could not run a single program.
    result = subprocess.run([BASH, str(INSTALL), *args], env={"PATH": str(tmp_path)},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == ""
    unknown = args[-1]
    assert result.stderr == (f"install.sh: unknown option '{unknown}'\n"
                             f"usage: sudo {INSTALL} [--dry-run]\n"
                             "  --dry-run  print the steps instead of running them\n")


def test_the_install_script_random_pin_is_uniform():
    # The PIN used to be the first six digits of a random 32-bit number: most
    # started with 1 to 4, and a small number gave fewer digits.
    result = subprocess.run(
        [BASH, "-c", f'source "{INSTALL}"; for i in $(seq 1000); do random_pin; done'],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    pins = result.stdout.split("\n")[:-1]
    assert len(pins) == 1000 and all(re.fullmatch(r"[0-9]{6}", p) for p in pins)
    for position in range(6):
        # Digits 5-9 are half of a fair draw: 500 of 1000, give or take 16.
        high = sum(p[position] >= "5" for p in pins)
        assert 400 < high < 600, f"position {position + 1}: {high} of 1000 digits are 5-9"
