"""A Czech build says the loader's diagnostics and an object's cross-reference trace in
Czech (the catalogue's translations of their phrases), while the wire keeps its English."""

from __future__ import annotations

import json
import pickle
import re
from html import unescape

import pytest

from generator.diagnostics import Diagnostic
from generator.phrases import say
from generator.query.crossref import CROSS_REF_ORDER_BY, cross_ref_query
from generator.site import i18n
from generator.site.build import SiteInputs, build_site
from generator.site.pages.diagnostics import said
from generator.workspace import Workspace
from generator.writer import write_site


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


@pytest.fixture(scope="module")
def czech(tmp_path_factory):
    ws = Workspace.open(None)
    out = tmp_path_factory.mktemp("cs") / "site"
    write_site(build_site(SiteInputs(index=ws.index, label="nimbus", files=ws.tree.files,
                                     languages=("cs",))), out)
    return ws, out


def test_the_czech_diagnostics_page_says_a_dangling_reference_in_czech(czech):
    _, site = czech
    page = _text((site / "diagnostics.html").read_text(encoding="utf-8"))
    assert ("pole depends_on jmenuje I0299, což neodkazuje na nic: ve vrstvě není issue I0299; "
            "doplňte ho, nebo odkaz v depends_on opravte či odstraňte.") in page
    assert "which resolves to nothing" not in page
    # the names stay code, and the code filter still narrows the list
    html = (site / "diagnostics.html").read_text(encoding="utf-8")
    assert "jmenuje <code>I0299</code>" in html
    assert 'li class="diag code-unresolved_reference"' in html
    assert "main:has(#code-unresolved_reference:target)" in html


def test_the_wire_keeps_the_english_message(czech):
    ws, site = czech
    d = next(d for d in ws.index.diagnostics if "I0299" in d.message)
    assert d.message == ("field `depends_on` names `I0299`, which resolves to nothing: no issue "
                         "`I0299` in the layer; add it, or correct or remove the reference in "
                         "`depends_on`.")
    assert str(d.phrase) == d.message
    assert d.model_dump()["message"] == d.message and "phrase" not in d.model_dump_json()


def test_a_diagnostic_keeps_its_phrase_through_pickling_and_copies():
    d = Diagnostic(severity="warning", code="x", path="a.yaml",
                   message=say("field `{field}` is odd", field="tags"))
    for copy in (pickle.loads(pickle.dumps(d)), d.model_copy()):
        assert copy.phrase == d.phrase and copy == d
    with i18n.using("cs"):
        assert said(Diagnostic(severity="info", code="x", message="plain")) == "plain"


def test_a_czech_object_page_says_its_trace_in_czech(czech):
    _, site = czech
    page = _text((site / "objects" / "issue" / "I0303.html").read_text(encoding="utf-8"))
    assert ("Dotaz, jak byl proveden: cross_ref start=majordomus://issue/I0303 "
            "(majordomus://issue/I0303) depth=2 limit=20 — dosaženo 5 objektů; řazeno podle "
            "pravidla skóre vzestupně: počet kroků od startu") in page
    assert "— depends_on z issue/I0303, krok 1" in page
    assert ("depends_on objektu issue/I0303 → I0299 nevyřešeno: ve vrstvě není issue I0299; "
            "doplňte ho, nebo odkaz v depends_on opravte či odstraňte") in page
    assert "Odvozený stav ZABLOKOVÁNO: závisí na I0302, který je ve stavu ZABLOKOVÁNO" in page
    for english in ("Query as executed", "ordered by", "hop 1", "names nothing", "Edges out",
                    "Provenance", "every other context"):
        assert english not in page


def test_the_trace_json_keeps_its_english(czech):
    ws, _ = czech
    trace = cross_ref_query(ws.index, "I0303").wire()
    assert trace["order_by"] == list(CROSS_REF_ORDER_BY)
    assert trace["order_by"][0].startswith("score asc: hop count from the start")
    assert trace["hits"][0]["why"] == "depends_on from issue/I0303, hop 1"
    assert trace["unresolved_edges"][0]["why"] == (
        "unresolved: no issue `I0299` in the layer; add it, or correct or remove the reference "
        "in `depends_on`")
    assert json.dumps(trace).count("⟦") == 0


def test_an_incremental_rebuild_keeps_every_diagnostic_phrase(tmp_path):
    """``serve`` loads only the changed files again and keeps the others' loads: every
    diagnostic of the rebuilt layer still carries its sentence."""
    from generator.index import build_index
    from generator.rebuild.sources import load_all, load_changes, read_all, read_changes
    from layerkit import issue, write_layer

    repo = write_layer(tmp_path, {
        ".ai/repo/project/milestones/m1.yaml": "id: m1\ntitle: First\n",
        ".ai/repo/project/issues/I0001.yaml": issue("I0001", depends_on=["I0404"]),
        ".ai/repo/project/issues/I0002.yaml": issue("I0002", depends_on=["I0001"]),
    })
    cache: dict = {}
    files, problems = read_all(repo, [])
    old = load_all(files, problems, cache)
    (repo / ".ai/repo/project/issues/I0002.yaml").write_text(
        issue("I0002", depends_on=["I0001", "I0405"]), encoding="utf-8")
    files, problems, changed = read_changes(repo, old, [".ai/repo/project/issues/I0002.yaml"],
                                            full_read=False, exclude=[])
    new = load_changes(old, files, problems, changed, cache)
    diagnostics = build_index(new.layer).diagnostics
    assert {d.code for d in diagnostics} >= {"unresolved_reference"}
    assert [d.phrase is not None for d in diagnostics] == [True] * len(diagnostics)
    assert sum("I0404" in d.message or "I0405" in d.message for d in diagnostics) == 2
