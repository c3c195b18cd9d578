"""``sitemap.xml`` (every page but the 404) and ``404.html``.

The sitemap protocol requires absolute ``<loc>`` URLs, so a sitemap is written only when the
site's URL is known: ``--base-url``, else the ``site_url`` the layer's project file declares.
Without either there is no sitemap, and the build summary and the dashboard say so."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable
from urllib.parse import urlsplit

from ...index import Index
from ..i18n import _
from .kit import PageKit

__all__ = ["sitemap", "not_found_page", "SitemapBase", "sitemap_base", "PROJECT_URL_FIELD"]

#: The project file's key that names the URL the site is published at.
PROJECT_URL_FIELD = "site_url"


@dataclass(frozen=True)
class SitemapBase:
    """Where the sitemap's URLs start (None: no sitemap), and, when there is none, why."""

    url: str | None
    note: str | None
    #: The build summary's clause (short: the summary is one line), None with a sitemap.
    summary: str | None = None


def _absolute(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def sitemap_base(index: Index, base_url: str | None) -> SitemapBase:
    """The site's absolute URL for the sitemap: ``--base-url`` first, else the project
    file's ``site_url``; with neither, no URL and the sentence that says so."""
    if base_url:
        return SitemapBase(base_url, None)
    projects = sorted(index.by_kind.get("project", []), key=lambda o: o.uri)
    for project in projects:
        value = project.fields.get(PROJECT_URL_FIELD)
        if value is None:
            continue
        if isinstance(value, str) and _absolute(value.strip()):
            return SitemapBase(value.strip(), None)
        return SitemapBase(None, _(
            "No sitemap.xml: `{field}` in {path} is `{value}`, not an absolute http(s) URL; "
            "write the URL the site is published at (https://…), or build with --base-url URL."
        ).format(field=PROJECT_URL_FIELD, path=project.path, value=value), _(
            "no sitemap.xml ({field} in {path} is not an absolute URL)"
        ).format(field=PROJECT_URL_FIELD, path=project.path))
    where = projects[0].path if projects else _("the layer's project file")
    return SitemapBase(None, _(
        "No sitemap.xml: a sitemap needs absolute URLs and the site's URL is not known; "
        "build with --base-url URL, or declare `{field}: URL` in {path}."
    ).format(field=PROJECT_URL_FIELD, path=where), _(
        "no sitemap.xml (give --base-url URL, or {field} in the project file)"
    ).format(field=PROJECT_URL_FIELD))


def sitemap(pages: Iterable[str], base_url: str) -> bytes:
    """Every page but the 404, each as an absolute URL under ``base_url``."""
    base = base_url.rstrip("/")
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    for page in sorted(set(pages)):
        if page == "404.html":
            continue
        lines.append(f"  <url><loc>{_xml_escape(f'{base}/{page}')}</loc></url>")
    lines.append("</urlset>")
    return ("\n".join(lines) + "\n").encode("utf-8")


def not_found_page(kit: PageKit, base_url: str | None) -> bytes:
    """The 404 page: its links start from ``base_url`` when given (any depth of a missing
    page), else from the root a small script finds."""
    return kit.render("404.html", "404.html", title=_("Not found"), base_url=base_url)


def _xml_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
