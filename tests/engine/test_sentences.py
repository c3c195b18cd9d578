"""The engine's sentences as phrases: each answer row carries the phrase its wire text was
made from, and the phrase's English is exactly the f-string the engine used to write (the
wire stays byte for byte; the golden files check the demo's answers whole)."""

from __future__ import annotations

import pickle

import pytest

from generator.engine import CompileInput, compile_context, explain_in
from generator.engine.budget import budget_detail
from generator.engine.models import Excluded, ExclusionReason, Tier, said
from generator.engine.numbers import fmt_count, fmt_number, fmt_tokens
from generator.engine.policy import placement, task_plan
from generator.phrases import Phrase, say
from generator.workspace import Workspace


@pytest.fixture(scope="module")
def demo():
    return Workspace.open(None).index


@pytest.fixture(scope="module")
def answers(demo):
    return [compile_context(demo, CompileInput(**{obj.kind: obj.identity}))
            for kind in ("issue", "milestone") for obj in demo.by_kind[kind]]


def _params(phrase: Phrase) -> dict:
    return dict(phrase.params)


# -- the old f-strings, as the engine wrote them before phrases ----------------------------

def old_budget(used, limit, needed, sure, low, final):
    """As the f-string said it, with the pot only where it is not the answer's final sum
    (which the answer states once, in its ``budget``)."""
    spent = (f"{fmt_count(used)} of {fmt_count(limit)} spent or reserved when refused; "
             if used != final else "")
    bring = f"a budget of {fmt_count(needed)} tokens brings it in"
    if sure:
        return f"{spent}{bring}"
    return f"{spent}{bring} (none below {fmt_count(low)} can)"


def old_depth(n, how, max_depth):
    return (f"{n} hop{'s' if n != 1 else ''} from a seed ({how}), one beyond max_depth "
            f"{max_depth}; a max_depth of {n} brings it in")


def old_relevance(how, shown, floor, to_include):
    return (f"reached {how} at relevance {fmt_number(shown)}, below the floor {fmt_number(floor)}; "
            f"a floor of {fmt_number(to_include)} brings it in")


@pytest.mark.parametrize("case", [
    (23_999, 24_000, 24_167, True, 24_091, 23_999),
    (1_203_999, 24_000, 1, False, 1_000_001, 1_203_999),
    (0, 1, 2, True, 0, 0),
    (23_000, 24_000, 24_167, True, 24_091, 23_999),
    (1_203_999, 24_000, 1, False, 1_000_001, 1_204_000),
], ids=["sure", "bound", "small", "sure-earlier", "bound-earlier"])
def test_a_budget_detail_says_what_the_old_f_string_said(case):
    assert str(budget_detail(*case)) == old_budget(*case)


def test_every_row_of_every_demo_answer_carries_its_phrase_and_says_its_wire_text(answers):
    rows = 0
    for answer in answers:
        for row in (*answer.excluded, *answer.deduplicated, *answer.conflicts):
            assert row.phrase is not None, row
            assert str(row.phrase) == row.detail
            rows += 1
        for entry in answer.selected:
            for d in entry.discovered_by:
                assert d.phrase is not None and str(d.phrase) == d.reason
        for diag in answer.diagnostics:
            assert diag.phrase is not None and str(diag.phrase) == diag.message
    assert rows > 100


def test_depth_and_relevance_details_are_the_old_sentences(answers):
    seen = set()
    for answer in answers:
        for x in answer.excluded:
            p = _params(x.phrase)
            if x.reason is ExclusionReason.depth:
                assert x.detail == old_depth(p["n"], str(p["how"]), p["max_depth"])
                seen.add("depth")
            elif x.reason is ExclusionReason.relevance:
                assert x.detail == old_relevance(str(p["how"]), p["relevance"], p["floor"],
                                                 p["to_include"])
                seen.add("relevance")
    assert seen == {"depth", "relevance"}


def test_the_dedup_and_conflict_sentences_are_the_old_ones(answers):
    kinds = set()
    for answer in answers:
        for d in answer.deduplicated:
            p = _params(d.phrase)
            if d.key == "uri":
                labels = p["paths"]
                assert d.detail == f"one object reached by {p['n']} discovery paths: {labels}"
            elif d.key == "path":
                assert d.detail == (f"`{p['path']}` is indexed under {p['n']} identifiers "
                                    f"({p['kinds']}); the most specific kind, {p['kind']}, is kept")
            else:
                assert d.detail == (f"`{p['stem']}` at {p['n']} versions; "
                                    f"the newest, @{p['version']}, is in the answer")
            kinds.add(d.key)
        for c in answer.conflicts:
            p = _params(c.phrase)
            if c.kind == "version":
                assert c.detail == (f"`{p['stem']}` is in the answer at two versions; "
                                    f"the higher, `{p['kept']}`, applies")
            kinds.add(c.kind)
    assert {"uri", "identity", "version"} <= kinds


def test_an_explanation_says_the_old_sentence_and_nests_the_rows_phrase(demo, answers):
    answer = answers[0]
    x = answer.excluded[0]
    exp = explain_in(demo, answer, x.uri)
    assert exp.detail == f"reached and not given: {x.reason.value} — {x.detail}"
    assert _params(exp.phrase)["detail"] == x.phrase
    entry = answer.selected[0]
    exp = explain_in(demo, answer, entry.uri)
    paths = "; ".join(f"{d.selector.value}: {d.reason}" + (f" (via {d.via})" if d.via else "")
                      for d in entry.discovered_by)
    n = len(entry.discovered_by)
    assert exp.detail == (
        f"selected in the {entry.tier.value} tier at relevance {fmt_number(entry.relevance)} "
        f"and confidence {fmt_number(entry.confidence)}, costing {fmt_tokens(entry.cost_tokens)}"
        + (", and required (never dropped for budget)" if entry.required else "")
        + f"; reached by {n} path{'s' if n != 1 else ''} — {paths}")
    exp = explain_in(demo, answer, "majordomus://issue/I9999")
    assert str(exp.phrase) == exp.detail and exp.detail.startswith(
        "the index holds nothing under `majordomus://issue/I9999`: the request is not the problem")


def test_a_tier_rule_is_a_phrase_with_the_old_words(demo):
    plan = task_plan(demo, ["majordomus://issue/I0201"])
    assert placement("majordomus://adr/adr-0001", "adr", plan).rule == "by kind: adr → decision"
    assert placement("x://y", None, plan).rule == "by kind: unknown → history"
    assert placement("majordomus://issue/I0201", "issue", plan).rule == "seed"


def test_a_phrase_survives_pickling_and_copying_and_takes_part_in_equality():
    phrase = say("the object declares status `{status}`, so it is not the current thing; "
                 "a seed naming it would keep it", status="deprecated")
    row = said(Excluded.model_construct(uri="u", kind="adr", tier=Tier.decision,
                                        reason=ExclusionReason.stale, detail=str(phrase),
                                        cost_tokens=1, relevance=0.5), phrase)
    assert pickle.loads(pickle.dumps(row)).phrase == phrase
    assert row.model_copy(update={"cost_tokens": 2}).phrase == phrase
    assert "phrase" not in row.wire() and row.wire()["detail"] == str(phrase)
    bare = Excluded.model_validate_json(row.model_dump_json())
    assert bare.phrase is None and bare != row


def test_a_rows_phrase_is_its_private_phrase_however_it_was_made():
    """Said.phrase reads the private dict itself (not pydantic's __getattr__): the same
    phrase as ``_phrase`` for a row validated, constructed, made, read back (none) and
    copied."""
    from generator.engine.models import made

    phrase = say("folded into {kept}", kept="k")
    values = dict(uri="u", kind="adr", tier=Tier.decision, reason=ExclusionReason.stale,
                  detail=str(phrase), cost_tokens=1, relevance=0.5)
    rows = [said(Excluded(**values), phrase), said(Excluded.model_construct(**values), phrase),
            made(Excluded, phrase, **values), Excluded(**values),
            Excluded.model_validate_json(Excluded(**values).model_dump_json())]
    rows.append(rows[0].model_copy(update={"cost_tokens": 2}))
    assert [r.phrase for r in rows] == [phrase, phrase, phrase, None, None, phrase]
    assert all(r.phrase is r._phrase for r in rows)
