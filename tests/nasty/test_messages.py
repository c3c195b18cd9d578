"""Every diagnostic's English message is what it always was, now that each is made as a
phrase: ``messages.json`` holds the messages the loader, the reader and the index wrote
before (their f-strings), for the nasty corpus and the cases of :mod:`phrasecases` — every
diagnostic code at least once. A page says the phrase; the wire must not notice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.workspace import Workspace
from nastykit import CASES, write_case
from phrasecases import EXTRA

EXPECTED = json.loads((Path(__file__).parent / "messages.json").read_text(encoding="utf-8"))

#: Every code a layer diagnostic can have (the engine's request diagnostics aside).
CODES = {
    "case_clash", "dependency_cycle", "duplicate_identity", "duplicate_key", "empty_file",
    "field_type", "file_too_large", "foreign_path", "front_matter_unclosed", "id_mismatch",
    "list_file_shape", "list_item_shape", "manifest_field", "manifest_schema",
    "manifest_section_missing", "manifest_section_outside", "manifest_shape",
    "manifest_unknown_key", "missing_contract", "missing_identity", "no_front_matter",
    "not_a_file", "not_a_mapping", "not_utf8", "required_class_empty", "self_reference",
    "sources_class", "sources_missing", "sources_shape", "supersedes_cycle", "symlink_broken",
    "symlink_dir", "symlink_outside", "unclassified", "unresolved_reference", "yaml_dialect",
    "yaml_syntax", "yaml_too_deep", "yaml_too_many_nodes",
}


def test_the_expected_messages_cover_every_code():
    found = {code for rows in EXPECTED.values() for code, *_ in rows}
    assert CODES - found == set()


@pytest.mark.parametrize("case", CASES + EXTRA, ids=lambda c: c.id)
def test_a_diagnostic_says_what_it_always_said(tmp_path, case):
    repo, _ = write_case(tmp_path, case)
    diagnostics = Workspace.open(repo).index.diagnostics
    assert [[d.code, d.path, d.line, d.message] for d in diagnostics] == EXPECTED[case.id]
    # each carries its sentence, whose English is the message
    assert [str(d.phrase) if d.phrase else None for d in diagnostics] == [d.message for d in diagnostics]
