"""The one JSON form: the plain fast path writes the same bytes, and refuses what it
cannot write the same way."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.jsonio import canonical_json, canonical_plain_json
from generator.site.build import SiteInputs, page_kit
from generator.site.pages.search import search_index
from generator.workspace import Workspace

plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@given(plain)
def test_plain_data_is_written_as_canonical_json_writes_it(value):
    assert canonical_plain_json(value) == canonical_json(value)


def test_the_search_index_is_plain_data():
    data = search_index(page_kit(SiteInputs(index=Workspace.open(None).index)))
    assert canonical_plain_json(data) == canonical_json(data)


@pytest.mark.parametrize("value", [{"x": math.nan}, [math.inf], {"model": SiteInputs}])
def test_what_is_not_plain_is_refused_rather_than_written_differently(value):
    with pytest.raises((ValueError, TypeError)):
        canonical_plain_json(value)


# -- a model's wire form, written by orjson: the same bytes as json writes ----------------

from generator.jsonio import _wire_json, canonical_json_text  # noqa: E402

wire = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([1e-5, -1e-5, 0.0001, 0.00009999, 1e-7, 5e-324, 1e16, 1e22, 0.0, -0.0]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


def _json_bytes(data):
    try:
        return canonical_json_text(data).encode("utf-8")
    except Exception as exc:  # noqa: BLE001 - the same failure is what is compared
        return type(exc)


def _written(data):
    try:
        return _wire_json(data)
    except Exception as exc:  # noqa: BLE001
        return type(exc)


@given(wire)
def test_a_wire_form_is_written_as_json_writes_it(data):
    assert _written(data) == _json_bytes(data)


@pytest.mark.parametrize("data", [
    {"floor": 1e-05}, [0.00001, "x"], -9e-05, [1e-6], {"a": 1.5e-8}, {"a": [2.5e-300]},
    {"n": 2**70}, {"s": "\ud800"}, {"k": "sha256:3e8f"}, {"text": "a,0.00001]"}, {"é": 1, "e": 2, "\U0001f600": 3, "Z": 4},
])
def test_what_orjson_would_spell_otherwise_or_refuses_is_written_by_json(data):
    assert _written(data) == _json_bytes(data)


def test_an_answer_is_written_as_json_writes_its_wire_form():
    from generator.engine import compile_context, parse_input

    index = Workspace.open(None).index
    for obj in index.by_kind["issue"][:10]:
        answer = compile_context(index, parse_input({"issue": obj.identity}))
        assert canonical_json(answer) == canonical_json_text(answer).encode("utf-8")
