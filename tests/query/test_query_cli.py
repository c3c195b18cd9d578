"""`devcontext query text|cross-ref`: readable output, --json, exit codes and messages."""

from __future__ import annotations

import json

from generator.cli import main
from generator.jsonio import canonical_json_text
from generator.query import cross_ref_query, text_query


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_text_readable(capsys):
    code, out, _ = run(capsys, "query", "text", "Stale cache", "--limit", "3")
    assert code == 0
    assert out.splitlines()[:5] == [
        "query:    text terms=[stale cache] limit=3",
        "counts:   80 scanned, 21 matched, 3 shown (18 more past the limit)",
        "order by: 1. score desc: id match ×4 + title ×3 + summary ×1 per matched term",
        "          2. kind asc",
        "          3. uri asc",
    ]
    assert "1. majordomus://rule/project.cache-entries-expire@1  [rule, score 8]" in out
    assert "   why: id: cache ×4; title: cache ×3; summary: cache ×1" in out


def test_text_json_is_the_wire_trace(capsys, demo_index):
    code, out, _ = run(capsys, "query", "text", "reading", "--json")
    assert code == 0
    assert out == canonical_json_text(text_query(demo_index, "reading"), indent=2)
    assert json.loads(out)["candidates_matched"] > len(json.loads(out)["hits"]) == 20


def test_cross_ref_readable_lists_unresolved_edges(capsys):
    code, out, _ = run(capsys, "query", "cross-ref", "I0303", "--depth", "1")
    assert code == 0
    assert "1. majordomus://issue/I0302  [issue, score 1]" in out
    assert "   why: depends_on from issue/I0303, hop 1" in out
    assert "unresolved edges (1):\n  majordomus://issue/I0303  depends_on: I0299\n" in out


def test_cross_ref_json_records_the_clamp(capsys, demo_index):
    code, out, _ = run(capsys, "query", "cross-ref", "offline-reads", "--depth", "9", "--json")
    assert code == 0
    assert json.loads(out)["query"].startswith(
        "cross_ref start=offline-reads (majordomus://milestone/offline-reads) depth=5 "
        "(clamped from 9)")
    assert out == canonical_json_text(cross_ref_query(demo_index, "offline-reads", 9), indent=2)


def test_bad_arguments_exit_two_with_the_message(capsys):
    code, _, err = run(capsys, "query", "cross-ref", "I0303", "--depth", "-1")
    assert code == 2
    assert err == "devcontext query: depth is -1; it must be 0 or more (walks deeper than 5 " \
        "are clamped to 5)\n"
    code, _, err = run(capsys, "query", "cross-ref", "nope")
    assert code == 2 and "the layer holds no object named `nope`" in err
    code, _, err = run(capsys, "query", "text", "  ")
    assert code == 2 and "value is empty or blank" in err
    code, _, err = run(capsys, "query", "text", "x", "--limit", "many")
    assert code == 2 and "limit `many` is not an integer" in err


def test_repo_option(capsys, unicode_root):
    code, out, _ = run(capsys, "query", "text", "缓存", "--repo", str(unicode_root), "--json")
    assert code == 0
    assert json.loads(out)["hits"][0]["anchor"] == "majordomus://issue/I0002"
