"""``models.made`` builds the engine's rows without validation: each must be the model its
values validate to — equal to it (phrase included), with the same fields set, the same
representation, the same wire form and the same pickle round trip — on random values and
on every row of real answers."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine import GitInfo, compile_context, parse_input
from generator.engine.models import (
    ContextEntry,
    Discovery,
    EntryProvenance,
    Excluded,
    ExclusionReason,
    Said,
    Selector,
    Tier,
    WireModel,
    made,
    made_discovery,
    made_entry,
    made_excluded,
    said,
)
from generator.phrases import say
from generator.workspace import Workspace

text = st.text(max_size=12)
maybe_text = st.none() | text
count = st.integers(min_value=0, max_value=10**9)
unit = st.floats(min_value=0, max_value=1, allow_nan=False)
phrases = st.builds(lambda w: say("a sentence about {what}", what=w), text)


def _same(fast: WireModel, validated: WireModel) -> None:
    assert type(fast) is type(validated)
    assert fast == validated
    assert fast.__dict__ == validated.__dict__
    assert list(fast.__dict__) == list(validated.__dict__)  # field order: repr, iteration
    assert repr(fast) == repr(validated)
    assert fast.model_fields_set == validated.model_fields_set
    assert fast.__pydantic_private__ == validated.__pydantic_private__
    assert fast.__pydantic_extra__ == validated.__pydantic_extra__
    assert fast.wire() == validated.wire()
    assert fast.model_dump_json() == validated.model_dump_json()
    back = pickle.loads(pickle.dumps(fast))
    assert back == validated and back.model_fields_set == validated.model_fields_set
    if isinstance(fast, Said):
        assert fast.phrase == validated.phrase


def _same_three_ways(fast: WireModel, generic: WireModel, validated: WireModel) -> None:
    """A row made by position is the one made by name and the one validated; even the
    pickle is the one made by name's, byte for byte (the fields set, in the same order)."""
    _same(fast, validated)
    _same(fast, generic)
    assert pickle.dumps(fast) == pickle.dumps(generic)


def _pair(cls: type[WireModel], phrase, values: dict[str, Any]) -> tuple[WireModel, WireModel]:
    validated = cls(**values)
    if phrase is not None:
        validated = said(validated, phrase)
    return made(cls, phrase, **values), validated


@settings(max_examples=200, deadline=None)
@given(uri=text, kind=maybe_text, tier=st.sampled_from(Tier),
       reason=st.sampled_from(ExclusionReason), detail=text, cost=count, relevance=unit,
       phrase=st.none() | phrases)
def test_an_exclusion_made_is_the_one_validated(uri, kind, tier, reason, detail, cost,
                                                relevance, phrase):
    _same(*_pair(Excluded, phrase, dict(uri=uri, kind=kind, tier=tier, reason=reason,
                                        detail=detail, cost_tokens=cost,
                                        relevance=relevance)))


@settings(max_examples=200, deadline=None)
@given(uri=text, kind=maybe_text, tier=st.sampled_from(Tier),
       reason=st.sampled_from(ExclusionReason), detail=text, cost=count, relevance=unit,
       phrase=st.none() | phrases)
def test_an_exclusion_made_positionally_is_the_one_made_and_the_one_validated(
        uri, kind, tier, reason, detail, cost, relevance, phrase):
    values = dict(uri=uri, kind=kind, tier=tier, reason=reason, detail=detail,
                  cost_tokens=cost, relevance=relevance)
    fast = made_excluded(phrase, uri, kind, tier, reason, detail, cost, relevance)
    _same_three_ways(fast, *_pair(Excluded, phrase, values))


@settings(max_examples=200, deadline=None)
@given(selector=st.sampled_from(Selector), reason=text, via=st.none() | text,
       edge=st.none() | text, depth=count, confidence=unit, weight=unit,
       phrase=st.none() | phrases, omit=st.sets(st.sampled_from(["via", "edge"])))
def test_a_discovery_made_is_the_one_validated_defaults_and_all(
        selector, reason, via, edge, depth, confidence, weight, phrase, omit):
    values = dict(selector=selector, reason=reason, via=via, edge=edge, depth=depth,
                  confidence=confidence, weight=weight)
    for name in omit:  # a default left to the model: not among the fields set
        del values[name]
    _same(*_pair(Discovery, phrase, values))


@settings(max_examples=200, deadline=None)
@given(selector=st.sampled_from(Selector), reason=text, via=st.none() | text,
       edge=st.none() | text, depth=count, confidence=unit, weight=unit,
       phrase=st.none() | phrases)
def test_a_discovery_made_by_position_is_the_one_made_and_the_one_validated(
        selector, reason, via, edge, depth, confidence, weight, phrase):
    values = dict(selector=selector, reason=reason, via=via, edge=edge, depth=depth,
                  confidence=confidence, weight=weight)
    fast = made_discovery(phrase, selector, reason, via, edge, depth, confidence, weight)
    _same_three_ways(fast, *_pair(Discovery, phrase, values))


@settings(max_examples=100, deadline=None)
@given(uri=text, title=maybe_text, path=text, section=maybe_text, size=count,
       tier=st.sampled_from(Tier), relevance=unit, required=st.booleans(),
       facts=st.dictionaries(text, text, max_size=3), version=maybe_text, status=maybe_text)
def test_an_entry_made_is_the_one_validated(uri, title, path, section, size, tier, relevance,
                                            required, facts, version, status):
    discovery = made(Discovery, None, selector=Selector.seed, reason="named", depth=0,
                     confidence=1.0, weight=1.0)
    prov = dict(path=path, directory=".", source_class="x", section=section, bytes=size)
    _same(*_pair(EntryProvenance, None, prov))
    values = dict(uri=uri, kind="issue", title=title, tier=tier, relevance=relevance,
                  confidence=1.0, discovered_by=(discovery,), depth=0, cost_tokens=size,
                  cost_bytes=size, version=version, status=status, required=required,
                  facts=facts)
    _same(made(ContextEntry, provenance=made(EntryProvenance, **prov), **values),
          ContextEntry(provenance=EntryProvenance(**prov), **values))
    # made by position, it is the one made by name, pickle and all
    fast = made_entry(uri, "issue", title, made(EntryProvenance, **prov), tier, relevance, 1.0,
                      (discovery,), 0, size, size, version, status, required, facts)
    # by name in the fields' order, as the budget stage made it (a set's order is its
    # insertion order's, and the pickle holds it)
    by_name = {name: values.get(name) for name in ContextEntry.model_fields}
    by_name["provenance"] = made(EntryProvenance, **prov)
    _same_three_ways(fast, made(ContextEntry, **by_name),
                     ContextEntry(provenance=EntryProvenance(**prov), **values))


def _rows(answer):
    yield from answer.excluded
    yield from answer.deduplicated
    for entry in answer.selected:
        yield entry
        yield entry.provenance
        yield from entry.discovered_by


def _revalidated(row: WireModel) -> WireModel:
    values = {name: row.__dict__[name] for name in row.model_fields_set}
    again = type(row)(**values)
    return said(again, row.phrase) if isinstance(row, Said) and row.phrase else again


@pytest.mark.parametrize("layer", ["demo", "real"])
def test_every_row_of_real_answers_is_the_model_its_values_validate_to(layer, request):
    root = None if layer == "demo" else request.getfixturevalue("real_layer")
    index = Workspace.open(root).index
    seeds = index.by_kind.get("issue", [])[:40] + index.by_kind.get("milestone", [])[:10]
    rows = 0
    for obj in seeds:
        answer = compile_context(index, parse_input({obj.kind: obj.identity}), git=GitInfo())
        for row in _rows(answer):
            _same(row, _revalidated(row))
            rows += 1
    assert rows > 100


@settings(max_examples=200, deadline=None)
@given(uri=text, kind=maybe_text, tier=st.sampled_from(Tier), cost=count, relevance=unit,
       used=count, needed=count, sure=st.booleans(), limit=count, final=count,
       ask_first=st.booleans())
def test_a_refusal_made_with_its_record_is_the_one_validated_with_its_phrase(
        uri, kind, tier, cost, relevance, used, needed, sure, limit, final, ask_first):
    """A refusal for budget keeps its record and makes its phrase when asked: asked for or
    not, it is the row validated with budget_detail's phrase (equal, same private state,
    repr, wire, pickle)."""
    from generator.engine.budget import _Refused, budget_detail
    from generator.engine.models import Refusal, made_refused

    record = Refusal(uri, kind, tier, cost, relevance, used, needed, used + cost, sure, limit,
                     final)
    phrase = budget_detail(used, limit, needed, sure, used + cost, final)
    private = _Refused()
    private.record = record
    fast = made_refused(private, uri, kind, tier, str(phrase), cost, relevance)
    if ask_first:
        assert fast.phrase == phrase
    validated = said(Excluded(uri=uri, kind=kind, tier=tier, reason=ExclusionReason.budget,
                              detail=str(phrase), cost_tokens=cost, relevance=relevance), phrase)
    _same(fast, validated)
    assert fast.__pydantic_private__.record is record
