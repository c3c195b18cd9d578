"""The OpenAPI document: generated from the registry, valid OpenAPI 3.1, deterministic, and
describing exactly what the registry's HTTP surface answers."""

from __future__ import annotations

import json

import jsonschema
import pytest
from openapi_spec_validator import validate

from generator.jsonio import canonical_json
from generator.operations import OPERATIONS, Runner
from generator.operations.http import REGISTRY_ROUTES, HttpSurface, openapi_bytes
from generator.operations.openapi import OPENAPI_ROUTE, openapi_document
from generator.operations.schemas import model_schema
from generator.workspace import Workspace


@pytest.fixture(scope="module")
def index():
    return Workspace.open().index


@pytest.fixture(scope="module")
def document():
    return openapi_document()


def test_it_validates_as_openapi_3_1(document):
    validate(document)
    assert document["openapi"] == "3.1.0"


def test_it_is_deterministic():
    assert openapi_bytes() == canonical_json(openapi_document(), indent=2)
    assert canonical_json(openapi_document()) == canonical_json(openapi_document())


def test_paths_are_the_registrys_routes(document):
    routes = {op.exposure.http_route for op in OPERATIONS if op.exposure.http_route}
    assert set(document["paths"]) == routes
    assert set(REGISTRY_ROUTES) == routes | {OPENAPI_ROUTE}
    for op in OPERATIONS:
        if op.exposure.http_route is None:
            continue
        get = document["paths"][op.exposure.http_route]["get"]
        assert get["operationId"] == op.exposure.operation_id
        names = [p["name"] for p in get["parameters"]]
        assert names == [f.alias or name for name, f in op.input_model.model_fields.items()]
        required = {p["name"] for p in get["parameters"] if p["required"]}
        assert required == set(model_schema(op.input_model).get("required", ()))
        ok = get["responses"]["200"]["content"]["application/json"]["schema"]
        assert ok == {"$ref": f"#/components/schemas/{op.output_model.__name__}"}
        for status in ("400", "404", "401"):
            err = get["responses"][status]["content"]["application/json"]["schema"]
            assert err == {"$ref": "#/components/schemas/ErrorBody"}


def test_list_fields_are_exploded_arrays(document):
    params = {p["name"]: p for p in document["paths"]["/api/v1/devcontext/compile"]["get"]
              ["parameters"]}
    assert params["paths"]["schema"]["type"] == "array" and params["paths"]["explode"] is True
    assert params["budget_tokens"]["schema"] == {"type": "integer", "minimum": 1}
    assert params["floor"]["schema"] == {"type": "number", "minimum": 0, "maximum": 1}


def _validator(document, model_name):
    schema = {"$ref": f"#/components/schemas/{model_name}",
              "components": document["components"]}
    return jsonschema.Draft202012Validator(schema)


def test_answers_validate_against_the_document(document, index):
    surface = HttpSurface()
    for op in OPERATIONS:
        if op.exposure.http_route is None:
            continue
        for case in op.benchmark_cases:
            arguments = case.arguments(index)
            pairs = [(k, str(v)) for k, v in arguments.items()]
            status, body = surface.answer(op.exposure.http_route, index, pairs)
            assert status == 200, body
            assert body == canonical_json(Runner().answer(op, index, arguments))
            _validator(document, op.output_model.__name__).validate(json.loads(body))
    status, body = surface.answer("/api/v1/object", index, [("uri", "majordomus://x/y")])
    assert status == 404
    _validator(document, "ErrorBody").validate(json.loads(body))
    status, body = surface.answer("/api/v1/devcontext/policy", index, [("tier", "task")])
    assert status == 400 and json.loads(body) == {"error": {
        "code": "invalid_request", "parameter": "tier",
        "message": "unknown parameter `tier`; devcontext.policy takes no parameters"}}
    status, body = surface.answer(OPENAPI_ROUTE, index, [])
    assert status == 200 and json.loads(body) == document


def test_the_build_writes_it_as_served():
    """The demo site's manifest (``make golden``) holds ``api/openapi.json`` with exactly
    the bytes the live server serves."""
    import hashlib
    from pathlib import Path

    manifest = Path(__file__).resolve().parents[1] / "site" / "golden" / "MANIFEST.sha256"
    digests = dict(line.split("  ")[::-1] for line in manifest.read_text().splitlines())
    assert digests["api/openapi.json"] == hashlib.sha256(openapi_bytes()).hexdigest()
