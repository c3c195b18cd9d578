"""The one way the product serialises JSON: sorted keys, compact separators, UTF-8, and a
trailing newline. Every JSON byte the product writes or serves goes through here."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

__all__ = ["to_jsonable", "canonical_json", "canonical_json_text", "canonical_plain_json"]


#: Values JSON writes as they are (exact types: no float, whose NaN needs the text form).
_PLAIN = frozenset({str, int, bool, type(None)})


def to_jsonable(value: Any) -> Any:
    """Models to their wire form (absent optional fields omitted); everything else as is."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_none=True, by_alias=True)
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        if all(type(v) in _PLAIN for v in value):  # rows of plain cells: nothing to convert
            return list(value)
        return [to_jsonable(v) for v in value]
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return str(value)  # JSON has no NaN or infinity; keep the fact as text
    return value


def canonical_json_text(value: Any, *, indent: int | None = None) -> str:
    text = json.dumps(
        to_jsonable(value),
        ensure_ascii=False,
        sort_keys=True,
        indent=indent,
        separators=(",", ":") if indent is None else (",", ": "),
        allow_nan=False,
    )
    return text + "\n"


def canonical_json(value: Any, *, indent: int | None = None) -> bytes:
    return canonical_json_text(value, indent=indent).encode("utf-8")


def canonical_plain_json(value: Any) -> bytes:
    """:func:`canonical_json` of data built only of dicts with string keys, lists, tuples,
    strings, integers, booleans and None (nothing to convert, so no walk over it first: a
    large layer's search index holds 30,000 rows). Anything else raises rather than being
    written differently."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"),
                      allow_nan=False, default=_refuse)
    return (text + "\n").encode("utf-8")


def _refuse(value: Any) -> Any:
    raise TypeError(f"canonical_plain_json: {type(value).__name__} is not plain data")
