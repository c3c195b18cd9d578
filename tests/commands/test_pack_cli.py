"""`devcontext pack`: formats, --out, request options, errors; and compile's tier rules."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from generator.cli import COMMANDS, main


def run(capsysbinary, *argv):
    code = main(list(argv))
    out = capsysbinary.readouterr()
    return code, out.out, out.err.decode("utf-8")


def test_pack_is_a_verb():
    from generator.commands import pack

    assert COMMANDS["pack"] is pack


def test_markdown_to_standard_output(capsysbinary):
    code, out, _ = run(capsysbinary, "pack", "--issue", "I0201")
    assert code == 0
    text = out.decode("utf-8")
    assert text.startswith("# Development context: issue I0201\n")
    assert f"- size: {len(out):,} bytes, ~{-(-len(out) // 4):,} tokens" in text


def test_xml_and_json_with_request_options(capsysbinary):
    code, out, _ = run(capsysbinary, "pack", "--milestone", "offline-reads", "--format", "xml",
                       "--budget-tokens", "3000", "--max-depth", "1")
    assert code == 0
    root = ET.fromstring(out)
    assert root.find("header/budget").get("limit_tokens") == "3000"
    assert int(root.find("header/budget").get("used_tokens")) <= 3000
    code, out, _ = run(capsysbinary, "pack", "--path", "lib/cache.py", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["request"]["paths"] == ["lib/cache.py"]
    assert "explain_page" not in doc  # absent optional fields are omitted, never null
    assert doc["size"]["bytes"] == len(out)


def test_out_writes_the_file_and_says_so(tmp_path, capsysbinary):
    target = tmp_path / "I0201.pack.md"
    code, out, err = run(capsysbinary, "pack", "--issue", "I0201", "--out", str(target))
    assert code == 0 and out == b""
    data = target.read_bytes()
    assert data.startswith(b"# Development context: issue I0201\n")
    assert err.startswith(f"wrote {target}: 44 entries, {len(data):,} bytes")
    assert [p.name for p in tmp_path.iterdir()] == ["I0201.pack.md"]  # no temporary left


def test_out_into_a_missing_directory_is_refused(tmp_path, capsysbinary):
    code, _, err = run(capsysbinary, "pack", "--issue", "I0201", "--out",
                       str(tmp_path / "nope" / "x.md"))
    assert code == 2
    assert f"--out {tmp_path / 'nope' / 'x.md'}: the directory `{tmp_path / 'nope'}` does not " \
           "exist; create it or name a file in an existing directory" in err


def test_an_unknown_issue_is_the_compile_error(capsysbinary):
    code, _, err = run(capsysbinary, "pack", "--issue", "I9999")
    assert code == 2 and "devcontext pack: the layer holds no issue `I9999`" in err


def test_compile_prints_the_rule_that_placed_each_entry(capsys):
    assert main(["compile", "--issue", "I0201"]) == 0
    out = capsys.readouterr().out
    assert "issue/I0201 required  [" in out and "]  (seed)\n" in out
    assert "milestone/offline-reads  [" in out and "(milestone of the seed issue)" in out
    assert "issue/I0104  [" in out and "(blocker of the seed issue)" in out
    assert "(other plan object: supporting evidence)" in out
    assert "(by kind: policy → governance)" in out
