"""A small Server-Sent Events client over a real socket, for tests and benchmarks."""

from __future__ import annotations

import http.client
import json
from dataclasses import dataclass


@dataclass
class Event:
    id: int | None
    event: str | None
    data: str | None
    comment: bool = False

    def json(self):
        return json.loads(self.data)


class SseClient:
    """One stream: ``next_event()`` reads the next message (or keep-alive comment)."""

    def __init__(self, host: str, port: int, last_event_id: int | None = None,
                 path: str = "/api/events", timeout: float = 5.0,
                 source: str | None = None) -> None:
        """``source``: the local address to connect from (127.0.0.2... are other phones)."""
        self.conn = http.client.HTTPConnection(
            host, port, timeout=timeout, source_address=(source, 0) if source else None)
        headers = {} if last_event_id is None else {"Last-Event-ID": str(last_event_id)}
        try:
            self.conn.request("GET", path, headers=headers)
            self.sock = self.conn.sock
            self.response = self.conn.getresponse()
        except BaseException:
            # No client to close for the caller: a socket left open here is reported
            # (ResourceWarning) in whichever later test the collector runs, and fails it.
            self.conn.close()
            raise
        self.status = self.response.status

    def next_event(self, skip_comments: bool = True) -> Event:
        fields: dict[str, str] = {}
        comment = False
        while True:
            raw = self.response.readline()
            if not raw:
                raise ConnectionError("the stream ended")
            line = raw.decode().rstrip("\n")
            if line == "":
                if comment and skip_comments and not fields:
                    comment = False
                    continue
                if set(fields) == {"retry"}:
                    fields = {}
                    continue
                if fields or comment:
                    return Event(int(fields["id"]) if "id" in fields else None,
                                 fields.get("event"), fields.get("data"), comment and not fields)
                continue
            if line.startswith(":"):
                comment = True
                continue
            key, _, value = line.partition(":")
            fields[key] = value[1:] if value.startswith(" ") else value

    def next_state(self) -> Event:
        while True:
            event = self.next_event()
            if event.event == "state":
                return event

    def close(self) -> None:
        self.response.close()
        self.conn.close()
