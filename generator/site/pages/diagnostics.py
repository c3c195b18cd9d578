"""The diagnostics page (``diagnostics.html``): every problem found, grouped by file."""

from __future__ import annotations

from collections import Counter

from ...diagnostics import Diagnostic, count_by_severity
from ...index import Index
from .. import urls
from .kit import PageKit

__all__ = ["diagnostics_by_path", "diagnostics_view", "diagnostics_page"]

PAGE = "diagnostics.html"


def diagnostics_by_path(index: Index) -> dict[str | None, list[Diagnostic]]:
    """The layer's diagnostics by the file they are about (object pages show theirs)."""
    grouped: dict[str | None, list[Diagnostic]] = {}
    for d in index.diagnostics:
        grouped.setdefault(d.path, []).append(d)
    return grouped


def diagnostics_view(kit: PageKit) -> dict:
    index = kit.index
    groups: dict[str, list[Diagnostic]] = {}
    for d in index.diagnostics:
        groups.setdefault(d.path or "(layer)", []).append(d)
    rows = []
    for path in sorted(groups, key=lambda p: (p == "(layer)", p)):
        found = index.at_path(path) if path != "(layer)" else []
        href = urls.relative(PAGE, urls.object_page(sorted(o.uri for o in found)[0])) if found else None
        rows.append({"path": path, "href": href, "entries": groups[path]})
    return {"groups": rows, "counts": count_by_severity(index.diagnostics),
            "codes": sorted(Counter(d.code for d in index.diagnostics).items())}


def diagnostics_page(kit: PageKit) -> bytes:
    return kit.render("diagnostics.html", PAGE, title="Diagnostics", **diagnostics_view(kit))
