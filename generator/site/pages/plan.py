"""The plan (``plan.html``): what a team reads to decide what to do next.

Near the top: the critical path, the ready work and what blocks what; then the milestone
dependency picture; then every milestone with its issues, their derived states and full
titles, each linking to its compiled context. The values come from
:func:`..plan.model.build_plan`; this module adds the links and the words.
"""

from __future__ import annotations

from ...model import LayerObject
from ...states import STATES
from .. import urls
from ..contexts import SiteAnswers
from ..i18n import _, format_count, ngettext, speak
from ..plan.model import CLOSED, Plan, build_plan
from ..plan.picture import plan_picture
from ..svg import STATE_COLORS
from .kit import PageKit

__all__ = ["plan_view", "plan_page"]

PAGE = "plan.html"


def plan_view(kit: PageKit, answers: SiteAnswers) -> dict:
    index = kit.index
    plan = build_plan(index)
    on_path = set(plan.critical)
    ref = _Refs(kit, answers, plan)
    sections, nodes, edges = [], [], []
    for m in plan.milestones:
        counts = dict(m.counts)
        anchor = ref.anchor(m.obj.uri)
        nodes.append({"id": m.obj.uri, "label": _title(m.obj), "sub": m.obj.identity,
                      "href": "#" + anchor, "counts": counts, "critical": m.obj.uri in on_path,
                      "tooltip": _("{title} — {summary}").format(
                          title=_title(m.obj), summary=_summary(m.counts))})
        edges.extend((m.obj.uri, d) for d in m.depends_on)
        sections.append({
            "obj": m.obj, "title": _title(m.obj), "anchor": anchor,
            "context_href": ref.context(m.obj.uri), "object_href": kit.object_href(PAGE, m.obj.uri),
            "deps": [ref.item(d) for d in m.depends_on],
            "issues": [ref.issue_row(i.uri) for i in m.issues],
            "counts": [(s, n) for s, n in m.counts if n], "summary": _summary(m.counts),
            "critical": m.obj.uri in on_path, "finished": m.finished})
    picture = plan_picture(nodes, edges, STATE_COLORS)
    linked = {x for a, b in edges for x in (a, b)}
    unlinked = sum(1 for n in nodes if n["id"] not in linked)
    return {
        "svg": picture, "sections": sections, "states": STATES,
        "critical": [ref.item(u) for u in plan.critical],
        "ready": [ref.issue_row(u, with_milestone=True) for u in plan.ready],
        "n_blocked": len(plan.blocked),
        "blocks": [{"by": ref.item(u) if u in index.objects else None,
                    "missing": None if u in index.objects else u.rsplit("/", 1)[-1],
                    "holds": [ref.item(h) for h in held]} for u, held in plan.blocks],
        "cycles": [_("Milestones depend on each other in a cycle ({chain}); the picture draws "
                     "it, but none of them can finish first. Remove one `depends_on` entry.")
                   .format(chain=" → ".join(index.objects[u].identity for u in c))
                   for c in plan.milestone_cycles],
        "unlinked_note": ngettext(
            "{n} milestone depends on no other and no other depends on it; it is listed below, "
            "not drawn.",
            "{n} milestones depend on no other and no other depends on them; they are listed "
            "below, not drawn.", unlinked).format(n=format_count(unlinked))
        if unlinked and picture else "",
        "orphans": [ref.issue_row(i.uri) for i in plan.orphans],
        "n_milestones": len(plan.milestones),
        "bare": sum(1 for m in plan.milestones if not m.issues),
        "n_issues": sum(len(m.issues) for m in plan.milestones) + len(plan.orphans),
    }


def plan_page(kit: PageKit, answers: SiteAnswers) -> bytes:
    return kit.render("plan.html", PAGE, title=_("Plan"), **plan_view(kit, answers))


def _title(obj: LayerObject) -> str:
    return obj.title or obj.identity


def _summary(counts) -> str:
    total = sum(n for _s, n in counts)
    if not total:
        return _("no issues yet")
    done = sum(n for s, n in counts if s in CLOSED)
    return ngettext("{done} of {total} issue closed", "{done} of {total} issues closed",
                    total).format(done=format_count(done), total=format_count(total))


class _Refs:
    """What a row of the page shows of an issue or a milestone, with its links."""

    def __init__(self, kit: PageKit, answers: SiteAnswers, plan: Plan) -> None:
        self.kit, self.answers, self.plan = kit, answers, plan
        self.on_path = set(plan.critical)
        self.summary = {m.obj.uri: _summary(m.counts) for m in plan.milestones}
        self._issues: dict[str, dict] = {}

    def anchor(self, uri: str) -> str:
        return "m-" + urls.encode_name(self.kit.index.objects[uri].identity)

    def context(self, uri: str) -> str | None:
        key = self.answers.context_of_uri.get(uri)
        return self.kit.context_href(PAGE, key) if key else None

    def item(self, uri: str) -> dict:
        """An issue or a milestone as a step of a chain or a blocker."""
        obj = self.kit.index.objects[uri]
        if uri in self.plan.issue_states:
            return self.issue(uri)
        if obj.kind == "milestone":
            return {"kind": "milestone", "identity": obj.identity, "title": _title(obj),
                    "href": "#" + self.anchor(uri), "context_href": self.context(uri),
                    "summary": self.summary[uri], "critical": uri in self.on_path}
        return {"kind": obj.kind, "identity": obj.identity, "title": _title(obj),
                "href": self.kit.object_href(PAGE, uri), "context_href": None,
                "summary": "", "critical": False}

    def issue_row(self, uri: str, with_milestone: bool = False) -> str:
        """An issue's row of a list (``templates/rows.html``), kept between builds while the
        issue and what its row shows stay the same: a large layer's plan has 10,000."""
        i = self.issue(uri)
        milestone = i["milestone"]
        if with_milestone:
            shows = (i["href"], i["state"], i["critical"],
                     milestone and (milestone["href"], milestone["title"], milestone["identity"]))
        else:
            shows = (i["href"], i["state"], i["critical"], i["why"])
        macro = "plan_ready_row" if with_milestone else "plan_issue_row"
        return self.kit.row_html(macro, self.kit.index.objects[uri], i, shows)

    def issue(self, uri: str) -> dict:
        """What a row shows of an issue (made once per page: a ready issue is listed twice)."""
        made = self._issues.get(uri)
        if made is None:
            made = self._issues[uri] = self._issue(uri)
        return made

    def _issue(self, uri: str) -> dict:
        index = self.kit.index
        obj = index.objects[uri]
        state = self.plan.issue_states[uri]
        ms = self.plan.milestone_of.get(uri)
        deps = [(e.target.rsplit("/", 1)[-1], self.kit.object_href(PAGE, e.target))
                for e in index.out_edges.get(uri, []) if e.kind == "depends_on"]
        deps += [(u.reference, None) for u in index.unresolved_by_source.get(uri, [])
                 if u.field == "depends_on"]
        return {"kind": "issue", "identity": obj.identity, "title": _title(obj),
                "href": self.context(uri) or self.kit.object_href(PAGE, uri),
                "context_href": self.context(uri), "object_href": self.kit.object_href(PAGE, uri),
                "state": state.state, "reasons": state.reasons, "deps": deps,
                # why it is in its state; a READY issue with no dependency needs no words
                "why": "; ".join(speak(p) for p in state.said)
                if deps or state.state != "READY" else "",
                "milestone": ({"title": _title(index.objects[ms]), "href": "#" + self.anchor(ms),
                               "identity": index.objects[ms].identity}
                              if ms else None),
                "summary": "", "critical": uri in self.on_path}
