"""Every bad-input case becomes one diagnostic with an exact message; the rest still loads."""

from __future__ import annotations

import builtins
import os

import pytest

from generator.errors import LayerError
from generator.layer.loader import fingerprint_of, load_repository
from layerkit import MANIFEST, issue, write_layer


def load(root):
    return load_repository(root)[1]


def by_code(layer, code):
    return [d for d in layer.diagnostics if d.code == code]


def test_a_good_layer_loads_with_identities_and_provenance(tmp_path):
    write_layer(tmp_path, {
        ".ai/repo/policy.yaml": "version: 1\n",
        ".ai/repo/project/milestones/m1.yaml": "id: m1\ntitle: First\nslug: the-first\noutcome: It works.\n",
        ".ai/repo/project/issues/I0001.yaml": issue("I0001", scope=["lib"], updated_at="2026-09-15"),
        ".ai/repo/rules/project/alpha.v2.md": "---\nid: project.alpha\nversion: 2\nclass: blocking\nstatus: active\ntitle: Alpha\n---\n# Rationale\n",
        ".ai/repo/adrs/0001-first.md": "---\nid: adr-0001\ntitle: First\nstatus: accepted\n---\n",
        "lib/thing.sh": "echo hi\n",
        "README.md": "# The repo\n",
    })
    layer = load(tmp_path)
    uris = {o.uri for o in layer.objects}
    assert {
        "majordomus://policy/.ai/repo/policy.yaml",
        "majordomus://milestone/m1",
        "majordomus://issue/I0001",
        "majordomus://rule/project.alpha@2",
        "majordomus://implementation/lib/thing.sh",
        "majordomus://document/README.md",
        "majordomus://manifest/.ai/manifest.yaml",
        "majordomus://sources/.ai/repo/knowledge/sources.yaml",
    } <= uris
    issue_obj = next(o for o in layer.objects if o.kind == "issue")
    assert issue_obj.version == "2026-09-15"
    assert issue_obj.facts["milestone"] == "m1" and issue_obj.facts["scope"] == "lib"
    prov = issue_obj.provenance
    assert (prov.path, prov.directory, prov.source_class, prov.section) == (
        ".ai/repo/project/issues/I0001.yaml", ".ai/repo/project/issues", "issue", "project")
    readme = next(o for o in layer.objects if o.kind == "document")
    assert readme.provenance.directory == "." and readme.provenance.section is None
    assert readme.title == "The repo"
    rule = next(o for o in layer.objects if o.kind == "rule")
    assert rule.facts["class"] == "blocking" and rule.version == "2"
    assert [d for d in layer.diagnostics if d.severity != "info"] == []


def test_malformed_yaml_names_line_and_column_and_the_rest_loads(tmp_path):
    write_layer(tmp_path, {
        ".ai/repo/project/issues/I0001.yaml": "id: I0001\ntitle: [unclosed\nmilestone: m1\n",
        ".ai/repo/project/issues/I0002.yaml": issue("I0002"),
    })
    layer = load(tmp_path)
    (d,) = by_code(layer, "yaml_syntax")
    assert d.path == ".ai/repo/project/issues/I0001.yaml" and d.severity == "error"
    assert (d.line, d.column) == (3, 10)
    assert d.message == (
        "the file is not valid YAML (in any dialect) at line 3, column 10: did not find "
        "expected ',' or ']' (while parsing a flow sequence). Fix the syntax; the file was "
        "not loaded."
    )
    assert "majordomus://issue/I0002" in {o.uri for o in layer.objects}


def test_front_matter_yaml_error_lines_count_from_the_file_start(tmp_path):
    write_layer(tmp_path, {
        ".ai/repo/adrs/0001-x.md": "---\nid: adr-0001\ntitle: x\ntags: [a\n---\n# 1. X\n",
    })
    (d,) = by_code(load(tmp_path), "yaml_syntax")
    assert d.line == 5 and d.message.startswith("the front matter is not valid YAML")


def test_dialect_colon_is_an_info_and_loads(tmp_path):
    write_layer(tmp_path, {".ai/repo/project/issues/I1105.yaml": "id: I1105\ntitle: Phase 4: the shell\n"})
    layer = load(tmp_path)
    (d,) = by_code(layer, "yaml_dialect")
    assert d.severity == "info" and d.line == 2
    assert d.message == (
        "line 2 has an unquoted value containing ': ', which the layer's YAML dialect accepts "
        "and standard YAML refuses. Quote the value to make the file portable."
    )
    (obj,) = [o for o in layer.objects if o.kind == "issue"]
    assert obj.title == "Phase 4: the shell"


def test_wrong_field_type_is_named_with_expected_found_and_fix(tmp_path):
    write_layer(tmp_path, {".ai/repo/project/issues/I0001.yaml": "id: I0001\nmilestone: m1\nscope:\n  a: b\n"})
    (d,) = by_code(load(tmp_path), "field_type")
    assert d.severity == "warning" and d.line == 3
    assert d.message == (
        "field `scope` of issue in .ai/repo/project/issues/I0001.yaml should be a list of "
        "text; found a mapping. Write `scope: [a, b]` or one `- item` per line; the field "
        "was ignored."
    )


def test_unknown_manifest_key_is_an_error_and_discovery_goes_on(tmp_path):
    write_layer(tmp_path, {".ai/repo/project/issues/I0001.yaml": issue("I0001")},
                manifest=MANIFEST + "extras: true\n")
    layer = load(tmp_path)
    (d,) = by_code(layer, "manifest_unknown_key")
    assert d.severity == "error" and d.path == ".ai/manifest.yaml" and d.line == 16
    assert d.message == (
        "unknown manifest key `extras`; the manifest allows only `schema`, `repo`, `local`, "
        "`sections`, `context`. Remove it or move it under the section that owns it."
    )
    assert any(o.kind == "issue" for o in layer.objects)


def test_manifest_section_pointing_nowhere(tmp_path):
    write_layer(tmp_path, {".ai/repo/policy.yaml": "version: 1\n"},
                manifest=MANIFEST.replace("adrs: repo/adrs", "adrs: repo/decisions"))
    (d,) = [d for d in by_code(load(tmp_path), "manifest_section_missing") if "`adrs`" in d.message]
    assert d.line == 11
    assert d.severity == "warning"
    assert d.message == (
        "section `adrs` points at `.ai/repo/decisions`, which holds no files. Create it, fix "
        "the path, or remove the section."
    )


def test_sections_move_default_discovery(tmp_path):
    write_layer(
        tmp_path,
        {".ai/records/decisions/0001-x.md": "---\nid: adr-0001\ntitle: X\nstatus: accepted\n---\n"},
        manifest=MANIFEST.replace("adrs: repo/adrs", "adrs: records/decisions"),
    )
    layer = load(tmp_path)
    (adr,) = [o for o in layer.objects if o.kind == "adr"]
    assert adr.provenance.section == "adrs" and adr.provenance.source_class == "adr"


def test_id_that_disagrees_with_its_file_name(tmp_path):
    write_layer(tmp_path, {".ai/repo/project/issues/I0001.yaml": issue("I0002")})
    layer = load(tmp_path)
    (d,) = by_code(layer, "id_mismatch")
    assert d.line == 1
    assert d.message == (
        "issue `I0002` lives in a file whose name disagrees with its id; expected "
        "`I0002.yaml`. Rename the file or correct the id (the id is used)."
    )
    assert "majordomus://issue/I0002" in {o.uri for o in layer.objects}


def test_rule_file_name_must_match_slug_and_version(tmp_path):
    write_layer(tmp_path, {
        ".ai/repo/rules/project/old-name.v1.md": "---\nid: project.new-name\nversion: 1\n---\n",
    })
    (d,) = by_code(load(tmp_path), "id_mismatch")
    assert "expected `new-name.v1.md`" in d.message


def test_two_files_claiming_one_identity(tmp_path):
    write_layer(tmp_path, {
        ".ai/repo/adrs/0012-first.md": "---\nid: adr-0012\ntitle: First\n---\n",
        ".ai/repo/adrs/0012-second.md": "---\nid: adr-0012\ntitle: Second\n---\n",
    })
    layer = load(tmp_path)
    (d,) = by_code(layer, "duplicate_identity")
    assert d.severity == "error" and d.path == ".ai/repo/adrs/0012-second.md" and d.line == 2
    assert d.message == (
        "claims identity `majordomus://adr/adr-0012`, which .ai/repo/adrs/0012-first.md "
        "already holds; only the first (by path) is indexed. Give this adr a new, unused id "
        "(above the highest one in use)."
    )
    (adr,) = [o for o in layer.objects if o.kind == "adr"]
    assert adr.title == "First"


def test_non_utf8_bytes(tmp_path):
    write_layer(tmp_path, {".ai/repo/project/issues/I0001.yaml": b"id: I0001\ntitle: caf\xe9\n"})
    (d,) = by_code(load(tmp_path), "not_utf8")
    assert (d.severity, d.line, d.column) == ("error", 2, 11)
    assert d.message == (
        "is not UTF-8: byte 0xe9 at line 2, column 11 cannot be decoded. Re-save the file as "
        "UTF-8; it was not loaded."
    )


def test_unreadable_file(tmp_path, monkeypatch):
    write_layer(tmp_path, {".ai/repo/project/issues/I0001.yaml": issue("I0001"),
                           ".ai/repo/project/issues/I0002.yaml": issue("I0002")})
    real_open = builtins.open

    def guarded(path, *args, **kwargs):
        if str(path).endswith("I0001.yaml"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded)
    layer = load(tmp_path)
    (d,) = by_code(layer, "unreadable")
    assert d.path == ".ai/repo/project/issues/I0001.yaml"
    assert d.message == "cannot be read: Permission denied. Check its permissions."
    assert [o.identity for o in layer.objects if o.kind == "issue"] == ["I0002"]


def test_symlink_leading_outside_is_not_followed(tmp_path):
    outside = tmp_path / "outside.yaml"
    outside.write_text(issue("I0009"))
    repo = write_layer(tmp_path / "repo", {})
    link = repo / ".ai/repo/project/issues/I0009.yaml"
    link.parent.mkdir(parents=True)
    os.symlink(outside, link)
    inside_target = repo / ".ai/repo/project/I0008.txt"
    inside_target.write_text(issue("I0008"))
    os.symlink(inside_target, repo / ".ai/repo/project/issues/I0008.yaml")
    layer = load(repo)
    (d,) = by_code(layer, "symlink_outside")
    assert d.path == ".ai/repo/project/issues/I0009.yaml" and d.severity == "warning"
    assert d.message == (
        "is a symbolic link to a location outside the repository; it was not followed. "
        "Replace the link with the file itself, or remove it."
    )
    assert [o.identity for o in layer.objects if o.kind == "issue"] == ["I0008"]


def test_missing_identity_falls_back_to_the_path(tmp_path):
    write_layer(tmp_path, {".ai/repo/rules/project/x.v1.md": "---\nid: project.x\ntitle: X\n---\n"})
    layer = load(tmp_path)
    (d,) = by_code(layer, "missing_identity")
    assert d.message.startswith("rule in .ai/repo/rules/project/x.v1.md has no identity: `version` is nothing")
    assert "majordomus://rule/.ai/repo/rules/project/x.v1.md" in {o.uri for o in layer.objects}


def test_context_document_needs_a_contract(tmp_path):
    write_layer(tmp_path, {
        ".ai/repo/README.md": "---\nschema: context/v1\nid: ai.repo\ntitle: Repo\nscope: subtree\n---\n# Repo\n",
        ".ai/repo/project/README.md": "# No contract\n",
    })
    layer = load(tmp_path)
    assert "majordomus://context/ai.repo" in {o.uri for o in layer.objects}
    (d,) = by_code(layer, "missing_contract")
    assert d.path == ".ai/repo/project/README.md" and d.severity == "error"


def test_markdown_without_front_matter_of_a_kind_that_needs_it_is_a_document(tmp_path):
    write_layer(tmp_path, {".ai/repo/adrs/0005-legacy.md": "# 5. Legacy\n\nStatus: accepted\n"})
    layer = load(tmp_path)
    (obj,) = [o for o in layer.objects if o.provenance.path.endswith("0005-legacy.md")]
    assert obj.kind == "document" and obj.title == "5. Legacy"
    assert by_code(layer, "no_front_matter")[0].severity == "info"


def test_unclassified_files_in_the_layer_are_reported(tmp_path):
    write_layer(tmp_path, {".ai/repo/notes/todo.txt": "later\n"})
    (d,) = by_code(load(tmp_path), "unclassified")
    assert d.path == ".ai/repo/notes/todo.txt"


def test_local_state_is_never_read(tmp_path):
    write_layer(tmp_path, {".ai/local/state/handover.md": "secret\n"})
    tree, layer = load_repository(tmp_path)
    assert not any(p.startswith(".ai/local/") for p in tree.files)


def test_list_files_give_one_object_per_item(tmp_path):
    write_layer(tmp_path, {
        "docs/CLAIMS.yaml": "claims:\n  - id: fast\n    claim: It is fast\n  - id: safe\n    claim: It is safe\n",
    })
    layer = load(tmp_path)
    claims = [o for o in layer.objects if o.kind == "claim"]
    assert [(c.identity, c.title, c.provenance.member) for c in claims] == [
        ("fast", "It is fast", "claims.0"), ("safe", "It is safe", "claims.1")]


def test_no_manifest_is_a_layer_error(tmp_path):
    with pytest.raises(LayerError, match="has no .ai/manifest.yaml"):
        load_repository(tmp_path)


def test_fingerprint_changes_with_any_byte_and_not_otherwise():
    base = {"a": b"1", "b/c": b"xyz"}
    assert fingerprint_of(base) == fingerprint_of(dict(reversed(list(base.items()))))
    assert fingerprint_of(base) != fingerprint_of({**base, "a": b"2"})
    assert fingerprint_of(base) != fingerprint_of({**base, "d": b""})
    assert fingerprint_of({"ab": b"c"}) != fingerprint_of({"a": b"bc"})


def test_fingerprint_of_a_repository_moves_with_an_edit(tmp_path):
    write_layer(tmp_path, {".ai/repo/project/issues/I0001.yaml": issue("I0001")})
    before = load(tmp_path).fingerprint
    assert load(tmp_path).fingerprint == before
    (tmp_path / ".ai/repo/project/issues/I0001.yaml").write_text(issue("I0001") + "# touched\n")
    assert load(tmp_path).fingerprint != before
