"""Which file of the output directory a request names, and how it is typed: never a file
outside the directory — ``..`` segments (raw or percent-encoded), backslashes, NUL bytes
and dot-files are refused, and a path whose real location (symbolic links resolved)
leaves the directory is not found. Pure but for ``realpath``."""

from __future__ import annotations

import mimetypes
import os
import posixpath
import re
from urllib.parse import unquote

from ..jsonio import canonical_json

__all__ = ["Refused", "resolve_static", "content_type", "error_json", "with_root_base", "ROOT_BASE",
           "rel_of"]

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


class Refused(Exception):
    """A request answered with an error: its status, code and message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def error_json(code: str, message: str, parameter: str | None = None) -> bytes:
    error = {"code": code, "message": message}
    if parameter is not None:
        error["parameter"] = parameter
    return canonical_json({"error": error})


def resolve_static(out_dir: str, raw_path: str) -> str:
    """The real path of the file ``raw_path`` names inside ``out_dir`` (realpath), or raise
    :class:`Refused` (400 for a malformed or hostile path, 404 for nothing there)."""
    if "\\" in raw_path or "\0" in raw_path:
        raise Refused(400, "bad_path", "backslashes and NUL bytes are not allowed in a path")
    try:
        decoded = unquote(raw_path, errors="strict")
    except UnicodeDecodeError:
        raise Refused(400, "bad_path", "the path is not valid UTF-8 once decoded") from None
    if "\\" in decoded or "\0" in decoded:
        raise Refused(400, "bad_path", "backslashes and NUL bytes are not allowed in a path")
    if not decoded.startswith("/"):
        raise Refused(400, "bad_path", "the path must start with /")
    parts = decoded.split("/")
    if any(p in (".", "..") for p in parts):
        raise Refused(400, "bad_path", "`.` and `..` segments are not allowed in a path")
    if any(p.startswith(".") for p in parts if p):
        raise Refused(404, "not_found", "no such page")
    clean = [p for p in parts if p]
    candidate = os.path.join(out_dir, *clean) if clean else out_dir
    real = os.path.realpath(candidate)
    if real != out_dir and not real.startswith(out_dir + os.sep):
        raise Refused(404, "not_found", "no such page")
    return real


def rel_of(out_dir: str, real: str) -> str:
    """The site-relative path (``/``-separated) of a file inside ``out_dir``."""
    return os.path.relpath(real, out_dir).replace(os.sep, "/")


def content_type(real: str) -> str:
    ext = posixpath.splitext(real)[1].lower()
    return _TYPES.get(ext) or mimetypes.guess_type(real)[0] or "application/octet-stream"


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
