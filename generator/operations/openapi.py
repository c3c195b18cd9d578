"""The OpenAPI 3.1 document of the HTTP API, generated from the registry (pure).

One path per operation exposed over HTTP: ``GET`` with the input model's fields as query
parameters (a list field repeated, ``style: form, explode: true``; the live API also takes
it comma-separated), the output model as the 200 response and :class:`ErrorBody` for every
error. Schemas live under ``components/schemas``, one per model, from the same models the
MCP tools list. Served by the live server at :data:`OPENAPI_ROUTE` and written by the build
to ``api/openapi.json``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from .. import __version__
from .models import ErrorBody
from .registry import OPERATIONS, Operation
from .schemas import input_schema, model_schema

__all__ = ["COMPONENT_REF", "OPENAPI_FILE", "OPENAPI_ROUTE", "REFERENCE_URL", "openapi_document"]

OPENAPI_ROUTE = "/api/openapi.json"
#: Where the build writes it, relative to the output directory.
OPENAPI_FILE = "api/openapi.json"
COMPONENT_REF = "#/components/schemas/{model}"
#: An operation's reference page, relative to the document (``reference/<id>.html`` of the
#: site, which the live server serves beside it).
REFERENCE_URL = "../reference/{id}.html"

#: Error statuses every route may answer, and what each means.
ERROR_RESPONSES = {
    "400": "A parameter is invalid or unknown, or given twice; `parameter` names it.",
    "401": "The server was started with `--token` and the request has no "
    "`Authorization: Bearer <token>` with it.",
    "404": "The request names an issue, milestone or identifier the layer does not hold.",
    "500": "The server failed to answer; the traceback is in its log.",
    "503": "The site is still being built; try again in a moment.",
}


def _components(models: Iterable[type[BaseModel]]) -> dict[str, Any]:
    """Every model's schema and the schemas it refers to, one entry per name."""
    out: dict[str, Any] = {}

    def put(name: str, schema: dict[str, Any]) -> None:
        if name in out and out[name] != schema:
            raise ValueError(f"two different schemas are both named {name}; rename one model")
        out[name] = schema

    for model in models:
        schema = model_schema(model, COMPONENT_REF)
        for name, sub in schema.pop("$defs", {}).items():
            put(name, sub)
        put(model.__name__, schema)
    return dict(sorted(out.items()))


def _without_null(schema: dict[str, Any]) -> dict[str, Any]:
    """A query parameter is absent rather than null: ``anyOf [X, null]`` reads as ``X``."""
    schema = dict(schema)
    options = schema.pop("anyOf", None)
    if options is not None:
        kept = [o for o in options if o != {"type": "null"}]
        if len(kept) == 1:
            schema = {**kept[0], **schema}
        else:
            schema["anyOf"] = kept
    if "default" in schema and schema["default"] is None:
        del schema["default"]
    schema.pop("title", None)
    return schema


def _parameters(op: Operation) -> list[dict[str, Any]]:
    schema = input_schema(op, ref_template=COMPONENT_REF)
    required = set(schema.get("required", ()))
    params = []
    for name, prop in schema.get("properties", {}).items():
        prop = _without_null(prop)
        param: dict[str, Any] = {"name": name, "in": "query", "required": name in required}
        description = prop.pop("description", None)
        if description:
            param["description"] = description
        if prop.get("type") == "array":
            param.update(style="form", explode=True)
        param["schema"] = prop
        params.append(param)
    return params


def _ref(model: type[BaseModel]) -> dict[str, Any]:
    return {"$ref": COMPONENT_REF.format(model=model.__name__)}


def _path_item(op: Operation) -> dict[str, Any]:
    responses: dict[str, Any] = {
        "200": {"description": op.output_model.__doc__.strip().splitlines()[0]
                if op.output_model.__doc__ else op.summary,
                "content": {"application/json": {"schema": _ref(op.output_model)}}},
    }
    for status, description in ERROR_RESPONSES.items():
        responses[status] = {"description": description,
                             "content": {"application/json": {"schema": _ref(ErrorBody)}}}
    get = {
        "operationId": op.exposure.operation_id,
        "summary": op.summary,
        "description": op.description,
        "tags": [op.module],
        "parameters": _parameters(op),
        "responses": responses,
        "externalDocs": {"description": "The operation's reference page on the site.",
                         "url": REFERENCE_URL.format(id=op.id)},
        "security": [{}, {"bearer": []}],
        "x-devcontext": {
            "kind": op.kind,
            "tags": list(op.tags),
            "mcp_tool": op.exposure.mcp_tool,
            "cli_command": op.exposure.cli_command,
            "benchmark_required": op.policies.benchmark_required,
            "cache": None if op.policies.cache is None else {
                "scope": op.policies.cache.scope, "entries": op.policies.cache.entries,
                "key": op.policies.cache.key},
            "benchmark_cases": [c.name for c in op.benchmark_cases],
        },
    }
    return {"get": get}


def openapi_document(operations: tuple[Operation, ...] = OPERATIONS) -> dict[str, Any]:
    """The document, as plain data (serialise with :func:`generator.jsonio.canonical_json`)."""
    http = [op for op in operations if op.exposure.http_route is not None]
    models = [m for op in http for m in (op.input_model, op.output_model)] + [ErrorBody]
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {
            "title": "devcontext",
            "version": __version__,
            "summary": "Compile, explain and query the development context of an AI layer.",
            "description": "The live API of `devcontext serve`, generated from the operation "
            "registry. Only GET and HEAD. With `--token T` every route needs "
            "`Authorization: Bearer T`.",
        },
        "tags": sorted(({"name": m} for m in {op.module for op in http}), key=lambda t: t["name"]),
        "paths": {op.exposure.http_route: _path_item(op) for op in sorted(
            http, key=lambda op: op.exposure.http_route)},
        "components": {
            "schemas": _components(models),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer",
                                           "description": "The token given to `--token`."}},
        },
    }
