"""Arguments into an operation's input model, with the messages the HTTP API gives.

Two sources: query parameters (``text=True``: every value a string, lists repeated or
comma-separated) and JSON arguments (an MCP ``tools/call``, a Python call: values carry the
schema's types). Both end in the same parser per operation, so a bad argument reads the
same on every surface.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..engine.models import CompileInput, ExplainInput
from ..engine.request import parse_input
from ..errors import RequestError
from ..pack import PackFormat, PackInput
from ..query.operations import check_query_kind, parse_int
from .models import ObjectInput, PolicyInput, QueryExplainInput

__all__ = [
    "fields_from_pairs",
    "parse_compile",
    "parse_explain",
    "parse_object",
    "parse_policy",
    "parse_query_explain",
]


def fields_from_pairs(pairs: Iterable[tuple[str, str]],
                      list_fields: Iterable[str] = ()) -> dict[str, Any]:
    """Query parameters as fields: lists for ``list_fields`` (repeated or comma-separated),
    single strings otherwise (``serve/live_api.py`` reads the compile request through it)."""
    lists = frozenset(list_fields)
    data: dict[str, Any] = {}
    for name, value in pairs:
        if name in lists:
            items = data.setdefault(name, [])
            for part in value.split(","):
                if not part.strip():
                    raise RequestError(f"parameter `{name}` has an empty item; give one or more "
                                       "values, repeated or separated by commas", field=name)
                items.append(part.strip())
            continue
        if name in data:
            raise RequestError(f"parameter `{name}` is given more than once; give it once",
                               field=name)
        data[name] = value
    return data


def parse_compile(data: Mapping[str, Any], *, text: bool = False) -> CompileInput:
    return parse_input(data, text=text)


def parse_explain(data: Mapping[str, Any], *, text: bool = False) -> ExplainInput:
    result = parse_input(data, explain=True, text=text)
    assert isinstance(result, ExplainInput)
    return result


def parse_policy(data: Mapping[str, Any], *, text: bool = False) -> PolicyInput:
    for name in sorted(data):
        raise RequestError(f"unknown parameter `{name}`; devcontext.policy takes no parameters",
                           field=name)
    return PolicyInput()


def _query_text(name: str, value: Any) -> str:
    """A JSON argument as the text a query string would carry (integers as digits)."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    expected = "a whole number" if name in ("depth", "limit") else "text"
    raise RequestError(f"{name} must be {expected}; found {type(value).__name__}", field=name)


def parse_query_explain(data: Mapping[str, Any], *, text: bool = False) -> QueryExplainInput:
    """Checked in the query engine's order — kind, unknown names, limit, then the kind's own
    — with its own messages (:func:`generator.query.operations.run_query`)."""
    params = {name: _query_text(name, value) for name, value in data.items() if value is not None}
    kind = check_query_kind(params)
    limit = parse_int(params.get("limit"), "limit")
    depth = parse_int(params.get("depth"), "depth")
    return QueryExplainInput(kind=kind, value=params.get("value"), start=params.get("start"),
                             depth=depth, limit=limit)


def parse_object(data: Mapping[str, Any], *, text: bool = False) -> ObjectInput:
    for name in sorted(data):
        if name != "uri":
            raise RequestError(f"unknown field `{name}`; the request accepts uri", field=name)
    uri = data.get("uri")
    if uri is None:
        raise RequestError("field `uri` is required", field="uri")
    if not isinstance(uri, str):
        raise RequestError(f"`uri` must be text; found {type(uri).__name__}", field="uri")
    if not uri.strip():
        raise RequestError("field `uri` is blank; give a canonical identifier (list them with "
                           "`devcontext list`)", field="uri")
    return ObjectInput(uri=uri.strip())


def parse_pack(data: Mapping[str, Any], *, text: bool = False) -> PackInput:
    """The compile request (its own messages) and ``format``."""
    allowed = sorted(PackInput.model_fields)
    for key in data:
        if key not in allowed:
            raise RequestError(f"unknown field `{key}`; the request accepts "
                               f"{', '.join(allowed)}", field=key)
    request = dict(data)
    fmt = request.pop("format", None)
    formats = [f.value for f in PackFormat]
    if fmt is not None and fmt not in formats:
        raise RequestError(f"`format` must be {', '.join(formats[:-1])} or {formats[-1]}; "
                           f"found {fmt!r}", field="format")
    compiled = parse_input(request, text=text)
    return PackInput(**compiled.model_dump(), format=fmt or PackFormat.markdown)
