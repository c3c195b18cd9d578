"""The results file of ``make bench`` as the site reads it: rows and tags, NaN as not
measured, errors that name the file, the row and the field; ``devcontext build
--bench-results`` and its default (the repository's ``.bench/results.json``); and the
transport benchmark's tags are the ones the pages look up."""

from __future__ import annotations

import json
import math
import shutil

import pytest

from benchmarks.bench_transports import matrix_tags
from generator.benchresults import default_results_path, parse_results, read_results
from generator.cli import main
from generator.commands.build import bench_results
from generator.demo import demo_root
from generator.errors import InputError
from generator.workspace import Workspace


def test_rows_tags_and_not_measured():
    data = json.dumps([
        {"name": "a", "value": 1.5, "unit": "ms", "note": "n=5",
         "tags": {"figure": "build", "layer": "large", "scale": "1x"}},
        {"name": "b", "value": math.nan, "unit": "ms", "note": "skipped", "tags": {}},
    ]).encode()
    results = parse_results(data, ".bench/results.json")
    assert [r.value for r in results.rows] == [1.5, None]
    assert list(results.figures()) == ["build"]
    assert [r.name for r in results.untagged()] == ["b"]


@pytest.mark.parametrize("data, words", [
    (b"{", "--bench-results r.json: expected JSON as `make bench` writes it, found text that "
           "does not parse"),
    (b'{"rows": []}', "--bench-results r.json: expected a JSON list of rows {name, value, "
                      "unit, note, tags}, found a JSON object."),
    (b'[{"name": "a", "value": "1", "unit": "ms"}]',
     "--bench-results r.json: row 1: expected `value` to be a number, found string."),
    (b'[{"name": "a", "value": 1, "unit": "ms", "tags": {"n": 1}}]',
     "--bench-results r.json: row 1: expected `tags` to be a flat object of strings, found "
     "object."),
    (b'[3]', "--bench-results r.json: row 1: expected an object {name, value, unit, note, "
             "tags}, found a JSON number."),
])
def test_a_file_that_is_not_a_results_file_is_refused_by_name(data, words):
    with pytest.raises(InputError) as caught:
        parse_results(data, "r.json")
    assert words in caught.value.message
    assert "Run `make bench` to write it again" in caught.value.message


def test_the_last_row_of_a_cell_wins_and_matches_the_benchmarks_tags():
    tags = matrix_tags("devcontext.explain", "http", "policy", "warm", "p50", "real")
    assert tags == {"figure": "operation", "operation": "devcontext.explain",
                    "transport": "http", "case": "policy", "phase": "warm", "stat": "p50",
                    "layer": "real"}
    rows = [{"name": "x", "value": v, "unit": "ms", "tags": tags} for v in (2.0, 3.0)]
    results = parse_results(json.dumps(rows).encode(), "r.json")
    assert results.operation_row("devcontext.explain", "http", "policy", "warm", "p50").value == 3.0
    assert results.operation_row("devcontext.explain", "mcp", "policy", "warm", "p50") is None


def test_a_missing_file_names_the_option(tmp_path):
    with pytest.raises(InputError) as caught:
        read_results(tmp_path / "nope.json", "nope.json")
    assert caught.value.message.startswith(
        "--bench-results nope.json: expected a results file written by `make bench`, found it "
        "cannot be read")


def test_the_default_is_the_repositorys_results_file_and_never_the_demos(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(demo_root(), repo)
    ws = Workspace.open(repo)
    assert default_results_path(repo) is None and bench_results(None, ws) is None
    (repo / ".bench").mkdir()
    (repo / ".bench" / "results.json").write_text(json.dumps(
        [{"name": "a", "value": 1, "unit": "s", "tags": {"figure": "build"}}]))
    found = bench_results(None, ws)
    assert found.source == ".bench/results.json" and len(found.rows) == 1
    # outside the repository it is named by its file name only (no absolute path on a page)
    other = tmp_path / "elsewhere.json"
    other.write_text("[]")
    assert bench_results(str(other), ws).source == "elsewhere.json"
    assert bench_results(None, Workspace.open()) is None


def test_build_with_results_shows_them_and_a_bad_file_fails_clearly(tmp_path, capsys):
    results = tmp_path / "results.json"
    results.write_text(json.dumps([{"name": "explain", "value": 0.5, "unit": "ms", "tags": {
        "figure": "operation", "operation": "devcontext.explain", "transport": "direct",
        "case": "policy", "phase": "warm", "stat": "p50"}}]))
    out = tmp_path / "site"
    assert main(["build", "--out", str(out), "-q", "--bench-results", str(results)]) == 0
    page = (out / "reference" / "devcontext.explain.html").read_text()
    assert "Figures from results.json, in milliseconds." in page
    assert "0.500 ms" in page
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["build", "--out", str(tmp_path / "site2"), "-q", "--bench-results",
                 str(bad)]) != 0
    err = capsys.readouterr().err
    assert "--bench-results bad.json: expected a JSON list of rows" in err
