"""The TOML configuration: defaults, the example file, and errors that name the key."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from app.config import Config, load
from companion import config as generic
from companion.config import ConfigError, Section, section
from drivers.serial_pad import BAUDRATES
from tests.mqtt_support import make_certificates

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


@pytest.mark.parametrize(("text", "message"), [
    # Not finite: nan spun the display thread, inf killed it.
    ("[display]\ndim_after = nan", "[display] dim_after: must be a number of seconds >= 0, "
                                   "got nan"),
    ("[display]\ndim_after = inf", "[display] dim_after: must be a number of seconds >= 0, "
                                   "got inf"),
    ("[display]\nshift_every = -inf", "[display] shift_every: must be a number of seconds"),
    ("[buttons]\nhold_time = nan", "[buttons] hold_time: must be a number of seconds >= 0"),
    ("[display]\ndim_after = 1e12",
     "[display] dim_after: must be 0-86400 seconds, got 1000000000000"),
    ("[display]\nshift_every = 0.001", "[display] shift_every: must be 1-86400 seconds (or 0"),
    ("[display]\ncontrast = 256", "[display] contrast: must be 0-255, got 256"),
    ("[display]\ndim_contrast = -1", "[display] dim_contrast: must be 0-255, got -1"),
    ("[display]\ni2c_port = -1", "[display] i2c_port: must be 0-255, got -1"),
    ("[display]\nspi_port = 300", "[display] spi_port: must be 0-255, got 300"),
    ("[display]\nspi_device = -2", "[display] spi_device: must be 0-255, got -2"),
    ("[display]\ngpio_dc = 99", "[display] gpio_dc: GPIO 99 is not a BCM pin number 2-27"),
    ("[display]\ninterface = 'spi'\ngpio_rst = 1",
     "[display] gpio_rst: GPIO 1 is not a BCM pin number 2-27"),
    ("[serial]\nbaudrate = 0", "[serial] baudrate: must be 50-4000000, got 0"),
    ("[serial]\nbaudrate = -9600", "[serial] baudrate: must be 50-4000000, got -9600"),
    ("[serial]\nbaudrate = 115200.0", "[serial] baudrate: must be a whole number"),
    ("[serial]\nurl = ''", "[serial] url: must be a device path or pyserial URL"),
    ('[serial]\nurl = "/dev/tty\\u0000"', "[serial] url: must be a device path"),
    ("[web]\nport = 0", "[web] port: must be 1-65535, got 0"),
    ("[web]\nport = -80", "[web] port: must be 1-65535, got -80"),
    ("[web]\nmax_streams = 0", "[web] max_streams: must be 1-1000, got 0"),
    ("[web]\nmax_streams = 100000", "[web] max_streams: must be 1-1000, got 100000"),
    ("[web]\nstreams_per_address = 0", "[web] streams_per_address: must be 1-1000, got 0"),
    ("[web]\nhost = 'my host'", "[web] host: 'my host' is not an IP address or host name"),
    ("[web]\nhost = ''", "[web] host: '' is not an IP address or host name"),
    ("[web]\nhost = '300.1.1.1:80'", "[web] host: '300.1.1.1:80' is not an IP address"),
    ("[web]\npin = '١٢٣٤'", "[web] pin: must be 4 to 12 digits"),
    ("[table]\nnames = []", "[table] names: 1 to 32 names, got 0"),
    ("[table]\nnames = ['Ann', 'ann ']", "[table] names: each name only once"),
    ('[table]\nnames = ["Ann", "B\\nb"]', "[table] names[1]: 'B\\nb' is not a name of 1-16"),
    ("[table]\nnames = ['Ann', '   ']", "[table] names[1]: '   ' is not a name"),
    ('[table]\ndata = "/var/lib/\\u0000x"', "[table] data: '/var/lib/\\x00x' holds a control"),
])
def test_a_value_that_would_break_the_device_is_refused(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load(path)
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "127.0.0.1", "fe80::1%eth0", "localhost",
                                  "table-pi.local", "table.example.org."])
def test_hosts_that_are_addresses_or_names_pass(tmp_path, host):
    assert load(write(tmp_path, f"[web]\nhost = '{host}'")).web.host == host


def test_the_edges_of_each_range_pass(tmp_path):
    cfg = load(write(tmp_path, """
[display]
dim_after = 0
shift_every = 0
contrast = 0
dim_contrast = 255
[serial]
baudrate = 4000000
[web]
port = 65535
max_streams = 1000
"""))
    assert cfg.display.dim_after == 0 and cfg.display.shift_every == 0
    assert cfg.serial.baudrate == 4_000_000 and cfg.web.max_streams == 1000


def test_a_file_that_is_not_utf8_names_the_byte(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b"[table]\nnames = ['J\xf6rg', 'Ann']\n")  # Latin-1, as an old editor saves
    with pytest.raises(ConfigError) as err:
        load(path)
    assert str(err.value) == (f"{path} is not UTF-8 text: byte 19 (line 2) is b'\\xf6'; "
                              "save the file as UTF-8")


def test_a_byte_order_mark_is_not_an_error(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes("\ufeff[web]\nport = 8081\n".encode())
    assert load(path).web.port == 8081
    path.write_bytes(b"\xef\xbb\xbf[web]\nport = 8081 # \xe9\n")  # offsets count the mark
    with pytest.raises(ConfigError, match=r"byte 23 \(line 2\) is b'\\xe9'"):
        load(path)


def test_the_baudrate_range_is_pyserials():
    serial = pytest.importorskip("serial")
    assert (min(serial.Serial.BAUDRATES), max(serial.Serial.BAUDRATES)) == BAUDRATES


MQTT = "[mqtt]\nurl = 'mqtt://broker.local'\ntable = 'table-3'\n"


def test_no_broker_by_default():
    assert Config().mqtt.url is None


def test_a_broker_and_its_defaults(tmp_path):
    m = load(write(tmp_path, MQTT)).mqtt
    assert (m.address.host, m.address.port, m.tls, m.table, m.display_name) == \
        ("broker.local", 1883, False, "table-3", "table-3")
    assert (m.prefix, m.discovery, m.discovery_prefix, m.page) == \
        ("table-companion", True, "homeassistant", None)
    ca = make_certificates(tmp_path)
    m = load(write(tmp_path, f"""[mqtt]
url = "mqtts://10.0.0.2"
ca_file = "{ca}"
username = "t3"
table = "t3"
name = "Table 3 (window)"
prefix = "club/tables"
discovery = false
page = "https://t3.club.example/"
""")).mqtt
    assert (m.address.host, m.address.port, m.tls, m.ca_file, m.username, m.display_name) == \
        ("10.0.0.2", 8883, True, str(ca), "t3", "Table 3 (window)")
    assert load(write(tmp_path, MQTT.replace("local'", "local:1884'"))).mqtt.address.port == 1884


@pytest.mark.parametrize(("text", "message"), [
    ("url = 'http://broker'\ntable = 'a'",
     "[mqtt] url: the scheme must be mqtt:// or mqtts:// (TLS), got 'http://broker'"),
    ("url = 'broker.local'\ntable = 'a'", "[mqtt] url: the scheme must be mqtt://"),
    ("url = 'mqtt://'\ntable = 'a'", "[mqtt] url: 'mqtt://' names no broker host"),
    ("url = 'mqtt://bro ker'\ntable = 'a'", "[mqtt] url: 'mqtt://bro ker' names no broker host"),
    ("url = 'mqtt://broker:0'\ntable = 'a'", "[mqtt] url: port must be 1-65535, got 0"),
    ("url = 'mqtt://broker:65536'\ntable = 'a'", "port must be 1-65535"),
    ("url = 'mqtt://broker:x'\ntable = 'a'", "[mqtt] url: 'mqtt://broker:x' is not a broker URL"),
    ("url = 'mqtt://me:secret@broker'\ntable = 'a'", "[mqtt] url: no user or password in the URL"),
    ("url = 'mqtt://broker/x'\ntable = 'a'", "a broker URL has no path"),
    ("url = 'mqtt://broker'", "[mqtt] table: required with url"),
    ("table = 'a'", "[mqtt] table: set url too"),
    ("url = 'mqtt://broker'\ntable = 'Table 3'", "[mqtt] table: 'Table 3' is not a table id"),
    ("url = 'mqtt://broker'\ntable = 'a/b'", "[mqtt] table: 'a/b' is not a table id"),
    ("url = 'mqtt://broker'\ntable = 'a'\nca_file = '/etc/hostname'",
     "[mqtt] ca_file: only with an mqtts:// url (TLS)"),
    ("url = 'mqtts://broker'\ntable = 'a'\nca_file = '/no/such/ca.crt'",
     "[mqtt] ca_file: /no/such/ca.crt is not a readable file"),
    ("url = 'mqtt://broker'\ntable = 'a'\nprefix = 'club/+'",
     "[mqtt] prefix: 'club/+' must not hold the wildcards + or #"),
    ("url = 'mqtt://broker'\ntable = 'a'\nprefix = ''", "[mqtt] prefix: '' must not be empty"),
    ("url = 'mqtt://broker'\ntable = 'a'\ndiscovery_prefix = '$SYS'",
     "[mqtt] discovery_prefix: '$SYS' must not start with $"),
    ("url = 'mqtt://broker'\ntable = 'a'\ndiscovery = 'yes'",
     "[mqtt] discovery: must be true or false"),
    ("url = 'mqtt://broker'\ntable = 'a'\nname = ' '", "[mqtt] name: ' ' is not a name of 1-64"),
    ("url = 'mqtt://broker'\ntable = 'a'\nname = '" + "x" * 65 + "'", "is not a name of 1-64"),
    ("url = 'mqtt://broker'\ntable = 'a'\nname = \"a\\tb\"", "is not a name of 1-64 printable"),
    ("url = 'mqtt://broker'\ntable = 'a'\npage = 'ftp://t3/'",
     "[mqtt] page: 'ftp://t3/' is not an http:// or https:// address"),
    ("url = 'mqtt://broker'\ntable = 'a'\npage = 'http://'", "[mqtt] page: 'http://' is not"),
    ("url = 'mqtt://broker'\ntable = 'a'\nusername = ''", "[mqtt] username: must be printable"),
    ("url = 'mqtt://broker'\ntable = 'a'\npassword = 'secret'", "[mqtt] unknown key 'password'"),
])
def test_a_broken_mqtt_key_is_named(tmp_path, text, message):
    with pytest.raises(ConfigError) as err:
        load(write(tmp_path, f"[mqtt]\n{text}\n"))
    assert message in str(err.value)


def test_a_ca_file_that_holds_no_certificate_is_refused(tmp_path):
    ca = tmp_path / "ca.crt"
    ca.write_text("not a certificate")
    with pytest.raises(ConfigError, match=r"\[mqtt\] ca_file: .* holds no CA certificate in PEM"):
        load(write(tmp_path, f"[mqtt]\nurl = 'mqtts://b'\ntable = 'a'\nca_file = '{ca}'\n"))


def test_an_unreadable_ca_file_is_refused(tmp_path):
    ca = tmp_path / "ca.crt"
    ca.write_text("a CA")
    ca.chmod(0)
    if os.access(ca, os.R_OK):
        pytest.skip("root reads every file")
    with pytest.raises(ConfigError, match=r"\[mqtt\] ca_file: .* is not a readable file"):
        load(write(tmp_path, f"[mqtt]\nurl = 'mqtts://b'\ntable = 'a'\nca_file = '{ca}'\n"))


# --- a new output declares its section and adds one field to app/config.py --------


@dataclass(frozen=True)
class BuzzerConfig:
    """A test-only output: a buzzer on one pin."""

    pin: int | None = None
    volume: int = 5


def _check_buzzer(b: BuzzerConfig) -> None:
    if not 0 <= b.volume <= 10:
        raise ConfigError(f"[buzzer] volume: must be 0-10, got {b.volume}")


BUZZER = Section("buzzer", BuzzerConfig, check=_check_buzzer,
                 pins=lambda b: [] if b.pin is None else [("[buzzer] pin", b.pin)])


@dataclass(frozen=True)
class WithBuzzer(Config):
    buzzer: BuzzerConfig = field(default_factory=BuzzerConfig, metadata=section(BUZZER))


def test_a_new_section_is_read_checked_and_shares_the_pins_through_its_field_only():
    assert generic.load(None, WithBuzzer) == WithBuzzer()
    assert generic.parse({"buzzer": {"pin": 26, "volume": 7}}, WithBuzzer).buzzer == \
        BuzzerConfig(26, 7)
    for raw, message in [
        ({"buzzer": {"pin": "x"}}, "[buzzer] pin: must be a whole number, got 'x'"),
        ({"buzzer": {"volume": 11}}, "[buzzer] volume: must be 0-10, got 11"),
        ({"buzzer": {"tone": 1}}, "[buzzer] unknown key 'tone'; known keys: pin, volume"),
        ({"buzzer": {"pin": 13}}, "[buzzer] pin: GPIO 13 is already used by [buttons] ok"),
        ({"buzzer": {"pin": 3}}, "[buzzer] pin: GPIO 3 is already used by the I2C bus (SCL)"),
    ]:
        with pytest.raises(ConfigError) as err:
            generic.parse(raw, WithBuzzer)
        assert str(err.value) == message
    # The table's own Config knows no such section.
    with pytest.raises(ConfigError, match="unknown key 'buzzer'"):
        generic.parse({"buzzer": {}}, Config)


def test_the_simulator_keeps_its_seat_buttons_with_a_config(tmp_path):
    """`--sim --config FILE` (a PC trying a table's config, e.g. its [mqtt]) keeps the
    simulator's four seat buttons; a config with seat buttons of its own keeps those, and
    one that uses a pin the simulator's seats would take leaves the simulator without."""
    from app.config import load as load_config
    from app.runtime import SIM_SEATS, sim_seats

    plain = tmp_path / "plain.toml"
    plain.write_text('[web]\nport = 9000\n')
    assert sim_seats(load_config(plain)).buttons.seats == SIM_SEATS
    own = tmp_path / "own.toml"
    own.write_text('[buttons]\nseats = [22, 27]\n')
    assert sim_seats(load_config(own)).buttons.seats == (22, 27)
    clash = tmp_path / "clash.toml"
    clash.write_text('[leds]\nseats = [20]\n')
    assert sim_seats(load_config(clash)).buttons.seats == ()


def test_the_names_must_seat_the_fewest_players_of_every_game(tmp_path):
    """The setup screen seats a new match's players from the first names: a companion
    whose games need more names than ``[table] names`` holds does not start."""
    from app.runtime import Companion
    from companion.config import TableConfig, check_seats
    from tests.support import CATALOG

    one = TableConfig(names=("Ann",))
    assert load(write(tmp_path, "[table]\nnames = ['Ann']")).table == one  # a name is a list
    with pytest.raises(ConfigError, match=r"\[table\] names: 2 to 32 names, got 1 \(a game "
                                          r"here seats at least 2\)"):
        check_seats(one, CATALOG.games.values())
    with pytest.raises(ConfigError, match=r"\[table\] names: 2 to 32"):
        Companion(Config(table=one), sim=True, data=tmp_path)
    check_seats(TableConfig(names=("Ann", "Bob")), CATALOG.games.values())
