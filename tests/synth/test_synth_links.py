"""Synthetic layers linked like the real one: issues serve their milestone's intent, whose
governance names the area's decisions and rules; knowledge notes document the area's
decisions; use cases exercise its rules; sessions changed files in scope. Checked on the
records, and on what the engine makes of them: every selector and every tier is exercised,
and a context reaches the decisions over the code it scopes."""

from __future__ import annotations

import statistics

import pytest

from generator import synth
from generator.engine.compile import GitInfo, compile_context
from generator.engine.models import CompileInput, Selector, Tier
from generator.workspace import Workspace

@pytest.fixture(scope="module")
def small_files() -> dict[str, bytes]:
    return synth.synthesize("small")


@pytest.fixture(scope="module")
def small_ws(small_files, tmp_path_factory) -> Workspace:
    root = tmp_path_factory.mktemp("small")
    synth.write_layer(small_files, root)
    return Workspace.open(root)


def test_every_milestone_has_an_intent_its_issues_serve(small_ws):
    index = small_ws.index  # the product's own reader: a few titles use the YAML dialect
    intents = {o.identity: o.fields for o in index.by_kind["intent"]}
    assert set(intents) == {o.identity for o in index.by_kind["milestone"]}
    criteria = {i: {c["id"] for c in intent["satisfaction"]} for i, intent in intents.items()}
    issues = index.by_kind["issue"]
    serving = 0
    for issue in issues:
        for ref in issue.fields.get("serves", []):
            intent, _, criterion = ref.partition("#")
            assert intent == issue.fields["milestone"] and criterion in criteria[intent], ref
            serving += 1
    assert 0.4 * len(issues) <= serving <= 0.8 * len(issues)
    for intent in intents.values():
        assert any(g.startswith("adr:") for g in intent["governance"]), intent["id"]
    # and the edges the engine follows: issue -serves-> intent -governed_by-> adr
    governed = {e.source for e in index.edges if e.kind == "governed_by"
                and e.target.startswith("majordomus://adr/")}
    assert governed == {o.uri for o in index.by_kind["intent"]}


def test_the_links_resolve(small_ws):
    # the only unresolved references are the deliberate ones (none names an intent's,
    # a note's or a use case's link)
    for item in small_ws.index.unresolved:
        assert not item.declared_in.startswith((".ai/repo/project/intents/",
                                                ".ai/repo/knowledge/curated/",
                                                ".ai/repo/use-cases/")), item


def test_every_selector_and_tier_is_exercised(small_ws):
    index = small_ws.index
    selectors: set[Selector] = set()
    tiers: set[Tier] = set()
    kinds: set[str] = set()
    for kind in ("issue", "milestone"):
        for obj in index.by_kind[kind]:
            answer = compile_context(index, CompileInput(**{kind: obj.identity}),
                                     git=GitInfo(branch="main"))
            for e in answer.selected:
                selectors.update(d.selector for d in e.discovered_by)
                tiers.add(e.tier)
                kinds.add(e.kind)
    answer = compile_context(index, CompileInput(intent="retry policy for the cache"))
    selectors.update(d.selector for e in answer.selected for d in e.discovered_by)
    assert selectors == set(Selector)
    assert tiers == set(Tier)
    assert {"adr", "rule", "knowledge", "use-case", "session", "intent", "context",
            "implementation", "test"} <= kinds


def test_a_serving_issue_reaches_the_decisions_over_its_area(small_ws):
    index = small_ws.index
    decided = []
    for obj in index.by_kind["issue"]:
        if not obj.fields.get("serves"):
            continue
        answer = compile_context(index, CompileInput(issue=obj.identity))
        decisions = [e for e in answer.selected if e.tier is Tier.decision]
        decided.append(len(decisions))
        for e in decisions:
            assert e.kind == "adr"
    assert statistics.median(decided) >= 1
