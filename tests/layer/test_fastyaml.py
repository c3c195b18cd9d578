"""The fast reader must read whatever it accepts exactly as the PyYAML-based loader does."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.layer.fastyaml import fast_parse
from generator.layer.frontmatter import split_front_matter
from generator.layer.yamlish import _load, parse_yaml
from generator.synth import synthesize


def slow(text: str):
    """PyYAML's reading (with the dialect repair), bypassing the fast path."""
    import generator.layer.yamlish as y

    saved = y.fast_parse
    y.fast_parse = lambda _t, **_limits: None
    try:
        return parse_yaml(text)
    finally:
        y.fast_parse = saved


def agree(text: str) -> bool:
    fast = fast_parse(text)
    if fast is None:
        return True  # outside the subset: PyYAML reads it
    ref = slow(text)
    assert ref.problem is None, f"fast reader accepted YAML that PyYAML refuses: {ref.problem}"
    value, dialect, dups, _ = fast
    assert value == ref.value
    assert type(value) is type(ref.value)
    assert sorted(dialect) == sorted(ref.dialect_lines)
    assert sorted(dups) == sorted(ref.duplicate_keys)
    return True


def _yaml_texts(root: Path):
    for path in sorted(root.rglob("*")):
        if path.suffix == ".yaml":
            yield path.read_text(encoding="utf-8")
        elif path.suffix == ".md":
            fm = split_front_matter(path.read_text(encoding="utf-8"))
            if fm.yaml_text is not None:
                yield fm.yaml_text


def test_agrees_on_every_record_of_the_demo_and_the_real_layer(real_layer):
    demo = Path(__file__).resolve().parents[2] / "generator" / "demo" / "layer"
    accepted = 0
    for root in (demo, real_layer):
        for text in _yaml_texts(root):
            agree(text)
            accepted += fast_parse(text) is not None
    assert accepted > 250  # the fast path really is taken


def test_agrees_on_a_synthetic_layer():
    files = synthesize("small")
    texts = []
    for path, data in files.items():
        text = data.decode()
        if path.endswith(".yaml"):
            texts.append(text)
        elif path.endswith(".md"):
            fm = split_front_matter(text)
            if fm.yaml_text is not None:
                texts.append(fm.yaml_text)
    assert all(agree(t) for t in texts)
    assert sum(fast_parse(t) is not None for t in texts) == len(texts)


@pytest.mark.parametrize("text", [
    "a: 1\nb: 0052\nc: 2026-01-01\nd: true\ne: yes\nf: ~\ng: 1.5\nh: -3\n",
    "list: [a, 'b c', \"d\", 3]\nempty: []\n",
    "k:\n- a\n- b\nm:\n  - x: 1\n    y: [2]\n  - z\n",
    "title: Phase 4: the shell\n",
    "k:\n  - A subject is a path or capability:, rule:, gate: followed by x\n",
    "a: 'it''s'\nb: x # comment\n",
    "a: |\n  block\n",
    "a: &anchor 1\nb: *anchor\n",
    "a: b\n  continued\n",
    "a: [1, [2]]\n",
    "a: \"esc\\n\"\n",
    "? complex\n: key\n",
    "a: 1\na: 2\n",
    "url: http://example.org/x\n",
    "a: -\n",
    "- a\n- b\n",
    "a:\n  b:\n    c: d\n",
    "a: {x: 1}\n",
    "'quoted key': 1\n",
    "a: [x,]\n",
])
def test_agrees_on_tricky_cases(text):
    assert agree(text)


_word = st.text(alphabet="abcXYZ019-_. :#'\"[],é", min_size=0, max_size=12)
_key = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True)


@st.composite
def documents(draw):
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        key = draw(_key)
        shape = draw(st.sampled_from(["scalar", "flow", "block", "maps"]))
        if shape == "scalar":
            lines.append(f"{key}: {draw(_word)}")
        elif shape == "flow":
            items = draw(st.lists(_word, max_size=4))
            lines.append(f"{key}: [{', '.join(items)}]")
        elif shape == "block":
            lines.append(f"{key}:")
            indent = draw(st.sampled_from(["", "  "]))
            for item in draw(st.lists(_word, min_size=1, max_size=3)):
                lines.append(f"{indent}- {item}")
        else:
            lines.append(f"{key}:")
            for _ in range(draw(st.integers(1, 2))):
                lines.append(f"  - {draw(_key)}: {draw(_word)}")
                if draw(st.booleans()):
                    lines.append(f"    {draw(_key)}: {draw(_word)}")
    return "\n".join(lines) + "\n"


@settings(max_examples=400, deadline=None)
@given(documents())
def test_agrees_on_generated_documents(text):
    assert agree(text)
