"""The ``devcontext`` program ends at once after its command (:func:`generator.cli.run`):
what it printed is all there, through a pipe, and its exit code is the command's."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from generator import cli


#: The streams buffered, as a pipe has them (PYTHONUNBUFFERED would hide a missed flush).
_BUFFERED = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def _program(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True,
                          text=True, timeout=300, env=_BUFFERED)


def test_everything_printed_reaches_a_pipe_and_the_code_is_the_commands(tmp_path):
    listed = _program("list", "--kind", "issue")
    assert listed.returncode == 0, listed.stderr
    by_main = "import sys; from generator.cli import main; sys.exit(main(sys.argv[1:]))"
    in_process = subprocess.run([sys.executable, "-c", by_main, "list", "--kind", "issue"],
                                capture_output=True, text=True, timeout=300, env=_BUFFERED)
    assert listed.stdout == in_process.stdout and listed.stdout.count("\n") > 5

    refused = _program("compile", "--issue", "NO-SUCH-ISSUE")
    assert refused.returncode == 2
    assert refused.stderr.startswith("devcontext compile:")


def test_a_strict_build_that_fails_exits_1_after_its_summary(tmp_path):
    built = _program("build", "--out", str(tmp_path / "site"), "--strict", "-q")
    assert built.returncode == 1  # the demo's warnings are on purpose
    assert "built " in built.stdout + built.stderr
    assert (tmp_path / "site" / "index.html").is_file()

    missing = _program("check", "--repo", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "is not a directory" in missing.stderr


def test_run_flushes_then_ends_with_mains_code(monkeypatch, capsys):
    ended = []

    def end(code: int) -> None:
        ended.append((code, capsys.readouterr().out))
        raise SystemExit(code)

    monkeypatch.setattr(cli, "main", lambda: print("said before the end") or 3)
    monkeypatch.setattr(cli.os, "_exit", end)
    with pytest.raises(SystemExit):
        cli.run()
    assert ended == [(3, "said before the end\n")]
