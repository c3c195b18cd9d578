"""The one way the product serialises JSON: sorted keys, compact separators, UTF-8, and a
trailing newline. Every JSON byte the product writes or serves goes through here.

The bytes are those of ``json.dumps`` (``ensure_ascii=False, sort_keys=True``, compact). A
model's wire form — plain data, by pydantic's JSON mode — is written by ``orjson``, which
writes the same bytes for it several times faster (an answer of a large layer is ~300 KB),
save for one case: a float below 1e-4, which ``json`` writes with an exponent of two
digits or more (``1e-05``) and ``orjson`` otherwise. Such output is recognised and written
by ``json`` instead, as is anything ``orjson`` refuses (integers beyond 64 bits, text that
is not valid UTF-8). A compiled answer's wire form is built from its rows
(:mod:`generator.answerwire`) rather than by pydantic's walk over them: the same data.
``tests/test_jsonio.py`` holds the two to the same bytes."""

from __future__ import annotations

import json
import re
from typing import Any

import orjson
from pydantic import BaseModel

__all__ = ["to_jsonable", "canonical_json", "canonical_json_text", "canonical_plain_json",
           "canonical_wire_json"]


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
    if indent is None and isinstance(value, BaseModel):
        return _wire_json(_model_wire(value), value)
    return canonical_json_text(value, indent=indent).encode("utf-8")


def _model_wire(model: BaseModel) -> Any:
    """A model's wire form; an answer's built from its rows (:mod:`generator.answerwire`:
    the same data, without pydantic's walk over a thousand rows)."""
    # imported here: the engine, which that module reads, itself writes JSON through this one
    from .answerwire import answer_wire
    from .engine.models import CompiledContext

    if type(model) is CompiledContext:
        return answer_wire(model)
    return to_jsonable(model)


#: A number in ``orjson``'s output that ``json`` spells otherwise: below 1e-4, ``json``
#: writes an exponent of at least two digits (``1e-05``, ``1e-06``), ``orjson`` fixed
#: notation (``0.00001``) or a one-digit exponent (``1e-6``). A number token begins after
#: ``:``, ``,`` or ``[`` (or the text's start) and ends before ``,``, ``]``, ``}`` (or its
#: end); text inside a string matches only by a rare coincidence, and then costs nothing
#: but speed. Searched for only where a quick look for its two signs finds one.
_SPELLED_OTHERWISE = re.compile(
    rb"(?:^|[:,\[])-?(?:0\.0000[0-9]*|[0-9]+(?:\.[0-9]+)?e-[0-9]+)(?:$|[,\]}])")
_ONE_DIGIT_EXPONENT = re.compile(rb"e-[0-9](?![0-9])")


def _spelled_otherwise(text: bytes) -> bool:
    if b"0.0000" not in text and _ONE_DIGIT_EXPONENT.search(text) is None:
        return False  # the common case, found in two scans that need no backtracking
    return _SPELLED_OTHERWISE.search(text) is not None


def _wire_json(data: Any, model: BaseModel | None = None) -> bytes:
    """:func:`canonical_json` of a model's wire form (dicts, lists, tuples, strings, string
    enums, numbers, booleans and None only); ``model``: the model it is the wire form of,
    which ``json`` then writes where ``orjson`` would not write the same bytes."""
    try:
        text = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        text = None
    if text is None or _spelled_otherwise(text):
        return canonical_json_text(data if model is None else model).encode("utf-8")
    return text + b"\n"


def canonical_wire_json(data: Any) -> bytes:
    """:func:`canonical_json` of a model, given its wire form made by hand — what
    ``model_dump(mode="json", exclude_none=True, by_alias=True)`` would give: dicts with
    string keys, lists, tuples, strings, numbers, booleans and None — without the model
    made and walked (a large layer's 30,000 object records). The same bytes as long as the
    form is the model's; whoever makes it holds the two to the same bytes in a test."""
    return _wire_json(data)


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
