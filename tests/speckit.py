"""The shared spec folder (``../shared/spec``) as tests read it: its JSON Schemas, and how
the product's texts relate to the spec's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.engine.policy import DEFAULT_BUDGET_TOKENS, DEFAULT_FLOOR, DEFAULT_MAX_DEPTH

SPEC = Path(__file__).resolve().parents[2] / "shared" / "spec"
if not SPEC.is_dir():
    SPEC = Path("/work/shared/spec")

needs_spec = pytest.mark.skipif(not SPEC.is_dir(), reason="the shared spec folder is absent")

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
    """The spec's description of an input property with the product's facts put in."""
    text = words(text)
    for spec_words, product_words in PRODUCT_FACTS.get(prop, ()):
        assert spec_words in text, f"{prop}: the spec no longer says {spec_words!r}"
        text = text.replace(spec_words, product_words)
    return text
