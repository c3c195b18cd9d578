"""Reading one request's line and headers straight from the socket, within bounds: the
request line, each header line, all headers together and their number (414, 431), and a
deadline for the whole head from its first byte (408) — so a client trickling bytes, each
recv alone beating any per-read timeout, cannot hold a thread."""

from __future__ import annotations

import socket
import time

from .static import Refused

__all__ = ["read_head", "MAX_REQUEST_LINE", "MAX_HEADER_LINE", "MAX_HEADER_BYTES", "MAX_HEADERS"]

MAX_REQUEST_LINE = 8192
MAX_HEADER_LINE = 8192
MAX_HEADER_BYTES = 32768
MAX_HEADERS = 64


def read_head(sock: socket.socket, buf: bytes, idle_timeout: float, head_timeout: float
              ) -> tuple[list[bytes] | None, bytes]:
    """``(lines, rest)``: the next request's line and header lines (each with its line end)
    and the bytes after the head (the next request's, kept for it); ``lines`` is None when
    the client closed or stayed silent for ``idle_timeout``. Raises :class:`Refused`."""
    lines: list[bytes] = []
    pos = total = 0
    deadline = time.monotonic() + head_timeout if buf else None
    while True:
        nl = buf.find(b"\n", pos)
        if nl < 0:
            partial = len(buf) - pos
            if not lines and partial > MAX_REQUEST_LINE:
                raise Refused(414, "uri_too_long",
                              f"the request line is longer than {MAX_REQUEST_LINE} bytes")
            if lines and partial > MAX_HEADER_LINE:
                raise Refused(431, "header_too_large",
                              f"a header line is longer than {MAX_HEADER_LINE} bytes")
            if lines and total + partial > MAX_HEADER_BYTES:
                raise Refused(431, "header_too_large", f"the headers exceed {MAX_HEADER_BYTES} bytes")
            if deadline is None:
                sock.settimeout(idle_timeout)
            else:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Refused(408, "request_timeout", "the request line and headers "
                                  f"did not arrive within {head_timeout:g} seconds")
                sock.settimeout(left)
            try:
                chunk = sock.recv(65536)
            except (TimeoutError, socket.timeout):
                if deadline is None:
                    return None, b""  # idle: close without a word
                continue  # the deadline check above answers 408
            if not chunk:
                return None, b""
            if deadline is None:
                deadline = time.monotonic() + head_timeout
            buf = buf[pos:] + chunk
            pos = 0
            continue
        line = buf[pos:nl + 1]
        pos = nl + 1
        if not lines:
            if len(line) > MAX_REQUEST_LINE:
                raise Refused(414, "uri_too_long",
                              f"the request line is longer than {MAX_REQUEST_LINE} bytes")
            lines.append(line)
            continue
        if len(line) > MAX_HEADER_LINE:
            raise Refused(431, "header_too_large",
                          f"a header line is longer than {MAX_HEADER_LINE} bytes")
        total += len(line)
        if total > MAX_HEADER_BYTES:
            raise Refused(431, "header_too_large", f"the headers exceed {MAX_HEADER_BYTES} bytes")
        if line in (b"\r\n", b"\n"):
            return lines, buf[pos:]
        lines.append(line)
        if len(lines) - 1 > MAX_HEADERS:
            raise Refused(431, "too_many_headers", f"more than {MAX_HEADERS} headers")
