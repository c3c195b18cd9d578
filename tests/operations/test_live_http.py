"""The live server (``devcontext serve``) carries exactly the registry's routes, and
answers each operation's cases as the direct call does, errors included."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request

from generator.jsonio import canonical_json
from generator.operations import OPERATIONS, Runner
from generator.operations.http import REGISTRY_ROUTES, openapi_bytes
from generator.operations.openapi import OPENAPI_ROUTE
from generator.serve.live_api import API_ROUTES

HTTP_OPERATIONS = [op for op in OPERATIONS if op.exposure.http_route is not None]
BAD = {
    "devcontext.compile": [("budget_tokens", "0")],
    "devcontext.explain": [("uri", "majordomus://adr/adr-0003"), ("floor", "2")],
    "devcontext.policy": [("tier", "task")],
    "query.explain": [("kind", "text"), ("value", "cache"), ("limit", "0")],
    "objects.get": [("uri", "majordomus://adr/nothing-here")],
}


def _get(base: str, route: str, pairs) -> tuple[int, bytes]:
    url = f"{base}{route}?{urllib.parse.urlencode(pairs)}"
    try:
        with urllib.request.urlopen(url, timeout=60) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def test_the_live_routes_are_the_registrys():
    """A route served that the registry does not declare, or one declared and not served,
    fails here."""
    assert set(API_ROUTES) == set(REGISTRY_ROUTES)
    assert len(API_ROUTES) == len(set(API_ROUTES))


def test_every_case_answers_as_the_direct_call(served):
    base, index = served
    runner = Runner()
    for op in HTTP_OPERATIONS:
        for case in op.benchmark_cases:
            arguments = case.arguments(index)
            status, body = _get(base, op.exposure.http_route,
                                [(k, str(v)) for k, v in arguments.items()])
            assert status == 200, (op.id, case.name, body)
            assert body == canonical_json(runner.answer(op, index, arguments))


def test_bad_arguments_answer_the_message_every_surface_gives(served):
    base, index = served
    runner = Runner()
    for op in HTTP_OPERATIONS:
        status, body = _get(base, op.exposure.http_route, BAD[op.id])
        try:
            runner.answer_pairs(op, index, BAD[op.id])
        except Exception as exc:  # noqa: BLE001 - the direct call's error is the expectation
            expected = exc.message
        else:
            raise AssertionError(f"{op.id}: {BAD[op.id]} should be refused")
        assert status in (400, 404)
        assert json.loads(body)["error"]["message"] == expected


def test_the_openapi_document_is_served(served):
    base, _ = served
    status, body = _get(base, OPENAPI_ROUTE, [])
    assert status == 200 and body == openapi_bytes()
