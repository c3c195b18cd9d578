"""The rows of an object page as plain values: its edges both ways and its cross-reference
walk. A large layer has 30,000 object pages of some twenty walk hits and a handful of edges
each; made as wire models (validated, their sentences stored twice) these rows cost more
than the rest of the page. The JSON API and the query surfaces keep the models
(:mod:`generator.site.records`, :func:`generator.query.crossref.cross_ref_query`)."""

from __future__ import annotations

import posixpath
from typing import Callable, Iterable, NamedTuple

from markupsafe import Markup

from ...index import Edge
from ...phrases import Phrase
from ...query.crossref import Walk
from .. import urls
from ..i18n import _, speak
from ..templating import inline_code
from .context_rows import esc
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


def _hrefs(kit: PageKit, page: str) -> Callable[[str], str | None]:
    """:meth:`PageKit.object_href` from ``page``, its directory split off once."""
    objects, here = kit.index.objects, posixpath.dirname(page)

    def href(uri: str) -> str | None:
        return urls.relative_from(here, urls.object_page(uri)) if uri in objects else None

    return href


def edges_out(kit: PageKit, page: str, edges: Iterable[Edge]) -> list[EdgeRow]:
    href = _hrefs(kit, page)
    return [EdgeRow(e.kind, e.field, e.target, href(e.target)) for e in edges]


def edges_in(kit: PageKit, page: str, edges: Iterable[Edge]) -> list[EdgeRow]:
    href = _hrefs(kit, page)
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

    href = _hrefs(kit, page)
    hits = [HitRow(h.uri, h.title, href(h.uri), spoken(h.why))
            for h in walk.hits[:walk.cap]]
    gaps = [GapRow(g.field, g.source.split("://", 1)[-1], g.reference, speak(g.why),
                   g.unresolved) for g in walk.unresolved]
    return hits, gaps


def _link(uri: str, href: str | None) -> str:
    """What the ``uri_link`` macro writes: a link to the object's page, or its URI marked
    as not held by the layer (an interface string is markup as translated)."""
    if href:
        return f'<a href="{esc(href)}" class="uri">{esc(uri)}</a>'
    return f'<span class="uri missing" title="{_("not held by the layer")}">{esc(uri)}</span>'


def out_items(edges: Iterable[EdgeRow], external: Iterable[EdgeRow]) -> Markup:
    """The edges an object declares, then its external references, as the page lists them
    (``<li>`` after ``<li>``): written here rather than by a macro and a message per edge.
    The template's ``{% trans field=… %}`` messages: translated, then the field put in."""
    declared = Markup(_("from <code>%(field)s</code>"))
    out = [f'<li><code>{esc(e.edge)}</code> → {_link(e.uri, e.href)} <span class="sub">'
           f'{declared % {"field": e.field}}</span></li>' for e in edges]
    outside = _("named, and outside the layer")
    named = Markup(_("external, from <code>%(field)s</code>"))
    out += [f'<li><code>{esc(e.edge)}</code> → <span class="uri external" title="{outside}">'
            f'{esc(e.uri)}</span> <span class="sub">{named % {"field": e.field}}</span></li>'
            for e in external]
    return Markup("".join(out))


def in_items(edges: Iterable[EdgeRow]) -> Markup:
    """The edges into an object, as the page lists them."""
    its = Markup(_("its <code>%(field)s</code>"))
    return Markup("".join(
        f'<li>{_link(e.uri, e.href)} → <code>{esc(e.edge)}</code> <span class="sub">'
        f'{its % {"field": e.field}}</span></li>' for e in edges))


def hit_items(hits: Iterable[HitRow]) -> Markup:
    """The walk's hits as the page lists them, one ``<li>`` a line: a link to the object
    (or its URI marked missing), its title, why it was reached. Written here rather than by
    a macro and a filter per cell: some twenty hits on each of 30,000 pages."""
    whys: dict[str, str] = {}  # hits of one step say the same sentence
    out = []
    for uri, title, href, why in hits:
        sub = f' <span class="sub">{esc(title)}</span>' if title else ""
        said = whys.get(why)
        if said is None:
            said = whys[why] = str(inline_code(why))
        out.append(f'<li>{_link(uri, href)}{sub} <span class="why">— {said}</span></li>\n')
    return Markup("".join(out))
