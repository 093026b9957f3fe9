"""The README's Mosquitto for a club, run for real (tests/test_docs.py's MQTT checks).

:func:`club_broker` does what the README tells the club to do, in a temp
folder standing for ``/etc/mosquitto``: it runs the ``mosquitto-setup``
commands (openssl makes the CA and the broker's certificate, mosquitto_passwd
the users, each given the password ``<user>-password`` on its stdin), writes
the ``mosquitto-conf`` block and the ``mosquitto-acl`` block where the config
says, and starts Debian's mosquitto with that config. Substituted, and
nothing else: ``/etc/mosquitto/`` (the temp folder), ``broker.local``
(``localhost``: the certificate is made for the name clients connect to),
the port (``listener 8883`` becomes a free loopback port), ``sudo`` (the
test's user runs everything) and the group ``mosquitto`` (the test's group).

:class:`Client` is one MQTT v5 client (paho) of such a broker: v5, so a
refused publish comes back as a PUBACK with "Not authorized".
"""

from __future__ import annotations

import gc
import grp
import os
import queue
import re
import shlex
import shutil
import socket
import ssl
import subprocess
import threading
import tomllib
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from companion.store import Store
from companion.table import Table
from companion.topics import TableInfo
from tests.mqtt_support import Mosquitto, free_port
from tests.support import CATALOG

#: How long any one step may take (connect, subscribe, a message to arrive).
WAIT = 10.0
#: The name the README's broker has and the one the test connects to.
DOC_HOST, HOST = "broker.local", "localhost"


@dataclass(frozen=True)
class DocBlocks:
    """The blocks of one document that describe the club's broker, a table and the hall."""

    setup: list[str]     # the commands, in order
    conf: str
    acl: str
    table: str           # the [mqtt] section of a table
    hall: str            # the command that starts the hall board


def doc_blocks(blocks: list) -> DocBlocks:
    """The ``mosquitto-setup`` commands, the config and ACL blocks, the ``[mqtt]``
    section and the hall's command of one document."""
    by_check: dict[str, list] = {}
    for block in blocks:
        by_check.setdefault(block.marker.get("check"), []).append(block)
    setup = [line for b in by_check.get("mosquitto-setup", []) for line in b.text.splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    (conf,), (acl,) = by_check["mosquitto-conf"], by_check["mosquitto-acl"]
    (table,), (hall,) = by_check["mqtt-config"], by_check["club-hall"]
    return DocBlocks(setup, conf.text, acl.text, table.text, hall.text.strip())


def password(user: str) -> str:
    return f"{user}-password"


@dataclass
class Club:
    """The README's broker, running, and what clients need to reach it."""

    broker: Mosquitto
    etc: Path
    users: list[str]

    @property
    def ca_file(self) -> Path:
        return self.etc / "certs" / "ca.crt"

    def client(self, user: str | None, *, secret: str | None = None, ca: bool = True,
               name: str = "") -> Client:
        return Client(self, user, secret if secret is not None else
                      (password(user) if user else None), ca=ca, name=name)


@contextmanager
def club_broker(doc: DocBlocks, tmp: Path) -> Iterator[Club]:
    """The README's broker, set up as it says, in ``tmp``."""
    etc = tmp / "etc-mosquitto"
    (etc / "certs").mkdir(parents=True)
    (etc / "conf.d").mkdir()
    group = grp.getgrgid(os.getgid()).gr_name
    port = free_port()

    def local(text: str) -> str:
        return text.replace("/etc/mosquitto/", f"{etc}/").replace(
            "/etc/mosquitto ", f"{etc} ").replace(DOC_HOST, HOST)

    users: list[str] = []
    lines = []
    for command in doc.setup:
        words = shlex.split(command)
        if words[:1] == ["sudo"]:
            words = words[1:]
        if words[:2] == ["systemctl", "restart"]:
            continue  # the broker is started below, with the files as they are now
        if words[:1] == ["chgrp"] and words[1] == "mosquitto":
            words[1] = group
        line = local(shlex.join(words))
        if words[0] == "mosquitto_passwd":
            users.append(words[-1])
            secret = shlex.quote(password(words[-1]))
            line = f"printf '%s\\n%s\\n' {secret} {secret} | {line}"
        lines.append(line)
    assert users, "the README makes no users"
    # The config and ACL are in place before the commands that follow them
    # (chgrp, chmod) run: the README writes them between its two blocks.
    conf = local(doc.conf)
    acl_path = re.search(r"^acl_file (\S+)$", conf, re.M)
    assert acl_path, "the config names no acl_file"
    Path(acl_path[1]).write_text(doc.acl)
    (etc / "conf.d" / "table-companion.conf").write_text(conf)
    result = subprocess.run(["bash", "-c", "set -e\n" + "\n".join(lines)], cwd=tmp,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"the README's setup failed: {result.stderr}"
    listener = f"listener {port} 127.0.0.1"
    conf, found = re.subn(r"^listener 8883$", listener, conf, flags=re.M)
    assert found == 1, "the config has no `listener 8883`"
    with Mosquitto(tmp / "broker", config=conf, port=port, tls=True,
                   ca_file=etc / "certs" / "ca.crt") as broker:
        yield Club(broker, etc, users)


class Client:
    """One MQTT v5 client of the club's broker, connected (or refused) on creation.

    ``refused`` is the CONNACK's reason when the broker said no (None when it
    took us); ``messages`` holds ``(topic, payload, retained)`` as they come.
    """

    def __init__(self, club: Club, user: str | None, secret: str | None, *, ca: bool,
                 name: str) -> None:
        self.user = user
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                  client_id=f"doc-{user or 'anonymous'}{name}",
                                  protocol=MQTTProtocolVersion.MQTTv5)
        # Refused is refused: no reconnecting behind the test's back.
        self.client.reconnect_delay_set(60, 60)
        if user is not None:
            self.client.username_pw_set(user, secret)
        self.client.tls_set(ca_certs=str(club.ca_file) if ca else None)
        self.messages: queue.Queue[tuple[str, bytes, bool]] = queue.Queue()
        self._answered = threading.Event()
        self._acks: dict[int, queue.Queue] = {}
        self.refused: str | None = None
        self.client.on_connect = self._on_connect
        self.client.on_message = lambda c, u, m: self.messages.put(
            (m.topic, m.payload, bool(m.retain)))
        self.client.on_subscribe = lambda c, u, mid, codes, p: self._ack(mid, codes)
        self.client.on_publish = lambda c, u, mid, code, p: self._ack(mid, code)
        for attempt in range(3):
            try:
                self.client.connect(HOST, club.broker.port, keepalive=30)
                break
            except ConnectionResetError:
                # The broker dropped the TLS handshake (seen once on a loaded machine).
                # paho leaves the half-made socket to the garbage collector: collected
                # here, so its ResourceWarning cannot fail whichever test runs next;
                # then asked again, as a client would.
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ResourceWarning)
                    gc.collect()
                if attempt == 2:
                    raise
        self.client.loop_start()
        assert self._answered.wait(WAIT), "the broker did not answer CONNECT"

    def _on_connect(self, client, userdata, flags, reason, properties) -> None:
        self.refused = None if not reason.is_failure else str(reason)
        self._answered.set()

    def _ack(self, mid: int, answer) -> None:
        self._acks.setdefault(mid, queue.Queue()).put(answer)

    def _wait(self, mid: int):
        return self._acks.setdefault(mid, queue.Queue()).get(timeout=WAIT)

    def subscribe(self, topic: str) -> None:
        _, mid = self.client.subscribe(topic, qos=1)
        (code,) = self._wait(mid)
        assert not code.is_failure, f"{self.user} may not subscribe to {topic}: {code}"

    def publish(self, topic: str, payload: str, *, retain: bool = False) -> str | None:
        """Publish at QoS 1; None when the broker took it, else its PUBACK's reason."""
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        code = self._wait(info.mid)
        return str(code) if code.is_failure else None

    def next_message(self) -> tuple[str, bytes, bool]:
        return self.messages.get(timeout=WAIT)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def check_setup(club: Club) -> None:
    """Every user the README makes logs in with its password, and a wrong one is refused."""
    assert sorted(club.users) == ["hall", "homeassistant", "table-1", "table-2"]
    for user in club.users:
        client = club.client(user)
        assert client.refused is None, f"{user}: {client.refused}"
        client.close()
    wrong = club.client("table-1", secret="not-the-password")
    assert wrong.refused is not None
    wrong.close()


def check_conf(club: Club) -> None:
    """Anonymous clients are refused; TLS works with the club's CA and fails without it."""
    anonymous = club.client(None)
    assert anonymous.refused is not None, "an anonymous client was let in"
    anonymous.close()
    # TLS as a client without the club's CA sees it: the system's CAs, the host name;
    # verified strictly, as Python 3.13 does by default (a CA without key usage fails).
    context = ssl.create_default_context()
    context.verify_flags |= ssl.VERIFY_X509_STRICT
    with socket.create_connection((HOST, club.broker.port), timeout=WAIT) as raw, \
            pytest.raises(ssl.SSLCertVerificationError, match="certificate verify failed"):
        context.wrap_socket(raw, server_hostname=HOST)
    context.load_verify_locations(club.ca_file)
    with socket.create_connection((HOST, club.broker.port), timeout=WAIT) as raw, \
            context.wrap_socket(raw, server_hostname=HOST) as tls:
        assert tls.version() in ("TLSv1.2", "TLSv1.3")
    # Nothing but TLS: a plain MQTT client gets no answer it could use.
    plain = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="doc-plain")
    plain.username_pw_set("hall", password("hall"))
    try:
        assert plain.connect(HOST, club.broker.port) == mqtt.MQTT_ERR_SUCCESS
        for _ in range(20):
            if plain.loop(timeout=0.5) != mqtt.MQTT_ERR_SUCCESS:
                break
        assert not plain.is_connected(), "a client without TLS was let in"
    finally:
        plain.disconnect()


def check_acl(club: Club) -> None:
    """Each table writes its own topics only and reads its offers; the hall and Home
    Assistant read every table and the hall writes only the offers. A refused publish
    never reaches anyone."""
    hall = club.client("hall")
    hall.subscribe("table-companion/#")
    ha = club.client("homeassistant")
    ha.subscribe("table-companion/#")
    ha.subscribe("homeassistant/#")
    one, two = club.client("table-1"), club.client("table-2")
    try:
        # Its own state, retained: the hall and Home Assistant read it.
        assert one.publish("table-companion/table-1/state", '{"version":1}', retain=True) is None
        assert hall.next_message() == ("table-companion/table-1/state", b'{"version":1}', False)
        assert ha.next_message()[0] == "table-companion/table-1/state"
        # Another table's topic and another table's Home Assistant config: refused.
        # Then a message of its own: whoever reads gets that one first, never the others.
        for topic in ("table-companion/table-2/state",
                      "homeassistant/sensor/table_companion_table-2/game/config"):
            assert "Not authorized" in one.publish(topic, "fake", retain=True)
        assert one.publish("homeassistant/sensor/table_companion_table-1/game/config",
                           "{}", retain=True) is None
        assert ha.next_message()[0] == "homeassistant/sensor/table_companion_table-1/game/config"
        assert one.publish("table-companion/table-1/availability", "online") is None
        assert hall.next_message()[0] == "table-companion/table-1/availability"
        assert ha.next_message()[0] == "table-companion/table-1/availability"
        # The hall publishes nothing of the tables, not even where it reads.
        for topic in ("table-companion/table-1/state", "table-companion/hall/state",
                      "homeassistant/status"):
            assert "Not authorized" in hall.publish(topic, "fake", retain=True)
        # Only the hall offers a table its next match, and only that table reads it.
        offers = "table-companion/_hall/offers/table-1"
        reader = club.client("table-1", name="-offers")
        reader.subscribe(offers)
        for forger in (one, two, ha):
            assert "Not authorized" in forger.publish(offers, "forged", retain=True)
        two.subscribe(offers)  # granted, and nothing is ever delivered (below)
        assert hall.publish(offers, '{"offer":"o-1"}', retain=True) is None
        assert reader.next_message() == (offers, b'{"offer":"o-1"}', False)
        assert hall.next_message() == (offers, b'{"offer":"o-1"}', False)
        assert ha.next_message() == (offers, b'{"offer":"o-1"}', False)
        assert hall.publish(offers, "", retain=True) is None  # withdrawn
        assert reader.next_message() == (offers, b"", False)
        for reader_ in (hall, ha):
            assert reader_.next_message() == (offers, b"", False)
        reader.close()
        assert two.publish("table-companion/table-2/state", '{"version":7}') is None
        assert hall.next_message()[0:2] == ("table-companion/table-2/state", b'{"version":7}')
        assert ha.next_message()[0:2] == ("table-companion/table-2/state", b'{"version":7}')
        # A newcomer gets the retained state a table published of itself, nothing
        # forged: every retained message comes before a live one published after.
        late = club.client("hall", name="-late")
        late.subscribe("table-companion/+/state")
        assert one.publish("table-companion/table-1/state", "marker") is None
        assert late.next_message() == ("table-companion/table-1/state", b'{"version":1}', True)
        assert late.next_message() == ("table-companion/table-1/state", b"marker", False)
        late.close()
        for reader in (hall, ha):
            assert reader.next_message()[1] == b"marker"
        # Home Assistant announces itself; a table may not.
        assert ha.publish("homeassistant/status", "online") is None
        assert "Not authorized" in one.publish("homeassistant/status", "offline")
        assert ha.next_message()[0:2] == ("homeassistant/status", b"online")
        assert hall.messages.empty() and ha.messages.empty() and two.messages.empty()
    finally:
        for client in (hall, ha, one, two):
            client.close()


def check_hall(club: Club, doc: DocBlocks) -> None:
    """The README's table (its ``[mqtt]`` section, a real TablePublisher) and the README's
    hall command, on the README's broker: the hall shows the table, live, and nothing
    another table's credentials publish for tables not its own."""
    from app.config import parse
    from drivers.mqtt import TablePublisher
    from tests.hall.hall_support import HallProcess, Watch

    url = f"mqtts://{HOST}:{club.broker.port}"
    section = doc.table.replace(f"mqtts://{DOC_HOST}", url).replace(
        "/etc/companion/ca.crt", str(club.ca_file))
    cfg = parse(tomllib.loads(section)).mqtt
    words = shlex.split(doc.hall)
    env = dict(w.split("=", 1) for w in words if re.fullmatch(r"[A-Z_]+=.*", w))
    assert list(env) == ["COMPANION_MQTT_PASSWORD"], doc.hall
    command = [w for w in words if w not in {f"{k}={v}" for k, v in env.items()}]
    assert command[:2] == ["./run", "hall"], doc.hall
    args = [url if w == f"mqtts://{DOC_HOST}" else str(club.ca_file) if w == "ca.crt" else w
            for w in command[2:]]
    user = args[args.index("--user") + 1]
    with Store(":memory:") as store, \
            HallProcess(*args, env={"COMPANION_MQTT_PASSWORD": password(user)}) as hall:
        # Another table's credentials try to fill the board with made-up tables (and to
        # pose as this one): the ACL refuses every one, and nothing of it reaches the hall.
        other = club.client(next(u for u in club.users if u.startswith("table-")
                                 and u != cfg.username))
        try:
            for n in range(600):
                assert "Not authorized" in other.publish(
                    f"table-companion/made-up-{n}/availability", "online", retain=True)
            assert "Not authorized" in other.publish(
                f"table-companion/{cfg.table}/availability", "offline", retain=True)
        finally:
            other.close()
        table = Table(store, CATALOG)
        publisher = TablePublisher(cfg, TableInfo(cfg.table, cfg.display_name, None), CATALOG,
                                   password=password(cfg.username), data=None)
        try:
            table.subscribe(publisher.show)
            table.start({"game": "center-court", "players": ["Ann", "Bob"]})
            table.act({"type": "point", "winner": 1})
            watch = Watch(hall.port).until(
                lambda w: w.connected is True and w.cards.get(cfg.table, {}).get("online")
                and (w.cards[cfg.table]["summary"] or {}).get("score") == "0-0 (0-15)")
            assert watch.cards[cfg.table]["name"] == "Table 1 (by the window)"
            assert list(watch.cards) == [cfg.table], "only the table that has a user"
            watch.close()
            # Its Home Assistant configs were taken too (the ACL lets a table write them).
            assert publisher.status == "connected", publisher.status
        finally:
            publisher.close()
        code, _, err = hall.stop()
        assert code == 0, err


def check_retire(club: Club, doc: DocBlocks, steps: str) -> None:
    """The README's steps to retire a table, run as they stand on the README's broker
    (its host, port and CA file substituted, the table's password typed on stdin).

    The table they name publishes as the README's ``[mqtt]`` section says (a real
    TablePublisher, a match on it) while Home Assistant watches
    (tests/mqtt/home_assistant.py, as the README's ``homeassistant`` user), then
    stops. After the steps: Home Assistant removed its sensors and the device,
    no template of them failed on the way, and the broker keeps nothing of it.
    """
    from app.config import parse
    from companion.topics import discovery_node
    from drivers.mqtt import TablePublisher
    from tests.mqtt.home_assistant import UNAVAILABLE, HomeAssistant

    found = re.search(r"^(\w+)=(\S+)$", steps, re.M)
    assert found, "the steps name the table in a variable first, e.g. TABLE=table-2"
    table_id = found[2]
    url = f"mqtts://{HOST}:{club.broker.port}"
    section = doc.table.replace(f"mqtts://{DOC_HOST}", url).replace(
        "/etc/companion/ca.crt", str(club.ca_file))
    cfg = replace(parse(tomllib.loads(section)).mqtt, table=table_id, username=table_id,
                  name=None)

    def as_home_assistant(client: mqtt.Client) -> None:
        client.username_pw_set("homeassistant", password("homeassistant"))
        client.tls_set(ca_certs=str(club.ca_file))
        client.connect(HOST, club.broker.port)

    if shutil.which("mosquitto_pub") is None:
        if os.environ.get("CI"):
            raise RuntimeError("CI needs mosquitto_pub (mosquitto-clients) for the README's "
                               "steps that retire a table")
        pytest.skip("mosquitto_pub is not installed (apt-get install mosquitto-clients)")
    node = discovery_node(table_id)
    with Store(":memory:") as store, HomeAssistant(
            as_home_assistant, ("table-companion/#", "homeassistant/#")) as ha:
        table = Table(store, CATALOG)
        publisher = TablePublisher(cfg, TableInfo(table_id, table_id, None), CATALOG,
                                   password=password(table_id), data=None)
        try:
            table.subscribe(publisher.show)
            table.start({"game": "center-court", "players": ["Ann", "Bob"]})
            table.act({"type": "point", "winner": 1})
            ha.wait_for(lambda: ha.shown(node).get("score") == "0-0 (0-15)", "the table")
        finally:
            publisher.close()
        ha.wait_for(lambda: set(ha.shown(node).values()) == {UNAVAILABLE}, "it offline")
        text = steps.replace(DOC_HOST, HOST).replace("8883", str(club.broker.port)).replace(
            "ca.crt", str(club.ca_file))
        result = subprocess.run(["bash", "-c", "set -euo pipefail\n" + text],
                                input=password(table_id) + "\n", capture_output=True,
                                text=True, timeout=120)
        assert result.returncode == 0, f"the README's steps failed: {result.stderr}"
        ha.wait_for(lambda: node in ha.removed_devices, "its device removed")
        assert ha.sensors == {} and ha.errors == []
    # A newcomer gets nothing retained of it: the marker comes first.
    late = club.client("homeassistant", name="-late")
    try:
        late.subscribe(f"table-companion/{table_id}/#")
        late.subscribe(f"homeassistant/sensor/{node}/#")
        late.subscribe("homeassistant/status")
        assert late.publish("homeassistant/status", "marker") is None
        assert late.next_message() == ("homeassistant/status", b"marker", False)
    finally:
        late.close()
