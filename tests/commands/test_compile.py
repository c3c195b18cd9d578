"""`devcontext compile`: the text view's wording, --json against the spec's schemas, --strict,
and the exit code and message of every kind of bad request."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.cli import main

SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec"
if not SPEC.is_dir():
    SPEC = Path("/work/shared/spec")


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_text_view_names_the_request_the_budget_and_each_tier(capsys):
    code, out, err = run(capsys, "compile", "--issue", "I0102")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "context of issue majordomus://issue/I0102"
    assert lines[1] == "request: budget 24,000 tokens, floor 0.25, max_depth 3"
    assert lines[2].startswith("budget: ") and lines[2].endswith(" left")
    for tier in ("task", "governance", "source", "decision", "knowledge", "history"):
        assert any(line.startswith(f"  {tier} ") and "selected" in line for line in lines), tier
    assert "  task       1.000" in out and "issue/I0102 required" in out


def test_no_seeds_compiles_governance_only(capsys):
    code, out, _ = run(capsys, "compile")
    assert code == 0
    assert out.splitlines()[0] == "context of (no seeds: governance only)"
    assert "policy/.ai/repo/policy.yaml required" in out


def test_json_is_the_wire_form_and_its_parts_match_the_spec(capsys):
    jsonschema = pytest.importorskip("jsonschema")
    schema_path = SPEC / "devcontext-explanation.schema.json"
    if not schema_path.is_file():
        pytest.skip("the shared spec folder is absent")
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    code, out, _ = run(capsys, "compile", "--issue", "I0102", "--budget-tokens", "4000", "--json")
    assert code == 0
    answer = json.loads(out)
    assert out.endswith("\n") and out == json.dumps(answer, indent=2, sort_keys=True,
                                                    ensure_ascii=False) + "\n"
    assert answer["request"]["issue"] == "I0102"
    assert answer["seeds"] and answer["selected"][0]["uri"] == "majordomus://issue/I0102"
    assert answer["budget"]["limit_tokens"] == 4000

    def check(definition: str, value: object) -> None:
        part = {"$ref": f"#/$defs/{definition}", "$defs": schema["$defs"]}
        errors = list(jsonschema.validators.validator_for(schema)(part).iter_errors(value))
        assert errors == [], (definition, [e.message for e in errors])

    check("Budget", answer["budget"])
    assert answer["selected"] and answer["excluded"]  # 4,000 tokens leave some out
    for entry in answer["selected"]:
        check("ContextEntry", entry)
    for excluded in answer["excluded"]:
        check("Excluded", excluded)
    for merged in answer["deduplicated"]:
        check("Deduplicated", merged)


def test_strict_exits_one_only_when_over_budget(capsys):
    assert run(capsys, "compile", "--issue", "I0102", "--strict")[0] == 0
    code, out, _ = run(capsys, "compile", "--issue", "I0102", "--budget-tokens", "300", "--strict")
    assert code == 1
    assert "OVER BUDGET: the required entries alone exceed the limit" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--issue", "I9999"],
     ("devcontext compile: the layer holds no issue `I9999` (by id, slug or identifier); it "
      "holds 12 issues — list them with `devcontext list --kind issue`\n")),
    (["--issue", "I0102", "--budget-tokens", "-5"],
     ("devcontext compile: `--budget-tokens` is -5; it must be a whole number of tokens, 1 or "
      "more (the default is 24000)\n")),
    (["--issue", "I0102", "--floor", "2"],
     "devcontext compile: `--floor` is 2; the relevance floor must lie between 0 and 1 inclusive\n"),
])
def test_a_bad_request_exits_two_with_one_line_naming_the_fix(capsys, argv, message):
    code, out, err = run(capsys, "compile", *argv)
    assert (code, out, err) == (2, "", message)


def test_a_missing_layer_exits_two(tmp_path, capsys):
    code, _, err = run(capsys, "compile", "--repo", str(tmp_path), "--issue", "I0001")
    assert code == 2
    assert err.startswith("devcontext compile: ") and "has no .ai/manifest.yaml" in err
    assert "Traceback" not in err


def test_a_malformed_number_is_refused_by_the_parser(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["compile", "--budget-tokens", "many"])
    assert exc.value.code == 2
    assert "argument --budget-tokens: invalid int value: 'many'" in capsys.readouterr().err
