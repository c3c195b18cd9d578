"""What the dashboard and the diagnostics page say, word for word: unresolved references as
counts per file linking to the diagnostics page (not every reference inline), the over-budget
card naming what it counts, and a filter per diagnostic code."""

from __future__ import annotations

import pytest
from sitekit import build

from generator.site.pages.dashboard import unresolved_files
from generator.site.pages.diagnostics import code_anchor, file_anchor


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build(None, tmp_path_factory.mktemp("site") / "site")


def _section(page: str, start: str) -> str:
    return page.split(start, 1)[1].split("</section>", 1)[0]


def test_unresolved_references_are_counted_per_file_and_link_to_the_diagnostics(site):
    page = (site / "index.html").read_text()
    section = _section(page, '<section id="unresolved">')
    assert ("<p>3 references in 3 files name something the layer does not hold.\nEach is on the "
            '<a href="diagnostics.html#code-unresolved_reference">diagnostics page</a> with its '
            "line and its fix.</p>") in section
    assert ('<tr><td><a href="diagnostics.html#f-~2Eai~2Frepo~2Fproject~2Fissues~2FI0303.yaml" '
            'class="path">.ai/repo/project/issues/I0303.yaml</a></td><td class="num">1</td></tr>') in section
    assert "<code>" not in section  # the references themselves are on the diagnostics page
    diagnostics = (site / "diagnostics.html").read_text()
    for href in ("#code-unresolved_reference", "#f-~2Eai~2Frepo~2Fproject~2Fissues~2FI0303.yaml"):
        assert f'id="{href[1:]}"' in diagnostics


def test_the_over_budget_card_says_what_it_counts(site):
    page = (site / "index.html").read_text()
    assert ('<a href="#over-budget" title="contexts whose required entries alone cost more than '
            'the limit"><div class="big">0</div><div>contexts over budget</div></a>') in page
    assert '<section id="over-budget">' in page


def test_every_code_is_a_filter_with_its_count(site):
    page = (site / "diagnostics.html").read_text()
    assert ('<a id="code-unresolved_reference" href="#code-unresolved_reference" '
            'title="only unresolved_reference"><code>unresolved_reference</code> '
            '<span class="n">3</span></a>') in page
    assert ("main:has(#code-id_mismatch:target) li.diag:not(.code-id_mismatch), "
            "main:has(#code-id_mismatch:target) section.diag-file:not(.code-id_mismatch) "
            "{ display: none; }") in page


def test_counts_per_file_are_in_path_order():
    class U:
        def __init__(self, path):
            self.declared_in = path

    rows = unresolved_files([U("b.md"), U("a.md"), U("b.md")])
    assert [(r["path"], r["count"]) for r in rows] == [("a.md", 1), ("b.md", 2)]
    assert rows[0]["href"] == f"diagnostics.html#{file_anchor('a.md')}"
    assert code_anchor("yaml_syntax") == "code-yaml_syntax"
