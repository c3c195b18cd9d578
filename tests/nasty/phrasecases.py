"""Layers that make the diagnostics the nasty corpus does not (test_messages.py)."""

from nastykit import ADRS, ISSUES, SOURCES, Case

_M = "schema: ai-repository/v1\nsections:\n  policy: repo/policy.yaml\n  rules: repo/rules\n" \
     "  adrs: repo/adrs\n  project: repo/project\n  knowledge: repo/knowledge\n"

EXTRA = [
    Case("msg_manifest_keys", manifest="schema: ai-repository/v2\nextra: 1\nrepo: 3\nlocal:\n  path: ../x\n"
         "sections: [a]\ncontext:\n  documents: 5\n"),
    Case("msg_manifest_sections", manifest=_M + "  bad: 7\n  out: ../../elsewhere\n  gone: repo/nothing-here\n"),
    Case("msg_manifest_none", manifest="schema: ai-repository/v1\n"),
    Case("msg_manifest_shape", manifest="- a\n- b\n"),
    Case("msg_manifest_yaml", manifest="schema: [unclosed\n"),
    Case("msg_sources", files={SOURCES: "version: 1\nsources:\n  - 3\n  - id: a\n  - id: b\n    kind: test\n"
         "  - id: c\n    kind: test\n    pathspec: 'lib/*.sh'\n    discovery: git\n"
         "  - id: d\n    kind: test\n    pathspec: '../out/*'\n"
         "  - id: e\n    kind: test\n    pathspec: 'nothing/*.sh'\n    required: true\n"}),
    Case("msg_sources_shape", files={SOURCES: "version: 1\nsources: 4\n"}),
    Case("msg_sources_yaml", files={SOURCES: "sources: [unclosed\n"}),
    Case("msg_claims", files={"docs/CLAIMS.yaml": "claims: 3\n"}),
    Case("msg_claims_items", files={"docs/CLAIMS.yaml": "claims:\n  - 5\n  - id: c1\n    title: C\n"}),
    Case("msg_dialect", files={f"{ISSUES}/I0300.yaml": "id: I0300\nmilestone: m1\ntitle: a: b\n"}),
    Case("msg_fields", files={f"{ISSUES}/I0301.yaml": "id: I0301\nmilestone: m1\ntitle: [x]\n"
         "depends_on: 3\ntags: [a, [b], {c: 1}]\nscope: [/abs/path, 'C:\\\\win', ../up, lib]\n",
         f"{ISSUES}/I0302.yaml": "id: I0302\nmilestone: m1\ntitle: T\ntags: [a, [b]]\n"
         "depends_on: [I0302, I0999, 'file:../x', 'weird']\ntracks: ['test:test/cases/none.sh', 'command:run']\n"}),
    Case("msg_identity", files={f"{ADRS}/0009-x.md": "---\ntitle: No id\nstatus: accepted\n---\n# X\n",
         f"{ADRS}/0010-y.md": "---\nid: adr-0011\ntitle: Y\nstatus: accepted\n---\n# Y\n"}),
]
