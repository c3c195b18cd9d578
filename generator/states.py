"""Derived issue states. An issue stores no status: it records facts (``started_at``,
``verified_at``, ``completed_at``, cancellation) and its state follows from them and from
its dependencies.

The first rule that applies decides:

==========  ===========================================================================
CANCELLED   ``cancelled_at`` (or ``cancelled: true``, or a ``cancellation`` record)
DONE        ``completed_at``
VERIFY      ``verified_at`` without ``completed_at``: verified, awaiting completion
ACTIVE      ``started_at``: work is under way
BLOCKED     a dependency is neither DONE nor CANCELLED, resolves to nothing, or sits on
            a dependency cycle
READY       otherwise: every dependency is DONE (or CANCELLED, which is noted)
==========  ===========================================================================

Facts outrank dependencies: an issue someone started is ACTIVE even if a dependency is
open (the reasons still name the open dependency).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

from .diagnostics import Diagnostic
from .graphwalk import depth_first, first_cycles
from .phrases import Phrase, say

if TYPE_CHECKING:  # pragma: no cover
    from .index import Edge, Unresolved
    from .model import LayerObject

__all__ = ["IssueState", "STATES", "derive_issue_states", "rederive_issue_states", "fact_state"]

STATES = ("BLOCKED", "READY", "ACTIVE", "VERIFY", "DONE", "CANCELLED")
_CLOSED = ("DONE", "CANCELLED")


@dataclass(frozen=True)
class IssueState:
    state: str
    #: Sentences that explain the state, in order (a page says them in its reader's
    #: language; :attr:`reasons` is their English text).
    said: tuple[Phrase, ...] = ()
    #: URIs of the dependencies that hold it back.
    blocked_by: tuple[str, ...] = ()

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(str(p) for p in self.said)


def _present(value: object) -> bool:
    return value is not None and value is not False and value != ""


def fact_state(fields: dict) -> tuple[str | None, Phrase | None]:
    """The state the issue's own facts decide, with the fact that decided it."""
    if _present(fields.get("cancelled_at")) or fields.get("cancelled") is True or isinstance(
        fields.get("cancellation"), dict
    ):
        when = fields.get("cancelled_at")
        return "CANCELLED", (say("cancelled at {when}", when=str(when)) if _present(when)
                             else say("cancelled"))
    if _present(fields.get("completed_at")):
        return "DONE", say("completed at {when}", when=str(fields["completed_at"]))
    if _present(fields.get("verified_at")):
        return "VERIFY", say("verified at {when}, not yet completed",
                             when=str(fields["verified_at"]))
    if _present(fields.get("started_at")):
        return "ACTIVE", say("started at {when}", when=str(fields["started_at"]))
    return None, None


def _short(uri: str) -> str:
    return uri.rsplit("/", 1)[-1]


def derive_issue_states(
    issues: Iterable["LayerObject"],
    out_edges: dict[str, list["Edge"]],
    unresolved_by_source: dict[str, list["Unresolved"]],
    edge_line: Callable[["Edge"], int | None] | None = None,
) -> tuple[dict[str, IssueState], list[Diagnostic]]:
    """Every issue's state; dependency cycles are reported once each, at the first issue's
    ``depends_on`` item naming the next issue of the cycle (``edge_line`` says where an
    edge was written; without it, at the field's key)."""
    by_uri = {o.uri: o for o in issues}
    deps: dict[str, list[str]] = {
        uri: sorted(
            e.target for e in out_edges.get(uri, []) if e.kind == "depends_on" and e.target in by_uri
        )
        for uri in by_uri
    }
    walk = depth_first(deps)
    diagnostics: list[Diagnostic] = []
    on_cycle: set[str] = set()
    for cycle in first_cycles(walk):
        on_cycle.update(cycle)
        first = by_uri[cycle[0]]
        diagnostics.append(Diagnostic(
            severity="warning",
            code="dependency_cycle",
            path=first.provenance.path,
            line=_cycle_line(first, cycle[1], out_edges, edge_line),
            message=say("issues depend on each other in a cycle ({names}); none of them can "
                        "become READY. Remove one `depends_on` entry.",
                        names=" -> ".join(_short(u) for u in cycle)),
        ))
    # Every cycle through an issue is met while the walk is still inside it, so by the time
    # the walk has finished an issue its cycles (and its dependencies' states) are known.
    states: dict[str, IssueState] = {}
    for uri in walk.finished:
        states[uri] = _decide(by_uri[uri], deps[uri], states, on_cycle, unresolved_by_source)
    return states, diagnostics


def _cycle_line(obj: "LayerObject", target: str, out_edges: dict[str, list["Edge"]],
                edge_line: Callable[["Edge"], int | None] | None) -> int | None:
    """The line of ``obj``'s ``depends_on`` item naming ``target``."""
    if edge_line is not None:
        for edge in out_edges.get(obj.uri, ()):
            if edge.kind == "depends_on" and edge.target == target:
                return edge_line(edge)
    return obj.line_of("depends_on")


def _decide(
    obj: "LayerObject",
    deps: list[str],
    states: dict[str, IssueState],
    on_cycle: set[str],
    unresolved_by_source: dict[str, list["Unresolved"]],
) -> IssueState:
    reasons: list[Phrase] = []
    blockers: list[str] = []
    for dep in deps:
        dep_state = states.get(dep)
        if dep in on_cycle and obj.uri in on_cycle:
            reasons.append(say("depends on {dependency} within a dependency cycle",
                               dependency=_short(dep)))
            blockers.append(dep)
        elif dep_state is None or dep_state.state not in _CLOSED:
            # the state's name is its own phrase: the site's catalogue names each state
            reasons.append(say("depends on {dependency}, which is {state}", dependency=_short(dep),
                               state=Phrase(dep_state.state)) if dep_state else
                           say("depends on {dependency}, which is on a cycle",
                               dependency=_short(dep)))
            blockers.append(dep)
        elif dep_state.state == "CANCELLED":
            reasons.append(say("depends on {dependency}, which was cancelled; check it still "
                               "stands", dependency=_short(dep)))
    for item in unresolved_by_source.get(obj.uri, []):
        if item.field == "depends_on":
            reasons.append(say("depends on {dependency}, which is not in the layer",
                               dependency=item.reference))
            blockers.append(item.target_uri or item.reference)
    decided, because = fact_state(obj.fields)
    if decided is not None:
        return IssueState(decided, tuple([because] + ([] if decided in _CLOSED else reasons)), tuple(blockers) if decided not in _CLOSED else ())
    if blockers:
        return IssueState("BLOCKED", tuple(reasons), tuple(blockers))
    return IssueState("READY", tuple(reasons) or (say("every dependency is done"),), ())


def rederive_issue_states(
    previous: dict[str, IssueState],
    objects: dict[str, "LayerObject"],
    out_edges: dict[str, list["Edge"]],
    unresolved_by_source: dict[str, list["Unresolved"]],
    changed: Iterable[str],
) -> dict[str, IssueState]:
    """The states :func:`derive_issue_states` gives after an edit that left the issues'
    dependencies as they were and on no cycle (``previous`` the states before, in its walk's
    order, which is the same): only the ``changed`` issues decided again, and each issue one
    of whose dependencies' state moved — in the walk's order, so a dependency comes first."""
    redo = {uri for uri in changed if uri in previous}
    if not redo:
        return previous
    states: dict[str, IssueState] = {}
    moved: set[str] = set()
    for uri, before in previous.items():
        if uri in redo or (moved and _deps_moved(uri, out_edges, moved)):
            deps = sorted(e.target for e in out_edges.get(uri, [])
                          if e.kind == "depends_on" and e.target in previous)
            now = _decide(objects[uri], deps, states, set(), unresolved_by_source)
            if now != before:
                moved.add(uri)
            states[uri] = now
        else:
            states[uri] = before
    return states


def _deps_moved(uri: str, out_edges: dict[str, list["Edge"]], moved: set[str]) -> bool:
    return any(e.kind == "depends_on" and e.target in moved for e in out_edges.get(uri, ()))
