"""The server's time limits: a client that trickles its request (each byte in time for any
per-read timeout) or stops half-way is answered 408 and cut off once ``head_timeout`` has
passed since its first byte, while others are served; pipelined requests on one kept-alive
connection are all answered; more connections than ``max_connections`` are refused 503."""

from __future__ import annotations

import re
import shutil
import socket
import tempfile
import time
from pathlib import Path

import pytest

from generator.serve import handler as handler_module
from servekit import request, serve


@pytest.fixture(scope="module")
def served():
    base = Path(tempfile.mkdtemp(prefix="devcontext-slow-"))
    s = serve(base, watch=False)
    try:
        yield s
    finally:
        s.close()
        shutil.rmtree(base, ignore_errors=True)


def _read_all(sock: socket.socket) -> bytes:
    chunks = []
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def test_a_trickling_client_is_answered_408_and_cut_off(served, monkeypatch):
    monkeypatch.setattr(handler_module.Handler, "head_timeout", 1.5)
    began = time.monotonic()
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as sock:
        answered = None
        for byte in b"GET /index.html HTTP/1.1\r\nX-Slow: " + b"s" * 200:
            try:
                sock.send(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                break
            time.sleep(0.1)
            # others are served meanwhile, at once
            if answered is None:
                t0 = time.monotonic()
                assert request(served.port, "/plan.html")[0] == 200
                answered = time.monotonic() - t0
            if time.monotonic() - began > 8:
                break
        answer = _read_all(sock)
    took = time.monotonic() - began
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
    assert b'"code":"request_timeout"' in answer and b"within 1.5 seconds" in answer
    assert 1.4 <= took < 4.0 and answered < 1.0


def test_a_client_that_stops_half_way_is_cut_off(served, monkeypatch):
    monkeypatch.setattr(handler_module.Handler, "head_timeout", 1.0)
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        began = time.monotonic()
        answer = _read_all(sock)
    assert answer.startswith(b"HTTP/1.1 408 ") and time.monotonic() - began < 4.0


def test_pipelined_requests_on_one_connection_are_all_answered(served):
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as sock:
        sock.sendall(b"GET /plan.html HTTP/1.1\r\nHost: x\r\n\r\n"
                     b"GET /nope.html HTTP/1.1\r\nHost: x\r\n\r\n"
                     b"HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = _read_all(sock)
    statuses = re.findall(rb"HTTP/1\.1 (\d{3}) ", answer)
    assert statuses == [b"200", b"404", b"200"]


def test_connections_beyond_the_limit_are_refused_503(served, monkeypatch):
    monkeypatch.setattr(served.session.server.httpd, "max_connections", 2)
    held = [socket.create_connection(("127.0.0.1", served.port), timeout=10) for _ in range(2)]
    try:
        deadline = time.monotonic() + 5
        while served.session.server.httpd.active_connections < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        with socket.create_connection(("127.0.0.1", served.port), timeout=10) as extra:
            answer = _read_all(extra)
        assert answer.startswith(b"HTTP/1.1 503 ") and b'"code":"busy"' in answer
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + 5
    while served.session.server.httpd.active_connections and time.monotonic() < deadline:
        time.sleep(0.02)
    assert request(served.port, "/")[0] == 200
