"""The plan (``plan.html``): milestones with their issues and derived states, and the
dependency picture."""

from __future__ import annotations

from collections import Counter

from ...model import LayerObject
from ...states import STATES
from .. import urls
from ..contexts import SiteAnswers
from ..svg import plan_graph
from .kit import PageKit

__all__ = ["plan_view", "plan_page"]

PAGE = "plan.html"


def plan_view(kit: PageKit, answers: SiteAnswers) -> dict:
    index = kit.index
    issues_by_ms: dict[str, list[LayerObject]] = {}
    orphans = []
    for issue in sorted(index.by_kind.get("issue", []), key=lambda o: o.uri):
        targets = [e.target for e in index.out_edges.get(issue.uri, []) if e.kind == "belongs_to"]
        if targets:
            issues_by_ms.setdefault(targets[0], []).append(issue)
        else:
            orphans.append(issue)
    nodes, edges, sections = [], [], []
    for ms in sorted(index.by_kind.get("milestone", []), key=lambda o: o.uri):
        issues = issues_by_ms.get(ms.uri, [])
        counts = Counter(index.issue_states[i.uri].state for i in issues)
        key = answers.context_of_uri.get(ms.uri)
        anchor = "m-" + urls.encode_name(ms.identity)
        nodes.append({"id": ms.uri, "label": ms.title or ms.identity, "href": "#" + anchor,
                      "counts": {s: counts.get(s, 0) for s in STATES}})
        deps = [e.target for e in index.out_edges.get(ms.uri, []) if e.kind == "depends_on"]
        edges.extend((ms.uri, target) for target in deps)
        sections.append({"obj": ms, "anchor": anchor,
                         "context_href": kit.context_href(PAGE, key) if key else None,
                         "object_href": kit.object_href(PAGE, ms.uri),
                         "deps": [(target, kit.object_href(PAGE, target)) for target in deps],
                         "issues": [_row(kit, answers, "plan_issue_row", i) for i in issues],
                         "counts": [(s, counts.get(s, 0)) for s in STATES]})
    return {"svg": plan_graph(nodes, edges), "sections": sections,
            "orphans": [_row(kit, answers, "plan_orphan_row", i) for i in orphans],
            "states": STATES}


def plan_page(kit: PageKit, answers: SiteAnswers) -> bytes:
    return kit.render("plan.html", PAGE, title="Plan", **plan_view(kit, answers))


def _row(kit: PageKit, answers: SiteAnswers, macro: str, issue: LayerObject) -> str:
    index = kit.index
    key = answers.context_of_uri.get(issue.uri)
    deps = [(e.target.rsplit("/", 1)[-1], kit.object_href(PAGE, e.target))
            for e in index.out_edges.get(issue.uri, []) if e.kind == "depends_on"]
    deps += [(u.reference, None) for u in index.unresolved_by_source.get(issue.uri, [])
             if u.field == "depends_on"]
    row = {"obj": issue, "state": index.issue_states[issue.uri], "deps": deps,
           "context_href": kit.context_href(PAGE, key) if key else None,
           "object_href": kit.object_href(PAGE, issue.uri)}
    return kit.row_html(macro, issue, row, (
        row["state"], tuple(row["deps"]), row["context_href"], row["object_href"]))
