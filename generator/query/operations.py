"""The HTTP-facing entry point: ``explain_query(index, params)`` for ``GET /v1/explain``.

Parameters (all strings, as a query string gives them):

``kind=text``       ``value`` (required), ``limit`` (optional)
``kind=cross_ref``  ``start`` (required), ``depth`` (optional), ``limit`` (optional)

A parameter the kind does not take is refused (a misspelt ``depht`` must not be silently
ignored). Integers are ASCII digits with an optional leading ``-``, nothing else, at most
:data:`MAX_DIGITS` digits. Bad input raises :class:`RequestError` naming the parameter (the
server answers 400); a ``start`` the layer does not hold raises :class:`NotFoundError` (404).
Parameters are checked in a fixed order — kind, unknown names, limit, then the kind's own —
which ``search.js`` follows too, so both report the same first error.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..errors import RequestError
from ..index import Index
from .crossref import MAX_DEPTH, cross_ref_query
from .models import Trace
from .text import MAX_LIMIT, text_query

__all__ = ["QUERY_KINDS", "check_query_kind", "parse_int", "run_query", "explain_query"]

#: kind -> the parameters it accepts (besides ``kind``).
QUERY_KINDS: dict[str, tuple[str, ...]] = {
    "text": ("value", "limit"),
    "cross_ref": ("start", "depth", "limit"),
}

_INTEGER = re.compile(r"-?[0-9]+")
#: Longer digit strings are refused rather than parsed (no clamp message with 5,000 digits).
MAX_DIGITS = 9
_RANGES = {"limit": f"from 1 to {MAX_LIMIT}", "depth": f"from 0 to {MAX_DEPTH}"}


def parse_int(raw: str | None, field: str) -> int | None:
    """``None`` when absent; an int when ``raw`` is ``-?[0-9]+``; else a RequestError."""
    if raw is None:
        return None
    if not _INTEGER.fullmatch(raw):
        raise RequestError(f"{field} `{raw}` is not an integer; give a whole number "
                           f"{_RANGES.get(field, '')}".rstrip(), field=field)
    if len(raw.lstrip("-")) > MAX_DIGITS:
        raise RequestError(f"{field} `{raw}` is out of range; give a whole number "
                           f"{_RANGES.get(field, '')}".rstrip(), field=field)
    return int(raw)


def check_query_kind(params: Mapping[str, str]) -> str:
    """The query's kind, after the first checks every surface makes in this order: the kind
    is given and known, and no parameter is one the kind does not take."""
    kind = params.get("kind")
    if kind is None or not kind.strip():
        raise RequestError("kind is required: `text` or `cross_ref`", field="kind")
    if kind not in QUERY_KINDS:
        raise RequestError(f"kind `{kind}` is not a query kind; use `text` or `cross_ref`",
                           field="kind")
    accepted = QUERY_KINDS[kind]
    for name in sorted(params):
        if name != "kind" and name not in accepted:
            raise RequestError(f"unknown parameter `{name}` for kind={kind}; it accepts "
                               + " and ".join(accepted), field=name)
    return kind


def run_query(index: Index, params: Mapping[str, str]) -> Trace:
    """Validate ``params`` and run the query they describe."""
    kind = check_query_kind(params)
    limit = parse_int(params.get("limit"), "limit")
    if kind == "text":
        return text_query(index, params.get("value") or "", limit)
    depth = parse_int(params.get("depth"), "depth")
    return cross_ref_query(index, params.get("start") or "", depth, limit)


def explain_query(index: Index, params: Mapping[str, str]) -> dict[str, Any]:
    """The ``explain`` envelope: ``{"kind": "explain", "explain": <trace>}`` (pure)."""
    return {"kind": "explain", "explain": run_query(index, params).wire()}
