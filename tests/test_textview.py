"""The terminal view of a compiled answer prints each unresolved reference once: in its own
section, with file and line, not again under "excluded" and "diagnostics"."""

from __future__ import annotations

from generator.engine.compile import compile_context
from generator.engine.models import CompileInput
from generator.textview import render_compiled
from generator.workspace import Workspace


def _view(repo, issue):
    index = Workspace.open(repo).index
    compiled = compile_context(index, CompileInput(issue=issue))
    return compiled, render_compiled(compiled)


def test_the_demo_answer_lists_its_two_dangling_references_once():
    compiled, text = _view(None, "I0201")
    assert [x.uri for x in compiled.excluded if x.reason == "unresolved"]  # both are exclusions
    tail = text.split("unresolved references (2): named by what was reached, held by nothing "
                      "in the layer\n", 1)[1]
    assert tail == (
        "  .ai/repo/project/issues/I0303.yaml:18: `I0299` is named and not held: no issue "
        "`I0299` in the layer; add it, or correct or remove the reference in `depends_on`\n"
        "  .ai/repo/adrs/0004-a-stale-reading-is-shown-labelled-when-the-network-fails.md:14: "
        "`rule:project.offline-mode-is-explicit` is named and not held: no rule "
        "`project.offline-mode-is-explicit` in the layer; add it, or correct or remove the "
        "reference in `related`\n")
    assert "  unresolved " not in text and "\ndiagnostics (" not in text


def test_on_the_real_layer_each_unresolved_reference_prints_once(real_layer):
    compiled, text = _view(real_layer, "I2001")
    dangling = [d for d in compiled.diagnostics if d.code == "unresolved_reference"]
    assert len(dangling) >= 10
    for d in dangling:
        assert text.count(d.message) == 1, d.message
    kept = [x for x in compiled.excluded if x.reason != "unresolved"]
    assert f"\nexcluded ({len(kept)}):\n" in text
    assert f"\nunresolved references ({len(dangling)}): " in text


def test_the_per_tier_count_of_budget_exclusions_says_cut_for_budget():
    _, text = _view(None, "I0102")
    tiers = [line for line in text.splitlines() if line.startswith("  task ")]
    assert tiers and tiers[0].endswith(" cut for budget") and "over budget" not in tiers[0]
