"""A refusal for budget carries the record it was made from (``Refusal``, in its private
state) and makes its phrase only when asked: on random budgets over the demo and a small
synthetic layer, every such row is the one made from ``budget_detail``'s phrase, and the
context page and JSON made from the records are byte for byte those made from the phrases
(in English and in Czech)."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.engine import CompileInput, compile_context
from generator.engine.budget import budget_detail
from generator.engine.models import ExclusionReason, Refusal, made_excluded
from generator.jsonio import canonical_json
from generator.site import i18n
from generator.site.build import SiteInputs, page_kit
from generator.site.contexts import context_keys
from generator.site.pages.context import context_files
from generator.site.pages.context_rows import refusal_records
from generator.synth import synthesize, write_layer
from generator.workspace import Workspace


_LAYERS: list = []


class _Layers:
    """(index, kit, context keys) of the demo and of a small synthetic layer, made once
    (a plain holder: hypothesis need not write them out when a case fails)."""

    def __getitem__(self, which: int):
        return _LAYERS[which]

    def __repr__(self) -> str:
        return "<the demo and small-8>"


@pytest.fixture(scope="module")
def layers(tmp_path_factory):
    if not _LAYERS:
        out = tmp_path_factory.mktemp("synth") / "small-8"
        write_layer(synthesize("small", issues=8), out)
        for root in (None, out):
            index = Workspace.open(root).index
            _LAYERS.append((index, page_kit(SiteInputs(index=index, label="test")),
                            context_keys(index)))
    return _Layers()


def _phrased(answer):
    """The answer with each refusal for budget made the old way: its phrase in hand, no
    record (as a row read back, or made by ``made_excluded``)."""
    rows = tuple(made_excluded(x.phrase, x.uri, x.kind, x.tier, x.reason, x.detail,
                               x.cost_tokens, x.relevance)
                 if x.reason is ExclusionReason.budget else x for x in answer.excluded)
    return answer.model_copy(update={"excluded": rows})


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), which=st.sampled_from([0, 1]), budget=st.integers(1, 40_000),
       lang=st.sampled_from(["en", "cs"]))
def test_refusals_from_their_records_are_those_from_their_phrases(layers, data, which,
                                                                    budget, lang):
    index, kit, keys = layers[which]
    key = data.draw(st.sampled_from(keys), label="key")
    answer = compile_context(index, CompileInput(**{key.kind: key.identity},
                                                 budget_tokens=budget))
    refused = [x for x in answer.excluded if x.reason is ExclusionReason.budget]
    records = refusal_records(refused)
    assert records is not None and len(records) == len(refused)
    for x, r in zip(refused, records):
        assert type(r) is Refusal and (r.uri, r.kind, r.tier, r.cost, r.relevance) == (
            x.uri, x.kind, x.tier, x.cost_tokens, x.relevance)
        assert r.limit == budget and r.low == r.used + r.cost and r.used + r.cost > budget
        assert r.final == answer.budget.used_tokens and r.used <= r.final
        phrase = budget_detail(r.used, r.limit, r.needed, r.sure, r.low, r.final)
        slow = made_excluded(phrase, x.uri, x.kind, x.tier, x.reason, str(phrase),
                             x.cost_tokens, x.relevance)
        assert pickle.loads(pickle.dumps(x)) == slow and x == slow and x.phrase == phrase
    old = _phrased(answer)
    assert refusal_records([x for x in old.excluded
                            if x.reason is ExclusionReason.budget]) in (None, [])
    assert canonical_json(answer) == canonical_json(old)
    with i18n.using(lang):
        assert context_files(kit, key, answer)[1][1] == context_files(kit, key, old)[1][1]


def test_a_row_without_its_record_is_said_from_its_phrase(layers):
    """A budget group one of whose rows has no record is said from the phrases, whole."""
    index, kit, keys = layers[0]
    key = keys[0]
    answer = compile_context(index, CompileInput(**{key.kind: key.identity},
                                                 budget_tokens=3000))
    refused = [x for x in answer.excluded if x.reason is ExclusionReason.budget]
    assert len(refused) > 2
    mixed = list(refused)
    mixed[1] = made_excluded(mixed[1].phrase, *[getattr(mixed[1], f) for f in (
        "uri", "kind", "tier", "reason", "detail", "cost_tokens", "relevance")])
    assert refusal_records(refused) is not None and refusal_records(mixed) is None


def test_a_record_of_another_limit_is_said_from_its_phrase_with_its_sums(layers):
    """Rows whose limit is not the page's (a page of other limits) are said the general
    way, from their phrase and the sums their record holds, as the phrase path says them."""
    from generator.site.pages.context_rows import PageRows

    index, _kit, keys = layers[0]
    key = keys[0]
    answer = compile_context(index, CompileInput(**{key.kind: key.identity},
                                                 budget_tokens=3000))
    refused = [x for x in answer.excluded if x.reason is ExclusionReason.budget]
    assert any(x.detail.startswith("a budget of ") for x in refused)
    other = answer.request.model_copy(update={"budget_tokens": 3001})
    rows = PageRows(("test",), index, "../../", other)
    old = [x for x in _phrased(answer).excluded if x.reason is ExclusionReason.budget]
    assert rows.refusals(refused, answer.budget) == rows.refusals(old, answer.budget)
