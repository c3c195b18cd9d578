"""`devcontext check`: counts per kind, every diagnostic, exit codes, --json, --strict."""

from __future__ import annotations

import json
import subprocess
import sys

from generator.cli import main
from layerkit import issue, write_layer


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
