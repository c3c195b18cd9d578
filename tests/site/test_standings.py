"""An object's standing in a context says only what is true of the object there: a budget
exclusion does not repeat the budget's running sums (every cost ahead of it moves them, and
with them the pages of everything excluded after it)."""

from __future__ import annotations

from generator.demo import demo_root
from generator.engine.compile import GitInfo, compile_context
from generator.engine.models import CompileInput, ExclusionReason
from generator.site.contexts import BUDGET_STANDING_DETAIL, ContextKey, standings_of
from generator.workspace import Workspace


def test_a_budget_exclusion_standing_holds_no_running_sums():
    index = Workspace.open(demo_root()).index
    issue = sorted(index.by_kind["issue"], key=lambda o: o.identity)[0]
    key = ContextKey("issue", issue.identity, issue.uri)
    answer = compile_context(index, CompileInput(issue=issue.identity, budget_tokens=200),
                             git=GitInfo())
    refused = [x for x in answer.excluded if x.reason is ExclusionReason.budget]
    assert refused, "a 200-token budget refuses something in the demo layer"
    assert all("already spent" in x.detail for x in refused)  # the answer keeps the sums
    rows = standings_of({key: answer})
    for x in refused:
        (row,) = [s for s in rows[x.uri] if s.standing == "excluded"]
        assert row.word == "budget" and row.detail == BUDGET_STANDING_DETAIL
        assert row.cost_tokens == x.cost_tokens
    # every other exclusion keeps the answer's own words
    for x in answer.excluded:
        if x.reason is not ExclusionReason.budget:
            assert any(s.detail == x.detail for s in rows[x.uri])
