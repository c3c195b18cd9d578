"""generator.fields: typed reads of raw record fields; a value of the wrong shape reads as
absent, never as an error."""

from __future__ import annotations

from generator import fields
from generator.model import LayerObject, Provenance


def obj(kind: str = "issue", **raw) -> LayerObject:
    where = Provenance(path=f"{kind}.yaml", directory=".", source_class="x", bytes=1)
    return LayerObject(uri=f"majordomus://{kind}/x", kind=kind, identity="x", fields=raw,
                       provenance=where)


def test_scope_paths_keeps_string_paths_inside_the_repository_in_order():
    o = obj(scope=["./lib/", "tests", "/etc", "../up", "", 3, None, "lib/a/../b", "docs"])
    assert fields.scope_paths(o) == ["lib", "tests", "docs"]
    assert fields.scope_paths(obj(scope="lib/x.py")) == ["lib/x.py"]
    assert fields.scope_paths(obj(scope={"lib": 1})) == []
    assert fields.scope_paths(obj()) == []


def test_changed_files_and_contract_paths_read_scalars_as_text():
    o = obj("session", changed_files=["./a.py", " b/ ", 7, "", None, ["nested"]])
    assert fields.changed_files(o) == ("a.py", "b", "7")
    assert fields.changed_files(obj("session", changed_files="one.py")) == ("one.py",)
    assert fields.changed_files(obj("session", changed_files=5)) == ()
    c = obj("context", paths=["src/"], tracks="docs/x.md")
    assert fields.contract_paths(c) == ("src",)
    assert fields.contract_tracks(c) == ("docs/x.md",)


def test_branch_is_a_string_or_none():
    assert fields.branch(obj("session", branch="feature/x")) == "feature/x"
    assert fields.branch(obj("session", branch=3)) is None
    assert fields.branch(obj("session")) is None


def test_rule_class_and_contract_mode_are_folded():
    assert fields.rule_class(obj("rule", **{"class": " Blocking "})) == "blocking"
    assert fields.rule_class(obj("rule")) == ""
    assert fields.rule_class(obj("rule", **{"class": True})) == "true"
    assert fields.contract_mode(obj("context", scope="SubTree")) == "subtree"
    assert fields.contract_mode(obj("context")) == "directory"
    assert fields.contract_mode(obj("context", scope=["x"])) == "directory"


def test_slug_and_evidence():
    assert fields.slug(obj(slug=" a-b ")) == " a-b "
    assert fields.slug(obj(slug=12)) == "12"
    assert fields.slug(obj()) is None
    entry = {"covers": "k", "commit": "abc"}
    assert fields.evidence(obj(evidence=[entry, "text", None])) == [entry]
    assert fields.evidence(obj(evidence={"covers": "k"})) == []
