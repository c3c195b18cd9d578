"""The plan as values: milestones with their issues, what blocks what, the critical path,
the ready work and the milestone cycles — read from the index, no page concerns.

The work graph the critical path runs on joins the two levels the layer records:

* an issue depends on the issues (or milestones) its ``depends_on`` names;
* a milestone depends on the milestones its ``depends_on`` names, and on its own issues
  (it is finished when they are).

An issue is unfinished unless DONE or CANCELLED; a milestone is unfinished while any issue
of it is, or while it has none (its work is not yet broken down).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ...index import Index
from ...model import LayerObject
from ...states import STATES, IssueState
from .chains import critical_path, cycles

__all__ = ["Plan", "MilestonePlan", "Blocker", "build_plan", "CLOSED"]

CLOSED = ("DONE", "CANCELLED")


@dataclass(frozen=True)
class MilestonePlan:
    obj: LayerObject
    issues: tuple[LayerObject, ...]
    #: Resolved ``depends_on`` targets (URIs of objects in the layer), in the layer's order.
    depends_on: tuple[str, ...]
    counts: tuple[tuple[str, int], ...]
    finished: bool


@dataclass(frozen=True)
class Blocker:
    """One thing holding back ``uri``: an object of the layer, or a name it lacks."""

    uri: str
    #: The unfinished prerequisites (URIs) and the names that resolve to nothing.
    held_by: tuple[str, ...]
    missing: tuple[str, ...] = ()


@dataclass(frozen=True)
class Plan:
    milestones: tuple[MilestonePlan, ...]
    orphans: tuple[LayerObject, ...]
    issue_states: dict[str, IssueState]
    milestone_of: dict[str, str]
    #: Prerequisite first; issues and milestones (see the module docstring).
    critical: tuple[str, ...]
    #: READY issues: open, and every dependency done.
    ready: tuple[str, ...]
    #: BLOCKED issues, then milestones waiting on unfinished prerequisite milestones.
    blocked: tuple[Blocker, ...]
    #: The same read the other way: each unfinished prerequisite (or missing name) with
    #: what it holds back, the one holding back most first.
    blocks: tuple[tuple[str, tuple[str, ...]], ...]
    #: Milestone ``depends_on`` cycles, each ``(a, b, ..., a)``.
    milestone_cycles: tuple[tuple[str, ...], ...]

    def is_finished(self, uri: str) -> bool:
        state = self.issue_states.get(uri)
        if state is not None:
            return state.state in CLOSED
        return any(m.obj.uri == uri and m.finished for m in self.milestones)


def _depends_on(index: Index, uri: str) -> tuple[str, ...]:
    seen: list[str] = []
    for e in index.out_edges.get(uri, []):
        if e.kind == "depends_on" and e.target in index.objects and e.target not in seen:
            seen.append(e.target)
    return tuple(seen)


def build_plan(index: Index) -> Plan:
    """The plan of ``index`` (every collection in one canonical order)."""
    states = index.issue_states
    issues = sorted(index.by_kind.get("issue", []), key=lambda o: o.uri)
    milestone_uris = {m.uri for m in index.by_kind.get("milestone", [])}
    by_ms: dict[str, list[LayerObject]] = {}
    milestone_of: dict[str, str] = {}
    orphans = []
    for issue in issues:
        targets = [e.target for e in index.out_edges.get(issue.uri, [])
                   if e.kind == "belongs_to" and e.target in milestone_uris]
        if targets:
            by_ms.setdefault(targets[0], []).append(issue)
            milestone_of[issue.uri] = targets[0]
        else:
            orphans.append(issue)
    milestones = []
    for ms in sorted(index.by_kind.get("milestone", []), key=lambda o: o.uri):
        own = tuple(by_ms.get(ms.uri, []))
        counts = Counter(states[i.uri].state for i in own)
        milestones.append(MilestonePlan(
            obj=ms, issues=own, depends_on=_depends_on(index, ms.uri),
            counts=tuple((s, counts.get(s, 0)) for s in STATES),
            finished=bool(own) and all(states[i.uri].state in CLOSED for i in own)))

    work: dict[str, list[str]] = {}
    unfinished: set[str] = set()
    for issue in issues:
        work[issue.uri] = list(_depends_on(index, issue.uri))
        if states[issue.uri].state not in CLOSED:
            unfinished.add(issue.uri)
    for m in milestones:
        work[m.obj.uri] = ([d for d in m.depends_on if d in milestone_uris]
                           + [i.uri for i in m.issues])
        if not m.finished:
            unfinished.add(m.obj.uri)
    work = {n: [t for t in ts if t in work] for n, ts in work.items()}

    blocked = [Blocker(i.uri, tuple(u for u in states[i.uri].blocked_by if u in index.objects),
                       tuple(u for u in states[i.uri].blocked_by if u not in index.objects))
               for i in issues if states[i.uri].state == "BLOCKED"]
    for m in milestones:
        waiting = tuple(d for d in m.depends_on if d in milestone_uris and d in unfinished)
        if waiting and not m.finished:
            blocked.append(Blocker(m.obj.uri, waiting))
    holds: dict[str, list[str]] = {}
    for b in blocked:
        for u in b.held_by + b.missing:
            holds.setdefault(u, []).append(b.uri)
    blocks = sorted(((u, tuple(items)) for u, items in holds.items()),
                    key=lambda pair: (-len(pair[1]), pair[0]))
    ms_deps = {m.obj.uri: [d for d in m.depends_on if d in milestone_uris] for m in milestones}
    return Plan(
        milestones=tuple(milestones), orphans=tuple(orphans), issue_states=states,
        milestone_of=milestone_of, critical=critical_path(work, unfinished),
        ready=tuple(i.uri for i in issues if states[i.uri].state == "READY"),
        blocked=tuple(blocked), blocks=tuple(blocks), milestone_cycles=tuple(cycles(ms_deps)))
