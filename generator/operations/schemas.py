"""JSON Schemas of an operation's input and output, from its models — the one source the
MCP tool listing and the OpenAPI document both read.

Validation-mode schemas: they describe every field an answer can hold (serialisation mode
would reduce a model with a custom serialiser, such as an entry, to an open object). Absent
optional fields are omitted on the wire, and none of them is required here, so an answer
validates as it is sent.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from pydantic import BaseModel

from .descriptions import DESCRIPTIONS
from .registry import Operation

__all__ = ["TOKEN_PROPERTY", "input_schema", "model_schema", "output_schema"]

TOKEN_PROPERTY = {
    "type": "string",
    "description": "The token the server was started with (`devcontext mcp --token T`).",
}


@cache
def _schema(model: type[BaseModel], ref_template: str) -> dict[str, Any]:
    schema = model.model_json_schema(by_alias=True, mode="validation", ref_template=ref_template)
    _describe(model.__name__, schema)
    for name, sub in schema.get("$defs", {}).items():
        _describe(name, sub)
    return schema


def _describe(name: str, schema: dict[str, Any]) -> None:
    """The contract's prose (:data:`.descriptions.DESCRIPTIONS`) on a type and its properties:
    the engine's models carry the shapes and few words."""
    texts = DESCRIPTIONS.get(name, {})
    if "" in texts:
        schema["description"] = texts[""]
    for prop, text in texts.items():
        if prop and prop in schema.get("properties", {}):
            schema["properties"][prop]["description"] = text


def model_schema(model: type[BaseModel], ref_template: str = "#/$defs/{model}") -> dict[str, Any]:
    """A fresh copy (callers may change it)."""
    return copy.deepcopy(_schema(model, ref_template))


def input_schema(op: Operation, *, token: bool = False,
                 ref_template: str = "#/$defs/{model}") -> dict[str, Any]:
    """The input model's schema with the operation's constraints; with ``token`` (the MCP
    tool of a server started with one), a required ``token`` property."""
    schema = model_schema(op.input_model, ref_template)
    schema.setdefault("properties", {})
    for name, keywords in op.constraints.items():
        schema["properties"][name].update(keywords)
    schema["type"] = "object"
    if token:
        schema["properties"]["token"] = dict(TOKEN_PROPERTY)
        schema["required"] = sorted({*schema.get("required", ()), "token"})
    return schema


def output_schema(op: Operation) -> dict[str, Any]:
    return model_schema(op.output_model)
