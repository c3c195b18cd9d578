"""The site-wide JSON files are written from rows kept as canonical text: placed as values
of the structure, they give exactly the bytes of the whole value serialised at once."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from generator.jsonio import canonical_json, canonical_json_text
from generator.site.jsonrows import Raw, json_with_rows

plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=16,
)


def _raw(value) -> Raw:
    return Raw(canonical_json_text(value)[:-1])


@given(st.dictionaries(st.text(max_size=5), plain, max_size=5), st.text(max_size=5),
       st.lists(plain, max_size=5))
def test_rows_placed_as_values_give_the_bytes_of_the_whole(head, name, rows):
    whole = dict(head)
    whole[name] = rows
    placed = dict(head)
    placed[name] = [_raw(r) for r in rows]
    assert json_with_rows(placed) == canonical_json(whole)


@given(st.lists(plain, max_size=6))
def test_a_list_of_rows_is_the_list_serialised(rows):
    assert json_with_rows([_raw(r) for r in rows]) == canonical_json(rows)


def test_a_key_named_like_the_rows_elsewhere_in_the_text_does_not_matter():
    # the old splice replaced the first '"contexts":[]' in the text, wherever it stood
    head = {"a": {"contexts": []}, "contexts": []}
    placed = {"a": {"contexts": []}, "contexts": [_raw({"id": 1})]}
    assert json_with_rows(placed) == b'{"a":{"contexts":[]},"contexts":[{"id":1}]}\n'
    assert json_with_rows(head) == canonical_json(head)
