"""Canonical JSON (:mod:`generator.jsonio`'s one form) of a value some of whose parts are
already canonical JSON text: the site-wide files hold a row per object or context, each
kept between builds (:class:`~generator.site.rowcache.RowCache`), and a large layer has
tens of thousands. The rows are placed as values of the structure, never spliced into
its text."""

from __future__ import annotations

import json
from typing import Any

from ..jsonio import to_jsonable

__all__ = ["Raw", "json_with_rows"]


class Raw(str):
    """One value's canonical JSON text (compact, no trailing newline), written as is."""


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"),
                      allow_nan=False)


def _encode(value: Any) -> str:
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, dict):
        return "{" + ",".join(_dumps(str(k)) + ":" + _encode(value[k])
                              for k in sorted(value, key=str)) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_encode(v) for v in value) + "]"
    return _dumps(value)


def json_with_rows(value: Any) -> bytes:
    """``canonical_json(value)`` where ``value`` (models, dicts, lists) may hold
    :class:`Raw` texts: each is written as the value it encodes."""
    return (_encode(_jsonable(value)) + "\n").encode("utf-8")


def _jsonable(value: Any) -> Any:
    if isinstance(value, Raw):
        return value
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) and any(isinstance(v, Raw) for v in value):
        return [_jsonable(v) for v in value]
    return to_jsonable(value)
