"""What the engine keeps per index (``prepared.Prepared``: a scope path's offers, the
sessions it touches, a session discovery per count) is the same whatever asked first: an
answer does not depend on which answers were compiled before it, nor on the index another
layer's answers were compiled from. And the walk's tier (``policy.placed_tier``) is the
tier of the placement the page shows."""

from __future__ import annotations

import pytest

from generator.engine import GitInfo, compile_context, parse_input
from generator.engine.policy import placed_tier, placement, task_plan
from generator.engine.prepared import forget_prepared, prepared
from generator.jsonio import canonical_json
from generator.workspace import Workspace


def _requests(index):
    seeds = index.by_kind.get("issue", []) + index.by_kind.get("milestone", [])
    return [parse_input({obj.kind: obj.identity}) for obj in seeds[:60]]


def _answers(index, requests):
    return {r.model_dump_json(): canonical_json(compile_context(index, r, git=GitInfo()))
            for r in requests}


@pytest.mark.parametrize("layer", ["demo", "real"])
def test_answers_do_not_depend_on_what_was_compiled_before(layer, request):
    root = None if layer == "demo" else request.getfixturevalue("real_layer")
    index = Workspace.open(root).index
    requests = _requests(index)
    forward = _answers(index, requests)
    forget_prepared(index)
    backward = _answers(index, list(reversed(requests)))
    assert forward == backward
    # warm: every scope path already kept, the same bytes again
    assert _answers(index, requests) == forward
    # another index of the same layer starts from nothing and answers the same
    assert _answers(Workspace.open(root).index, list(reversed(requests))) == forward
    assert prepared(index) is not prepared(Workspace.open(root).index)


@pytest.mark.parametrize("layer", ["demo", "real"])
def test_the_walks_tier_is_the_placements(layer, request):
    root = None if layer == "demo" else request.getfixturevalue("real_layer")
    index = Workspace.open(root).index
    plans = [task_plan(index, [obj.uri]) for obj in
             (index.by_kind.get("issue", [])[:5] + index.by_kind.get("milestone", [])[:3])]
    for plan in plans:
        for obj in index.layer.objects:
            assert placed_tier(obj.uri, obj.kind, plan) == placement(obj.uri, obj.kind, plan).tier
        assert placed_tier("majordomus://issue/I9999", None, plan) == placement(
            "majordomus://issue/I9999", None, plan).tier
