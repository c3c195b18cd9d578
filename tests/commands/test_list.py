"""`devcontext list`: one line per object in identifier order, --kind, --json, and the exit
code and message of an unknown kind."""

from __future__ import annotations

import json

from layerkit import issue, write_layer

from generator.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_every_object_one_line_sorted_with_its_state_or_status(capsys):
    code, out, err = run(capsys, "list")
    assert code == 0 and err == ""
    lines = out.splitlines()
    uris = [line.split(" ", 1)[0] for line in lines]
    assert uris == sorted(uris) and len(uris) == len(set(uris)) == 80
    assert ("majordomus://adr/adr-0002 [accepted]  Readings are stored in SI units and converted "
            "only for display") in lines
    assert ("majordomus://issue/I0101 [DONE]  A station feed is parsed into a reading in SI "
            "units") in lines  # an issue shows its derived state, not a stored status


def test_kind_filters(capsys):
    code, out, _ = run(capsys, "list", "--kind", "milestone")
    assert code == 0
    assert out == (
        "majordomus://milestone/export-history  A station's history leaves as CSV\n"
        "majordomus://milestone/first-release  A station's current reading is fetched, cached "
        "and shown\n"
        "majordomus://milestone/offline-reads  Readings stay available when the network does "
        "not\n"
    )


def test_json_rows(capsys):
    code, out, _ = run(capsys, "list", "--kind", "issue", "--json")
    assert code == 0
    rows = json.loads(out)
    assert len(rows) == 12
    assert all(set(r) == {"uri", "kind", "title", "status", "state", "path"} for r in rows)
    first = rows[0]
    assert first["uri"] == "majordomus://issue/I0101" and first["state"] == "DONE"
    assert first["path"] == ".ai/repo/project/issues/I0101.yaml"


def test_an_untitled_object_has_no_trailing_space(tmp_path, capsys):
    write_layer(tmp_path, {".ai/repo/project/issues/I0001.yaml": "id: I0001\nmilestone: '-'\n"})
    code, out, _ = run(capsys, "list", "--repo", str(tmp_path), "--kind", "issue")
    assert code == 0
    assert out.splitlines() == ["majordomus://issue/I0001 [READY]"]


def test_an_unknown_kind_exits_two_and_names_the_kinds(tmp_path, capsys):
    write_layer(tmp_path, {".ai/repo/project/issues/I0001.yaml": issue("I0001", milestone="'-'")})
    code, out, err = run(capsys, "list", "--repo", str(tmp_path), "--kind", "bogus")
    assert code == 2 and out == ""
    assert err.startswith("devcontext list: the layer holds no objects of kind `bogus`; kinds: ")
    assert "issue" in err.rstrip().rsplit("kinds: ", 1)[1].split(", ")


def test_a_missing_layer_exits_two(tmp_path, capsys):
    code, _, err = run(capsys, "list", "--repo", str(tmp_path))
    assert code == 2 and "has no .ai/manifest.yaml" in err
