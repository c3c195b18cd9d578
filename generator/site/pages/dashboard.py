"""The dashboard (``index.html``): counts per kind and state, milestones with their issues'
states, contexts over budget, the most-excluded objects, and how many unresolved references
each file holds (the references themselves are on the diagnostics page, one code away)."""

from __future__ import annotations

import heapq
from collections import Counter

from ...model import LayerObject
from ...states import STATES
from .. import urls
from ..contexts import SiteAnswers
from ..i18n import _
from .diagnostics import code_anchor, file_anchor
from .kit import PageKit
from .site_json import SiteIndexParts

__all__ = ["dashboard_view", "dashboard_page"]

PAGE = "index.html"


#: The diagnostic code every unresolved reference is also reported under.
UNRESOLVED_CODE = "unresolved_reference"


def unresolved_files(unresolved: list) -> list[dict]:
    """Per declaring file, in path order: how many unresolved references it holds and the
    link to its section of the diagnostics page (97 references inline made the dashboard
    ten thousand pixels tall)."""
    counts = Counter(u.declared_in for u in unresolved)
    return [{"path": path, "count": n, "href": f"diagnostics.html#{file_anchor(path)}"}
            for path, n in sorted(counts.items())]


def dashboard_view(kit: PageKit, answers: SiteAnswers, site_index: SiteIndexParts,
                   sitemap_note: str | None = None) -> dict:
    index = kit.index
    milestones = []
    issues_by_ms: dict[str, list[LayerObject]] = {}
    for issue in index.by_kind.get("issue", []):
        for e in index.out_edges.get(issue.uri, []):
            if e.kind == "belongs_to":
                issues_by_ms.setdefault(e.target, []).append(issue)
    for ms in sorted(index.by_kind.get("milestone", []), key=lambda o: o.uri):
        counts = Counter(index.issue_states[i.uri].state for i in issues_by_ms.get(ms.uri, []))
        key = answers.context_of_uri.get(ms.uri)
        milestones.append({"obj": ms, "counts": [(s, counts.get(s, 0)) for s in STATES],
                           "total": sum(counts.values()),
                           "href": kit.context_href(PAGE, key) if key else None})
    # the first 15 of the sorted counts, without sorting tens of thousands
    most_excluded = [(uri, n, kit.object_href(PAGE, uri), index.objects.get(uri))
                     for uri, n in heapq.nsmallest(15, answers.excluded_counts.items(),
                                                   key=lambda kv: (-kv[1], kv[0]))]
    head = site_index.head
    return {
        "si": head,
        "contexts_total": len(site_index.rows),
        "milestones": milestones,
        "over": site_index.over_budget,
        "most_excluded": most_excluded,
        "unresolved_files": unresolved_files(index.unresolved),
        "unresolved_total": len(index.unresolved),
        "unresolved_href": f"diagnostics.html#{code_anchor(UNRESOLVED_CODE)}",
        "sitemap_note": sitemap_note,
        "diag_counts": head.diagnostics,
        "kinds": [(k, n, urls.kind_page(k)) for k, n in sorted(head.kinds.items())],
        "states": [(s, head.issue_states.get(s, 0)) for s in STATES],
    }


def dashboard_page(kit: PageKit, answers: SiteAnswers, site_index: SiteIndexParts,
                   sitemap_note: str | None = None) -> bytes:
    return kit.render("dashboard.html", PAGE, title=_("Dashboard"),
                      **dashboard_view(kit, answers, site_index, sitemap_note))
