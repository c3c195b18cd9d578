"""Every schema the registry hands out carries the contract's prose: each type and property
of ``devcontext-explanation.schema.json`` with its description word for word, and each
property of ``devcontext-explain-input.schema.json`` with the spec's text but for the
product's own facts listed in :data:`speckit.PRODUCT_FACTS`. Skipped only when the shared spec folder
is absent."""

from __future__ import annotations

from generator.operations import operation
from generator.operations.schemas import input_schema, output_schema
from speckit import PRODUCT_NAMES, needs_spec, spec, spec_input_text, words

pytestmark = needs_spec


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
