"""Every issue and every milestone of the real layer (../shared/data/majordomus-layer)
compiles at the default request, and every answer keeps every invariant of the contract.
Skipped when the real layer is absent."""

from __future__ import annotations

import pytest
from enginekit import check_invariants, standings_agree

from generator.engine import ExplainInput, Standing, compile_context, explain, parse_input
from generator.jsonio import canonical_json
from generator.workspace import Workspace

pytestmark = pytest.mark.real_layer


_INDEX: dict[str, object] = {}


@pytest.fixture
def real_index(real_layer):
    """The real layer's index, loaded once (``real_layer`` skips when it is absent)."""
    if "index" not in _INDEX:
        _INDEX["index"] = Workspace.open(real_layer).index
    return _INDEX["index"]


def test_every_issue_and_milestone_compiles_at_the_default_request(real_index):
    index = real_index
    seeds = index.by_kind.get("issue", []) + index.by_kind.get("milestone", [])
    assert seeds, "the real layer holds issues and milestones"
    failures = []
    for obj in seeds:
        try:
            compiled = compile_context(index, parse_input({obj.kind: obj.identity}))
            check_invariants(compiled, index)
            standings_agree(index, compiled)
            assert compiled.selected[0].uri == obj.uri and compiled.selected[0].required
            assert compiled.budget.limit_tokens == 24_000
            assert canonical_json(compiled) == canonical_json(
                compile_context(index, parse_input({obj.kind: obj.identity})))
        except Exception as exc:  # noqa: BLE001 — collect every failure, not only the first
            failures.append(f"{obj.uri}: {type(exc).__name__}: {exc}")
    assert not failures, "\n".join(failures)


def test_the_real_layer_default_request_and_explain_example(real_index):
    index = real_index
    compiled = compile_context(index, parse_input({}))
    check_invariants(compiled, index)
    first = compiled.selected[0].uri
    assert explain(index, ExplainInput(uri=first)).standing is Standing.selected
    absent = explain(index, ExplainInput(uri="majordomus://adr/9999"))
    assert absent.standing is Standing.unknown
    assert absent.budget.limit_tokens == compiled.budget.limit_tokens
