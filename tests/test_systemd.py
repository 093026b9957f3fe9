"""The systemd unit and the Pi install script, checked with systemd's own tools."""

from __future__ import annotations

import configparser
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "companion.service"
INSTALLED = "/opt/table-companion/.venv/bin/companion"


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
    assert service["Restart"] == "on-failure"
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
