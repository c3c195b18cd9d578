"""Every schema the registry hands out carries the contract's prose: each type and property
of ``devcontext-explanation.schema.json`` with its description word for word, and each
property of ``devcontext-explain-input.schema.json`` with the spec's text but for the
product's own facts listed in :data:`PRODUCT_FACTS`. Skipped only when the shared spec folder
is absent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.engine.policy import DEFAULT_BUDGET_TOKENS, DEFAULT_FLOOR, DEFAULT_MAX_DEPTH
from generator.operations import operation
from generator.operations.schemas import input_schema, output_schema

SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec"
if not SPEC.is_dir():
    SPEC = Path("/work/shared/spec")
pytestmark = pytest.mark.skipif(not SPEC.is_dir(), reason="the shared spec folder is absent")

#: The spec's type names that the product spells otherwise.
PRODUCT_NAMES = {"DevContextStanding": "Standing", "DevContextExplainInput": "ExplainInput"}

#: Where the product's input text says its own fact instead of the spec's words, as
#: (spec words, product words): the defaults are stated by value, and an issue is also
#: found by its slug. Everything else is the spec's text.
PRODUCT_FACTS = {
    "budget_tokens": [("`DEFAULT_BUDGET_TOKENS`", str(DEFAULT_BUDGET_TOKENS))],
    "floor": [("`DEFAULT_FLOOR`", f"{DEFAULT_FLOOR:g}")],
    "max_depth": [("`DEFAULT_MAX_DEPTH`", str(DEFAULT_MAX_DEPTH))],
    "issue": [("(`I0301`) or its canonical", "(`I0301`), its slug or its canonical")],
}


def spec(name: str) -> dict:
    return json.loads((SPEC / name).read_text(encoding="utf-8"))


def words(text: str) -> str:
    """The spec wraps its descriptions like doc comments; the words are the contract."""
    return " ".join(text.split())


def spec_input_text(prop: str, text: str) -> str:
    text = words(text)
    for spec_words, product_words in PRODUCT_FACTS.get(prop, ()):
        assert spec_words in text, f"{prop}: the spec no longer says {spec_words!r}"
        text = text.replace(spec_words, product_words)
    return text


def test_every_output_type_and_property_has_the_specs_description():
    ours = output_schema(operation("devcontext.explain"))
    theirs = spec("devcontext-explanation.schema.json")
    pairs = [("Explanation", ours, theirs)] + [
        (name, ours["$defs"][PRODUCT_NAMES.get(name, name)], sub)
        for name, sub in theirs["$defs"].items()]
    checked = 0
    for name, mine, contract in pairs:
        assert mine.get("description") == contract["description"], name
        for prop, sub in contract.get("properties", {}).items():
            assert mine["properties"][prop].get("description") == sub["description"], \
                f"{name}.{prop}"
            checked += 1
    assert checked > 50


def test_every_input_property_has_the_specs_description():
    ours = input_schema(operation("devcontext.explain"))
    theirs = spec("devcontext-explain-input.schema.json")
    assert set(ours["properties"]) == set(theirs["properties"])
    for prop, sub in theirs["properties"].items():
        assert words(ours["properties"][prop]["description"]) == \
            spec_input_text(prop, sub["description"]), prop
    assert ours["description"] == theirs["description"]


def test_compile_shares_the_types_prose():
    """One definition: the compile answer's types carry the same text as explain's."""
    compiled = output_schema(operation("devcontext.compile"))["$defs"]
    explained = output_schema(operation("devcontext.explain"))["$defs"]
    assert compiled["Budget"] == explained["Budget"]
    assert compiled["ContextEntry"]["properties"]["uri"]["description"].startswith(
        "The canonical identifier")
