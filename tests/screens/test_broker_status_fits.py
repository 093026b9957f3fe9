"""The MQTT broker's status on the OLED's info screen (beside the QR code: three lines of
14 small letters) in every shipped language: every status the table can show, each
line whole, no word cut (issue #40: every OLED string fits its box). The status is the
short one; the log and the hall say the long one."""

from __future__ import annotations

import socket
import ssl

import pytest
import segno
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from companion.i18n import LANGUAGES, _, translate
from companion.ui.canvas import KEYS_TOP, SMALL, WIDTH, text_width, wrap
from companion.ui.menus import STATUS_LINES, UNSERVED_STATUS_LINES
from drivers.broker import REFUSED, BrokerAddress, closed_unanswered, describe, refusal

#: The address of the info screen with the widest QR code a table's address makes.
ADDRESS = "http://192.168.100.123:8080/"
#: The reason an ACL gives (the README's ACL refuses with it), in the refusals' statuses.
ACL_REASON = _("not authorized")


def room() -> int:
    """The status's width beside the QR code, as companion/ui/menus.py info draws it."""
    size = int(segno.make(ADDRESS, error="l", micro=False).symbol_size(border=1)[0])
    return WIDTH - size * max(1, (KEYS_TOP - 1) // size) - 3


def verification(message: str) -> ssl.SSLCertVerificationError:
    """A certificate refused as the ssl module raises it (its verify_message set)."""
    err = ssl.SSLCertVerificationError(1, f"[SSL: CERTIFICATE_VERIFY_FAILED] {message}")
    err.verify_message = message
    err.verify_code = 18
    return err


def handshake(reason: str) -> ssl.SSLError:
    """A TLS handshake failed as the ssl module raises it (its reason set)."""
    err = ssl.SSLError(1, f"[SSL: {reason}] {reason.lower().replace('_', ' ')}")
    err.reason = reason
    return err


def statuses() -> list[str]:
    """Every short status: the connection's own (drivers/mqtt.py), each failed attempt's
    (drivers/broker.py describe), each broker refusal's, and each publish refused."""
    plain, tls = BrokerAddress("broker.local", 1883, False), BrokerAddress("b", 8883, True)
    errors = [verification("Hostname mismatch, certificate is not valid for 'b'"),
              verification("self-signed certificate"), handshake("WRONG_VERSION_NUMBER"),
              socket.gaierror(-2, "Name or service not known"), ConnectionRefusedError(),
              TimeoutError(), OSError(113, "No route to host"), ValueError("odd")]
    said = [describe(err, plain)[0] for err in errors]
    said.append(describe(ConnectionResetError(), tls)[0])
    said += [closed_unanswered(plain)[0], closed_unanswered(tls)[0]]
    said += [refusal(ReasonCode(PacketTypes.CONNACK, name)) for name in REFUSED]
    said += [_("connecting"), _("connected"), _("connection lost"), _("no answer: timed out"),
             _("taken over by another companion"), _("taken over by another companion?")]
    said += [_(m, reason=ACL_REASON) for m in ("may not publish: {reason}",
                                                "HA refused: {reason}",
                                                "old id not cleared: {reason}",
                                                "offers refused: {reason}")]
    return said


@pytest.mark.parametrize("lang", ["de", *(lang for lang in LANGUAGES if lang != "de")])
def test_every_broker_status_is_whole_beside_the_qr_code(lang):
    width = room()
    assert width >= 60  # the layout this test measures
    found = statuses()
    assert len({str(s) for s in found}) >= 25
    for status in found:
        lines = wrap(translate(status, lang), width, SMALL)
        assert len(lines) <= STATUS_LINES, (lang, status, lines)
        assert all(text_width(line, SMALL) <= width for line in lines), (lang, lines)
        # No word broken inside: each line's words are the status's words.
        assert set(" ".join(lines).split()) == set(translate(status, lang).split()), lines
        # Without a phone page (no QR code): across the screen, after its label.
        said = translate(_("MQTT: {status}", status=status), lang)
        lines = wrap(said, WIDTH - 2, SMALL)
        assert len(lines) <= UNSERVED_STATUS_LINES, (lang, lines)
        assert set(" ".join(lines).split()) == set(said.split()), lines
