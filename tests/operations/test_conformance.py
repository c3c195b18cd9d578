"""Schemathesis against a served demo layer (``devcontext serve``'s own session): requests
generated from the OpenAPI document (schema-valid and schema-invalid), every answer checked
against it — no 5xx, documented
status codes and content types, response bodies valid against the response schemas, and
schema-invalid requests refused with a 4xx.

Bounded: a fixed number of examples per operation and mode, no example database (the run
is the same on every machine), well under a minute on two cores.

``positive_data_acceptance`` (every schema-valid request answers 2xx) is left out on
purpose: some rules need the layer and are not schema — a path must lie inside the
repository, an issue must exist, ``depth`` belongs to ``kind=cross_ref`` only — and those
answer 400 or 404 naming the parameter, which the document states.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from generator.operations.openapi import openapi_document

EXAMPLES = 25
SCHEMA = schemathesis.openapi.from_dict(openapi_document())
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]
#: Every operation with valid requests; with invalid ones where it takes a parameter (an
#: operation without any has no invalid request to make).
CASES = [(op, mode) for op in OPERATIONS for mode in (GenerationMode.POSITIVE,
                                                      GenerationMode.NEGATIVE)
         if mode is GenerationMode.POSITIVE or op.definition.raw.get("parameters")]


@pytest.fixture(scope="module")
def base_url(served):
    return served[0]


@pytest.mark.parametrize("operation,mode", CASES,
                         ids=[f"{op.label} {mode.value}" for op, mode in CASES])
def test_the_served_api_conforms_to_its_document(base_url, operation, mode):
    calls = []

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(generation_mode=mode))
    def check(case):
        calls.append(case)
        case.call_and_validate(base_url=base_url, excluded_checks=[positive_data_acceptance])

    check()
    assert calls  # something was sent
