"""The index: edges both ways, unresolved references, path queries, identity lookups."""

from __future__ import annotations

from generator.index import build_index
from generator.layer.loader import load_repository
from layerkit import issue, write_layer


def index_of(root):
    return build_index(load_repository(root)[1])


def layer_files():
    return {
        ".ai/repo/project/milestones/m1.yaml": "id: m1\ntitle: M1\nslug: the-milestone\n",
        ".ai/repo/project/issues/I0001.yaml": issue("I0001", scope=["lib"]),
        ".ai/repo/project/issues/I0002.yaml": issue("I0002", depends_on=["I0001", "I0404"]),
        ".ai/repo/rules/project/alpha.v1.md": "---\nid: project.alpha\nversion: 1\nclass: blocking\n---\n",
        ".ai/repo/rules/project/beta.v1.md": "---\nid: project.beta\nversion: 1\ndepends_on: [project.alpha@1]\n---\n",
        ".ai/repo/adrs/0001-a.md": "---\nid: adr-0001\ntitle: A\nrelated: [rule:project.alpha, 'file:lib/thing.sh', 'test:test/cases/02_missing.sh', 'command:plan']\n---\n",
        ".ai/repo/adrs/0002-b.md": "---\nid: adr-0002\ntitle: B\nsupersedes: [adr-0001, '0009']\n---\n",
        ".ai/README.md": "---\nschema: context/v1\nid: ai.layer\ntitle: Layer\nscope: subtree\ntracks: [lib, lib/thing.sh]\n---\n",
        "lib/thing.sh": "echo\n",
        "test/cases/01_thing.sh": "echo\n",
    }


def test_edges_are_typed_and_indexed_both_ways(tmp_path):
    index = index_of(write_layer(tmp_path, layer_files()))
    kinds = {(e.source.split("//")[1], e.kind, e.target.split("//")[1]) for e in index.edges}
    assert ("issue/I0002", "depends_on", "issue/I0001") in kinds
    assert ("issue/I0001", "belongs_to", "milestone/m1") in kinds
    assert ("rule/project.beta@1", "depends_on", "rule/project.alpha@1") in kinds
    assert ("adr/adr-0001", "put_in_force", "rule/project.alpha@1") in kinds
    assert ("adr/adr-0001", "put_in_force", "implementation/lib/thing.sh") in kinds
    assert ("adr/adr-0002", "supersedes", "adr/adr-0001") in kinds
    assert ("context/ai.layer", "tracks", "implementation/lib/thing.sh") in kinds
    incoming = [e.source for e in index.in_edges["majordomus://milestone/m1"]]
    assert incoming == ["majordomus://issue/I0001", "majordomus://issue/I0002"]
    assert index.edges == sorted(index.edges)


def test_unresolved_and_external_references(tmp_path):
    index = index_of(write_layer(tmp_path, layer_files()))
    unresolved = {(u.field, u.reference, u.target_uri) for u in index.unresolved}
    assert unresolved == {
        ("depends_on", "I0404", "majordomus://issue/I0404"),
        ("supersedes", "0009", "majordomus://adr/0009"),
        ("related", "test:test/cases/02_missing.sh", "majordomus://test/test/cases/02_missing.sh"),
    }
    dangling = next(u for u in index.unresolved if u.reference == "I0404")
    assert dangling.declared_in == ".ai/repo/project/issues/I0002.yaml" and dangling.line == 4
    assert dangling.correction == (
        "no issue `I0404` in the layer; add it, or correct or remove the reference in `depends_on`"
    )
    externals = {(x.node, x.kind) for x in index.externals}
    assert externals == {("command:plan", "put_in_force"), ("file:lib", "tracks")}
    assert any(d.code == "unresolved_reference" and "I0404" in d.message for d in index.diagnostics)


def test_lookup_by_id_slug_and_uri(tmp_path):
    index = index_of(write_layer(tmp_path, layer_files()))
    assert index.lookup("milestone", "the-milestone").uri == "majordomus://milestone/m1"
    assert index.lookup("milestone", "majordomus://milestone/m1").identity == "m1"
    assert index.lookup("issue", " I0001 ").identity == "I0001"
    assert index.lookup("issue", "m1") is None


def test_path_index_contains_by_whole_segment(tmp_path):
    files = layer_files()
    files["library/x.sh"] = "echo\n"
    index = index_of(write_layer(tmp_path, files))
    assert [o.provenance.path for o in index.under("lib")] == ["lib/thing.sh"]
    assert [o.provenance.path for o in index.under("lib/thing.sh/")] == ["lib/thing.sh"]
    assert {o.kind for o in index.under(".ai/repo/adrs")} == {"adr"}


def test_real_layer_every_file_is_an_object_or_a_diagnostic(real_layer):
    tree, layer = load_repository(real_layer)
    index = build_index(layer)
    covered = {o.provenance.path for o in layer.objects} | {d.path for d in index.diagnostics}
    assert [p for p in tree.files if p not in covered] == []
    counts = index.counts_by_kind()
    assert counts["issue"] == 56 and counts["milestone"] == 65 and counts["rule"] == 82
    assert counts["context"] == 30 and counts["adr"] == 14 and counts["session"] == 3
    dialect = {d.path for d in layer.diagnostics if d.code == "yaml_dialect"}
    assert len(dialect) == 13  # the 13 files HARVEST.md names
    assert not [d for d in layer.diagnostics if d.code == "yaml_syntax"]
    titles = {o.identity: o.title for o in index.by_kind["issue"]}
    assert titles["I1105"].startswith("Phase 4: ")
    duplicates = sorted(d.path.rsplit("/", 1)[1][:4] for d in layer.diagnostics if d.code == "duplicate_identity")
    assert duplicates == ["0012", "0015"]


# -- an index built from the previous one ------------------------------------------------

from dataclasses import replace as _replace  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from generator.workspace import Workspace  # noqa: E402

_DEMO = Workspace.open(None).layer


def _edited(layer, edits):
    """The layer after ``edits``: (position, what) pairs applied to its objects."""
    objects = list(layer.objects)
    names = sorted({o.identity for o in objects if o.kind == "issue"}) + ["I9999", "adr-0001"]
    for at, what, pick in edits:
        if not objects:
            break
        i = at % len(objects)
        obj = objects[i]
        if what == "title":  # content only: everything resolves as before
            objects[i] = obj.model_copy(update={"title": f"{obj.title} (edited)"})
        elif what == "refs":  # another reference, which may resolve to nothing
            fields = dict(obj.fields)
            fields["depends_on"] = [names[pick % len(names)]]
            objects[i] = obj.model_copy(update={"fields": fields})
        elif what == "identity":  # what other objects resolve against moved
            objects[i] = obj.model_copy(update={"identity": obj.identity + "x"})
        elif what == "drop":
            del objects[i]
    return _replace(layer, objects=tuple(objects))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(st.integers(0, 10**6),
                                   st.sampled_from(["title", "refs", "identity", "drop"]),
                                   st.integers(0, 10**6)), max_size=3), min_size=1, max_size=4))
def test_an_index_built_from_the_previous_one_is_the_index(steps):
    layer = _DEMO
    index = build_index(layer)
    for edits in steps:
        layer = _edited(layer, edits)
        again = build_index(layer, index)
        assert again == build_index(layer)
        index = again


def test_a_content_edit_resolves_only_the_edited_object_again():
    index = build_index(_DEMO)
    layer = _edited(_DEMO, [(3, "title", 0)])
    again = build_index(layer, index)
    assert again._reuse.by_identity is index._reuse.by_identity  # the lookups were reused
    changed = layer.objects[3].uri
    same = [u for u in again._reuse.refs if u != changed]
    assert all(again._reuse.refs[u] is index._reuse.refs[u] for u in same)
    moved = _edited(_DEMO, [(3, "identity", 0)])
    assert build_index(moved, index)._reuse.by_identity is not index._reuse.by_identity
