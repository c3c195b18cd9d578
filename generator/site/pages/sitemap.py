"""``sitemap.xml`` (every page but the 404) and ``404.html``."""

from __future__ import annotations

from typing import Iterable

from ..i18n import _
from .kit import PageKit

__all__ = ["sitemap", "not_found_page"]


def sitemap(pages: Iterable[str], base_url: str | None) -> bytes:
    base = (base_url or "").rstrip("/")
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    for page in sorted(set(pages)):
        if page == "404.html":
            continue
        loc = f"{base}/{page}" if base else page
        lines.append(f"  <url><loc>{_xml_escape(loc)}</loc></url>")
    lines.append("</urlset>")
    return ("\n".join(lines) + "\n").encode("utf-8")


def not_found_page(kit: PageKit, base_url: str | None) -> bytes:
    """The 404 page: its links start from ``base_url`` when given (any depth of a missing
    page), else from the root a small script finds."""
    return kit.render("404.html", "404.html", title=_("Not found"), base_url=base_url)


def _xml_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
