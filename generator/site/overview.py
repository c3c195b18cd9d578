"""The overview files — every file that is not one context's or one object's: the
site-wide JSON, the schemas, the static assets, the dashboard, plan, diagnostics, search,
kind pages, 404 and sitemap — each with what it shows, so a rebuild can keep a file when
nothing it shows changed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from ..operations.http import openapi_bytes
from ..operations.openapi import OPENAPI_FILE
from . import urls
from .contexts import ContextKey, SiteAnswers
from .pages.dashboard import dashboard_page
from .pages.diagnostics import diagnostics_page
from .pages.kind import kind_page
from .pages.kit import PageKit
from .pages.performance import performance_page
from .pages.plan import plan_page
from .pages.reference import reference_files, reference_paths
from .pages.search import search_json, search_page
from .pages.site_json import SiteIndexParts, objects_json, schema_json, site_index_parts
from .pages.sitemap import not_found_page, sitemap, sitemap_base
from .records import SCHEMAS

__all__ = ["OverviewFile", "overview_files", "site_pages", "STATIC_FILES", "OVERVIEW_TEMPLATES",
           "FIXED_PAGES"]

#: Static assets copied from ``templates/static/`` to ``site/static/``.
STATIC_FILES = ("style.css", "search.js", "copy.js", "favicon.svg")

#: Templates only the overview pages use (a change to one re-renders only those).
OVERVIEW_TEMPLATES = ("dashboard.html", "plan.html", "diagnostics.html", "search.html", "404.html",
                      "kind.html", "rows.html", "reference.html", "performance.html")

#: The overview pages every site has (the kind pages come with the kinds).
FIXED_PAGES = ("index.html", "plan.html", "diagnostics.html", "search.html", "404.html",
               *reference_paths(), "performance.html")


@dataclass(frozen=True)
class OverviewFile:
    """One overview file: its path, what it shows, and how to make its bytes.

    What it shows (keep these honest when a page starts to show more):
    ``layer`` — the fingerprint or every context: made every time;
    ``objects`` — every object's own values and derived state;
    ``plan`` — the issues and milestones: values, states, edges, contexts;
    ``kind:<kind>`` — that kind's objects, their state and standing counts;
    ``pages`` — the set of pages; ``templates`` — the templates and the code only.
    """

    rel: str
    shows: str
    make: Callable[[], bytes]


def site_pages(keys: Iterable[ContextKey], uris: Iterable[str], kinds: Iterable[str]) -> list[str]:
    """Every page of a site with these contexts, objects and kinds (the sitemap's list)."""
    pages = [urls.context_page(k.kind, k.identity) for k in keys]
    pages += [urls.object_page(uri) for uri in uris]
    pages += list(FIXED_PAGES) + [urls.kind_page(kind) for kind in kinds]
    return pages


def overview_files(kit: PageKit, answers: SiteAnswers, *, templates: Path,
                   base_url: str | None) -> list[OverviewFile]:
    """Every overview file, in build order; each made only when asked for (what two of them
    share — the index's rows, the search index — is made once)."""
    index = kit.index
    memo: dict[str, object] = {}

    def site_index() -> SiteIndexParts:
        if "site_index" not in memo:
            memo["site_index"] = site_index_parts(kit, answers)
        return memo["site_index"]  # type: ignore[return-value]

    def search() -> bytes:
        if "search" not in memo:
            memo["search"] = search_json(kit)
        return memo["search"]  # type: ignore[return-value]

    files = [OverviewFile("api/v1/index.json", "layer", lambda: site_index().json()),
             OverviewFile("api/v1/objects.json", "objects", lambda: objects_json(kit))]
    for name in sorted(SCHEMAS):
        files.append(OverviewFile(f"api/v1/schemas/{name}", "templates",
                                  lambda name=name: schema_json(name)))
    files.append(OverviewFile("api/v1/search-index.json", "layer", search))
    # the HTTP API's OpenAPI document, generated from the operation registry
    files.append(OverviewFile(OPENAPI_FILE, "templates", openapi_bytes))
    for name in STATIC_FILES:
        path = templates / "static" / name
        if path.is_file():
            files.append(OverviewFile(f"static/{name}", "templates", path.read_bytes))
    # no base URL, no sitemap (its <loc> must be absolute): the two pages say so
    where = sitemap_base(index, base_url)
    files += [
        OverviewFile("index.html", "layer",
                     lambda: dashboard_page(kit, answers, site_index(), where.note)),
        OverviewFile("plan.html", "plan", lambda: plan_page(kit, answers)),
        OverviewFile("diagnostics.html", "layer", lambda: diagnostics_page(kit, where.note)),
        OverviewFile("search.html", "layer", lambda: search_page(kit, search())),
    ]
    # the reference pages show the registry and the benchmark results the build was given
    files += [OverviewFile(rel, "templates", make) for rel, make in reference_files(kit)]
    files.append(OverviewFile("performance.html", "templates", lambda: performance_page(kit)))
    for kind in sorted(index.by_kind):
        files.append(OverviewFile(urls.kind_page(kind), f"kind:{kind}",
                                  lambda kind=kind: kind_page(kit, answers, kind)))
    pages = lambda: site_pages(sorted(answers.context_of_uri.values()), index.objects,  # noqa: E731
                               index.by_kind)
    files.append(OverviewFile("404.html", "templates", lambda: not_found_page(kit, base_url)))
    if (url := where.url) is not None:
        # a URL the project file declares changes with the layer, --base-url only with the pages
        shows = "pages" if base_url else "layer"
        files.append(OverviewFile("sitemap.xml", shows, lambda: sitemap(pages(), url)))
    return files
