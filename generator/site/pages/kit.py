"""What every page module renders with: the index, the one Jinja environment, Markdown,
the repository's label, links between pages, and the rows kept between builds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Mapping

from jinja2 import Environment

from ...benchresults import BenchResults
from ...index import Index
from ...model import LayerObject
from .. import urls
from ..i18n import N_, _
from ..contexts import ContextKey
from ..markdown import MarkdownRenderer
from ..rowcache import RowCache
from ..svg import STATE_COLORS, TIER_COLORS
from .context_rows import ContextRows

__all__ = ["PageKit", "NAV"]

#: The navigation bar: (label, page); the labels are translated as each page is rendered.
NAV = ((N_("Dashboard"), "index.html"), (N_("Plan"), "plan.html"), (N_("Search"), "search.html"),
       (N_("Diagnostics"), "diagnostics.html"), (N_("Reference"), "reference/index.html"),
       (N_("Performance"), "performance.html"))

#: The derived states (generator/states.py STATES) as the catalogue knows them; the
#: templates show a state through _(state).
STATE_NAMES = (N_("BLOCKED"), N_("READY"), N_("ACTIVE"), N_("VERIFY"), N_("DONE"),
               N_("CANCELLED"))

#: Only these pages name the layer's fingerprint: a page that does not depend on an edit
#: must not change because of it (incremental rebuilds).
FINGERPRINT_PAGES = frozenset({"index.html", "diagnostics.html"})


@dataclass
class PageKit:
    index: Index
    env: Environment
    md: MarkdownRenderer
    #: How to name the repository on pages (never an absolute path).
    label: str
    #: Rendered rows of the site-wide JSON files and the long list pages, kept between builds.
    rows: RowCache = field(default_factory=RowCache)
    #: The source tree the index was built from (repo path -> bytes, as read): the packs
    #: carry the selected entries' own bytes. None: no tree given (a pack then refuses).
    files: Mapping[str, bytes] | None = None
    #: The ``make bench`` results the reference and performance pages show (``--bench-results``);
    #: None: the pages say how to produce them (a demo or golden build has none).
    bench: BenchResults | None = None
    #: The rows of context pages rendered so far, for the next (contexts of one milestone
    #: repeat most of each other's rows); made new with each kit, so never a row of an
    #: older index or language.
    context_rows: ContextRows = field(default_factory=ContextRows, repr=False)
    #: A context's part of a link to it from an object page (its path under ``contexts/``,
    #: and the link's text), escaped once for the thousands of object pages that list it.
    context_links: dict[ContextKey, tuple[str, str]] = field(default_factory=dict, repr=False)
    #: ``templates/rows.html``'s module, looked up once (each lookup stats the file; a first
    #: build of a large layer renders 40,000 rows).
    _rows_module: Any = field(default=None, init=False, repr=False)

    def object_href(self, page: str, uri: str) -> str | None:
        """The link from ``page`` to an object's page; None when the layer does not hold it."""
        if uri in self.index.objects:
            return urls.relative(page, urls.object_page(uri))
        return None

    @staticmethod
    def context_href(page: str, key: ContextKey, anchor: str | None = None) -> str:
        href = urls.relative(page, urls.context_page(key.kind, key.identity))
        return f"{href}#{anchor}" if anchor else href

    def render(self, template: str, page: str, **values: Any) -> bytes:
        """``template`` rendered as ``page`` with the values every page has."""
        root = urls.relative(page, "index.html")[: -len("index.html")]
        text = self.env.get_template(template).render(
            root=root,
            page=page,
            nav=[(_(label), root + target, target == page) for label, target in NAV],
            label=self.label,
            fingerprint=self.index.fingerprint,
            show_fingerprint=page in FINGERPRINT_PAGES,
            tier_colors=TIER_COLORS,
            state_colors=STATE_COLORS,
            **values,
        )
        return text.encode("utf-8")

    def row_html(self, macro: str, obj: LayerObject, values: dict, shows: Hashable) -> str:
        """One row of a long list page: ``macro`` of ``templates/rows.html`` applied to
        ``values``, kept while ``obj`` and ``shows`` (every other value the row shows) are
        the same."""
        def render() -> str:
            if self._rows_module is None:
                self._rows_module = self.env.get_template("rows.html").module
            return getattr(self._rows_module, macro)(values)

        return self.rows.text(macro, obj, shows, render)


def path_resolver(index: Index, page: str, seen: list[str]) -> Callable[[str], str | None]:
    """Resolve a repository path (from a Markdown link) to an object page, noting every
    path asked in ``seen`` (a rebuild re-renders the page when one of them changes)."""

    def resolve(repo_path: str) -> str | None:
        seen.append(repo_path)
        found = index.at_path(repo_path)
        if not found:
            return None
        return urls.relative(page, urls.object_page(sorted(o.uri for o in found)[0]))

    return resolve
