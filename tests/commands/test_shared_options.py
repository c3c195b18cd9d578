"""Shared options work wherever a user puts them: a verb's options before or after its
sub-verb (`query --repo R text ...`), and `--debug` at every level."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.cli import build_parser, main

DEMO = str(Path(__file__).resolve().parents[2] / "generator" / "demo" / "layer")


def parse(*argv):
    return build_parser().parse_args(list(argv))


@pytest.mark.parametrize("argv", [
    ["query", "--repo", "R", "text", "cache"],
    ["query", "text", "--repo", "R", "cache"],
    ["query", "text", "cache", "--repo", "R"],
])
def test_repo_before_or_after_the_query_kind(argv):
    args = parse(*argv)
    assert (args.repo, args.query_kind, args.value) == ("R", "text", "cache")


@pytest.mark.parametrize("argv", [
    ["query", "--json", "--limit", "3", "cross-ref", "I0102"],
    ["query", "cross-ref", "I0102", "--json", "--limit", "3"],
    ["query", "--json", "cross-ref", "--limit", "3", "I0102"],
])
def test_json_and_limit_before_or_after_the_query_kind(argv):
    args = parse(*argv)
    assert (args.json, args.limit, args.start) == (True, "3", "I0102")


def test_shared_options_keep_their_defaults_when_absent():
    args = parse("query", "text", "cache")
    assert (args.repo, args.json, args.limit, args.debug) == (None, False, None, False)


@pytest.mark.parametrize("argv", [
    ["--debug", "query", "text", "cache"],
    ["query", "--debug", "text", "cache"],
    ["query", "text", "cache", "--debug"],
    ["check", "--debug"],
    ["explain", "adr-0002", "--debug"],
])
def test_debug_anywhere(argv):
    assert parse(*argv).debug is True


def test_the_query_runs_the_same_whichever_side_the_options_are(capsys):
    assert main(["query", "--repo", DEMO, "--json", "text", "cache"]) == 0
    before = capsys.readouterr()
    assert main(["query", "text", "cache", "--repo", DEMO, "--json"]) == 0
    after = capsys.readouterr()
    assert before.err == after.err == ""
    assert before.out == after.out and json.loads(before.out)["hits"]


def test_debug_after_the_verb_shows_the_traceback(tmp_path):
    from generator.errors import LayerError

    assert main(["check", "--repo", str(tmp_path)]) == 2
    with pytest.raises(LayerError):
        main(["check", "--repo", str(tmp_path), "--debug"])
