"""An object page's rows are plain values (:mod:`generator.site.pages.object_rows`) made
without the wire models; they say exactly what the models say: the walk's hits and
unresolved references what ``cross_ref_query``'s trace says, its edges what the object's
record says. Checked on every object of the demo and the real layer, in both languages."""

from __future__ import annotations

import pytest

from generator.demo import demo_root
from generator.engine.compile import GitInfo
from generator.query.crossref import cross_ref_query, cross_ref_walk
from generator.site import i18n, urls
from generator.site.build import SiteInputs, page_kit
from generator.site.pages.object import object_record
from generator.site.pages.object_rows import HitRow, edges_in, edges_out, hit_items, walk_rows
from generator.workspace import Workspace


def _kit(repo):
    return page_kit(SiteInputs(index=Workspace.open(repo).index, git=GitInfo(), label="t"))


@pytest.fixture(scope="module")
def demo_kit():
    return _kit(demo_root())


def _walk_rows_match_the_trace(kit, depth=None, limit=None):
    index = kit.index
    for uri in sorted(index.objects):
        page = urls.object_page(uri)
        trace = cross_ref_query(index, uri, depth, limit)
        hits, gaps = walk_rows(kit, page, cross_ref_walk(index, uri, depth, limit))
        assert hits == [(h.anchor, h.title, kit.object_href(page, h.anchor),
                         i18n.speak(h.why_said())) for h in trace.hits], uri
        assert gaps == [(e.field, e.source.split("://", 1)[-1], e.reference,
                         i18n.speak(e.why_said()), e.why.startswith("unresolved"))
                        for e in trace.unresolved_edges], uri


def _edge_rows_match_the_record(kit):
    index = kit.index
    for uri in sorted(index.objects):
        page = urls.object_page(uri)
        record = object_record(kit, index.objects[uri], [])
        rel = lambda target: urls.relative(page, target) if target else None  # noqa: E731
        assert edges_out(kit, page, index.out_edges.get(uri, ())) == [
            (e.edge, e.field, e.uri, rel(e.page)) for e in record.edges_out], uri
        assert edges_in(kit, page, index.in_edges.get(uri, ())) == [
            (e.edge, e.field, e.uri, rel(e.page)) for e in record.edges_in], uri


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_walks_rows_say_what_its_trace_says(demo_kit, lang):
    with i18n.using(lang):
        _walk_rows_match_the_trace(demo_kit)
        _walk_rows_match_the_trace(demo_kit, depth=4, limit=3)


def test_the_edge_rows_say_what_the_record_says(demo_kit):
    _edge_rows_match_the_record(demo_kit)


def test_the_rows_of_the_real_layer(real_layer):
    kit = _kit(real_layer)
    with i18n.using("cs"):
        _walk_rows_match_the_trace(kit)
    _edge_rows_match_the_record(kit)


def test_hits_reached_over_one_step_share_their_sentence(demo_kit):
    walk = cross_ref_walk(demo_kit.index, "offline-reads", 1)
    whys = {}
    for hit in walk.hits:
        whys.setdefault(hit.why, hit.why)
        assert whys[hit.why] is hit.why  # one phrase per step, not one per hit
    assert len(whys) < len(walk.hits)


#: How the page's template listed the hits, a macro and a filter per cell.
_TEMPLATE_HITS = ('{% from "macros.html" import uri_link %}{% for h in hits %}<li>'
                  '{{ uri_link(h.uri, h.href) }}{% if h.title %} <span class="sub">'
                  '{{ h.title }}</span>{% endif %} <span class="why">— {{ h.why|code }}</span>'
                  '</li>\n{% endfor %}')


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_hits_markup_is_what_the_template_wrote(demo_kit, lang):
    template = demo_kit.env.from_string(_TEMPLATE_HITS)
    odd = [HitRow("majordomus://issue/<b>&", "<i>it's</i>", None, "`a<b>` & \"b\""),
           HitRow("majordomus://issue/x", "", "../issue/x.html?a=1&b=2", "why `x`")]
    with i18n.using(lang):
        for uri in sorted(demo_kit.index.objects):
            page = urls.object_page(uri)
            hits, _ = walk_rows(demo_kit, page, cross_ref_walk(demo_kit.index, uri))
            assert hit_items(hits) == template.render(hits=hits), uri
        assert hit_items(odd) == template.render(hits=odd)


#: How the page's template wrote the standings table's rows, cell by cell.
_TEMPLATE_GROUPS = (
    '{% from "macros.html" import tier_badge %}'
    '{% for fact, standing, detail, kind, links, listed, more in groups %}\n'
    '<tr><td><span class="standing standing-{{ fact.standing }}">{{ standing }}</span></td>\n'
    "<td>{% if fact.standing == 'selected' %}{{ tier_badge(fact.word) }}{% else %}"
    '<span class="reason reason-{{ fact.word }}">{{ fact.word }}</span>{% endif %}</td>\n'
    "<td class=\"num\">{{ fact.cost_tokens|n if fact.cost_tokens is not none else '' }}</td>\n"
    '<td class="detail">{{ detail|code }}</td>\n'
    '<td class="contexts"><span class="kind">{{ kind }}</span> {{ links }}{% if more %} '
    '{% trans count=more, num=more|n %}… and {{ num }} more{% pluralize %}… and {{ num }} '
    'more{% endtrans %}{% endif %}</td></tr>\n{% endfor %}\n')


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_standings_rows_are_what_the_template_wrote(demo_kit, lang):
    from markupsafe import Markup

    from generator.site.contexts import StandingFact
    from generator.site.pages.object import _group_items

    template = demo_kit.env.from_string(_TEMPLATE_GROUPS)
    links = Markup('<a href="../../contexts/issue/I1.html#x">I1</a> (0.5)')
    rows = [(StandingFact("selected", "governance", "required", 1200), "selected", "required",
             "issue", links, 1, 0),
            (StandingFact("excluded", "budget", "it did not `fit`", 12345678), "excluded",
             "it did not `fit` <b>&", "milestone", links, 1, 1),
            (StandingFact("deduplicated", "<key>", "folded", None), "deduplicated", "",
             "issue", links, 1, 25000),
            (StandingFact("odd\"", "wörd'", "x", 0), "odd\"", "x", "k<", links, 1, 2)]
    with i18n.using(lang):
        assert _group_items(rows) == template.render(groups=rows)


#: How the page's template listed the edges, a macro and a message per edge.
_TEMPLATE_EDGES = (
    '{% from "macros.html" import uri_link %}'
    '{% for e in edges_out %}<li><code>{{ e.edge }}</code> → {{ uri_link(e.uri, e.href) }} '
    '<span class="sub">{% trans field=e.field %}from <code>{{ field }}</code>{% endtrans %}'
    '</span></li>{% endfor %}\n'
    '{% for e in external %}<li><code>{{ e.edge }}</code> → <span class="uri external" '
    "title=\"{{ _('named, and outside the layer') }}\">{{ e.uri }}</span> <span class=\"sub\">"
    '{% trans field=e.field %}external, from <code>{{ field }}</code>{% endtrans %}</span>'
    '</li>{% endfor %}\n|'
    '{% for e in edges_in %}<li>{{ uri_link(e.uri, e.href) }} → <code>{{ e.edge }}</code> '
    '<span class="sub">{% trans field=e.field %}its <code>{{ field }}</code>{% endtrans %}'
    '</span></li>{% endfor %}\n')


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_edges_markup_is_what_the_template_wrote(demo_kit, lang):
    from generator.site.pages.object_rows import EdgeRow, in_items, out_items

    template = demo_kit.env.from_string(_TEMPLATE_EDGES)
    odd = [EdgeRow("depends_on", "<f>&", "majordomus://issue/<x>", None),
           EdgeRow("tracks'", "f\"", "majordomus://issue/y", "../issue/y.html?a&b")]
    index = demo_kit.index
    with i18n.using(lang):
        for uri in [*sorted(index.objects), None]:
            if uri is None:  # made-up edges with markup in every value
                out, into, external = odd, odd, odd
            else:
                page = urls.object_page(uri)
                out = edges_out(demo_kit, page, index.out_edges.get(uri, ()))
                into = edges_in(demo_kit, page, index.in_edges.get(uri, ()))
                external = [EdgeRow(x.kind, x.field, x.node, None)
                            for x in index.externals_by_source.get(uri, ())]
            assert f"{out_items(out, external)}|{in_items(into)}" == template.render(
                edges_out=out, external=external, edges_in=into), uri
