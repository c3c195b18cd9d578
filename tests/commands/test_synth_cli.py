"""`devcontext synth`: the summary line, the same bytes as the library, and the exit code and
message of bad input (tests/synth/test_synth.py covers the generator itself)."""

from __future__ import annotations

import re

import pytest

from generator import synth
from generator.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_writes_the_library_output_and_says_how_much(tmp_path, capsys):
    out_dir = tmp_path / "layer"
    code, out, err = run(capsys, "synth", "--issues", "8", "--out", str(out_dir))
    assert code == 0 and err == ""
    files = synth.synthesize("small", issues=8)
    summary = re.fullmatch(
        r"wrote (\d+) files \((\d+\.\d) MB\) of a small synthetic layer to (.+) in \d+\.\ds\n", out)
    assert summary, out
    assert int(summary[1]) == len(files) and summary[3] == str(out_dir)
    assert summary[2] == f"{sum(len(b) for b in files.values()) / 1e6:.1f}"
    written = {p.relative_to(out_dir).as_posix(): p.read_bytes()
               for p in sorted(out_dir.rglob("*")) if p.is_file()}
    assert written == files


def test_rewriting_an_earlier_output_is_allowed(tmp_path, capsys):
    assert run(capsys, "synth", "--out", str(tmp_path / "l"))[0] == 0
    assert run(capsys, "synth", "--issues", "5", "--out", str(tmp_path / "l"))[0] == 0
    assert not (tmp_path / "l" / ".ai/repo/project/issues/I0024.yaml").exists()


@pytest.mark.parametrize("n", ["0", "-3"])
def test_fewer_than_one_issue_exits_two(tmp_path, capsys, n):
    code, out, err = run(capsys, "synth", "--issues", n, "--out", str(tmp_path / "l"))
    assert (code, out, err) == (2, "", "devcontext synth: --issues must be at least 1\n")
    assert not (tmp_path / "l").exists()


def test_an_unrelated_directory_is_refused_with_exit_two(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine\n")
    code, _, err = run(capsys, "synth", "--out", str(tmp_path))
    assert code == 2
    assert err == (
        f"devcontext synth: refusing to write a synthetic layer to {tmp_path}: the directory is "
        "not empty and does not look like an earlier synth output (no .ai/manifest.yaml); "
        "choose a new or empty directory\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize(("argv", "expected"), [
    (["--size", "huge", "--out", "x"], "argument --size: invalid choice: 'huge'"),
    (["--size", "small"], "the following arguments are required: --out"),
    (["--issues", "ten", "--out", "x"], "argument --issues: invalid int value: 'ten'"),
])
def test_bad_arguments_are_refused_by_the_parser(capsys, argv, expected):
    with pytest.raises(SystemExit) as exc:
        main(["synth", *argv])
    assert exc.value.code == 2
    assert expected in capsys.readouterr().err
