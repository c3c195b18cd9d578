"""`devcontext explain URI`: one line per standing, --json valid against the spec's
explanation schema, and the exit code and message of bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.cli import main

SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec"
if not SPEC.is_dir():
    SPEC = Path("/work/shared/spec")

ADR = "majordomus://adr/adr-0002"


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_selected_identifier_says_where_and_why(capsys):
    code, out, err = run(capsys, "explain", ADR, "--issue", "I0102")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"{ADR}: selected"
    assert lines[1].startswith("selected in the decision tier at relevance ")
    assert "reached by 2 paths" in lines[1]
    assert lines[2] == "(judged under a budget of 24,000 tokens: 16,621 used, 7,379 left)"


def test_an_excluded_identifier_names_the_budget_that_would_bring_it_in(capsys):
    code, out, _ = run(capsys, "explain", ADR, "--issue", "I0102", "--budget-tokens", "100")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"{ADR}: excluded"
    assert lines[1].startswith("reached and not given: budget — ")
    assert " spent or reserved when refused; a budget of " in lines[1] or lines[1].startswith(
        "reached and not given: budget — a budget of ")
    assert "brings it in" in lines[1]
    assert lines[2].endswith(", over budget)")


def test_an_unknown_identifier_is_an_answer_not_an_error(capsys):
    code, out, _ = run(capsys, "explain", "majordomus://nothing", "--issue", "I0102")
    assert code == 0
    assert out.splitlines()[:2] == [
        "majordomus://nothing: unknown",
        ("the index holds nothing under `majordomus://nothing`: the request is not the problem "
         "— check the identifier (`devcontext list` shows every one)"),
    ]


@pytest.mark.parametrize(("uri", "argv"), [
    (ADR, ["--issue", "I0102"]),
    (ADR, ["--issue", "I0102", "--budget-tokens", "100"]),
    ("majordomus://issue/I0203", ["--issue", "I0102", "--max-depth", "0"]),
    ("majordomus://nothing", []),
])
def test_json_validates_against_the_explanation_schema(capsys, uri, argv):
    jsonschema = pytest.importorskip("jsonschema")
    schema_path = SPEC / "devcontext-explanation.schema.json"
    if not schema_path.is_file():
        pytest.skip("the shared spec folder is absent")
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    code, out, _ = run(capsys, "explain", uri, *argv, "--json")
    assert code == 0
    answer = json.loads(out)
    assert answer["uri"] == uri
    errors = list(jsonschema.validators.validator_for(schema)(schema).iter_errors(answer))
    assert errors == [], [e.message for e in errors]


@pytest.mark.parametrize(("argv", "message"), [
    ([ADR, "--issue", "I9"],
     ("devcontext explain: the layer holds no issue `I9` (by id, slug or identifier); it holds "
      "12 issues — list them with `devcontext list --kind issue`\n")),
    ([ADR, "--floor", "-1"],
     "devcontext explain: `--floor` is -1; the relevance floor must lie between 0 and 1 inclusive\n"),
])
def test_a_bad_request_exits_two_with_one_line(capsys, argv, message):
    code, out, err = run(capsys, "explain", *argv)
    assert (code, out, err) == (2, "", message)


def test_the_identifier_is_required(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["explain", "--issue", "I0102"])
    assert exc.value.code == 2
    assert "the following arguments are required: IDENTIFIER" in capsys.readouterr().err


def test_a_missing_layer_exits_two(tmp_path, capsys):
    code, _, err = run(capsys, "explain", ADR, "--repo", str(tmp_path))
    assert code == 2
    assert err.startswith("devcontext explain: ") and "has no .ai/manifest.yaml" in err
