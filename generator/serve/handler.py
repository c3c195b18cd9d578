"""One HTTP connection of ``devcontext serve``: requests parsed within bounds
(:mod:`.request_head`), routed to the API (which takes precedence over files of the same
name and, with a token, needs ``Authorization: Bearer <token>``), the live-reload event
stream and status, or a file of the output directory (:mod:`.static`). HTML responses get
the live-reload snippet injected; the built files are never changed. A file still pending
after an edit is taken from the server's ``pending`` source — made on demand — rather than
served stale from disk. Only GET and HEAD; an idle connection is closed after ``timeout``,
a request head must arrive within ``head_timeout`` of its first byte, and an answer must go
out within ``write_timeout``."""

from __future__ import annotations

import email.parser
import hmac
import http.client
import logging
import os
import queue
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlsplit

from ..jsonio import canonical_json
from .livereload import EVENTS_PATH, KEEPALIVE_SECONDS, STATUS_PATH, EventHub, format_event, inject
from .request_head import read_head
from .static import Refused, content_type, error_json, rel_of, resolve_static, with_root_base

if TYPE_CHECKING:
    from .httpd import HttpServer

__all__ = ["Handler"]

log = logging.getLogger("devcontext.serve")


class Handler(BaseHTTPRequestHandler):
    server: "HttpServer"
    protocol_version = "HTTP/1.1"
    server_version = "devcontext"
    sys_version = ""
    # small responses go out at once (no 40 ms wait for a delayed ACK under Nagle)
    disable_nagle_algorithm = True
    #: Seconds a connection may sit idle, waiting for its next request, before it is closed
    #: (without an answer), so a silent client cannot hold a thread for ever.
    timeout = 60
    #: Seconds a client may take to send a whole request line and headers, from its first
    #: byte: a client trickling bytes is answered 408 and cut off.
    head_timeout = 10.0
    #: Seconds an answer may take to go out (a client that does not read it is cut off).
    write_timeout = 30.0

    def version_string(self) -> str:
        return self.server_version

    def handle_one_request(self) -> None:
        self.close_connection = True
        self.command, self.request_version, self.requestline = "", "HTTP/1.0", ""
        try:
            head, self._pending = read_head(self.connection, getattr(self, "_pending", b""),
                                            self.timeout, self.head_timeout)
        except Refused as refused:
            self._pending = b""
            try:
                self.connection.settimeout(self.write_timeout)
                self._fail(refused.status, refused.code, refused.message)
            except OSError:
                pass
            return
        except OSError:
            return
        if head is None:
            return
        self.connection.settimeout(self.write_timeout)
        line, raw_headers = head[0], head[1:]
        self.raw_requestline = line
        self.requestline = line.decode("iso-8859-1").rstrip("\r\n")
        words = self.requestline.split()
        if len(words) != 3:
            self._fail(400, "bad_request", "the request line is not `METHOD target HTTP/1.x`")
            return
        command, target, version = words
        if not version.startswith("HTTP/"):
            self._fail(400, "bad_request", "the request line does not end in an HTTP version")
            return
        if version not in ("HTTP/1.0", "HTTP/1.1"):
            self._fail(505, "version_not_supported", "only HTTP/1.0 and HTTP/1.1 are spoken here")
            return
        self.command, self.path, self.request_version = command, target, version
        text = b"".join(raw_headers).decode("iso-8859-1")
        self.headers = email.parser.Parser(_class=http.client.HTTPMessage).parsestr(text)
        connection = (self.headers.get("Connection") or "").lower()
        keep = (version == "HTTP/1.1" and "close" not in connection) or (
            version == "HTTP/1.0" and "keep-alive" in connection)
        has_body = bool(self.headers.get("Transfer-Encoding")) or (
            (self.headers.get("Content-Length") or "0").strip() not in ("", "0"))
        # A body we do not read would be taken for the next request: close after answering.
        self.close_connection = not keep or has_body
        if command not in ("GET", "HEAD"):
            self._fail(405, "method_not_allowed", f"{command} is not allowed; only GET and HEAD",
                       extra={"Allow": "GET, HEAD"})
            self.close_connection = True
            return
        try:
            self._dispatch()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception:  # noqa: BLE001 - no traceback to the client
            log.exception("request failed: %s", self.requestline)
            self.close_connection = True
            try:
                self._fail(500, "internal_error", "the server failed to answer this request")
            except OSError:
                pass
        try:
            self.wfile.flush()
        except OSError:
            self.close_connection = True

    # -- responses -------------------------------------------------------------------------

    def _send(self, status: int, body: bytes, content_type: str, extra: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        # headers and body in one write
        self._headers_buffer.append(b"\r\n")
        head = b"".join(self._headers_buffer)
        self._headers_buffer = []
        self.wfile.write(head if self.command == "HEAD" else head + body)

    def _fail(self, status: int, code: str, message: str, extra: dict | None = None) -> None:
        if status >= 400 and status not in (401, 404, 405):
            self.close_connection = True
        self._send(status, error_json(code, message), "application/json", extra)

    def log_message(self, format: str, *args) -> None:  # noqa: A002
        log.debug("%s %s", self.address_string(), format % args)

    def log_error(self, format: str, *args) -> None:  # noqa: A002
        log.info("%s %s", self.address_string(), format % args)

    # -- routing ---------------------------------------------------------------------------

    def _dispatch(self) -> None:
        target = self.path
        if target.startswith(("http://", "https://")):  # absolute-form: keep path and query
            parts = urlsplit(target)
            target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        if not target.startswith("/"):
            self._fail(400, "bad_path", "the request target must start with /")
            return
        raw_path, _, query = target.partition("?")
        raw_path = raw_path.split("#", 1)[0]
        srv = self.server
        if raw_path in srv.api_routes:
            self._api(raw_path, query)
            return
        if raw_path == EVENTS_PATH:
            self._events(query)
            return
        if raw_path == STATUS_PATH:
            self._send(200, canonical_json(srv.hub.status.wire()), "application/json")
            return
        self._static(raw_path)

    def _authorised(self) -> bool:
        token = self.server.token
        if token is None:
            return True
        given = self.headers.get("Authorization") or ""
        scheme, _, value = given.partition(" ")
        if scheme.lower() != "bearer":
            return False
        return hmac.compare_digest(value.strip().encode("utf-8"), token.encode("utf-8"))

    def _api(self, route: str, query: str) -> None:
        if not self._authorised():
            self._fail(401, "unauthorized", "this API needs `Authorization: Bearer <token>` "
                       "with the token the server was started with",
                       extra={"WWW-Authenticate": 'Bearer realm="devcontext"'})
            return
        try:
            pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=False,
                              errors="strict", max_num_fields=200)
        except (ValueError, UnicodeDecodeError) as exc:
            self._fail(400, "invalid_request", f"the query string cannot be read: {exc}")
            return
        status, body = self.server.api(route, pairs)
        self._send(status, body, "application/json")

    def _page_rel(self, raw_path: str) -> str | None:
        """The site-relative file a page path names (``index.html`` for a directory), or
        None for a path that names nothing the site may hold."""
        out_dir = self.server.out_dir_real()
        try:
            real = resolve_static(out_dir, raw_path)
        except Refused:
            return None
        if raw_path.endswith("/") or real == out_dir:
            real = os.path.join(real, "index.html")
        return rel_of(out_dir, real)

    def _static(self, raw_path: str) -> None:
        out_dir = self.server.out_dir_real()
        try:
            real = resolve_static(out_dir, raw_path)
        except Refused as refused:
            if refused.status == 404:
                self._not_found()
            else:
                self._fail(refused.status, refused.code, refused.message)
            return
        if os.path.isdir(real):
            if not raw_path.endswith("/"):
                self._send(301, b"", "text/plain; charset=utf-8",
                           {"Location": raw_path + "/"})
                return
            real = os.path.join(real, "index.html")
        body = self.server.pending(rel_of(out_dir, real))  # an edit not yet on disk here
        if body is None:
            if not os.path.isfile(real):
                self._not_found()
                return
            try:
                with open(real, "rb") as handle:
                    body = handle.read()
            except OSError:
                self._not_found()
                return
        kind = content_type(real)
        if real.lower().endswith(".html"):
            body = inject(body, self.server.hub.status)
        self._send(200, body, kind)

    def _not_found(self) -> None:
        page = os.path.join(self.server.out_dir_real(), "404.html")
        try:
            with open(page, "rb") as handle:
                body = inject(with_root_base(handle.read()), self.server.hub.status)
            self._send(404, body, "text/html; charset=utf-8")
        except OSError:
            self._send(404, b"not found\n", "text/plain; charset=utf-8")

    def _events(self, query: str) -> None:
        """The live-reload stream; ``?page=<path>`` names the page that holds it open (the
        server renders open pages first after an edit)."""
        hub = self.server.hub
        page = None
        try:
            pairs = parse_qsl(query, max_num_fields=8)
        except ValueError:
            pairs = []
        for name, value in pairs:
            if name == "page":
                page = self._page_rel(value)
        q, status = hub.subscribe(page)
        self.close_connection = True
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.send_header("X-Accel-Buffering", "no")
            self.end_headers()
            if self.command == "HEAD":
                return
            self.wfile.write(b"retry: 1000\n\n" + format_event("hello", status.wire()))
            self.wfile.flush()
            while not self.server.stopping.is_set():
                try:
                    item = q.get(timeout=KEEPALIVE_SECONDS)
                except queue.Empty:
                    self.wfile.write(b": keep-alive\n\n")
                    self.wfile.flush()
                    continue
                if EventHub.is_closed(item):
                    return
                event, data = item
                self.wfile.write(format_event(event, data))
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            return
        finally:
            hub.unsubscribe(q)
