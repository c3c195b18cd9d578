"""The diagnostics page (``diagnostics.html``): every problem found, grouped by file, with a
filter per diagnostic code that works without script (a ``:target`` rule per code)."""

from __future__ import annotations

import re
from collections import Counter

from ...diagnostics import Diagnostic, count_by_severity
from ...index import Index
from .. import urls
from ..i18n import _, speak_or
from .kit import PageKit

__all__ = ["diagnostics_by_path", "diagnostics_view", "diagnostics_page", "file_anchor",
           "code_anchor", "said", "LAYER_GROUP"]

PAGE = "diagnostics.html"

#: The group of the diagnostics that are about no one file.
LAYER_GROUP = "(layer)"

#: A code is a product identifier; anything else is left out of the page's style rules.
_CODE = re.compile(r"^[a-z][a-z0-9_]*$")


def file_anchor(path: str) -> str:
    """The fragment of one file's section on the diagnostics page (the dashboard links it)."""
    return "f-" + urls.encode_name(path)


def code_anchor(code: str) -> str:
    """The fragment that narrows the diagnostics page to one code."""
    return "code-" + code


def said(d: Diagnostic) -> str:
    """A diagnostic's message in the page's language."""
    return speak_or(d.phrase, d.message)


def diagnostics_by_path(index: Index) -> dict[str | None, list[Diagnostic]]:
    """The layer's diagnostics by the file they are about (object pages show theirs)."""
    grouped: dict[str | None, list[Diagnostic]] = {}
    for d in index.diagnostics:
        grouped.setdefault(d.path, []).append(d)
    return grouped


def diagnostics_view(kit: PageKit, sitemap_note: str | None = None) -> dict:
    index = kit.index
    groups: dict[str, list[Diagnostic]] = {}
    for d in index.diagnostics:
        groups.setdefault(d.path or LAYER_GROUP, []).append(d)
    rows = []
    for path in sorted(groups, key=lambda p: (p == LAYER_GROUP, p)):
        found = index.at_path(path) if path != LAYER_GROUP else []
        href = urls.relative(PAGE, urls.object_page(sorted(o.uri for o in found)[0])) if found else None
        entries = groups[path]
        rows.append({"path": path, "href": href, "entries": [(d, said(d)) for d in entries],
                     "anchor": file_anchor(path), "layer": path == LAYER_GROUP,
                     "codes": " ".join(sorted({code_anchor(d.code) for d in entries}))})
    codes = sorted(Counter(d.code for d in index.diagnostics).items())
    return {"groups": rows, "counts": count_by_severity(index.diagnostics),
            # a code that is not a plain identifier is listed but gets no style rule
            "codes": [(code, n, code_anchor(code) if _CODE.match(code) else None)
                      for code, n in codes],
            "code_anchor": code_anchor, "sitemap_note": sitemap_note}


def diagnostics_page(kit: PageKit, sitemap_note: str | None = None) -> bytes:
    return kit.render("diagnostics.html", PAGE, title=_("Diagnostics"),
                      **diagnostics_view(kit, sitemap_note))
