"""What a context page says, word for word: the "left out" sentence counts exclusions and
unresolved references apart, the tier table's column is "cut for budget", an excluded row
shows its object's title as a selected row does, detail sentences render their `quoted`
names as inline code (escaped first), and numbers are thousands-separated."""

from __future__ import annotations

import re

import pytest
from sitekit import build

from generator.site.templating import inline_code, make_environment


@pytest.mark.parametrize(("text", "html"), [
    ("along `tracks` from x", "along <code>tracks</code> from x"),
    ("`a` and `b`", "<code>a</code> and <code>b</code>"),
    ("no quotes", "no quotes"),
    ("`<script>alert(1)</script>` & `x`", "<code>&lt;script&gt;alert(1)&lt;/script&gt;</code> "
     "&amp; <code>x</code>"),
    ("one ` alone", "one ` alone"),
    ("`<b>\n</b>`", "`&lt;b&gt;\n&lt;/b&gt;`"),
    (None, ""),
])
def test_inline_code_escapes_first(text, html):
    assert str(inline_code(text)) == html


def test_the_filter_is_in_the_environment_and_autoescape_keeps_it_safe():
    env = make_environment()
    out = env.from_string("{{ d|code }}").render(d="`x` <i>")
    assert out == "<code>x</code> &lt;i&gt;"


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> str:
    out = build(None, tmp_path_factory.mktemp("site") / "site")
    return (out / "contexts/issue/I0201.html").read_text(encoding="utf-8")


def _section(page: str, name: str) -> str:
    return page.split(f'<section class="{name}">', 1)[1].split("</section>", 1)[0]


def test_left_out_counts_exclusions_and_unresolved_references_apart(page):
    excluded = _section(page, "excluded")
    unresolved = _section(page, "unresolved")
    assert '<h2>Excluded <span class="count">10</span></h2>' in excluded
    assert '<h2>Unresolved references <span class="count">2</span></h2>' in unresolved
    assert ("Left out: 10 entries worth 3,119 tokens, and 2 unresolved references (named, not "
            "held by the layer).</p>") in _section(page, "budget")


def test_the_tier_column_says_cut_for_budget(page):
    head = _section(page, "budget").split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert ">cut for budget</th>" in head and "over budget" not in head


def test_an_excluded_row_shows_the_title_then_the_identifier(page):
    # the identifier without its scheme, as the paths' links name objects
    assert ('<tr id="x-adr~2Fadr-0003"><td><a href="../../objects/adr/adr-0003.html">The cache '
            'keeps the last reading of each station, and expires it after ten minutes</a> '
            '<span class="uri">adr/adr-0003</span><td>') in page


def test_exclusions_are_grouped_by_tier_and_reason_with_the_shared_sentence_once(page):
    excluded = _section(page, "excluded")
    sentence = ("Reached 4 hops from a seed, one beyond the request&#39;s max_depth of 3: each "
                "row says how; a max_depth of 4 brings it in.")
    groups = excluded.count("<h3>")
    assert groups >= 2 and excluded.count(sentence) == excluded.count("reason-depth\">depth")
    rows = re.findall(r'<tr id="x-[^"]+"><td>', excluded)
    assert len(rows) == 10  # every exclusion still listed, one compact row each
    # an untitled entry is named by its identifier without the scheme
    assert '>implementation/lib/fetch.py</a><td>' in excluded
    # a row says only what is particular to it: how it was reached, not the group's sentence
    assert "hops from a seed" not in excluded.split(sentence)[1].split("<h3>")[0]


def _particular_cells(page: str) -> list[str]:
    """The last cell of every excluded row: what is particular to its entry."""
    return re.findall(r'<tr id="x-[^"]+"><td>.*?<td>.*?<td>.*?<td>(.*?)\n',
                      _section(page, "excluded"))


def test_particular_cells_hold_no_literal_backticks(page):
    cells = _particular_cells(page)
    assert cells and not [c for c in cells if "`" in c]
    assert "<td>along <code>tracks</code> from document/README.md\n" in page


def test_numbers_in_the_budget_prose_are_thousands_separated(page):
    verdict = _section(page, "budget").split("</p>", 1)[0]
    numbers = re.findall(r"\d[\d,]*", verdict)
    assert numbers and all(len(n) < 4 or "," in n for n in numbers), numbers
