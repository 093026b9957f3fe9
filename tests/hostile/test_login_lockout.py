"""A stranger spending the wrong-PIN budget cannot keep the host out.

The lockout holds each address for its own wrong PINs; the table-wide budget
(against a guesser with many addresses) does not hold an address that logged
in before; and the one-time code on the panel's Menu > Host login screen
logs any phone in, whatever either budget says.
"""

from __future__ import annotations

import http.client
import json
from concurrent.futures import Future

import pytest

from app.config import Config
from app.runtime import Companion, WebOptions
from companion.login_code import LoginCodes, normalised
from companion.panel import CODE_TAKEN
from tests.web.conftest import PIN
from tests.web.test_server import HttpHost
from web.auth import FREE_TRIES, TABLE_TRIES

HOST_PHONE = "10.0.0.2"


def login(client, body, address):
    return client.post("/api/login", json=body, environ_base={"REMOTE_ADDR": address})


def spend_the_table_budget(client) -> None:
    """A stranger with many addresses, each with its free tries, as fast as it likes."""
    for n in range(TABLE_TRIES // FREE_TRIES + 2):
        for _ in range(FREE_TRIES):
            login(client, {"pin": "0000"}, f"10.9.{n}.1")
    refused = login(client, {"pin": PIN}, "10.9.200.1")
    assert refused.status_code == 429  # the budget holds: a new address waits


def test_the_hosts_phone_logs_in_with_the_pin_while_a_stranger_spends_the_budget(app, clock):
    client = app.test_client()
    assert login(client, {"pin": PIN}, HOST_PHONE).status_code == 200  # earlier this evening
    spend_the_table_budget(client)
    # Over four minutes, every right PIN from the host's phone gets in.
    for _ in range(24):
        clock.now += 10
        for n in range(3):  # the stranger keeps at it
            login(client, {"pin": "9999"}, f"10.8.{n}.{int(clock.now) % 250}")
        assert login(client, {"pin": PIN}, HOST_PHONE).status_code == 200


def test_a_new_phone_is_told_of_the_code_and_the_code_gets_it_in(app, services):
    client = app.test_client()
    spend_the_table_budget(client)
    refused = login(client, {"pin": PIN}, "10.0.0.77")
    assert refused.status_code == 429
    assert "Menu > Host login" in refused.json["error"]
    assert "all addresses together" in refused.json["error"]
    code = services.login_codes.issue()
    answer = login(client, {"code": code.lower()}, "10.0.0.77")
    assert answer.status_code == 200 and answer.json["csrf"]
    assert client.get("/api/session").json["host"] is True
    # From now on that phone's PIN is not held by the stranger's budget either.
    assert login(app.test_client(), {"pin": PIN}, "10.0.0.77").status_code == 200


def test_the_code_works_with_the_phones_own_address_locked(app, services):
    client = app.test_client()
    for _ in range(FREE_TRIES + 2):
        login(client, {"pin": "1357"}, HOST_PHONE)  # the host mistyping, again and again
    assert login(client, {"pin": PIN}, HOST_PHONE).status_code == 429
    assert "from this address" in login(client, {"pin": PIN}, HOST_PHONE).json["error"]
    code = services.login_codes.issue()
    assert login(client, {"code": code}, HOST_PHONE).status_code == 200


def test_one_address_never_makes_another_wait(app):
    client = app.test_client()
    for _ in range(FREE_TRIES + 3):
        login(client, {"pin": "1111"}, "10.9.9.9")
    assert login(client, {"pin": PIN}, HOST_PHONE).status_code == 200


def test_a_code_works_once_in_time_and_only_while_shown(app, services, clock):
    client = app.test_client()
    codes = services.login_codes = LoginCodes(clock=clock)
    code = codes.issue()
    assert login(client, {"code": "AAAA-AAAA"}, "10.0.0.5").status_code == 401
    assert login(client, {"code": 12345678}, "10.0.0.5").status_code == 401
    assert login(client, {"code": code}, "10.0.0.5").status_code == 200
    again = login(app.test_client(), {"code": code}, "10.0.0.6")
    assert again.status_code == 401 and "Host login" in again.json["error"]
    late = codes.issue()
    clock.now += codes.lifetime + 1
    assert login(client, {"code": late}, "10.0.0.5").status_code == 401
    closed = codes.issue()
    codes.void()
    assert login(client, {"code": closed}, "10.0.0.5").status_code == 401


def test_codes_are_read_as_people_type_them():
    assert normalised(" k7qm-3xpa ") == "K7QM3XPA"
    assert normalised("OIL0") == "0110"  # O read as zero, I and L as one


# --- the whole way: the panel's screen, a real server -------------------------------------


def wait(future: Future, timeout: float = 10.0):
    return future.result(timeout)


@pytest.fixture
def companion(tmp_path):
    with Companion(Config(), sim=True, data=tmp_path,
                   web=WebOptions(host="127.0.0.1", port=0, pin=PIN)) as c:
        yield c


def post_login(port: int, body: dict) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("POST", "/api/login", body=json.dumps(body),
                     headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def test_the_panel_shows_a_code_that_logs_a_phone_in_past_the_budget(companion):
    lockout = companion.app.extensions["companion"].lockout
    # The budget spent (by addresses other than this test's 127.0.0.1).
    for n in range(TABLE_TRIES):
        lockout.failed(f"10.7.{n}.1")
    port = companion.server.port
    status, body = post_login(port, {"pin": PIN})
    assert status == 429 and "Host login" in body["error"]
    # Menu > Host login: BACK opens the menu, the entry is the last of four.
    for button in ("back", "next", "next", "next", "ok"):
        wait(companion.press(button))
    screen = companion.panel.state.screen
    assert companion.panel.state.ui.screen == "code" and screen.title == "Host login"
    code = screen.items[0]
    status, body = post_login(port, {"code": code})
    assert status == 200, body
    # The panel says so and goes back to the board; the code is spent.
    # The news was queued for the writer thread before the answer went out: a call
    # queued now runs after it.
    companion.runner.call(lambda _: None)
    assert companion.panel.state.ui.message == CODE_TAKEN
    assert companion.panel.state.ui.screen == "board"
    assert post_login(port, {"code": code})[0] == 401


def test_leaving_the_screen_voids_its_code(companion):
    for button in ("back", "next", "next", "next", "ok"):
        wait(companion.press(button))
    code = companion.panel.state.screen.items[0]
    wait(companion.press("back"))
    assert post_login(companion.server.port, {"code": code})[0] == 401
    # And a host logged in with the PIN is unaffected by any of it.
    assert HttpHost(companion.server.port).csrf
