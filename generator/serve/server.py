"""The HTTP side of ``devcontext serve``: :class:`DevServer` binds, serves on a thread or
in the foreground, and stops. The work is split by job: :mod:`.static` (which file a path
names; never one outside the output directory), :mod:`.request_head` (a request's head read
within bounds), :mod:`.handler` (one connection: routing, files, the API, the event stream)
and :mod:`.httpd` (the listening socket, with a bound on connections). Nothing here knows
the engine: only the output directory, the API handler, the live-reload hub and what is
pending after an edit.
"""

from __future__ import annotations

import errno
import threading
from pathlib import Path

from .handler import Handler
from .httpd import ApiHandler, HttpServer, PageSource
from .livereload import EventHub
from .request_head import MAX_HEADER_BYTES, MAX_HEADER_LINE, MAX_HEADERS, MAX_REQUEST_LINE
from .static import ROOT_BASE, resolve_static, with_root_base

__all__ = ["DevServer", "PortInUse", "LOOPBACK_HOSTS", "MAX_REQUEST_LINE", "MAX_HEADER_LINE",
           "MAX_HEADER_BYTES", "MAX_HEADERS", "ROOT_BASE", "with_root_base", "resolve_static",
           "Handler", "HttpServer"]

LOOPBACK_HOSTS = ("127.0.0.1", "::1", "localhost")


class PortInUse(OSError):
    pass


class DevServer:
    """Binds at construction (so a taken port is reported before any build), serves on
    :meth:`serve_forever` or :meth:`start` (a thread), stops with :meth:`close`."""

    def __init__(self, out_dir: Path, *, host: str = "127.0.0.1", port: int = 8000,
                 hub: EventHub | None = None, api: ApiHandler | None = None,
                 api_routes: tuple[str, ...] = (), token: str | None = None,
                 pending: PageSource | None = None) -> None:
        self.hub = hub or EventHub()
        try:
            self.httpd = HttpServer((host, port), Handler, out_dir=out_dir, api=api, hub=self.hub,
                                    token=token, api_routes=api_routes, pending=pending)
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                raise PortInUse(exc.errno, f"port {port} on {host} is "
                                f"{'taken' if exc.errno == errno.EADDRINUSE else 'not allowed'}"
                                f"; choose another with --port") from None
            raise
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    @property
    def host(self) -> str:
        return self.httpd.server_address[0]

    @property
    def url(self) -> str:
        host = self.host
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    def serve_forever(self) -> None:
        self.httpd.serve_forever(poll_interval=0.2)

    def start(self) -> None:
        self._thread = threading.Thread(target=self.serve_forever, name="devcontext-http",
                                        daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.httpd.stopping.set()
        self.hub.close()
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join(5.0)
        self.httpd.server_close()
