"""`devcontext check`: counts per kind, every diagnostic, exit codes, --format (text, json and
GitHub workflow commands), --strict."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from generator.cli import main
from generator.commands.report import (checkout_prefix, github_command, github_escape_data,
                                       github_escape_property)
from generator.diagnostics import Diagnostic
from layerkit import issue, write_layer

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_clean_layer_exits_zero_and_lists_kinds(tmp_path, capsys):
    write_layer(tmp_path, {".ai/repo/policy.yaml": "version: 1\n",
                           ".ai/repo/adrs/0001-a.md": "---\nid: adr-0001\ntitle: A\n---\n",
                           ".ai/repo/rules/project/a.v1.md": "---\nid: project.a\nversion: 1\n---\n",
                           ".ai/repo/project/issues/I0001.yaml": issue("I0001", milestone="'-'")})
    code, out, _ = run(capsys, "check", "--repo", str(tmp_path))
    assert code == 0
    assert "  issue " in out and out.rstrip().endswith("ok: 0 errors, 0 warnings, 0 info")


def test_errors_exit_one_and_warnings_only_with_strict(tmp_path, capsys):
    write_layer(tmp_path, {".ai/repo/project/issues/I0001.yaml": issue("I0002")})
    code, out, _ = run(capsys, "check", "--repo", str(tmp_path))
    assert code == 0 and "[id_mismatch]" in out
    code, out, _ = run(capsys, "check", "--repo", str(tmp_path), "--strict")
    assert code == 1 and "FAILED" in out
    (tmp_path / ".ai/repo/project/issues/I0003.yaml").write_text("id: [\n")
    code, out, _ = run(capsys, "check", "--repo", str(tmp_path))
    assert code == 1
    assert ".ai/repo/project/issues/I0003.yaml:2:1: error: [yaml_syntax]" in out


def test_json_output_is_machine_readable(tmp_path, capsys):
    write_layer(tmp_path, {".ai/repo/project/issues/I0001.yaml": "id: I0001\ntitle: x\n"})
    code, out, _ = run(capsys, "check", "--repo", str(tmp_path), "--json")
    payload = json.loads(out)
    assert payload["kinds"]["issue"] == 1 and payload["ok"] is (code == 0)
    assert set(payload["counts"]) == {"error", "warning", "info"}
    assert all({"severity", "code", "message"} <= set(d) for d in payload["diagnostics"])


def test_missing_layer_is_a_clear_error_exit_two(tmp_path, capsys):
    code, _, err = run(capsys, "check", "--repo", str(tmp_path))
    assert code == 2
    assert "has no .ai/manifest.yaml" in err and "Traceback" not in err


def test_real_layer_check_reports_counts_and_fails_on_its_errors(real_layer, capsys):
    code, out, _ = run(capsys, "check", "--repo", str(real_layer), "--json")
    payload = json.loads(out)
    assert code == 1  # two ADR identity collisions are errors
    assert payload["counts"]["error"] == 2 and payload["kinds"]["issue"] == 56


def test_python_dash_m_works(tmp_path):
    write_layer(tmp_path, {})
    proc = subprocess.run([sys.executable, "-m", "generator", "check", "--repo", str(tmp_path), "-q"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_json_format_is_the_json_flag(tmp_path, capsys):
    write_layer(tmp_path, {".ai/repo/project/issues/I0001.yaml": issue("I0002")})
    flag = run(capsys, "check", "--repo", str(tmp_path), "--json")
    assert run(capsys, "check", "--repo", str(tmp_path), "--format", "json") == flag
    assert json.loads(flag[1])["counts"]["warning"] >= 1


def test_unknown_format_is_a_usage_error(tmp_path, capsys):
    write_layer(tmp_path, {})
    try:
        main(["check", "--repo", str(tmp_path), "--format", "xml"])
    except SystemExit as exc:
        assert exc.code == 2
    assert "argument --format: invalid choice: 'xml'" in capsys.readouterr().err


def test_github_format_annotates_from_the_checkout_root_line_for_line(tmp_path, capsys):
    """A layer in a subdirectory of a git checkout: GitHub resolves ``file=`` against the
    checkout's root, so the paths gain the subdirectory; ``,`` and ``%`` in a file name are
    escaped; an info diagnostic is a notice; ``-q`` leaves notices out."""
    (tmp_path / ".git").mkdir()
    layer = write_layer(tmp_path / "docs" / "ai", {
        ".ai/repo/project/issues/I0001,50%.yaml": issue("I0001", milestone="'-'"),
        ".ai/repo/project/issues/I0002.yaml": "id: [\n",
        ".ai/repo/project/issues/I0003.yaml": "id: I0003\nmilestone: '-'\ntitle: a: b\n",
    })
    code, out, _ = run(capsys, "check", "--repo", str(layer), "--format", "github")
    assert code == 1
    issues = "docs/ai/.ai/repo/project/issues"
    manifest = "docs/ai/.ai/manifest.yaml"
    assert out.splitlines() == [
        f"::warning file={manifest},line=9::[manifest_section_missing] section `policy` points at "
        "`.ai/repo/policy.yaml`, which holds no files. Create it, fix the path, or remove the section.",
        f"::warning file={manifest},line=10::[manifest_section_missing] section `rules` points at "
        "`.ai/repo/rules`, which holds no files. Create it, fix the path, or remove the section.",
        f"::warning file={manifest},line=11::[manifest_section_missing] section `adrs` points at "
        "`.ai/repo/adrs`, which holds no files. Create it, fix the path, or remove the section.",
        f"::warning file={issues}/I0001%2C50%25.yaml,line=1::[id_mismatch] issue `I0001` lives in a "
        "file whose name disagrees with its id; expected `I0001.yaml`. Rename the file or correct the "
        "id (the id is used).",
        f"::error file={issues}/I0002.yaml,line=2,col=1::[yaml_syntax] the file is not valid YAML (in "
        "any dialect) at line 2, column 1: did not find expected node content (while parsing a flow "
        "node). Fix the syntax; the file was not loaded.",
        f"::notice file={issues}/I0003.yaml,line=3::[yaml_dialect] line 3 has an unquoted value "
        "containing ': ', which the layer's YAML dialect accepts and standard YAML refuses. Quote the "
        "value to make the file portable.",
        "FAILED: 1 error, 4 warnings, 1 info",
    ]
    code, quiet, _ = run(capsys, "check", "--repo", str(layer), "--format", "github", "-q")
    assert code == 1 and "::notice" not in quiet and len(quiet.splitlines()) == 6


def test_github_format_outside_a_checkout_keeps_the_layer_paths(tmp_path, capsys):
    write_layer(tmp_path, {".ai/repo/project/issues/I0001.yaml": issue("I0002", milestone="'-'")})
    code, out, _ = run(capsys, "check", "--repo", str(tmp_path), "--format", "github", "--strict")
    assert code == 1
    assert "::warning file=.ai/repo/project/issues/I0001.yaml,line=1::[id_mismatch] " in out
    assert out.splitlines()[-1].endswith("(--strict: warnings fail)")


def test_github_format_of_the_demo_names_it_inside_this_repository(capsys):
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    code, out, _ = run(capsys, "check", "--format", "github")
    assert code == 0
    assert out.splitlines()[1] == (
        "::warning file=generator/demo/layer/.ai/repo/adrs/0004-a-stale-reading-is-shown-labelled-"
        "when-the-network-fails.md,line=14::[unresolved_reference] field `related` names "
        "`rule:project.offline-mode-is-explicit`, which resolves to nothing: no rule "
        "`project.offline-mode-is-explicit` in the layer; add it, or correct or remove the "
        "reference in `related`.")
    assert out.splitlines()[-1] == "ok: 0 errors, 4 warnings, 2 info"


def test_github_commands_escape_what_github_reads_as_syntax():
    d = Diagnostic(severity="error", code="c", path="a:b,c%.yaml", line=3, column=7,
                   message="100% sure\r\nsecond line: a, b")
    assert github_command(d) == (
        "::error file=a%3Ab%2Cc%25.yaml,line=3,col=7::[c] 100%25 sure%0D%0Asecond line: a, b")
    assert github_command(d, "sub dir/") == (
        "::error file=sub dir/a%3Ab%2Cc%25.yaml,line=3,col=7::[c] 100%25 sure%0D%0Asecond line: a, b")
    assert github_escape_property("%\r\n:,") == "%25%0D%0A%3A%2C"
    assert github_escape_data("%\r\n:,") == "%25%0D%0A:,"


def test_github_commands_omit_what_is_not_known():
    assert github_command(Diagnostic(severity="info", code="c", message="m")) == "::notice::[c] m"
    assert github_command(Diagnostic(severity="warning", code="c", path="p", message="m")) == (
        "::warning file=p::[c] m")
    assert github_command(Diagnostic(severity="warning", code="c", path="p", column=2,
                                     message="m")) == "::warning file=p::[c] m"


def test_checkout_prefix_walks_up_to_the_directory_holding_git(tmp_path):
    (tmp_path / "top" / ".git").mkdir(parents=True)
    (tmp_path / "top" / "a" / "b").mkdir(parents=True)
    assert checkout_prefix(tmp_path / "top") == ""
    assert checkout_prefix(tmp_path / "top" / "a" / "b") == "a/b/"
    (tmp_path / "top" / "a" / ".git").write_text("gitdir: elsewhere\n")  # a worktree or submodule
    assert checkout_prefix(tmp_path / "top" / "a" / "b") == "b/"
