"""A diagnostic about one entry of a list points at that entry's line, not at the list's key
(issue 16, "Wording"), and a walk names the object an edge leaves by kind and id when an id
names two objects. Word for word, on small layers written here."""

from __future__ import annotations

from layerkit import write_layer

from generator.query.crossref import cross_ref_query
from generator.workspace import Workspace

ISSUE_IN_A_CYCLE = """\
id: I0001
milestone: m1
title: First
depends_on:
  - I0009
  - I0002
"""

ISSUE_CLOSING_THE_CYCLE = """\
id: I0002
milestone: m1
title: Second
depends_on:
  - I0001
"""

ISSUE_WITH_BAD_ITEMS = """\
id: I0003
milestone: m1
title: Third
depends_on:
  - I0001
  - I0003
scope:
  - lib/tool.sh
  - /etc/passwd
  - {x: 1}
"""

ADR_ONE = """\
---
id: adr-0001
title: One
status: accepted
supersedes:
  - adr-0003
  - adr-0002
---
# One
"""

ADR_TWO = """\
---
id: adr-0002
title: Two
status: accepted
supersedes:
  - adr-0001
---
# Two
"""

ADR_THREE = "---\nid: adr-0003\ntitle: Three\nstatus: accepted\n---\n# Three\n"


def _layer(tmp_path):
    return write_layer(tmp_path, {
        ".ai/repo/policy.yaml": "version: 1\n",
        ".ai/repo/project/milestones/m1.yaml": "id: m1\ntitle: First\n",
        ".ai/repo/project/issues/I0001.yaml": ISSUE_IN_A_CYCLE,
        ".ai/repo/project/issues/I0002.yaml": ISSUE_CLOSING_THE_CYCLE,
        ".ai/repo/project/issues/I0003.yaml": ISSUE_WITH_BAD_ITEMS,
        ".ai/repo/adrs/0001-one.md": ADR_ONE,
        ".ai/repo/adrs/0002-two.md": ADR_TWO,
        ".ai/repo/adrs/0003-three.md": ADR_THREE,
        "lib/tool.sh": "echo hi\n",
    })


def _diagnostics(root, *codes):
    return [(d.path.rsplit("/", 1)[-1], d.line, d.message)
            for d in Workspace.open(root).index.diagnostics if d.code in codes]


def test_a_dependency_cycle_points_at_the_item_naming_the_next_issue(tmp_path):
    assert _diagnostics(_layer(tmp_path), "dependency_cycle", "unresolved_reference") == [
        ("I0001.yaml", 5, "field `depends_on` names `I0009`, which resolves to nothing: no "
                          "issue `I0009` in the layer; add it, or correct or remove the "
                          "reference in `depends_on`."),
        ("I0001.yaml", 6, "issues depend on each other in a cycle (I0001 -> I0002 -> I0001); "
                          "none of them can become READY. Remove one `depends_on` entry."),
    ]


def test_a_supersedes_cycle_points_at_the_item_naming_the_next_decision(tmp_path):
    assert _diagnostics(_layer(tmp_path), "supersedes_cycle") == [
        ("0001-one.md", 7, "decisions supersede each other in a cycle (adr-0001 -> adr-0002 "
                           "-> adr-0001); which one holds is undecided. Remove one "
                           "`supersedes` entry."),
    ]


def test_an_item_naming_the_object_itself_a_foreign_path_and_a_mapping_at_their_lines(tmp_path):
    label = "issue in .ai/repo/project/issues/I0003.yaml"
    assert _diagnostics(_layer(tmp_path), "self_reference", "foreign_path", "field_type") == [
        ("I0003.yaml", 6, f"field `depends_on` of {label} names `I0003` itself; the reference "
                          "is ignored. Remove it from `depends_on`."),
        ("I0003.yaml", 9, f"field `scope` of {label} names `/etc/passwd`, which is absolute; "
                          "paths are relative to the repository root, with `/` between names, "
                          "so it matches nothing. Write it as a repository path (e.g. "
                          "`lib/tool.sh`)."),
        ("I0003.yaml", 10, f"field `scope` of {label} should list text items; found a mapping "
                           "among them. Write each item as plain text; 1 item was ignored."),
    ]


def test_an_inline_list_keeps_its_key_line(tmp_path):
    root = write_layer(tmp_path, {
        ".ai/repo/policy.yaml": "version: 1\n",
        ".ai/repo/project/milestones/m1.yaml": "id: m1\ntitle: First\n",
        ".ai/repo/project/issues/I0001.yaml": "id: I0001\nmilestone: m1\ntitle: A\n"
                                              "depends_on: [I0002]\n",
        ".ai/repo/project/issues/I0002.yaml": "id: I0002\nmilestone: m1\ntitle: B\n"
                                              "depends_on: [I0001, I0002]\n",
    })
    assert [(f, line) for f, line, _ in _diagnostics(root, "dependency_cycle", "self_reference")
            ] == [("I0001.yaml", 4), ("I0002.yaml", 4)]


def test_a_walk_names_the_kind_of_an_object_whose_id_another_object_shares(tmp_path):
    root = write_layer(tmp_path, {
        ".ai/repo/policy.yaml": "version: 1\n",
        ".ai/repo/rules/project/bounded.v1.md": (
            "---\nid: project.bounded\nversion: 1\ntitle: Bounded\n---\n# Bounded\n"),
        ".ai/repo/project/milestones/bound-work.yaml": "id: bound-work\ntitle: A milestone\n",
        ".ai/repo/project/intents/bound-work.yaml": (
            "id: bound-work\nstatement: Work is bounded.\ngovernance:\n"
            "  - rule:project.bounded\n"),
        ".ai/repo/project/issues/I0001.yaml": (
            "id: I0001\nmilestone: bound-work\ntitle: A\nserves: [bound-work]\n"),
    })
    index = Workspace.open(root).index
    trace = cross_ref_query(index, "intent/bound-work", 1)
    assert sorted((h.anchor, h.why) for h in trace.hits) == [
        ("majordomus://issue/I0001", "serves into intent/bound-work (reverse), hop 1"),
        ("majordomus://rule/project.bounded@1", "governed_by from intent/bound-work, hop 1"),
    ]
    trace = cross_ref_query(index, "milestone/bound-work", 1)
    assert [h.why for h in trace.hits] == ["belongs_to into milestone/bound-work (reverse), hop 1"]
