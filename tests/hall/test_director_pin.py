"""``companion hall``'s director PIN, chosen as a table's host PIN is: ``--director-pin``,
else ``$COMPANION_DIRECTOR_PIN``, else the one kept in ``--data``, else a new one, kept
there and printed."""

from __future__ import annotations

import re

from tests.hall.hall_support import HallProcess
from tests.hall.night_support import HttpDirector
from tests.hall.test_hall_cli import hall_refused
from tests.mqtt_support import Mosquitto


def started(*args: str, env: dict[str, str] | None = None) -> tuple[str, str]:
    """Start the hall, log in if a PIN was printed; its output and the PIN printed."""
    with HallProcess(*args, env=env) as hall:
        url = hall.url
        out = "".join(hall.lines)  # the PIN comes before the addresses
        code, _, err = hall.stop()
    assert code == 0, err
    assert url is not None
    found = re.search(r"Director PIN: (\d+) \(([^;]+);", out)
    return out, (found[1] + " " + found[2]) if found else ""


def test_a_director_pin_is_made_kept_and_printed_unless_one_is_chosen(tmp_path):
    data = tmp_path / "hall"
    with Mosquitto(tmp_path / "broker") as broker:
        out, first = started("--mqtt", broker.url, "--data", str(data))
        pin, how = first.split(" ", 1)
        assert how == "new, kept for the next starts" and len(pin) == 6
        assert (data / "director_pin").read_text().strip() == pin
        assert (data / "director_pin").stat().st_mode & 0o777 == 0o600
        _, again = started("--mqtt", broker.url, "--data", str(data))
        assert again == f"{pin} as at the last start"
        with HallProcess("--mqtt", broker.url, "--data", str(data)) as hall:
            assert hall.url is not None
            HttpDirector(hall.url, pin)  # the printed PIN logs in
            hall.stop()
        # Chosen: not printed, and the one that logs in.
        out, shown = started("--mqtt", broker.url, "--data", str(data),
                             env={"COMPANION_DIRECTOR_PIN": "4321"})
        assert shown == "" and "4321" not in out
        with HallProcess("--mqtt", broker.url, "--data", str(data),
                         "--director-pin", "97531") as hall:
            assert hall.url is not None
            director = HttpDirector(hall.url, "97531")
            status, _ = director.request("POST", "/api/director/login", {"pin": pin})
            assert status == 401
            hall.stop()


def test_a_director_pin_that_is_not_4_to_12_digits_is_refused():
    assert "the director PIN must be 4 to 12 digits" in hall_refused(
        "--mqtt", "mqtt://broker", "--director-pin", "12")
