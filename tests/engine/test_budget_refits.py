"""The fast refit (:class:`_Refits`) names exactly the budget the reference definition
(:func:`_budget_to_include`, re-running first fit) names, for every refused entry."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

import generator.engine.refits as refits_module
from generator.engine.refits import _budget_to_include, _Refits


@pytest.fixture(autouse=True)
def unlimited_searches(monkeypatch):
    """Equality with the reference holds within the per-answer search allowance."""
    monkeypatch.setattr(refits_module, "MAX_REFIT_SEARCHES", 10**9)


def _refused(costs: list[int], required: list[bool], limit: int) -> list[tuple[int, int, int]]:
    """(index, spent when refused, reserved) for each entry the spend refuses."""
    reserved = sum(c for c, r in zip(costs, required) if r)
    used = reserved
    out = []
    for i, (c, r) in enumerate(zip(costs, required)):
        if r:
            continue
        if used + c > limit:
            out.append((i, used, reserved))
        else:
            used += c
    return out


ENTRIES = st.lists(st.tuples(st.integers(0, 400), st.sampled_from([False, False, False, True])),
                   min_size=1, max_size=120)


@settings(max_examples=400, deadline=None)
@given(ENTRIES, st.integers(0, 3000))
def test_refits_equal_the_reference(entries, limit):
    costs = [c for c, _ in entries]
    required = [r for _, r in entries]
    refits = None
    for i, spent, reserved in _refused(costs, required, limit):
        refits = refits or _Refits(costs, required, reserved, limit)
        assert refits.budget_to_include(i, spent) == _budget_to_include(costs, required, i,
                                                                         reserved, spent)


def test_many_small_and_a_few_large_entries():
    costs = [700, 5, 5, 900, 1, 1, 1, 0, 0, 1200, 3, 3, 3, 3, 2500, 7, 7, 7] * 12
    required = [i % 17 == 0 for i in range(len(costs))]
    for limit in (0, 1, 900, 2400, 5000, 12000):
        refits = None
        for i, spent, reserved in _refused(costs, required, limit):
            refits = refits or _Refits(costs, required, reserved, limit)
            assert refits.budget_to_include(i, spent) == _budget_to_include(
                costs, required, i, reserved, spent)


def _first_fit_keeps(costs, required, i, budget):
    used = sum(c for c, r in zip(costs, required) if r)
    for j, (c, r) in enumerate(zip(costs, required)):
        if r:
            continue
        if used + c <= budget:
            used += c
            if j == i:
                return True
        elif j == i:
            return False
    return False


@settings(max_examples=200, deadline=None)
@given(ENTRIES, st.integers(0, 3000))
def test_past_the_allowance_the_budget_named_still_brings_it_in(entries, limit):
    refits_module.MAX_REFIT_SEARCHES = 2
    costs = [c for c, _ in entries]
    required = [r for _, r in entries]
    refits = None
    for i, spent, reserved in _refused(costs, required, limit):
        refits = refits or _Refits(costs, required, reserved, limit)
        named, _ = refits.budget_to_include(i, spent)
        assert named >= spent + costs[i]
        assert _first_fit_keeps(costs, required, i, named)


def test_a_budget_detail_says_only_what_is_particular():
    from generator.engine.budget import budget_detail

    # at the answer's final sum (which the answer states once): only the budget
    assert str(budget_detail(23_999, 24_000, 24_167, True, 24_091, 23_999)) == (
        "a budget of 24,167 tokens brings it in")
    # at another: its pot too
    assert str(budget_detail(23_999, 24_000, 24_167, True, 24_091, 24_000)) == (
        "23,999 of 24,000 spent or reserved when refused; a budget of 24,167 tokens brings "
        "it in")
    for final in (23_999, 24_000):
        assert str(budget_detail(23_999, 24_000, 31_234, False, 24_091, final)).endswith(
            "a budget of 31,234 tokens brings it in (none below 24,091 can)")


@settings(max_examples=300, deadline=None)
@given(limit=st.integers(0, 10**7), rows=st.lists(st.tuples(
    st.integers(0, 10**7), st.integers(0, 10**8), st.booleans(), st.integers(0, 10**6),
    st.floats(0, 1, allow_nan=False), st.sampled_from(["file", None])),
    min_size=1, max_size=12), final_last=st.booleans())
def test_a_spends_refusals_are_the_rows_budget_detail_says(limit, rows, final_last):
    """The spend's rows share the limit, the pot and the allowance between them and make
    their phrase only when asked: each is the row made with budget_detail's phrase —
    equal (phrase included, asked for or not), its English, wire, copy and pickle the
    same — and keeps the record it was made from."""
    import copy
    import pickle
    from types import SimpleNamespace

    from generator.engine.budget import budget_detail, refused_rows
    from generator.engine.models import ExclusionReason, Refusal, Tier, made_excluded
    from generator.engine.numbers import round3

    refusals = []
    for k, (used, needed, sure, cost, relevance, kind) in enumerate(sorted(rows, key=lambda r: r[0])):
        cand = SimpleNamespace(uri=f"file://f{k}.py", obj=SimpleNamespace(kind=kind),
                               tier=Tier.source, relevance=relevance)
        refusals.append((cand, cost, used, needed, sure))
    final = refusals[-1][2] if final_last else -1  # the pot only grows in a spend
    made = refused_rows(refusals, limit, final)
    # two spends' rows, neither phrase made: equal, and unequal where a value differs
    again = refused_rows(refusals, limit, final)
    assert again == made and not (again != made)
    cand, cost, used, needed, sure = refusals[0]
    other = [(cand, cost, used, needed + 1, sure), *refusals[1:]]
    assert refused_rows(other, limit, final) != refused_rows(refusals, limit, final)
    for row, (cand, cost, used, needed, sure) in zip(made, refusals, strict=True):
        phrase = budget_detail(used, limit, needed, sure, used + cost, final)
        slow = made_excluded(phrase, cand.uri, cand.obj.kind, cand.tier,
                             ExclusionReason.budget, str(phrase), cost, round3(cand.relevance))
        assert row.__pydantic_private__.record == Refusal(
            cand.uri, cand.obj.kind, cand.tier, cost, round3(cand.relevance), used, needed,
            used + cost, sure, limit, final)
        assert row.detail == slow.detail and row.__dict__ == slow.__dict__
        assert pickle.loads(pickle.dumps(row)) == slow  # pickled before its phrase is made
        assert copy.copy(row) == slow and row.model_copy() == slow
        assert row == slow and row.phrase == slow.phrase and repr(row) == repr(slow)
        assert row.__pydantic_private__ == slow.__pydantic_private__
        assert pickle.dumps(row) == pickle.dumps(slow)
        assert row.model_fields_set == slow.model_fields_set and row.wire() == slow.wire()


def test_an_answer_says_once_how_many_refusals_came_after_the_allowance(monkeypatch):
    """Past the allowance of searches a row names the budget that surely brings its entry
    in, with the bound, as any row whose least was not settled does; the answer says once,
    in an ``info`` diagnostic, how many such rows it has (none where it has no such row)."""
    from generator.demo import demo_root
    from generator.engine.compile import compile_context
    from generator.engine.request import parse_input
    from generator.workspace import Workspace

    index = Workspace.open(demo_root()).index
    request = parse_input({"issue": "I0101", "budget_tokens": 3000})
    unlimited = compile_context(index, request)
    refused = [x for x in unlimited.excluded if x.reason == "budget"]
    assert len(refused) > 3
    assert not [d for d in unlimited.diagnostics if d.code == "refit_allowance"]

    monkeypatch.setattr(refits_module, "MAX_REFIT_SEARCHES", 2)
    capped = compile_context(index, request)
    notes = [d for d in capped.diagnostics if d.code == "refit_allowance"]
    assert len(notes) == 1 and notes[0].severity == "info" and notes[0].path is None
    past = len(refused) - 2
    assert notes[0].message == (
        "the least budget that brings a refused entry in is searched for in an answer's first "
        f"2 refusals for budget; the {past} refusals past them each name a budget that surely "
        "brings it in (everything before it fits, then it does) and the bound below which none "
        "can")
    # the rows are those of the unlimited search where it settled, else say a bound
    for row, full in zip([x for x in capped.excluded if x.reason == "budget"], refused,
                         strict=True):
        assert row.uri == full.uri and row.cost_tokens == full.cost_tokens
        assert row.detail == full.detail or "(none below " in row.detail
        assert "not searched" not in row.detail
