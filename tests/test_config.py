"""The TOML configuration: defaults, the example file, and errors that name the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import Config, ConfigError, load

ROOT = Path(__file__).resolve().parent.parent


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_no_file_means_defaults():
    assert load(None) == Config()


def test_the_example_file_is_valid_and_equals_the_defaults():
    assert load(ROOT / "config.example.toml") == Config()


def test_values_are_read(tmp_path):
    cfg = load(write(tmp_path, """
[table]
data = "~/matches"
names = ["Ann", "Bob"]
[buttons]
seats = [20, 21]
hold_time = 1
[display]
driver = "sh1106"
i2c_address = 0x3D
[serial]
url = "loop://"
"""))
    assert cfg.table.data == Path("~/matches").expanduser()
    assert cfg.table.names == ("Ann", "Bob")
    assert cfg.buttons.seats == (20, 21) and cfg.buttons.hold_time == 1.0
    assert cfg.display.driver == "sh1106" and cfg.display.i2c_address == 0x3D
    assert cfg.serial.url == "loop://"


@pytest.mark.parametrize(("text", "message"), [
    ("[buttons]\nprev = 'five'", "[buttons] prev: must be a whole number, got 'five'"),
    ("[buttons]\nprev = 40", "[buttons] prev: GPIO 40 is not a BCM pin number 2-27"),
    ("[buttons]\nprev = 6", "[buttons] next: GPIO 6 is already used by [buttons] prev"),
    ("[buttons]\nok = 2", "[buttons] ok: GPIO 2 is already used by the I2C bus (SDA)"),
    ("[buttons]\nbackend = 'wiringpi'", "[buttons] backend: must be one of lgpio, rpigpio"),
    ("[buttons]\nseats = [20, 21, 22, 23, 24]", "at most 4 seat buttons"),
    ("[buttons]\nhold_time = -1", "[buttons] hold_time: must be a number of seconds >= 0"),
    ("[buttons]\ndebounce = 1.5", "[buttons] debounce: must be 0.001-0.2 seconds"),
    ("[buttons]\npull_up = 'yes'", "[buttons] pull_up: must be true or false"),
    ("[buttons]\nprevious = 5", "[buttons] unknown key 'previous'"),
    ("[screen]\nrotate = 1", "unknown key 'screen'"),
    ("buttons = 3", "[buttons] must be a table of keys"),
    ("[display]\nrotate = 5", "[display] rotate: must be one of 0, 1, 2, 3"),
    ("[display]\ni2c_address = 0x99", "[display] i2c_address: 0x99 is not a 7-bit address"),
    ("[display]\ndriver = 'ssd1309'", "[display] driver: must be one of ssd1306, sh1106"),
    ("[encoder]\na = 17", "[encoder]: set both a and b"),
    ("[web]\nport = 70000", "[web] port: must be 1-65535"),
    ("[web]\npin = '12'", "[web] pin: must be 4 to 12 digits"),
    ("[table]\nnames = []", "[table] names"),
    ("[table]\nnames = [1, 2]", "[table] names: must be a list of strings"),
    ("[leds]\nseats = [5]", "[leds] seats[0]: GPIO 5 is already used by [buttons] prev"),
])
def test_a_broken_config_names_the_file_key_and_problem(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load(path)
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)


def test_invalid_toml_says_where(tmp_path):
    with pytest.raises(ConfigError, match=r"is not valid TOML: .*line 2"):
        load(write(tmp_path, "[buttons]\nprev = = 5\n"))


def test_a_missing_file(tmp_path):
    with pytest.raises(ConfigError, match=r"cannot read the config file .*nope\.toml"):
        load(tmp_path / "nope.toml")
