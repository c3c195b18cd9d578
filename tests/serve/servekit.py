"""A real ``devcontext serve`` session on a free loopback port, and a plain HTTP client."""

from __future__ import annotations

import http.client
import json
import socket
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from edits import LABEL, Sandbox
from generator.serve.incremental import IncrementalBuilder
from generator.serve.session import ServeSession


@dataclass
class Served:
    box: Sandbox
    session: ServeSession
    messages: list[str]

    @property
    def port(self) -> int:
        return self.session.server.port

    @property
    def site(self) -> Path:
        return self.box.root / "site"

    def get(self, path: str, headers: dict | None = None, method: str = "GET"):
        return request(self.port, path, headers=headers, method=method)

    def json(self, path: str, headers: dict | None = None):
        status, head, body = self.get(path, headers)
        return status, json.loads(body)

    def close(self) -> None:
        self.session.close()


def serve(base: Path, *, token: str | None = None, watch: bool = True, quiet: float = 0.15) -> Served:
    box = Sandbox.make(base)
    builder = IncrementalBuilder(box.repo, box.root / "site", label=LABEL, templates=box.templates)
    messages: list[str] = []
    session = ServeSession(builder, host="127.0.0.1", port=0, token=token, quiet=quiet,
                           say=messages.append)
    session.build()
    if watch:
        session.watch()
    session.start()
    return Served(box, session, messages)


def request(port: int, path: str, *, headers: dict | None = None, method: str = "GET",
            timeout: float = 30.0) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.putrequest(method, path, skip_host=False, skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            conn.putheader(name, value)
        conn.endheaders()
        resp = conn.getresponse()
        body = resp.read()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, body
    finally:
        conn.close()


def raw(port: int, data: bytes, timeout: float = 10.0) -> bytes:
    """Send bytes as they are; return everything the server answers until it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        chunks = []
        while True:
            try:
                chunk = sock.recv(65536)
            except (ConnectionResetError, socket.timeout):
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)


def status_of(response: bytes) -> int:
    return int(response.split(b" ", 2)[1])


class EventStream:
    """Reads server-sent events from ``/__devcontext/events``; held open by ``page`` (a
    path, as a page's own snippet names it) when given."""

    def __init__(self, port: int, timeout: float = 60.0, page: str | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.conn.request("GET", "/__devcontext/events" + (f"?page={quote(page)}" if page else ""))
        self.resp = self.conn.getresponse()
        assert self.resp.status == 200
        assert self.resp.getheader("Content-Type", "").startswith("text/event-stream")

    def next(self, deadline: float = 60.0) -> tuple[str, dict]:
        """The next event (comments and retry lines skipped)."""
        end = time.monotonic() + deadline
        event, data = None, None
        while time.monotonic() < end:
            line = self.resp.fp.readline()
            if not line:
                raise EOFError("the event stream closed")
            text = line.decode("utf-8").rstrip("\n")
            if text.startswith("event: "):
                event = text[len("event: "):]
            elif text.startswith("data: "):
                data = json.loads(text[len("data: "):])
            elif text == "" and event is not None:
                return event, data or {}
        raise TimeoutError("no event in time")

    def close(self) -> None:
        self.conn.close()
