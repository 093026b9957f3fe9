"""``companion hall`` as a person runs it: its addresses, its refusals, a broker that is
not there yet, refused credentials, TLS with and without the right CA."""

from __future__ import annotations

import subprocess

from tests.hall.hall_support import COMPANION, HallProcess, Watch, get
from tests.mqtt_support import Mosquitto


def hall_refused(*args: str) -> str:
    done = subprocess.run([COMPANION, "hall", *args], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr
    return done.stderr


def test_a_bad_broker_url_is_a_clear_refusal():
    assert "--mqtt: the scheme must be mqtt:// or mqtts://" in hall_refused("--mqtt", "http://broker")
    assert "names no broker host" in hall_refused("--mqtt", "mqtt://")
    assert "port must be 1-65535" in hall_refused("--mqtt", "mqtt://broker:70000")
    assert "--prefix" in hall_refused("--mqtt", "mqtt://broker", "--prefix", "a/+/b")
    assert "--ca-file" in hall_refused("--mqtt", "mqtts://broker", "--ca-file", "/nonexistent")
    assert "required: --mqtt" in hall_refused()


def test_serves_with_the_broker_down_and_connects_when_it_comes(tmp_path):
    broker = Mosquitto(tmp_path / "broker")
    broker.kill()
    with broker, HallProcess("--mqtt", broker.url) as hall:
        assert hall.url is not None, hall.lines
        assert f"tables from mqtt://127.0.0.1:{broker.port}" in hall.lines[0]
        with Watch(hall.port) as watch:
            watch.until(lambda w: w.connected is False and "retry" in w.broker)
            assert (f"nothing listens on 127.0.0.1:{broker.port} (connection refused)"
                    in watch.broker)
            status, _, body = get(f"{hall.url}api/tables")
            assert status == 200 and body["connected"] is False
            broker.start()
            watch.until(lambda w: w.connected is True, timeout=40)
        code, out, err = hall.stop()
    assert code == 0, err
    assert "hall stopped" in out


def test_refused_credentials_are_said_and_the_right_ones_connect(tmp_path):
    with Mosquitto(tmp_path / "broker", users={"hall": "s3cret"}) as broker:
        with HallProcess("--mqtt", broker.url, "--user", "hall",
                         env={"COMPANION_MQTT_PASSWORD": "wrong"}) as hall, \
                Watch(hall.port) as watch:
            watch.until(lambda w: "refused" in w.broker)
            assert "refused: not authorized" in watch.broker and watch.connected is False
        with HallProcess("--mqtt", broker.url, "--user", "hall",
                         env={"COMPANION_MQTT_PASSWORD": "s3cret"}) as hall:
            with Watch(hall.port) as watch:
                watch.until(lambda w: w.connected is True)
            code, _, err = hall.stop()
            assert code == 0, err
            assert "s3cret" not in err


def test_tls_needs_the_brokers_ca(tmp_path):
    with Mosquitto(tmp_path / "broker", tls=True) as broker:
        with HallProcess("--mqtt", broker.url) as hall, Watch(hall.port) as watch:
            watch.until(lambda w: w.broker.startswith("TLS"))
            assert "certificate is not trusted" in watch.broker
            assert "--ca-file" in watch.broker
        with HallProcess("--mqtt", broker.url, "--ca-file", str(broker.ca_file)) as hall, \
                Watch(hall.port) as watch:
            watch.until(lambda w: w.connected is True)
