"""The nasty corpus: hostile and broken layer files, each written into a fresh repository
built from one small, good base layer.

A :class:`Case` names the files it adds or replaces, an optional ``setup`` for what files
cannot say (symbolic links), the diagnostics it must produce (code and file) and the base
files it damages (whose objects may then be missing). Everything else of the base must still
be on the built site.

Next to every repository lies ``outside/``: a directory whose files hold :data:`SENTINEL`.
Cases link into it; the sentinel must never appear in any output or diagnostic.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from layerkit import MANIFEST, issue, write_layer

SENTINEL = "SENTINEL-outside-the-repository-7f3a"

BASE: dict[str, str] = {
    ".ai/repo/policy.yaml": "version: 1\n",
    ".ai/repo/project/milestones/m1.yaml": "id: m1\ntitle: First\nslug: the-first\noutcome: It works.\n",
    ".ai/repo/project/issues/I0001.yaml": issue("I0001", scope=["lib"], updated_at="2026-09-15"),
    ".ai/repo/project/issues/I0002.yaml": issue("I0002", depends_on=["I0001"]),
    ".ai/repo/rules/project/alpha.v2.md": "---\nid: project.alpha\nversion: 2\nclass: blocking\n"
    "status: active\ntitle: Alpha\n---\n# Rationale\n\nBecause.\n",
    ".ai/repo/adrs/0001-first.md": "---\nid: adr-0001\ntitle: First\nstatus: accepted\n---\n"
    "# First\n\n## Decision\n\nWe decide.\n",
    ".ai/repo/knowledge/curated/notes.md": "---\nid: notes\ntitle: Notes\n---\n# Notes\n\nSome knowledge.\n",
    "lib/thing.sh": "echo hi\n",
    "README.md": "# The repo\n",
}


@dataclass(frozen=True)
class Case:
    id: str
    files: dict[str, str | bytes] = field(default_factory=dict)
    #: (code, path) diagnostics that must appear (path None: any file).
    expect: tuple[tuple[str, str | None], ...] = ()
    #: Base files this case replaces or breaks: their objects may be missing.
    damages: frozenset[str] = frozenset()
    #: Makes what files cannot say (links), given the repository and the outside directory.
    setup: Callable[[Path, Path], None] | None = None
    manifest: str | None = MANIFEST
    #: True when the case breaks discovery itself (a bad manifest): no base object is owed.
    damages_all: bool = False


def write_case(tmp: Path, case: Case) -> tuple[Path, Path]:
    """(repository, outside directory) for ``case``, written under ``tmp``."""
    outside = tmp / "outside"
    outside.mkdir(parents=True, exist_ok=True)
    (outside / "secret.md").write_text(f"# {SENTINEL}\n", encoding="utf-8")
    (outside / "secret.yaml").write_text(f"id: I0999\ntitle: {SENTINEL}\n", encoding="utf-8")
    (outside / "secret.sh").write_text(f"echo {SENTINEL}\n", encoding="utf-8")
    repo = tmp / "repo"
    repo.mkdir()
    files: dict[str, str | bytes] = dict(BASE)
    files.update(case.files)
    write_layer(repo, files, manifest=case.manifest)
    if case.setup is not None:
        case.setup(repo, outside)
    return repo, outside


def link(repo: Path, rel: str, target: str | Path) -> None:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() or path.is_symlink():
        path.unlink()
    os.symlink(target, path)


def alias_bomb(levels: int = 10, width: int = 9) -> str:
    """A few hundred bytes that expand to ``width ** levels`` nodes."""
    lines = [f"a0: &a0 [{', '.join(['x'] * width)}]"]
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def deep_block(levels: int) -> str:
    return "".join("  " * i + f"k{i}:\n" for i in range(levels)) + "  " * levels + "leaf: 1\n"


ISSUES = ".ai/repo/project/issues"
ADRS = ".ai/repo/adrs"
KNOW = ".ai/repo/knowledge/curated"
SOURCES = ".ai/repo/knowledge/sources.yaml"


def _symlink_loops(repo: Path, outside: Path) -> None:
    link(repo, f"{KNOW}/loop.md", "loop.md")
    link(repo, f"{KNOW}/ping", "pong")
    link(repo, f"{KNOW}/pong", "ping")
    link(repo, f"{KNOW}/dirloop", ".")


def _symlinks_out(repo: Path, outside: Path) -> None:
    link(repo, f"{KNOW}/secret.md", outside / "secret.md")
    link(repo, f"{ISSUES}/I0999.yaml", outside / "secret.yaml")
    link(repo, f"{KNOW}/outdir", outside)
    link(repo, "lib/secret.sh", outside / "secret.sh")
    link(repo, "lib/relative.sh", "../../outside/secret.sh")


def _symlink_in(repo: Path, outside: Path) -> None:
    link(repo, f"{ISSUES}/I0003.yaml", "I0001.yaml")


def _case_clash_files(repo: Path, outside: Path) -> None:
    (repo / ISSUES / "i0001.yaml").write_text(issue("i0001"), encoding="utf-8")


def _fifo(repo: Path, outside: Path) -> None:
    os.mkfifo(repo / KNOW / "pipe.md")


def _unreadable(repo: Path, outside: Path) -> None:
    path = repo / KNOW / "locked.md"
    path.write_text("# Locked\n", encoding="utf-8")
    path.chmod(0)


_BIG = 9 * 1024 * 1024

CASES: list[Case] = [
    # -- YAML syntax and shape -----------------------------------------------------------
    Case("truncated_yaml", {f"{ISSUES}/I0100.yaml": "id: I0100\ntitle: [unclosed, list\nmilestone: m1\n"},
         expect=(("yaml_syntax", f"{ISSUES}/I0100.yaml"),)),
    Case("tab_indented_yaml", {f"{ISSUES}/I0101.yaml": "id: I0101\n\ttitle: x\n"},
         expect=(("yaml_syntax", f"{ISSUES}/I0101.yaml"),)),
    Case("truncated_mid_quote", {f"{ISSUES}/I0102.yaml": "id: I0102\ntitle: \"never closed\n"},
         expect=(("yaml_syntax", f"{ISSUES}/I0102.yaml"),)),
    Case("top_level_list", {f"{ISSUES}/I0103.yaml": "- id: I0103\n- title: x\n"},
         expect=(("not_a_mapping", f"{ISSUES}/I0103.yaml"),)),
    Case("top_level_scalar", {f"{ISSUES}/I0104.yaml": "just words\n"},
         expect=(("not_a_mapping", f"{ISSUES}/I0104.yaml"),)),
    Case("empty_and_comment_only", {f"{ISSUES}/I0105.yaml": "", f"{ISSUES}/I0106.yaml": "# nothing\n"},
         expect=(("empty_file", f"{ISSUES}/I0105.yaml"), ("empty_file", f"{ISSUES}/I0106.yaml"))),
    Case("undefined_alias", {f"{ISSUES}/I0107.yaml": "id: I0107\ntitle: *nowhere\n"},
         expect=(("yaml_syntax", f"{ISSUES}/I0107.yaml"),)),
    Case("tags_and_binary_scalars", {f"{ISSUES}/I0108.yaml":
         "id: I0108\ntitle: !!binary aGVsbG8=\nwhen: !!timestamp 2001-12-14\nodd: !custom x\n"},
         expect=(("yaml_syntax", f"{ISSUES}/I0108.yaml"),)),
    Case("multiple_documents", {f"{ISSUES}/I0109.yaml": "id: I0109\n---\nid: I0110\n"},
         expect=(("yaml_syntax", f"{ISSUES}/I0109.yaml"),)),
    Case("non_text_keys", {f"{ISSUES}/I0111.yaml": "id: I0111\n1: one\ntrue: yes\n[a, b]: c\n? {x: 1}\n: d\n"},
         expect=(("yaml_syntax", f"{ISSUES}/I0111.yaml"),)),
    Case("non_text_keys_hashable", {f"{ISSUES}/I0114.yaml": "id: I0114\nmilestone: m1\n1: one\ntrue: yes\nnull: x\n3.5: y\n"}),
    Case("merge_keys", {f"{ISSUES}/I0112.yaml": "base: &b {milestone: m1, title: Merged}\n"
                        "<<: *b\nid: I0112\n"}),
    Case("duplicate_keys", {f"{ISSUES}/I0113.yaml": "id: I0113\ntitle: a\ntitle: b\nmilestone: m1\n"},
         expect=(("duplicate_key", f"{ISSUES}/I0113.yaml"),)),
    # -- wrong types everywhere -----------------------------------------------------------
    Case("list_title_mapping_id", {f"{ISSUES}/I0120.yaml": "id: {a: 1}\ntitle: [one, two]\nmilestone: [m1]\n"},
         expect=(("field_type", f"{ISSUES}/I0120.yaml"), ("missing_identity", f"{ISSUES}/I0120.yaml"))),
    Case("numbers_and_booleans", {f"{ISSUES}/I0121.yaml": "id: 121\ntitle: 3.5\nmilestone: true\n"
                                  "depends_on: 7\nscope: 5\ntags: false\nupdated_at: [1, 2]\n"
                                  "evidence: just text\n"},
         expect=(("field_type", f"{ISSUES}/I0121.yaml"),)),
    Case("nested_lists_in_refs", {f"{ISSUES}/I0122.yaml": issue("I0122") +
                                  "depends_on:\n  - [I0001]\n  - {x: y}\n  - null\nscope:\n  - {a: b}\n"},
         expect=(("field_type", f"{ISSUES}/I0122.yaml"),)),
    Case("huge_numbers", {f"{ISSUES}/I0123.yaml": "id: I0123\ntitle: " + "9" * 5000 + "\nmilestone: 1e999\n"
                          "depends_on: [" + "1" * 4000 + ", -0.0, .nan, .inf]\n"}),
    Case("wrong_types_in_markdown", {f"{ADRS}/0002-typed.md": "---\nid: [adr-0002]\ntitle: {x: 1}\n"
                                     "status: 5\nsupersedes: {a: b}\n---\n# Typed\n"},
         expect=(("field_type", f"{ADRS}/0002-typed.md"),)),
    Case("sources_wrong_types", {SOURCES: "version: 1\nsources:\n  - id: [x]\n    kind: 5\n"
                                 "    pathspec: {a: b}\n  - 7\n  - id: ok\n    kind: test\n"
                                 "    pathspec: ':(glob)test/*.sh'\n    required: 'yes'\n"
                                 "    discovery: [vcs]\n"},
         expect=(("sources_class", SOURCES),), damages=frozenset({"lib/thing.sh"})),
    Case("sources_not_a_list", {SOURCES: "sources: {a: b}\n"}, expect=(("sources_shape", SOURCES),),
         damages=frozenset({"lib/thing.sh"})),
    Case("unknown_kind_class", {SOURCES: "version: 1\nsources:\n  - id: weird\n    kind: no-such-kind\n"
                                "    pathspec: ':(glob)lib/*.sh'\n"
                                "  - id: weird2\n    kind: issue\n    pathspec: ':(glob)lib/*.sh'\n"},
         damages=frozenset({"lib/thing.sh"})),
    Case("list_file_wrong_items", {".ai/repo/use-cases/taxonomy.yaml": "categories:\n  - 5\n  - [a]\n  - id: {x: 1}\n  - id: ok\n"},
         expect=(("list_item_shape", ".ai/repo/use-cases/taxonomy.yaml"),)),
    # -- limits -----------------------------------------------------------------------------
    Case("alias_bomb_record", {f"{ISSUES}/I0130.yaml": "id: I0130\n" + alias_bomb()},
         expect=(("yaml_too_many_nodes", f"{ISSUES}/I0130.yaml"),)),
    Case("alias_bomb_front_matter", {f"{ADRS}/0003-bomb.md": "---\nid: adr-0003\n" + alias_bomb() + "---\n# Bomb\n"},
         expect=(("yaml_too_many_nodes", f"{ADRS}/0003-bomb.md"),)),
    Case("alias_bomb_sources", {SOURCES: "version: 1\n" + alias_bomb() + "sources: []\n"},
         expect=(("yaml_too_many_nodes", SOURCES),), damages=frozenset({"lib/thing.sh"})),
    Case("alias_bomb_manifest", manifest=MANIFEST + alias_bomb(),
         expect=(("yaml_too_many_nodes", ".ai/manifest.yaml"),), damages_all=True),
    Case("deep_flow_nesting", {f"{ISSUES}/I0131.yaml": "id: I0131\nx: " + "[" * 100_000 + "]" * 100_000 + "\n"},
         expect=(("yaml_syntax", f"{ISSUES}/I0131.yaml"),)),
    Case("deep_flow_nesting_under_libyaml_limit", {f"{ISSUES}/I0132.yaml": "id: I0132\nx: " + "[" * 900 + "]" * 900 + "\n"},
         expect=(("yaml_too_deep", f"{ISSUES}/I0132.yaml"),)),
    Case("deep_block_nesting", {f"{ISSUES}/I0133.yaml": "id: I0133\n" + deep_block(300)},
         expect=(("yaml_too_deep", f"{ISSUES}/I0133.yaml"),)),
    Case("deep_front_matter", {f"{KNOW}/deep.md": "---\n" + deep_block(300) + "---\n# Deep\n"},
         expect=(("yaml_too_deep", f"{KNOW}/deep.md"),)),
    Case("multi_megabyte_file", {f"{KNOW}/huge.md": b"# Huge\n\n" + b"word " * (_BIG // 5 + 10)},
         expect=(("file_too_large", f"{KNOW}/huge.md"),)),
    Case("very_long_lines", {f"{KNOW}/long.md": "# Long\n\n" + "x" * 2_000_000 + "\n",
                             f"{ISSUES}/I0135.yaml": "id: I0135\nmilestone: m1\ntitle: " + "t" * 1_000_000 + "\n"}),
    # -- bytes -----------------------------------------------------------------------------
    Case("binary_file", {f"{KNOW}/blob.md": bytes(range(256)) * 40, f"{ISSUES}/I0140.yaml": b"\x89PNG\r\n\x1a\n\x00\x00"},
         expect=(("not_utf8", f"{KNOW}/blob.md"), ("not_utf8", f"{ISSUES}/I0140.yaml"))),
    Case("nul_bytes", {f"{ISSUES}/I0141.yaml": "id: I0141\ntitle: a\x00b\n", f"{KNOW}/nul.md": "# N\x00ul\n\nbody\x00\n"},
         expect=(("yaml_syntax", f"{ISSUES}/I0141.yaml"),)),
    Case("invalid_utf8", {f"{ISSUES}/I0142.yaml": b"id: I0142\ntitle: caf\xe9\n", f"{KNOW}/bad.md": b"# ok\n\xff\xfe\n"},
         expect=(("not_utf8", f"{ISSUES}/I0142.yaml"), ("not_utf8", f"{KNOW}/bad.md"))),
    Case("byte_order_marks", {f"{ISSUES}/I0143.yaml": "\ufeffid: I0143\nmilestone: m1\ntitle: BOM\n",
                              f"{ADRS}/0004-bom.md": "\ufeff---\nid: adr-0004\ntitle: BOM\n---\n# BOM\n",
                              f"{ISSUES}/I0144.yaml": b"\xff\xfei\x00d\x00"}),
    Case("crlf_and_lone_cr", {f"{ISSUES}/I0145.yaml": "id: I0145\r\nmilestone: m1\r\ntitle: CRLF\r\n",
                              f"{ISSUES}/I0146.yaml": "id: I0146\rmilestone: m1\rtitle: CR\r",
                              f"{ADRS}/0005-crlf.md": "---\r\nid: adr-0005\r\ntitle: CRLF\r\n---\r\n# CRLF\r\n"}),
    Case("unicode_and_rtl_ids", {f"{ISSUES}/I0147.yaml": "id: \"I\u202e0147\"\nmilestone: m1\ntitle: \u05e9\u05dc\u05d5\u05dd \u202e evil\n",
                                 ".ai/repo/project/milestones/\u05de1.yaml": "id: \u05de1\ntitle: \u0645\u0631\u062d\u0628\u0627\n",
                                 f"{ISSUES}/I0148.yaml": "id: \"I0148\\u0000\\ud800\"\nmilestone: m1\ntitle: \"\\U0001F600 <script>alert(1)</script>\"\n",
                                 f"{KNOW}/\u00e9t\u00e9 \u202e.md": "# \u00c9t\u00e9\n"},
         expect=(("id_mismatch", f"{ISSUES}/I0147.yaml"),)),
    # -- references ------------------------------------------------------------------------
    Case("duplicate_ids", {f"{ISSUES}/I0150.yaml": issue("I0001"), f"{ADRS}/0001-zagain.md": "---\nid: adr-0001\ntitle: Again\n---\n"},
         expect=(("duplicate_identity", f"{ISSUES}/I0150.yaml"), ("duplicate_identity", f"{ADRS}/0001-zagain.md"))),
    Case("dependency_cycles", {f"{ISSUES}/I0151.yaml": issue("I0151", depends_on=["I0152"]),
                               f"{ISSUES}/I0152.yaml": issue("I0152", depends_on=["I0153"]),
                               f"{ISSUES}/I0153.yaml": issue("I0153", depends_on=["I0151"]),
                               f"{ISSUES}/I0154.yaml": issue("I0154", depends_on=["I0154"]),
                               ".ai/repo/project/milestones/m2.yaml": "id: m2\ntitle: Two\ndepends_on: [m3]\n",
                               ".ai/repo/project/milestones/m3.yaml": "id: m3\ntitle: Three\ndepends_on: [m2, m3]\n"},
         expect=(("dependency_cycle", f"{ISSUES}/I0151.yaml"), ("self_reference", f"{ISSUES}/I0154.yaml"),
                 ("self_reference", ".ai/repo/project/milestones/m3.yaml"))),
    Case("supersedes_cycles", {f"{ADRS}/0006-a.md": "---\nid: adr-0006\ntitle: A\nstatus: superseded\nsupersedes: [adr-0007]\nrelated: [adr-0006]\n---\n",
                               f"{ADRS}/0007-b.md": "---\nid: adr-0007\ntitle: B\nstatus: superseded\nsupersedes: [adr-0006, adr-0007]\n---\n"},
         expect=(("supersedes_cycle", f"{ADRS}/0006-a.md"), ("self_reference", f"{ADRS}/0007-b.md"))),
    Case("references_to_nothing", {f"{ISSUES}/I0155.yaml": "id: I0155\nmilestone: m404\ntitle: Refs\n"
                                   "depends_on: ['majordomus://nokind/x', I9999, '', 'majordomus://', '::', 'issue:', I0155]\n"
                                   "serves: ['majordomus://issue/']\n"},
         expect=(("unresolved_reference", f"{ISSUES}/I0155.yaml"), ("self_reference", f"{ISSUES}/I0155.yaml"))),
    Case("hostile_scope_paths", {f"{ISSUES}/I0156.yaml": issue("I0156") +
                                 "scope: ['../outside', '/etc/passwd', 'C:\\Windows\\system32', 'lib\\..\\..\\x',"
                                 " '..', '.', '', '//', 'lib/../../outside/secret.sh', '**/**/**/**/**/**/x', '\\\\server\\share']\n"
                                 "non_scope: ['../../..']\n"},
         expect=(("foreign_path", f"{ISSUES}/I0156.yaml"),)),
    Case("hostile_links_in_markdown", {f"{KNOW}/links.md": "# Links\n\n[up](../../../outside/secret.md) "
                                       "[abs](/etc/passwd) [win](C:\\Windows\\win.ini) [unc](\\\\server\\share) "
                                       "[js](javascript:alert(1)) [file](file:///etc/passwd) "
                                       "![img](../../outside/secret.md) <a href=\"x\" onclick=\"y\">raw</a>\n"
                                       "<script>alert(1)</script>\n"}),
    Case("hostile_pathspecs", {SOURCES: "version: 1\nsources:\n"
                               "  - id: up\n    kind: implementation\n    pathspec: ':(glob)../outside/*'\n"
                               "  - id: abs\n    kind: implementation\n    pathspec: ':(glob)/etc/*'\n"
                               "  - id: win\n    kind: implementation\n    pathspec: 'C:\\Windows\\*'\n"
                               "  - id: slow\n    kind: implementation\n    pathspec: ':(glob)lib/*a*a*a*a*a*a*a*a*a*a*b'\n"
                               "  - id: slow2\n    kind: implementation\n    pathspec: ':(glob)**/**/**/**/**/**/**/**/**/**/zz'\n"
                               "  - id: library\n    kind: implementation\n    pathspec: ':(glob)lib/*.sh'\n",
                               "lib/" + "a" * 200 + ".sh": "echo a\n",
                               "/".join(["deep"] * 60) + "/x.sh": "echo deep\n"},
         expect=(("sources_class", SOURCES),)),
    # -- the file system -------------------------------------------------------------------
    Case("symlink_loops", setup=_symlink_loops, expect=(("symlink_broken", f"{KNOW}/loop.md"),)),
    Case("symlinks_out_of_the_repository", setup=_symlinks_out,
         expect=(("symlink_outside", f"{KNOW}/secret.md"), ("symlink_outside", f"{ISSUES}/I0999.yaml"),
                 ("symlink_outside", f"{KNOW}/outdir"), ("symlink_outside", "lib/secret.sh"),
                 ("symlink_outside", "lib/relative.sh"))),
    Case("symlink_inside", setup=_symlink_in, expect=(("duplicate_identity", f"{ISSUES}/I0003.yaml"),)),
    Case("case_clash_files", setup=_case_clash_files, expect=(("case_clash", f"{ISSUES}/i0001.yaml"),)),
    Case("case_clash_identities", {f"{ISSUES}/I0160.yaml": issue("M1"), ".ai/repo/project/milestones/M1.yaml": "id: M1\ntitle: Upper\n"},
         expect=(("case_clash", ".ai/repo/project/milestones/m1.yaml"),)),
    Case("fifo", setup=_fifo, expect=(("not_a_file", f"{KNOW}/pipe.md"),)),
    Case("unreadable_file", setup=_unreadable),
    # -- the manifest ----------------------------------------------------------------------
    Case("manifest_points_at_itself", manifest=MANIFEST.replace("project: repo/project", "project: manifest.yaml")
         .replace("knowledge: repo/knowledge", "knowledge: .")
         .replace("documents: [README.md]", "documents: [manifest.yaml, ../../etc/passwd, /abs.md, 'C:\\x.md']"),
         damages_all=True, expect=(("missing_contract", ".ai/manifest.yaml"),)),
    Case("manifest_points_at_nothing", manifest=MANIFEST.replace("adrs: repo/adrs", "adrs: repo/nowhere")
         .replace("rules: repo/rules", "rules: ../../outside").replace("policy: repo/policy.yaml", "policy: /etc/passwd"),
         damages_all=True, expect=(("manifest_section_outside", ".ai/manifest.yaml"),
                                   ("manifest_section_missing", ".ai/manifest.yaml"))),
    Case("manifest_wrong_types", manifest="schema: [x]\nrepo: 5\nlocal: {path: [a]}\nsections: [a, b]\ncontext: 7\n",
         damages_all=True, expect=(("manifest_field", ".ai/manifest.yaml"), ("manifest_schema", ".ai/manifest.yaml"))),
    Case("manifest_broken", manifest="schema: ai-repository/v1\nsections: {policy: [\n", damages_all=True,
         expect=(("yaml_syntax", ".ai/manifest.yaml"),)),
    Case("manifest_binary", manifest=None, files={".ai/manifest.yaml": b"\xff\x00\xfe" * 100}, damages_all=True,
         expect=(("not_utf8", ".ai/manifest.yaml"),)),
    Case("manifest_local_dir_escapes", manifest=MANIFEST.replace("path: local", "path: ../..")
         .replace("path: repo", "path: ../outside"), damages_all=True,
         expect=(("manifest_field", ".ai/manifest.yaml"),)),
    Case("manifest_local_dir_is_the_layer", manifest=MANIFEST.replace("path: local", "path: ."),
         expect=(("manifest_field", ".ai/manifest.yaml"),)),
    # -- front matter and Markdown -----------------------------------------------------------
    Case("front_matter_edges", {f"{KNOW}/unclosed.md": "---\nid: x\n", f"{KNOW}/only-fence.md": "---\n",
                                f"{KNOW}/empty-fm.md": "---\n---\n# Empty\n", f"{KNOW}/dots.md": "---\ntitle: Dots\n...\n# Body\n",
                                f"{KNOW}/list-fm.md": "---\n- a\n- b\n---\n", f"{KNOW}/spaces.md": "---   \ntitle: S\n---  \n",
                                f"{KNOW}/many-fences.md": "---\n" * 20_000, f"{ADRS}/0008-no-fm.md": "# No front matter\n",
                                f"{KNOW}/fm-bomb-lines.md": "---\n" + "x: 1\n" * 50 + "---\n" + "---\n" * 1000},
         expect=(("front_matter_unclosed", f"{KNOW}/unclosed.md"), ("not_a_mapping", f"{KNOW}/list-fm.md"))),
    Case("markdown_deep_nesting", {f"{KNOW}/quotes.md": "# Q\n\n" + ">" * 50_000 + " deep\n",
                                   f"{KNOW}/lists.md": "# L\n\n" + "".join("  " * i + "- item\n" for i in range(300)),
                                   f"{KNOW}/brackets.md": "# B\n\n" + "[" * 5_000 + "x" + "](y)" * 2_000 + "\n",
                                   f"{KNOW}/emphasis.md": "# E\n\n" + "*_" * 5_000 + "\n",
                                   f"{KNOW}/backticks.md": "# T\n\n" + "`" * 30_000 + "a" + "``" * 10_000 + "\n",
                                   f"{KNOW}/tables.md": "# T\n\n" + "|a" * 500 + "|\n" + "|-" * 500 + "|\n" + ("|x" * 500 + "|\n") * 10,
                                   f"{KNOW}/entities.md": "# &amp;\n\n" + "&#x110000; &#0; &bogus; " * 1_000 + "\n",
                                   f"{KNOW}/headings.md": "#" * 10_000 + " h\n" + "# " + "#" * 10_000 + "\n"}),
]
