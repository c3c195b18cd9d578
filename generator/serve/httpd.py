"""The listening socket: stdlib ``ThreadingHTTPServer`` with one thread per connection and
at most ``max_connections`` served at once (one more is answered 503 and closed at once, so
a flood of clients cannot exhaust the threads or the memory). It holds what the handler
needs — the output directory, the API, the live-reload hub, the token — and nothing of the
engine."""

from __future__ import annotations

import os
import socket
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Callable

from .livereload import EventHub
from .static import error_json

__all__ = ["HttpServer", "ApiHandler", "PageSource"]

ApiHandler = Callable[[str, list[tuple[str, str]]], tuple[int, bytes]]
#: Given a site-relative path, the bytes the site is about to hold there when the file is
#: still pending after an edit (made on demand), else None: the file on disk is current.
PageSource = Callable[[str], "bytes | None"]


class HttpServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64
    #: Connections served at once (one thread each); one more is answered 503 and closed.
    max_connections = 256

    def __init__(self, address, handler, *, out_dir: Path, api: ApiHandler | None,
                 hub: EventHub, token: str | None, api_routes: tuple[str, ...],
                 pending: PageSource | None = None) -> None:
        self.out_dir = Path(out_dir)
        self.api = api or (lambda route, pairs: (404, error_json("not_found", "no API here")))
        self.api_routes = api_routes if api is not None else ()
        self.hub = hub
        self.token = token
        self.pending: PageSource = pending or (lambda rel: None)
        self.stopping = threading.Event()
        self._active = 0
        self._active_lock = threading.Lock()
        host = address[0]
        if ":" in host:
            self.address_family = socket.AF_INET6
        super().__init__(address, handler)

    def process_request(self, request, client_address) -> None:
        with self._active_lock:
            full = self._active >= self.max_connections
            if not full:
                self._active += 1
        if full:
            try:
                request.settimeout(1.0)
                body = error_json("busy", f"the server is serving {self.max_connections} "
                                  "connections already; try again in a moment")
                request.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: "
                                b"application/json\r\nRetry-After: 1\r\nConnection: close\r\n"
                                b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._release()
            raise

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._release()

    def _release(self) -> None:
        with self._active_lock:
            self._active -= 1

    @property
    def active_connections(self) -> int:
        return self._active

    def out_dir_real(self) -> str:
        return os.path.realpath(self.out_dir)
