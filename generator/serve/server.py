"""The HTTP side of ``devcontext serve`` (stdlib ``ThreadingHTTPServer``).

It serves the output directory — never a file outside it: ``..`` segments (raw or
percent-encoded), backslashes, NUL bytes and dot-files are refused, and a path whose real
location (symbolic links resolved) leaves the directory is not found. HTML responses get the
live-reload snippet injected; the built files are never changed. The API routes (given as a
handler) take precedence over files of the same name and, with a token, need
``Authorization: Bearer <token>``. Only GET and HEAD; the request line, each header line,
all headers together and their number are bounded (414, 431), and so is time: a whole
request head must arrive within ``head_timeout`` of its first byte (408, then closed), an
idle connection is closed after ``timeout``, an answer must go out within
``write_timeout``, and at most ``max_connections`` are served at once (503 beyond). Nothing
here knows the engine: only the output directory, the API handler and the live-reload hub.
"""

from __future__ import annotations

import email.parser
import hmac
import http.client
import logging
import mimetypes
import os
import posixpath
import queue
import re
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable
from urllib.parse import parse_qsl, unquote, urlsplit

from ..jsonio import canonical_json
from .livereload import (
    EVENTS_PATH,
    KEEPALIVE_SECONDS,
    STATUS_PATH,
    EventHub,
    format_event,
    inject,
)

__all__ = ["DevServer", "PortInUse", "LOOPBACK_HOSTS", "MAX_REQUEST_LINE", "MAX_HEADER_LINE",
           "MAX_HEADER_BYTES", "MAX_HEADERS"]

log = logging.getLogger("devcontext.serve")

MAX_REQUEST_LINE = 8192
MAX_HEADER_LINE = 8192
MAX_HEADER_BYTES = 32768
MAX_HEADERS = 64
LOOPBACK_HOSTS = ("127.0.0.1", "::1", "localhost")

ApiHandler = Callable[[str, list[tuple[str, str]]], tuple[int, bytes]]

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".xml": "application/xml; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",  # the contexts' packs
}


class PortInUse(OSError):
    pass


def _error_json(code: str, message: str, parameter: str | None = None) -> bytes:
    error = {"code": code, "message": message}
    if parameter is not None:
        error["parameter"] = parameter
    return canonical_json({"error": error})


class _Refused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def resolve_static(out_dir: str, raw_path: str) -> str:
    """The real path of the file ``raw_path`` names inside ``out_dir`` (realpath), or raise
    :class:`_Refused` (400 for a malformed or hostile path, 404 for nothing there)."""
    if "\\" in raw_path or "\0" in raw_path:
        raise _Refused(400, "bad_path", "backslashes and NUL bytes are not allowed in a path")
    try:
        decoded = unquote(raw_path, errors="strict")
    except UnicodeDecodeError:
        raise _Refused(400, "bad_path", "the path is not valid UTF-8 once decoded") from None
    if "\\" in decoded or "\0" in decoded:
        raise _Refused(400, "bad_path", "backslashes and NUL bytes are not allowed in a path")
    if not decoded.startswith("/"):
        raise _Refused(400, "bad_path", "the path must start with /")
    parts = decoded.split("/")
    if any(p in (".", "..") for p in parts):
        raise _Refused(400, "bad_path", "`.` and `..` segments are not allowed in a path")
    if any(p.startswith(".") for p in parts if p):
        raise _Refused(404, "not_found", "no such page")
    clean = [p for p in parts if p]
    candidate = os.path.join(out_dir, *clean) if clean else out_dir
    real = os.path.realpath(candidate)
    if real != out_dir and not real.startswith(out_dir + os.sep):
        raise _Refused(404, "not_found", "no such page")
    return real


_HEAD_OPEN = re.compile(rb"<head(?:\s[^>]*)?>", re.IGNORECASE)
#: Put first in a served 404 page: the site is served at ``/``, and the first ``<base>`` of
#: a page wins, so the page's links (relative to the site root) work at any depth, whether
#: the page was built with ``--base-url`` (its own ``<base>`` names the public host) or not.
ROOT_BASE = b'<base href="/">'


def with_root_base(page: bytes) -> bytes:
    """The page with ``<base href="/">`` right after its ``<head>`` (first when none)."""
    found = _HEAD_OPEN.search(page)
    if found is None:
        return ROOT_BASE + b"\n" + page
    return page[: found.end()] + b"\n" + ROOT_BASE + page[found.end():]


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"
    protocol_version = "HTTP/1.1"
    server_version = "devcontext"
    sys_version = ""
    # small responses go out at once (no 40 ms wait for a delayed ACK under Nagle)
    disable_nagle_algorithm = True
    #: Seconds a connection may sit idle, waiting for its next request, before it is closed
    #: (without an answer), so a silent client cannot hold a thread for ever.
    timeout = 60
    #: Seconds a client may take to send a whole request line and headers, from its first
    #: byte: a client trickling bytes (each recv alone would beat any per-read timeout) is
    #: answered 408 and cut off, and its thread goes back to serving others.
    head_timeout = 10.0
    #: Seconds an answer may take to go out (a client that does not read it is cut off).
    write_timeout = 30.0

    def version_string(self) -> str:
        return self.server_version

    # -- request parsing, with limits ----------------------------------------------------

    def _read_head(self) -> list[bytes] | None:
        """The next request's line and header lines (each with its line end), read straight
        from the socket within the limits and the deadline; None when the client closed or
        stayed silent. Bytes after the head stay for the next request on the connection."""
        sock = self.connection
        buf = getattr(self, "_pending", b"")
        lines: list[bytes] = []
        pos = total = 0
        deadline = time.monotonic() + self.head_timeout if buf else None
        while True:
            nl = buf.find(b"\n", pos)
            if nl < 0:
                partial = len(buf) - pos
                if not lines and partial > MAX_REQUEST_LINE:
                    raise _Refused(414, "uri_too_long",
                                   f"the request line is longer than {MAX_REQUEST_LINE} bytes")
                if lines and partial > MAX_HEADER_LINE:
                    raise _Refused(431, "header_too_large",
                                   f"a header line is longer than {MAX_HEADER_LINE} bytes")
                if lines and total + partial > MAX_HEADER_BYTES:
                    raise _Refused(431, "header_too_large",
                                   f"the headers exceed {MAX_HEADER_BYTES} bytes")
                if deadline is None:
                    sock.settimeout(self.timeout)
                else:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise _Refused(408, "request_timeout", "the request line and headers "
                                       f"did not arrive within {self.head_timeout:g} seconds")
                    sock.settimeout(left)
                try:
                    chunk = sock.recv(65536)
                except (TimeoutError, socket.timeout):
                    if deadline is None:
                        return None  # idle: close without a word
                    continue  # the deadline check above answers 408
                if not chunk:
                    return None
                if deadline is None:
                    deadline = time.monotonic() + self.head_timeout
                buf = buf[pos:] + chunk
                pos = 0
                continue
            line = buf[pos:nl + 1]
            pos = nl + 1
            if not lines:
                if len(line) > MAX_REQUEST_LINE:
                    raise _Refused(414, "uri_too_long",
                                   f"the request line is longer than {MAX_REQUEST_LINE} bytes")
                lines.append(line)
                continue
            if len(line) > MAX_HEADER_LINE:
                raise _Refused(431, "header_too_large",
                               f"a header line is longer than {MAX_HEADER_LINE} bytes")
            total += len(line)
            if total > MAX_HEADER_BYTES:
                raise _Refused(431, "header_too_large", f"the headers exceed {MAX_HEADER_BYTES} bytes")
            if line in (b"\r\n", b"\n"):
                self._pending = buf[pos:]
                return lines
            lines.append(line)
            if len(lines) - 1 > MAX_HEADERS:
                raise _Refused(431, "too_many_headers", f"more than {MAX_HEADERS} headers")

    def handle_one_request(self) -> None:
        self.close_connection = True
        self.command, self.request_version, self.requestline = "", "HTTP/1.0", ""
        try:
            head = self._read_head()
        except _Refused as refused:
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
        self._send(status, _error_json(code, message), "application/json", extra)

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
            self._events()
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

    def _static(self, raw_path: str) -> None:
        out_dir = self.server.out_dir_real()
        try:
            real = resolve_static(out_dir, raw_path)
        except _Refused as refused:
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
        if not os.path.isfile(real):
            self._not_found()
            return
        try:
            with open(real, "rb") as handle:
                body = handle.read()
        except OSError:
            self._not_found()
            return
        ext = posixpath.splitext(real)[1].lower()
        content_type = _TYPES.get(ext) or mimetypes.guess_type(real)[0] or "application/octet-stream"
        if ext == ".html":
            body = inject(body, self.server.hub.status)
        self._send(200, body, content_type)

    def _not_found(self) -> None:
        page = os.path.join(self.server.out_dir_real(), "404.html")
        try:
            with open(page, "rb") as handle:
                body = inject(with_root_base(handle.read()), self.server.hub.status)
            self._send(404, body, "text/html; charset=utf-8")
        except OSError:
            self._send(404, b"not found\n", "text/plain; charset=utf-8")

    def _events(self) -> None:
        hub = self.server.hub
        q, status = hub.subscribe()
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


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64
    #: Connections served at once (one thread each); one more is answered 503 and closed
    #: at once, so a flood of clients cannot exhaust the threads or the memory.
    max_connections = 256

    def process_request(self, request, client_address) -> None:
        with self._active_lock:
            full = self._active >= self.max_connections
            if not full:
                self._active += 1
        if full:
            try:
                request.settimeout(1.0)
                body = _error_json("busy", f"the server is serving {self.max_connections} "
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

    def __init__(self, address, handler, *, out_dir: Path, api: ApiHandler | None,
                 hub: EventHub, token: str | None, api_routes: tuple[str, ...]) -> None:
        self.out_dir = Path(out_dir)
        self.api = api or (lambda route, pairs: (404, _error_json("not_found", "no API here")))
        self.api_routes = api_routes if api is not None else ()
        self.hub = hub
        self.token = token
        self.stopping = threading.Event()
        self._active = 0
        self._active_lock = threading.Lock()
        host = address[0]
        if ":" in host:
            self.address_family = socket.AF_INET6
        super().__init__(address, handler)

    def out_dir_real(self) -> str:
        return os.path.realpath(self.out_dir)


class DevServer:
    """Binds at construction (so a taken port is reported before any build), serves on
    :meth:`serve_forever` or :meth:`start` (a thread), stops with :meth:`close`."""

    def __init__(self, out_dir: Path, *, host: str = "127.0.0.1", port: int = 8000,
                 hub: EventHub | None = None, api: ApiHandler | None = None,
                 api_routes: tuple[str, ...] = (), token: str | None = None) -> None:
        self.hub = hub or EventHub()
        try:
            self.httpd = _Server((host, port), _Handler, out_dir=out_dir, api=api, hub=self.hub,
                                 token=token, api_routes=api_routes)
        except OSError as exc:
            import errno

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
