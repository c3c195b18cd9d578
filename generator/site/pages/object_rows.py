"""The rows of an object page as plain values: its edges both ways and its cross-reference
walk. A large layer has 30,000 object pages of some twenty walk hits and a handful of edges
each; made as wire models (validated, their sentences stored twice) these rows cost more
than the rest of the page. The JSON API and the query surfaces keep the models
(:mod:`generator.site.records`, :func:`generator.query.crossref.cross_ref_query`)."""

from __future__ import annotations

from functools import partial
from typing import Iterable, NamedTuple

from markupsafe import Markup

from ...index import Edge
from ...phrases import Phrase
from ...query.crossref import Walk
from ..i18n import _, speak
from ..templating import inline_code
from .context_rows import esc, short_uri, uri_link
from .kit import PageKit

__all__ = ["EdgeRow", "HitRow", "GapRow", "edges_out", "edges_in", "walk_rows", "hit_items",
           "out_items", "in_items"]


class EdgeRow(NamedTuple):
    """An edge as the page lists it: its kind, the field that declares it, the object at its
    other end and the link to that object's page (None: the layer does not hold it)."""

    edge: str
    field: str
    uri: str
    href: str | None


class HitRow(NamedTuple):
    """An object the walk reached: its URI, title (None: it has none), the link to its
    page and why it was reached, in the page's language."""

    uri: str
    title: str | None
    href: str | None
    why: str


class GapRow(NamedTuple):
    """A reference the walk found leading to no object: its field, the declaring object
    without its scheme, the reference as written, why (in the page's language), and whether
    it is unresolved (else external, named and outside the layer)."""

    field: str
    source: str
    reference: str
    why: str
    unresolved: bool


def edges_out(kit: PageKit, page: str, edges: Iterable[Edge]) -> list[EdgeRow]:
    href = partial(kit.object_href, page)
    return [EdgeRow(e.kind, e.field, e.target, href(e.target)) for e in edges]


def edges_in(kit: PageKit, page: str, edges: Iterable[Edge]) -> list[EdgeRow]:
    href = partial(kit.object_href, page)
    return [EdgeRow(e.kind, e.field, e.source, href(e.source)) for e in edges]


def walk_rows(kit: PageKit, page: str, walk: Walk) -> tuple[list[HitRow], list[GapRow]]:
    """The walk's hits the page lists (as many as its trace would) and its unresolved
    references (every one)."""
    said: dict[Phrase, str] = {}  # the hits of one step share their sentence: said once

    def spoken(phrase: Phrase) -> str:
        text = said.get(phrase)
        if text is None:
            text = said[phrase] = speak(phrase)
        return text

    href = partial(kit.object_href, page)
    hits = [HitRow(h.uri, h.title, href(h.uri), spoken(h.why))
            for h in walk.hits[:walk.cap]]
    gaps = [GapRow(g.field, short_uri(g.source), g.reference, speak(g.why),
                   g.unresolved) for g in walk.unresolved]
    return hits, gaps


def out_items(edges: Iterable[EdgeRow], external: Iterable[EdgeRow]) -> Markup:
    """The edges an object declares, then its external references, as the page lists them
    (``<li>`` after ``<li>``): written here rather than by a macro and a message per edge.
    The template's ``{% trans field=… %}`` messages: translated, then the field put in."""
    declared, missing = Markup(_("from <code>%(field)s</code>")), _("not held by the layer")
    out = [f'<li><code>{esc(e.edge)}</code> → {uri_link(e.uri, e.href, missing)} '
           f'<span class="sub">{declared % {"field": e.field}}</span></li>' for e in edges]
    outside = _("named, and outside the layer")
    named = Markup(_("external, from <code>%(field)s</code>"))
    out += [f'<li><code>{esc(e.edge)}</code> → <span class="uri external" title="{outside}">'
            f'{esc(e.uri)}</span> <span class="sub">{named % {"field": e.field}}</span></li>'
            for e in external]
    return Markup("".join(out))


def in_items(edges: Iterable[EdgeRow]) -> Markup:
    """The edges into an object, as the page lists them."""
    its, missing = Markup(_("its <code>%(field)s</code>")), _("not held by the layer")
    return Markup("".join(
        f'<li>{uri_link(e.uri, e.href, missing)} → <code>{esc(e.edge)}</code> '
        f'<span class="sub">{its % {"field": e.field}}</span></li>' for e in edges))


def hit_items(hits: Iterable[HitRow]) -> Markup:
    """The walk's hits as the page lists them, one ``<li>`` a line: a link to the object
    (or its URI marked missing), its title, why it was reached. Written here rather than by
    a macro and a filter per cell: some twenty hits on each of 30,000 pages."""
    whys: dict[str, str] = {}  # hits of one step say the same sentence
    missing = _("not held by the layer")
    out = []
    for uri, title, href, why in hits:
        sub = f' <span class="sub">{esc(title)}</span>' if title else ""
        said = whys.get(why)
        if said is None:
            said = whys[why] = str(inline_code(why))
        out.append(f'<li>{uri_link(uri, href, missing)}{sub} '
                   f'<span class="why">— {said}</span></li>\n')
    return Markup("".join(out))
