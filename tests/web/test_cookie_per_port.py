"""Two tables tried on one PC (one address, two ports) keep their own host sessions
(issue #37): a browser sends an address's cookies to every port, so one cookie name for
both logged the first table's host out at the second's login. The cookie jar here treats
ports as a browser does (RFC 6265: a cookie is the host's, whatever the port)."""

from __future__ import annotations

import http.cookiejar
import json
import urllib.request

from app.config import Config
from app.runtime import Companion, WebOptions

PIN = "2468"


def test_two_tables_on_one_address_keep_their_own_host_sessions(tmp_path):
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def call(base: str, path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(base + path, data=data,
                                         headers={"Content-Type": "application/json"})
        with browser.open(request, timeout=10) as answer:
            return json.loads(answer.read())

    web = WebOptions(host="127.0.0.1", port=0, pin=PIN, keepalive=1.0)
    with Companion(Config(), sim=True, data=tmp_path / "one", web=web) as one, \
            Companion(Config(), sim=True, data=tmp_path / "two", web=web) as two:
        first, second = one.urls[0], two.urls[0]
        call(first, "api/login", {"pin": PIN})
        call(second, "api/login", {"pin": PIN})
        assert call(first, "api/session")["host"] is True
        assert call(second, "api/session")["host"] is True
        names = {c.name for c in jar}
        assert len(names) == 2 and all(n.startswith("companion_host_") for n in names), names
