"""Decisions that supersede each other in a cycle (A replaces B, B replaces A): one
warning per cycle, found over the index's ``supersedes`` edges."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from .diagnostics import Diagnostic
from .graphwalk import depth_first
from .phrases import say
from .model import LayerObject

if TYPE_CHECKING:
    from .index import Edge

__all__ = ["supersede_cycles"]


def supersede_cycles(out_edges: dict[str, list[Edge]], objects: dict[str, LayerObject],
                     edge_line: Callable[[Edge], int | None]) -> list[Diagnostic]:
    """One warning per cycle of ``supersedes`` (A replaces B, B replaces A): the engine keeps
    whichever it meets first, which is no one's decision. Linear in the edges. The warning
    is at the first decision's ``supersedes`` item naming the next (``edge_line``)."""
    # only the decisions that supersede something: a node with no such edge closes no cycle
    # and leads nowhere (the walk's back edges are the same); a large layer has 20,000 others
    succ = {src: sorted(targets) for src, edges in out_edges.items()
            if (targets := [e.target for e in edges if e.kind == "supersedes"])}
    found: list[Diagnostic] = []
    for _node, _child, cycle in depth_first(succ).back_edges:  # every one: each is a warning
        first = objects.get(cycle[0])
        names = " -> ".join(u.rsplit("/", 1)[-1] for u in cycle)
        found.append(Diagnostic(
            severity="warning", code="supersedes_cycle",
            path=first.provenance.path if first else None,
            line=_line_of_step(out_edges, cycle[0], cycle[1], edge_line) if first else None,
            message=say("decisions supersede each other in a cycle ({names}); which one "
                        "holds is undecided. Remove one `supersedes` entry.", names=names)))
    return found


def _line_of_step(out_edges: dict[str, list[Edge]], source: str, target: str,
                  edge_line: Callable[[Edge], int | None]) -> int | None:
    edge = next(e for e in out_edges[source] if e.kind == "supersedes" and e.target == target)
    return edge_line(edge)
