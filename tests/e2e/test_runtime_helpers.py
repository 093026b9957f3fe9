"""The small decisions `companion run` makes: the PIN, the session key, the addresses."""

from __future__ import annotations

import argparse
import stat

import pytest

from app.config import Config
from app.runtime import PIN_FILE, host_banner, host_pin, ipv6_warning
from app.server import lan_addresses, page_urls
from companion.config import ConfigError, WebConfig
from web.pins import Pin, secret_key


def args(pin=None, new_pin=False):
    return argparse.Namespace(pin=pin, new_pin=new_pin)


def test_the_pin_comes_from_the_flag_then_the_config_then_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("COMPANION_PIN", "3333")
    cfg = Config(web=WebConfig(pin="2222"))
    assert host_pin(args("1111"), cfg, tmp_path) == Pin("1111", "chosen")
    assert host_pin(args(), cfg, tmp_path) == Pin("2222", "chosen")
    assert host_pin(args(), Config(), tmp_path) == Pin("3333", "chosen")
    assert not (tmp_path / PIN_FILE).exists()  # a chosen PIN is never written down
    monkeypatch.delenv("COMPANION_PIN")
    made = host_pin(args(), Config(), tmp_path)
    assert made.source == "new" and made.pin.isdigit() and len(made.pin) == 6
    assert "kept for the next starts" in host_banner(made)


def test_a_made_up_pin_is_kept_for_the_next_start_until_a_new_one_is_asked_for(
        monkeypatch, tmp_path):
    monkeypatch.delenv("COMPANION_PIN", raising=False)
    first = host_pin(args(), Config(), tmp_path / "data")
    path = tmp_path / "data" / PIN_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # the service's own
    again = host_pin(args(), Config(), tmp_path / "data")
    assert again == Pin(first.pin, "kept")
    assert "as at the last start" in host_banner(again)
    fresh = host_pin(args(new_pin=True), Config(), tmp_path / "data")
    assert fresh.source == "new"
    assert host_pin(args(), Config(), tmp_path / "data") == Pin(fresh.pin, "kept")
    # A chosen PIN wins over the kept one and leaves it as it is.
    assert host_pin(args("5555"), Config(), tmp_path / "data") == Pin("5555", "chosen")
    assert path.read_text().strip() == fresh.pin


def test_a_damaged_pin_file_is_set_aside_named_and_replaced(monkeypatch, tmp_path, caplog):
    monkeypatch.delenv("COMPANION_PIN", raising=False)
    (tmp_path / PIN_FILE).write_bytes(b"\x00\xff garbage")
    made = host_pin(args(), Config(), tmp_path)
    assert made.source == "new"
    assert (tmp_path / f"{PIN_FILE}.damaged").read_bytes() == b"\x00\xff garbage"
    assert str(tmp_path / PIN_FILE) in caplog.text and "set aside" in caplog.text


@pytest.mark.parametrize("pin", ["12ab", "123", "١٢٣٤٥"])  # the last: Arabic-Indic digits
def test_a_bad_pin_is_a_config_error_naming_where_it_came_from(pin, monkeypatch):
    with pytest.raises(ConfigError, match=r"the host PIN \(--pin\) must be 4 to 12 digits"):
        host_pin(args(pin), Config())
    monkeypatch.setenv("COMPANION_PIN", pin)
    with pytest.raises(ConfigError, match=r"the host PIN \(COMPANION_PIN\) must be"):
        host_pin(args(), Config())


def test_the_session_key_is_made_once_and_kept_private(tmp_path):
    key = secret_key(tmp_path / "data")
    assert len(key) == 32 and secret_key(tmp_path / "data") == key
    mode = stat.S_IMODE((tmp_path / "data" / "secret_key").stat().st_mode)
    assert mode == 0o600


def test_addresses_to_print():
    assert page_urls("127.0.0.1", 8080) == ["http://127.0.0.1:8080/"]
    assert page_urls("::1", 80) == ["http://[::1]:80/"]
    everywhere = page_urls("0.0.0.0", 8080)
    assert everywhere[-1].endswith(".local:8080/")
    assert all(f"http://{a}:8080/" in everywhere for a in lan_addresses())
    assert not any(a.startswith("127.") for a in lan_addresses())


@pytest.mark.parametrize(("host", "warned"), [
    ("::", True), ("2001:db8::5", True), ("::1", False), ("0.0.0.0", False),
    ("192.168.1.20", False), ("companion.local", False),
])
def test_serving_on_ipv6_warns_that_address_bounds_do_not_hold(host, warned):
    warning = ipv6_warning(host)
    assert (warning is not None) == warned
    if warned:
        assert host in warning and "0.0.0.0" in warning


def test_a_pin_that_cannot_be_kept_still_serves_this_start(monkeypatch, tmp_path, caplog):
    monkeypatch.delenv("COMPANION_PIN", raising=False)
    (tmp_path / "data").write_text("a file where the folder should be")
    made = host_pin(args(), Config(), tmp_path / "data")
    assert made.source == "unkept" and len(made.pin) == 6
    assert "see the log" in host_banner(made) and "could not be kept" in caplog.text
