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


def test_a_budget_detail_says_only_what_is_particular_and_states_the_allowance():
    from generator.engine.budget import budget_detail

    assert str(budget_detail(23_999, 24_000, 24_167, True, 24_091, False)) == (
        "23,999 of 24,000 already spent or reserved; a budget of 24,167 tokens brings it in")
    assert str(budget_detail(23_999, 24_000, 31_234, False, 24_091, False)).endswith(
        "brings it in (none below 24,091 can)")
    assert str(budget_detail(23_999, 24_000, 31_234, False, 24_091, True)).endswith(
        f"(none below 24,091 can; not searched past {refits_module.MAX_REFIT_SEARCHES:,} "
        "refusals)")


@settings(max_examples=300, deadline=None)
@given(limit=st.integers(0, 10**7), rows=st.lists(st.tuples(
    st.integers(0, 10**7), st.integers(0, 10**8), st.booleans(), st.integers(0, 10**8),
    st.booleans()), min_size=1, max_size=12))
def test_a_spends_refusals_are_said_as_budget_detail_says_each(limit, rows):
    """The spend's sayer shares the limit, the pot and the allowance between its rows: each
    phrase is the one budget_detail makes, its English the same, its pickle the same."""
    import pickle

    from generator.engine.budget import _Refusals, budget_detail

    say = _Refusals(limit)
    for used, needed, sure, low, past in sorted(rows):  # the pot only grows in a spend
        fast = say(used, needed, sure, low, past)
        slow = budget_detail(used, limit, needed, sure, low, past)
        assert fast == slow and repr(fast) == repr(slow) and str(fast) == str(slow)
        assert str(fast) == str(type(slow)(slow.template, slow.params, slow.plural))
        assert pickle.dumps(fast) == pickle.dumps(slow)
