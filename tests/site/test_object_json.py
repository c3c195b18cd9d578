"""A build writes an object's record from its wire form made by hand (``object_wire``):
exactly the bytes ``canonical_json(object_record(...))`` writes of the model, the record's
contract. Checked on the demo and the real layer with their standings, and on objects,
edges and standings made up by hypothesis (fields of any parsed value, tiny relevances,
absent values)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.demo import demo_root
from generator.engine.compile import GitInfo
from generator.index import Edge, ExternalRef, Unresolved
from generator.jsonio import canonical_json, canonical_wire_json
from generator.model import LayerObject, Provenance
from generator.phrases import say
from generator.site.contexts import (
    ContextKey,
    ObjectStanding,
    StandingFact,
    compile_one,
    context_keys,
    standings_of,
)
from generator.site.pages.object import standing_groups
from generator.site.pages.object_json import object_record, object_wire
from generator.workspace import Workspace


def _same_bytes(kit, obj, groups) -> None:
    wire = object_wire(kit, obj, groups)
    assert canonical_wire_json(wire) == canonical_json(object_record(kit, obj, groups)), obj.uri


def _standings(index, keys) -> dict[str, list[ObjectStanding]]:
    out: dict[str, list[ObjectStanding]] = {}
    for key in keys:
        for uri, rows in standings_of(compile_one(index, key, GitInfo())).items():
            out.setdefault(uri, []).extend(ObjectStanding(key, StandingFact(*fact), relevance)
                                           for fact, relevance in rows)
    return out


def _every_object(index, keys) -> None:
    kit = SimpleNamespace(index=index)
    standings = _standings(index, keys)
    for uri in sorted(index.objects):
        _same_bytes(kit, index.objects[uri], standing_groups(standings.get(uri, ())))


def test_every_record_of_the_demo_layer():
    index = Workspace.open(demo_root()).index
    _every_object(index, context_keys(index))


def test_every_record_of_the_real_layer(real_layer):
    index = Workspace.open(real_layer).index
    _every_object(index, context_keys(index)[:12])  # standings of a dozen contexts: enough


# -- made-up objects ------------------------------------------------------------------------

names = st.text(min_size=1, max_size=8)
maybe = st.none() | st.text(max_size=12)
# what a parser can give: YAML's dates and times, floats of every size, nesting, None
scalars = (st.none() | st.booleans() | st.integers() | st.text(max_size=8)
           | st.floats() | st.dates() | st.datetimes(timezones=st.none() | st.timezones()))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=10)
# relevances as the standing table holds them: floats (tiny ones spelled with an exponent)
relevances = st.none() | st.floats(min_value=0, max_value=2, allow_nan=False) \
    | st.sampled_from([1e-05, 5e-07, 1.0, 0.0])


@st.composite
def cases(draw):
    kind, identity = draw(st.sampled_from(["issue", "adr", "rule"])), draw(names)
    uri = f"majordomus://{kind}/{identity}"
    provenance = Provenance(path=draw(st.text(min_size=1, max_size=10)), directory=".",
                            source_class=draw(names), section=draw(maybe),
                            bytes=draw(st.integers(0, 10**9)), member=draw(maybe))
    obj = LayerObject(uri=uri, kind=kind, identity=identity, title=draw(maybe),
                      summary=draw(maybe), status=draw(maybe), version=draw(maybe),
                      facts=draw(st.dictionaries(names, st.text(max_size=5), max_size=3)),
                      tags=tuple(draw(st.lists(names, max_size=3))),
                      fields=draw(st.dictionaries(names, values, max_size=4)),
                      provenance=provenance)
    held = [f"majordomus://issue/{n}" for n in draw(st.lists(names, max_size=3))]
    far = held + [f"majordomus://issue/gone-{n}" for n in draw(st.lists(names, max_size=2))]
    out = [Edge(uri, t, draw(names), draw(names)) for t in far]
    into = [Edge(s, uri, draw(names), draw(names)) for s in far]
    external = [ExternalRef(uri, draw(names), draw(names), draw(names))
                for _ in range(draw(st.integers(0, 2)))]
    unresolved = [Unresolved(".ai/x.yaml", uri, draw(names), draw(names), draw(maybe), None,
                             say("no `{name}`", name=draw(names)),
                             draw(st.none() | st.integers(1, 999)))
                  for _ in range(draw(st.integers(0, 2)))]
    states = {uri: SimpleNamespace(state="READY", reasons=("a", draw(st.text(max_size=5))))} \
        if draw(st.booleans()) else {}
    index = SimpleNamespace(objects={u: None for u in held} | {uri: obj}, issue_states=states,
                            out_edges={uri: out}, in_edges={uri: into},
                            externals_by_source={uri: external},
                            unresolved_by_source={uri: unresolved})
    facts = st.builds(StandingFact, st.sampled_from(["selected", "excluded", "deduplicated"]),
                      names, st.text(max_size=10), st.none() | st.integers(0, 10**6))
    members = st.lists(st.tuples(st.builds(lambda n: ContextKey("issue", n, f"x://{n}"), names),
                                 relevances), min_size=1, max_size=4)
    groups = draw(st.lists(st.tuples(st.sampled_from(["issue", "milestone"]), facts, members),
                           max_size=3))
    return SimpleNamespace(index=index), obj, groups


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_made_up_records(case):
    _same_bytes(*case)


@pytest.mark.parametrize("relevance", [1e-05, 1e-300, 123456789.0, 0.1 + 0.2])
def test_numbers_json_spells_otherwise_are_written_as_the_model_writes_them(relevance):
    index = Workspace.open(demo_root()).index
    obj = index.objects["majordomus://issue/I0104"]
    key = ContextKey("issue", "I0001", "majordomus://issue/I0001")
    groups = [("issue", StandingFact("excluded", "depth", "far", 3), [(key, relevance)])]
    _same_bytes(SimpleNamespace(index=index), obj, groups)
