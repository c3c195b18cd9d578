"""The wire contract: every Explanation the engine produces, in every standing, validates
against ``devcontext-explanation.schema.json``; and ``parse_input(..., explain=True)``
accepts or refuses exactly what ``devcontext-explain-input.schema.json`` does.

Skipped only when the shared spec folder is absent.
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

import pytest
from enginekit import LayerCache, base_files, compile_dict, merge_files
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.engine import (
    ExplainInput,
    Standing,
    compile_context,
    explain,
    explain_in,
    parse_input,
)
from generator.errors import NotFoundError, RequestError
from generator.jsonio import to_jsonable
from generator.synth import synthesize, write_layer
from generator.workspace import Workspace

SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec"
if not SPEC.is_dir():
    SPEC = Path("/work/shared/spec")

pytestmark = pytest.mark.skipif(not (SPEC / "devcontext-explanation.schema.json").is_file(),
                                reason="the shared spec folder is absent")

jsonschema = pytest.importorskip("jsonschema")


def _load(name: str) -> dict:
    return json.loads((SPEC / name).read_text(encoding="utf-8"))


def _closed(schema: Any) -> Any:
    """The schema with ``additionalProperties: false`` on every object that lists its
    properties, so a field the contract does not know is caught too."""
    schema = copy.deepcopy(schema)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "properties" in node and "additionalProperties" not in node:
                node["additionalProperties"] = False
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return schema


@pytest.fixture(scope="module")
def explanation_validators():
    schema = _load("devcontext-explanation.schema.json")
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema), cls(_closed(schema))


@pytest.fixture(scope="module")
def input_validator():
    schema = _load("devcontext-explain-input.schema.json")
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


@pytest.fixture(scope="module")
def layers(tmp_path_factory) -> LayerCache:
    return LayerCache(tmp_path_factory.mktemp("schema-layers"))


ALPHA_V2 = {".ai/repo/rules/project/alpha.v2.md": (
    "---\nid: project.alpha\nversion: 2\ntitle: Alpha\nclass: blocking\nstatus: active\n---\n"
    "# Alpha two\n")}
DANGLING = {".ai/repo/project/issues/I0002.yaml": (
    "id: I0002\nmilestone: m1\ntitle: Use the thing\ndepends_on: [I0001, I0099]\nscope: [lib]\n")}

REQUESTS = [
    {},
    {"issue": "I0001"},
    {"issue": "I0002", "budget_tokens": 100, "intent": "thing"},
    {"milestone": "the-milestone", "floor": 0.5},
    {"uris": ["majordomus://rule/project.alpha@1"], "max_depth": 1},
    {"uris": ["majordomus://rule/project.beta@1"], "budget_tokens": 10},
    {"uris": ["majordomus://rule/project.gamma@1"], "all_blocking_rules": True},
    {"paths": ["lib", ".ai/repo/rules"], "intent": "beta zebra yak"},
]


def _explanations(index, compiled, per_kind: int = 6):
    """Explanations of URIs the answer mentions (up to ``per_kind`` selected, excluded and
    dropped ones, the excluded spread over every reason), plus unreached and unknown ones."""
    excluded: dict[str, list[str]] = {}
    for x in compiled.excluded:
        excluded.setdefault(x.reason.value, []).append(x.uri)
    mentioned = [e.uri for e in compiled.selected][:per_kind]
    mentioned += [u for rows in excluded.values() for u in rows[:2]]
    mentioned += [u for d in compiled.deduplicated for u in d.dropped][:per_kind]
    seen = {e.uri for e in compiled.selected} | {x.uri for x in compiled.excluded}
    unreached = [u for u in sorted(index.objects) if u not in seen][:2]
    for uri in [*mentioned, *unreached, "majordomus://adr/9999", "majordomus://nothing"]:
        yield explain_in(index, compiled, uri)


def _validate(validators, explanation) -> None:
    loose, closed = validators
    doc = explanation.wire()
    assert to_jsonable(explanation) == doc, "the two serialisations differ"
    errors = sorted(closed.iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, f"{explanation.uri}: {[(list(e.path), e.message) for e in errors]}"
    assert loose.is_valid(doc)
    # the standing decides which evidence is filled (schema: at most one, fixed by standing)
    wire = explanation.wire()
    filled = {k for k in ("entry", "excluded", "deduplicated") if k in wire}
    expected = {"selected": {"entry"}, "excluded": {"excluded"},
                "deduplicated": {"deduplicated"}}.get(wire["standing"], set())
    assert filled == expected
    assert "budget" in wire and wire["detail"]
    json.dumps(wire, allow_nan=False)


def test_every_standing_validates_on_the_fixture_layer(layers, explanation_validators):
    seen: set[str] = set()
    for files in (base_files(), merge_files(base_files(), ALPHA_V2, DANGLING)):
        index = layers.index(files)
        for request in REQUESTS:
            compiled = compile_dict(index, request)
            for explanation in _explanations(index, compiled):
                _validate(explanation_validators, explanation)
                seen.add(explanation.standing.value)
    assert seen == {s.value for s in Standing}


@pytest.fixture(scope="module")
def synthetic_small(tmp_path_factory):
    root = tmp_path_factory.mktemp("synth-small")
    write_layer(synthesize("small"), root)
    return Workspace.open(root).index


def test_every_standing_validates_on_a_synthetic_layer(synthetic_small, explanation_validators):
    index = synthetic_small
    seen: set[str] = set()
    requests = [{}] + [{"issue": o.identity, "budget_tokens": 3000}
                       for o in index.by_kind["issue"][:6]]
    requests += [{"milestone": o.identity, "max_depth": 1, "floor": 0.5}
                 for o in index.by_kind["milestone"][:2]]
    for request in requests:
        compiled = compile_dict(index, request)
        for explanation in _explanations(index, compiled):
            _validate(explanation_validators, explanation)
            seen.add(explanation.standing.value)
    assert {"selected", "excluded", "not_reached", "unknown"} <= seen


def test_doc_example_on_a_small_synthetic_repository(synthetic_small, explanation_validators):
    """The page's example, on our synthetic `small` repository."""
    index = synthetic_small
    compiled = compile_context(index, parse_input({}))
    first = compiled.selected[0].uri
    e = explain(index, ExplainInput(uri=first))
    assert e.standing is Standing.selected and e.entry is not None and e.entry.uri == first
    assert e.excluded is None and e.deduplicated is None and e.detail
    absent = explain(index, ExplainInput(uri="majordomus://adr/9999"))
    assert absent.standing is Standing.unknown and absent.entry is None
    assert absent.budget.limit_tokens == compiled.budget.limit_tokens
    for doc in (e, absent):
        _validate(explanation_validators, doc)


# ---------------------------------------------------------------------------------------
# DevContextExplainInput
# ---------------------------------------------------------------------------------------

VALID_INPUTS = [
    {"uri": "majordomus://adr/9999"},
    {"uri": "x", "issue": "I0001", "milestone": None, "intent": None, "paths": [], "uris": []},
    {"uri": "x", "budget_tokens": 5, "max_depth": 0, "floor": 0.5, "all_blocking_rules": True},
    {"uri": "x", "budget_tokens": None, "max_depth": None, "floor": None,
     "all_blocking_rules": None},
    {"uri": "x", "floor": 1, "paths": ["lib", "test"], "uris": ["majordomus://issue/I0001"]},
    {"uri": "", "intent": "anything at all"},
    {"uri": "x", "budget_tokens": 5.0},
]

INVALID_INPUTS = [
    {},
    {"issue": "I0001"},
    {"uri": None},
    {"uri": 5},
    {"uri": ["x"]},
    {"uri": "x", "budget": 5},
    {"uri": "x", "unknown": None},
    {"uri": "x", "issue": 5},
    {"uri": "x", "milestone": ["m1"]},
    {"uri": "x", "intent": {"text": "x"}},
    {"uri": "x", "paths": "lib"},
    {"uri": "x", "paths": None},
    {"uri": "x", "paths": [1]},
    {"uri": "x", "uris": "majordomus://issue/I0001"},
    {"uri": "x", "budget_tokens": "many"},
    {"uri": "x", "budget_tokens": 5.5},
    {"uri": "x", "budget_tokens": [5]},
    {"uri": "x", "max_depth": 1.5},
    {"uri": "x", "floor": "high"},
    {"uri": "x", "floor": [0.5]},
    {"uri": "x", "all_blocking_rules": "maybe"},
    {"uri": "x", "all_blocking_rules": [True]},
]


def _engine_accepts(data: dict) -> bool:
    try:
        parse_input(data, explain=True)
    except RequestError:
        return False
    return True


@pytest.mark.parametrize("data", VALID_INPUTS, ids=lambda d: json.dumps(d, sort_keys=True))
def test_valid_explain_inputs_are_accepted_by_both(input_validator, data):
    assert input_validator.is_valid(data)
    assert _engine_accepts(data)


@pytest.mark.parametrize("data", INVALID_INPUTS, ids=lambda d: json.dumps(d, sort_keys=True))
def test_invalid_explain_inputs_are_refused_by_both(input_validator, data):
    assert not input_validator.is_valid(data)
    with pytest.raises(RequestError) as info:
        parse_input(data, explain=True)
    assert info.value.field, "the refusal names the field"


def test_a_missing_uri_is_named(input_validator):
    with pytest.raises(RequestError) as info:
        parse_input({"issue": "I0001"}, explain=True)
    assert info.value.field == "uri" and "required" in info.value.message


def test_an_unknown_field_is_named():
    with pytest.raises(RequestError) as info:
        parse_input({"uri": "x", "budgett": 3}, explain=True)
    assert info.value.field == "budgett" and "unknown field" in info.value.message


@pytest.mark.parametrize("data", [{"uri": "x", "budget_tokens": -1}, {"uri": "x", "max_depth": -1}])
def test_below_the_schema_minimum_is_refused_before_compiling(layers, input_validator, data):
    """The schema's `minimum: 0` is enforced by request validation, not by the parser."""
    assert not input_validator.is_valid(data)
    parsed = parse_input(data, explain=True)
    with pytest.raises(RequestError):
        explain(layers.index(base_files()), parsed)


# Values pydantic's lax mode converts: strings of numbers, booleans as numbers and the other
# way round. The schema refuses them; the parser takes them (it also reads query parameters).
LAX = [
    {"uri": "x", "budget_tokens": "5"},
    {"uri": "x", "budget_tokens": True},
    {"uri": "x", "floor": True},
    {"uri": "x", "floor": "0.5"},
    {"uri": "x", "all_blocking_rules": 1},
    {"uri": "x", "all_blocking_rules": "yes"},
]


@pytest.mark.parametrize("data", LAX, ids=lambda d: json.dumps(d, sort_keys=True))
def test_lax_coercions_are_refused_like_the_schema(input_validator, data):
    assert not input_validator.is_valid(data)
    assert not _engine_accepts(data)


_FIELDS = ["uri", "issue", "milestone", "intent", "paths", "uris", "budget_tokens", "max_depth",
           "floor", "all_blocking_rules", "extra", "budget"]
_json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**6),
                          st.floats(-2, 2, allow_nan=False, allow_infinity=False),
                          st.text(max_size=6))
_json = st.recursive(_json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=2)),
    max_leaves=5)
_NUMERIC = {"budget_tokens", "max_depth", "floor"}


def _is_lax(data: dict) -> bool:
    """A value the schema refuses for its JSON type that lax parsing converts."""
    for key, value in data.items():
        if key in _NUMERIC and isinstance(value, (bool, str)):
            return True
        if key == "all_blocking_rules" and value is not None and not isinstance(value, bool) \
                and isinstance(value, (int, float, str)):
            return True
        if key in ("budget_tokens", "max_depth") and isinstance(value, (int, float)) \
                and not isinstance(value, bool) and value < 0:
            return True  # the minimum is checked by request validation (test above)
    return False


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(_FIELDS), _json, max_size=5))
def test_parse_input_agrees_with_the_input_schema(input_validator, data):
    if _is_lax(data):
        return
    assert _engine_accepts(data) == input_validator.is_valid(data), data


def test_explain_of_an_absent_identifier_is_an_answer_not_an_error(layers):
    index = layers.index(base_files())
    e = explain(index, parse_input({"uri": "majordomus://adr/9999", "budget_tokens": 77},
                                   explain=True))
    assert e.standing is Standing.unknown and e.budget.limit_tokens == 77


def test_explain_of_a_blank_identifier_is_refused(layers):
    with pytest.raises(RequestError) as info:
        explain(layers.index(base_files()), parse_input({"uri": "   "}, explain=True))
    assert "identifier" in info.value.message


def test_explain_propagates_compile_errors(layers):
    index = layers.index(base_files())
    with pytest.raises(NotFoundError):
        explain(index, parse_input({"uri": "x", "issue": "I0999"}, explain=True))
    with pytest.raises(RequestError):
        explain(index, parse_input({"uri": "x", "budget_tokens": 0}, explain=True))


def test_numbers_on_the_wire_are_finite_and_rounded(layers):
    index = layers.index(base_files())
    compiled = compile_dict(index, {"uris": ["majordomus://rule/project.gamma@1"]})
    for entry in compiled.wire()["selected"]:
        for value in (entry["relevance"], entry["confidence"]):
            assert math.isfinite(value) and round(value, 3) == value


@pytest.mark.parametrize("params, expected", [
    ({"uri": "x", "budget_tokens": "5"}, {"budget_tokens": 5}),
    ({"uri": "x", "floor": "0.5"}, {"floor": 0.5}),
    ({"uri": "x", "all_blocking_rules": "true"}, {"all_blocking_rules": True}),
    ({"uri": "x", "all_blocking_rules": "no"}, {"all_blocking_rules": False}),
    ({"uri": "x", "paths": "lib"}, {"paths": ("lib",)}),
])
def test_text_parameters_are_read_from_their_text_forms(params, expected):
    parsed = parse_input(params, explain=True, text=True)
    for key, value in expected.items():
        assert getattr(parsed, key) == value


@pytest.mark.parametrize("params, field, words", [
    ({"uri": "x", "budget_tokens": "lots"}, "budget_tokens", "whole number"),
    ({"uri": "x", "floor": "half"}, "floor", "number between 0 and 1"),
    ({"uri": "x", "all_blocking_rules": "maybe"}, "all_blocking_rules", "true or false"),
    ({"uri": "x", "colour": "red"}, "colour", "unknown field `colour`"),
])
def test_bad_text_parameters_name_the_parameter(params, field, words):
    with pytest.raises(RequestError) as caught:
        parse_input(params, explain=True, text=True)
    assert caught.value.field == field and words in caught.value.message
