"""The limits on one layer file: each is a diagnostic naming the file, the line, the limit,
what was found and the flag; the rest of the layer loads; every reader honours them."""

from __future__ import annotations

import io
import json
import time
from contextlib import redirect_stderr, redirect_stdout

import pytest

from generator.cli import main
from generator.layer.limits import DEFAULT_LIMITS, Limits
from generator.layer.loader import load_repository
from generator.layer.reader import read_paths, read_source_tree
from generator.layer.yamlish import parse_yaml
from generator.serve.incremental import IncrementalBuilder
from generator.workspace import Workspace
from layerkit import issue, write_layer

ISSUES = ".ai/repo/project/issues"


def bomb(levels: int = 10, width: int = 9) -> str:
    lines = [f"a0: &a0 [{', '.join(['x'] * width)}]"]
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def deep(levels: int) -> str:
    return "".join("  " * i + f"k{i}:\n" for i in range(levels)) + "  " * levels + "leaf: 1\n"


def codes(layer, code):
    return [d for d in layer.diagnostics if d.code == code]


def test_limits_are_positive_whole_numbers():
    assert Limits() == DEFAULT_LIMITS
    for bad in (0, -1, 1.5, True, "9"):
        with pytest.raises(ValueError, match="--max-yaml-depth must be a positive whole number"):
            Limits(max_yaml_depth=bad)


def test_an_alias_bomb_stops_during_composition_with_the_line_and_the_flag():
    started = time.perf_counter()
    result = parse_yaml("id: I0001\n" + bomb())
    assert time.perf_counter() - started < 5  # 9**10 nodes would take hours and all memory
    p = result.problem
    assert p is not None and p.code == "yaml_too_many_nodes" and result.value is None
    assert p.line == 7
    assert p.message == (
        "aliases expand the document to 141,172 nodes, over the limit of 100,000. The file was "
        "not loaded; if it is genuine, raise the limit with --max-yaml-nodes N")


def test_aliases_count_expanded_and_a_raised_limit_admits_them():
    text = "a: &x [1, 2, 3]\nb: *x\nc: *x\n"  # the mapping, 3 keys and 3 x 4 = 16 nodes
    assert parse_yaml(text).value == {"a": [1, 2, 3], "b": [1, 2, 3], "c": [1, 2, 3]}
    assert parse_yaml(text, limits=Limits(max_yaml_nodes=16)).problem is None
    p = parse_yaml(text, limits=Limits(max_yaml_nodes=15)).problem
    assert p is not None and p.code == "yaml_too_many_nodes" and p.line == 3


def test_node_counts_agree_between_the_fast_reader_and_pyyaml():
    # 300 keys are 601 nodes: the fast reader's estimate (4 per line) hands them to PyYAML,
    # whose exact count admits them under 1,000; 600 keys (1,201 nodes) are refused.
    small = "".join(f"k{i}: v\n" for i in range(300))
    large = "".join(f"k{i}: v\n" for i in range(600))
    limits = Limits(max_yaml_nodes=1000)
    assert parse_yaml(small, limits=limits).problem is None
    assert parse_yaml(small, limits=limits).value == parse_yaml(small).value
    p = parse_yaml(large, limits=limits).problem
    assert p is not None and p.code == "yaml_too_many_nodes" and p.line == 500


def test_deep_nesting_is_refused_at_the_depth_limit_in_both_readers():
    for text in (deep(100), "x: " + "[" * 100 + "]" * 100 + "\n"):
        p = parse_yaml(text).problem
        assert p is not None and p.code == "yaml_too_deep", text[:20]
        assert p.message.startswith("collections nest 65 deep, over the limit of 64. ")
        assert p.message.endswith("raise the limit with --max-yaml-depth N")
    assert parse_yaml(deep(100), limits=Limits(max_yaml_depth=200)).problem is None
    assert parse_yaml(deep(63)).problem is None


def test_limit_diagnostics_name_the_file_and_the_rest_loads(tmp_path):
    write_layer(tmp_path, {
        f"{ISSUES}/I0001.yaml": issue("I0001"),
        f"{ISSUES}/I0002.yaml": "id: I0002\n" + bomb(),
        f"{ISSUES}/I0003.yaml": "id: I0003\n" + deep(80),
        ".ai/repo/adrs/0001-deep.md": "---\nid: adr-0001\n" + deep(80) + "---\n# Deep\n",
        f"{ISSUES}/I0004.yaml": issue("I0004") + "notes: " + "x" * 9000 + "\n",
    })
    _, layer = load_repository(tmp_path, limits=Limits(max_file_bytes=8000))
    uris = {o.uri for o in layer.objects}
    assert "majordomus://issue/I0001" in uris
    assert not uris & {"majordomus://issue/I0002", "majordomus://issue/I0003",
                       "majordomus://issue/I0004", "majordomus://adr/adr-0001"}
    (nodes,) = codes(layer, "yaml_too_many_nodes")
    assert (nodes.path, nodes.line, nodes.severity) == (f"{ISSUES}/I0002.yaml", 7, "error")
    assert nodes.message.startswith("the file is too large to load at line 7: aliases expand the")
    deep_ones = codes(layer, "yaml_too_deep")
    assert [(d.path, d.line) for d in deep_ones] == [(".ai/repo/adrs/0001-deep.md", 67),
                                                     (f"{ISSUES}/I0003.yaml", 66)]
    # The front matter's line is the file's line (below the opening `---`), in the message too.
    assert deep_ones[0].message.startswith(
        "the front matter is too large to load at line 67: collections nest 65 deep, over the limit")
    (big,) = codes(layer, "file_too_large")
    assert big.path == f"{ISSUES}/I0004.yaml"
    assert big.message == (
        "is larger than the limit of 8,000 bytes per layer file; it was not read. Remove it from "
        "the layer, or raise the limit with --max-file-bytes N if the file is genuine.")


def test_the_size_limit_holds_for_single_file_rereads_and_links(tmp_path):
    write_layer(tmp_path, {f"{ISSUES}/I0001.yaml": issue("I0001") + "notes: " + "x" * 800 + "\n"})
    (tmp_path / f"{ISSUES}/I0002.yaml").symlink_to("I0001.yaml")
    limits = Limits(max_file_bytes=700)  # above the manifest and the sources file
    tree = read_source_tree(tmp_path, limits=limits)
    assert sorted(d.path for d in tree.problems if d.code == "file_too_large") == [
        f"{ISSUES}/I0001.yaml", f"{ISSUES}/I0002.yaml"]
    _, layer = load_repository(tmp_path)
    result = read_paths(tmp_path, [f"{ISSUES}/I0001.yaml"], manifest=layer.manifest,
                        classes=layer.classes, limits=limits)
    assert result is not None
    files, problems = result
    assert files == {f"{ISSUES}/I0001.yaml": None}
    assert [d.code for d in problems] == ["file_too_large"]


def test_an_oversized_manifest_or_sources_file_is_a_diagnostic(tmp_path):
    write_layer(tmp_path, {f"{ISSUES}/I0001.yaml": issue("I0001")},
                sources="version: 1\n" + bomb() + "sources: []\n")
    layer = Workspace.open(tmp_path).layer
    # Once as the classes file, once as the `sources` object the file also is.
    as_object, d = codes(layer, "yaml_too_many_nodes")
    assert d.path == as_object.path == ".ai/repo/knowledge/sources.yaml"
    assert as_object.message.startswith("the file is too large to load at line 7")
    assert d.message.startswith("the source classes file is too large to load at line 7: aliases")
    assert d.message.endswith("Until then only the built-in classes are used.")
    assert "majordomus://issue/I0001" in {o.uri for o in layer.objects}


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def test_check_honours_the_limit_flags(tmp_path):
    write_layer(tmp_path, {f"{ISSUES}/I0001.yaml": issue("I0001"),
                           f"{ISSUES}/I0002.yaml": "id: I0002\n" + deep(10)})
    code, out, _ = _cli("check", "--repo", str(tmp_path), "--json")
    assert code == 0 and json.loads(out)["ok"] is True
    code, out, _ = _cli("check", "--repo", str(tmp_path), "--json", "--max-yaml-depth", "5")
    assert code == 1
    (d,) = [d for d in json.loads(out)["diagnostics"] if d["code"] == "yaml_too_deep"]
    assert d["path"] == f"{ISSUES}/I0002.yaml" and "--max-yaml-depth N" in d["message"]
    code, out, _ = _cli("check", "--repo", str(tmp_path), "--json", "--max-file-bytes", "40")
    assert {d["code"] for d in json.loads(out)["diagnostics"]} >= {"file_too_large"}
    code, _, err = _cli("check", "--repo", str(tmp_path), "--max-yaml-nodes", "0")
    assert code == 2 and "--max-yaml-nodes: expected a positive whole number; found '0'" in err


@pytest.mark.parametrize("verb", ["build", "check", "compile", "explain", "list", "query text",
                                  "query cross-ref", "serve"])
def test_every_verb_that_reads_a_layer_lists_the_limits_in_their_own_group(verb):
    code, out, _ = _cli(*verb.split(), "--help")
    assert code == 0
    assert "limits:" in out and "--max-file-bytes N" in out and "--max-yaml-nodes N" in out
    assert "--max-yaml-depth N" in out and "(default: 100,000)" in out


def test_serve_reads_under_its_limits(tmp_path):
    repo = write_layer(tmp_path / "repo", {f"{ISSUES}/I0001.yaml": issue("I0001"),
                                           f"{ISSUES}/I0002.yaml": issue("I0002") + "n: " + "x" * 400})
    builder = IncrementalBuilder(repo, tmp_path / "site", limits=Limits(max_file_bytes=300))
    builder.rebuild()
    assert [d.path for d in builder.state.layer.diagnostics if d.code == "file_too_large"] == [
        f"{ISSUES}/I0002.yaml"]
    (repo / f"{ISSUES}/I0001.yaml").write_text(issue("I0001") + "n: " + "y" * 400, encoding="utf-8")
    builder.rebuild([f"{ISSUES}/I0001.yaml"])
    assert sorted(d.path for d in builder.state.layer.diagnostics if d.code == "file_too_large") == [
        f"{ISSUES}/I0001.yaml", f"{ISSUES}/I0002.yaml"]
