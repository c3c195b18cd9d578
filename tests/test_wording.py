"""Messages a new user reads, word for word (issue 16's "Wording"): articles, what was
checked, the flag the user typed, a budget's lower bound, which object an edge starts
from, and the line of the list item a diagnostic is about."""

from __future__ import annotations

import re

import pytest
from layerkit import issue, write_layer

from generator.cli import main
from generator.engine.compile import compile_context
from generator.engine.request import parse_input
from generator.errors import RequestError
from generator.layer.kinds import a_kind, kind_name
from generator.query.crossref import cross_ref_query
from generator.workspace import Workspace


@pytest.mark.parametrize(("kind", "words"), [
    ("adr", "an ADR"), ("issue", "an issue"), ("implementation", "an implementation"),
    ("rule", "a rule"), ("milestone", "a milestone"), ("use-case", "a use-case"),
])
def test_a_kind_takes_its_article(kind, words):
    assert a_kind(kind) == words


def test_adr_is_written_in_capitals():
    assert (kind_name("adr"), kind_name("test")) == ("ADR", "test")


ADR_WITH_RELATED = """\
---
id: adr-0001
title: A decision
status: accepted
related:
  - file:lib/present.sh

  # a comment between items
  - file:lib/absent.sh
  - adr:adr-0009
---
# A decision
"""


def _layer(tmp_path):
    return write_layer(tmp_path, {
        ".ai/repo/policy.yaml": "version: 1\n",
        ".ai/repo/adrs/0001-a-decision.md": ADR_WITH_RELATED,
        ".ai/repo/adrs/0002-plain.md": "# A decision without front matter\n\nText.\n",
        ".ai/repo/project/milestones/m1.yaml": "id: m1\ntitle: First\n",
        ".ai/repo/project/issues/I0001.yaml": issue("I0001"),
        "lib/present.sh": "echo hi\n",
    })


def _messages(root):
    return [(d.code, d.line, d.message) for d in Workspace.open(root).index.diagnostics]


def test_markdown_without_front_matter_is_indexed_as_a_document_not_as_an_adr(tmp_path):
    diags = Workspace.open(_layer(tmp_path)).index.diagnostics
    [note] = [d for d in diags if d.code == "no_front_matter"]
    assert note.message == ("has no front matter, so it is indexed as a document, not as an "
                            "ADR. Add ADR front matter (id, title, status, ...) to make it one.")


def test_a_missing_repository_file_says_the_repository_was_checked_at_its_own_line(tmp_path):
    found = [(line, m) for code, line, m in _messages(_layer(tmp_path))
             if code == "unresolved_reference"]
    assert found == [
        (9, "field `related` names `file:lib/absent.sh`, which resolves to nothing: "
            "`lib/absent.sh` would be an implementation, but the repository holds no such "
            "file; add it, or correct or remove the reference in `related`."),
        (10, "field `related` names `adr:adr-0009`, which resolves to nothing: no ADR "
             "`adr-0009` in the layer; add it, or correct or remove the reference in `related`."),
    ]


def test_each_item_of_a_block_list_and_an_inline_list_at_its_key(tmp_path):
    root = write_layer(tmp_path, {
        ".ai/repo/policy.yaml": "version: 1\n",
        ".ai/repo/project/milestones/m1.yaml": "id: m1\ntitle: First\n",
        ".ai/repo/project/issues/I0001.yaml": issue("I0001", depends_on=["I0002", "I0003"]),
        ".ai/repo/project/issues/I0004.yaml": (issue("I0004")
                                               + "depends_on:\n- I0001\n- I0005\n- I0006\n"),
    })
    lines = sorted((d.path.rsplit("/", 1)[-1], d.line) for d in Workspace.open(root).index.diagnostics
                   if d.code == "unresolved_reference")
    assert lines == [("I0001.yaml", 4), ("I0001.yaml", 4), ("I0004.yaml", 6), ("I0004.yaml", 7)]


def test_the_engine_names_the_wire_field_and_the_cli_its_flag(capsys):
    index = Workspace.open(None).index
    with pytest.raises(RequestError) as exc:
        compile_context(index, parse_input({"budget_tokens": -5}))
    assert exc.value.message == ("`budget_tokens` is -5; it must be a whole number of tokens, "
                                 "1 or more (the default is 24000)")
    assert main(["compile", "--budget-tokens", "0"]) == 2
    assert capsys.readouterr().err == (
        "devcontext compile: `--budget-tokens` is 0; it must be a whole number of tokens, 1 or "
        "more (the default is 24000)\n")
    assert main(["compile", "--max-depth", "-1"]) == 2
    assert capsys.readouterr().err == "devcontext compile: `--max-depth` is -1; it must be 0 or more\n"


def test_a_blank_issue_takes_its_article(capsys):
    assert main(["compile", "--issue", " "]) == 2
    assert capsys.readouterr().err == (
        "devcontext compile: `--issue` is blank; name an issue or leave it out\n")


def test_a_budget_stated_as_a_bound_says_what_it_bounds(real_layer):
    index = Workspace.open(real_layer).index
    compiled = compile_context(index, parse_input({"issue": "I2001"}))
    details = [x.detail for x in compiled.excluded if x.reason == "budget"]
    assert details and all("no less than" not in d for d in details)
    bounded = [d for d in details if "(none below" in d]
    assert bounded, details
    assert all(d.endswith(" can)") for d in bounded), bounded
    # the pot is the answer's own (its budget), said in a row only where it differs
    used = f"{compiled.budget.used_tokens:,}"
    final = [d for d in details if d.startswith("a budget of ")]
    assert final and not [d for d in details if f"{used} of 24,000" in d], details
    needed = re.match(r"a budget of (\S+) tokens brings it in", final[0])
    assert needed and re.fullmatch(r"\d{1,3}(,\d{3})*", needed.group(1)), final[0]
    for d in details:
        spent = re.match(r"(\S+) of 24,000 spent or reserved when refused; a budget of (\S+) "
                         r"tokens brings it in", d)
        assert spent or d.startswith("a budget of "), d
        if spent:
            assert all(re.fullmatch(r"\d{1,3}(,\d{3})*", n) for n in spent.groups()), d


def test_cross_ref_names_the_kind_of_the_object_an_edge_leaves(real_layer):
    index = Workspace.open(real_layer).index
    trace = cross_ref_query(index, "intent/intent-bound-work", 1)
    whys = [h.why for h in trace.hits]
    assert whys and all(" intent-bound-work" not in w for w in whys), whys
    assert any("intent/intent-bound-work" in w for w in whys)


@pytest.mark.parametrize(("items", "tail"), [
    ("  - lib/a.py\n  - {x: 1}\n", "1 item was ignored."),
    ("  - {x: 1}\n  - [a]\n", "2 items were ignored."),
])
def test_ignored_list_items_are_counted_in_words(tmp_path, items, tail):
    root = write_layer(tmp_path, {
        ".ai/repo/policy.yaml": "version: 1\n",
        ".ai/repo/project/milestones/m1.yaml": "id: m1\ntitle: First\n",
        ".ai/repo/project/issues/I0001.yaml": issue("I0001") + "scope:\n" + items,
    })
    [d] = [d for d in Workspace.open(root).index.diagnostics if d.code == "field_type"]
    assert d.message.endswith("Write each item as plain text; " + tail), d.message
