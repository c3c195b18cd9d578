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
