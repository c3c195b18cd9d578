"""`explain` (and `compile --uri`, `query cross-ref`) accept every identifier form an output
prints; an ambiguous bare id is refused with its candidates; a name that names nothing is
answered with the nearest identifiers; no request says what it was judged under."""

from __future__ import annotations

import pytest

from generator.cli import main
from generator.identifiers import candidates, nearest
from generator.workspace import Workspace

ADR = "majordomus://adr/adr-0002"
NO_SEED = ("no request given (no --issue, --milestone, --uri, --path or --intent): judged "
           "under governance only — policy, scope and blocking rules; give one of those "
           "flags to judge it under the work it is for")


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("name", [ADR, "adr/adr-0002", "adr-0002", "  adr-0002 "])
def test_explain_accepts_every_form_the_outputs_print(capsys, name):
    code, out, err = run(capsys, "explain", name, "--issue", "I0102")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == f"{ADR}: selected"


@pytest.mark.parametrize("name", ["I0102", "issue/I0102", "majordomus://issue/I0102"])
def test_issue_forms_resolve_alike(name):
    index = Workspace.open(None).index
    assert [o.uri for o in candidates(index, name)] == ["majordomus://issue/I0102"]


def test_the_prefix_with_an_unknown_identity_names_nothing():
    index = Workspace.open(None).index
    assert candidates(index, "majordomus://adr/I0102") == []
    assert candidates(index, "") == []


def test_compile_uri_takes_the_short_forms(capsys):
    code, out, err = run(capsys, "compile", "--uri", "adr/adr-0002")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == f"context of uris {ADR}"


def test_compile_uri_naming_nothing_suggests_the_nearest(capsys):
    code, out, err = run(capsys, "compile", "--uri", "adr-0020")
    assert (code, out) == (2, "")
    assert err == (
        "devcontext compile: --uri `adr-0020` names nothing the layer holds (tried it as an "
        "identifier, as `kind/identity` and as a bare id of every kind); the nearest it holds: "
        "`majordomus://adr/adr-0002`, `majordomus://adr/adr-0003`, `majordomus://adr/adr-0004`; "
        "list identifiers with `devcontext list`\n")


def test_an_ambiguous_bare_id_lists_the_candidates(capsys, real_layer):
    code, out, err = run(capsys, "explain", "intent-bound-work", "--repo", str(real_layer))
    assert (code, out) == (2, "")
    assert err == (
        "devcontext explain: the identifier `intent-bound-work` is ambiguous: it names 2 "
        "objects — `majordomus://milestone/intent-bound-work`, "
        "`majordomus://intent/intent-bound-work`; give one of them in full, or as "
        "`kind/identity` (`milestone/intent-bound-work`)\n")
    code, out, _ = run(capsys, "explain", "intent/intent-bound-work", "--repo", str(real_layer),
                       "--milestone", "intent-bound-work")
    assert code == 0 and out.startswith("majordomus://intent/intent-bound-work: ")


def test_cross_ref_and_explain_read_a_short_form_alike(capsys):
    code, out, _ = run(capsys, "query", "cross-ref", "adr/adr-0002", "--depth", "1")
    assert code == 0
    assert out.splitlines()[0].startswith(f"query:    cross_ref start=adr/adr-0002 ({ADR}) ")


def test_explain_without_a_request_says_what_it_was_judged_under(capsys):
    code, out, err = run(capsys, "explain", "adr-0002")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"{ADR}: not_reached"
    assert lines[1].endswith("seed it with `--uri`, raise `--max-depth`, or add a path that "
                             "holds it")
    assert lines[-1] == NO_SEED


def test_explain_json_without_a_request_keeps_the_wire_form_and_notes_on_stderr(capsys):
    code, out, err = run(capsys, "explain", "adr-0002", "--json")
    assert code == 0 and '; seed it with `uris`, raise `max_depth`' in out
    assert err == f"devcontext explain: {NO_SEED}\n"


def test_with_a_request_there_is_no_note(capsys):
    _, out, _ = run(capsys, "explain", "adr-0002", "--issue", "I0102")
    assert NO_SEED not in out and len(out.splitlines()) == 3


def test_an_unknown_answer_suggests_the_nearest_identifiers(capsys):
    code, out, _ = run(capsys, "explain", "majordomus://adr/adr-0020", "--issue", "I0102")
    assert code == 0
    assert out.splitlines()[:2] == [
        "majordomus://adr/adr-0020: unknown",
        ("the index holds nothing under `majordomus://adr/adr-0020`: the request is not the "
         "problem — check the identifier (`devcontext list` shows every one); the nearest "
         "identifiers it holds: `majordomus://adr/adr-0002`, `majordomus://adr/adr-0003`, "
         "`majordomus://adr/adr-0004`"),
    ]


def test_nearest_is_empty_for_nothing_alike():
    index = Workspace.open(None).index
    assert nearest(index, "zzzzzzzzzzzzzzzzzzzzzzzzzzzz") == []


def test_pack_uri_takes_the_short_forms_as_compile_does(capsys):
    code, out, err = run(capsys, "pack", "--uri", "adr-0002", "--format", "json")
    assert (code, err) == (0, "")
    assert "majordomus://adr/adr-0002" in out
