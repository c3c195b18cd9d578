"""Where everything lives in ``site/``, and links between pages.

Identities become file names by a documented, reversible mapping: letters, digits and
``. _ - @`` stay as they are; every other byte of the UTF-8 form becomes ``~XX`` (two
upper-case hex digits), ``~`` included; a leading ``.`` becomes ``~2E`` so no output file
is hidden from static hosts. ``majordomus://rule/project.x@1`` → ``rule/project.x@1``;
``.ai/repo/policy.yaml`` → ``~2Eai~2Frepo~2Fpolicy.yaml``. File names therefore need no
further escaping in a URL. Names longer than :data:`MAX_NAME` bytes end in ``~~`` and a
hash instead (not reversible; the URL is listed in ``objects.json``).

Every link is relative, so the site works from ``file://`` and under any base path.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from functools import lru_cache

__all__ = [
    "encode_name",
    "decode_name",
    "object_page",
    "object_json",
    "context_page",
    "context_pack",
    "context_pack_script",
    "kind_page",
    "context_json",
    "relative",
    "relative_from",
    "anchor_for",
    "MAX_NAME",
]

MAX_NAME = 180
#: Paths and links are pure functions of names; a site asks for each thousands of times
#: (every page that lists an object links it), so they are remembered (sized for the
#: largest layers we build).
_URL_CACHE = 1 << 16


#: A name made only of safe characters, not starting with ``.``: encoded as itself.
_ALL_SAFE = re.compile(r"[A-Za-z0-9_@-][A-Za-z0-9._@-]*")


def encode_name(identity: str) -> str:
    if len(identity) <= MAX_NAME and _ALL_SAFE.fullmatch(identity):
        return identity  # the common case, without the per-character loop
    return _encode_name(identity)


#: A run of characters a name cannot hold as themselves: each written as ``~XX`` per byte.
_UNSAFE_RUN = re.compile(r"[^A-Za-z0-9._@-]+")


def _escaped(match: re.Match) -> str:
    return "".join(f"~{b:02X}" for b in match.group().encode("utf-8"))


@lru_cache(maxsize=1 << 16)
def _encode_name(identity: str) -> str:
    # one pass over the unsafe runs (a path's slashes, mostly), not a match per character:
    # a large layer names more objects than this cache holds, so misses are common
    name = _UNSAFE_RUN.sub(_escaped, identity)
    if name.startswith("."):
        name = "~2E" + name[1:]  # a leading dot would hide the file
    name = name or "~"
    if len(name) > MAX_NAME:
        digest = hashlib.sha1(identity.encode("utf-8")).hexdigest()[:12]
        name = name[: MAX_NAME - 14].rstrip("~") + "~~" + digest
    return name


def decode_name(name: str) -> str:
    """The inverse of :func:`encode_name` (for names that were not shortened)."""
    if "~~" in name:
        raise ValueError(f"{name!r} was shortened; look its identity up in objects.json")
    data = bytearray()
    i = 0
    while i < len(name):
        if name[i] == "~":
            data.append(int(name[i + 1 : i + 3], 16))
            i += 3
        else:
            data.extend(name[i].encode("ascii"))
            i += 1
    return data.decode("utf-8")


def _split_uri(uri: str) -> tuple[str, str]:
    rest = uri.split("://", 1)[-1]
    kind, _, identity = rest.partition("/")
    return kind, identity


@lru_cache(maxsize=_URL_CACHE)
def object_page(uri: str) -> str:
    kind, identity = _split_uri(uri)
    return f"objects/{kind}/{encode_name(identity)}.html"


@lru_cache(maxsize=_URL_CACHE)
def object_json(uri: str) -> str:
    kind, identity = _split_uri(uri)
    return f"api/v1/objects/{kind}/{encode_name(identity)}.json"


def kind_page(kind: str) -> str:
    return f"kinds/{encode_name(kind)}.html"


@lru_cache(maxsize=_URL_CACHE)
def context_page(kind: str, identity: str) -> str:
    return f"contexts/{kind}/{encode_name(identity)}.html"


def context_pack(kind: str, identity: str) -> str:
    """The context's pack (``devcontext pack --format markdown`` at the default request)."""
    return f"contexts/{kind}/{encode_name(identity)}.pack.md"


def context_pack_script(kind: str, identity: str) -> str:
    """The pack's bytes deflated and in base64 as a script, for the page's copy button from
    ``file://`` (no script may read the ``.md`` there)."""
    return f"contexts/{kind}/{encode_name(identity)}.pack.js"


@lru_cache(maxsize=_URL_CACHE)
def context_json(kind: str, identity: str) -> str:
    return f"api/v1/devcontext/compile/{kind}/{encode_name(identity)}.json"


#: A plain site-relative path: no leading or trailing ``/``, no empty, ``.`` or ``..`` part.
_PLAIN = re.compile(r"(?!\.\.?(?:/|$))[^/]+(?:/(?!\.\.?(?:/|$))[^/]+)*")


def relative(from_page: str, to_path: str) -> str:
    """A relative URL from the page at ``from_page`` to ``to_path`` (both site-relative)."""
    return _relative(posixpath.dirname(from_page), to_path)


def relative_from(directory: str, to_path: str) -> str:
    """:func:`relative` from a page in ``directory`` (``posixpath.dirname`` of the page),
    for a page that links many others: its directory is split off once, not per link."""
    return _relative(directory, to_path)


@lru_cache(maxsize=4 * _URL_CACHE)
def _relative(base: str, to_path: str) -> str:
    if (base == "" or _PLAIN.fullmatch(base)) and _PLAIN.fullmatch(to_path):
        # what posixpath.relpath answers for plain paths, without its two abspath calls
        start = base.split("/") if base else []
        target = to_path.split("/")
        i = 0
        n = min(len(start), len(target))
        while i < n and start[i] == target[i]:
            i += 1
        parts = [".."] * (len(start) - i) + target[i:]
        return "/".join(parts) if parts else "."
    rel = posixpath.relpath(to_path, base or ".")
    return rel


@lru_cache(maxsize=_URL_CACHE)
def anchor_for(uri: str) -> str:
    """A stable fragment id for an identifier on a context page."""
    return "x-" + encode_name(uri.split("://", 1)[-1])
