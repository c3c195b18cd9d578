"""Chains in a dependency graph: the cycles that break it, and the critical path.

Pure functions on a mapping ``node -> prerequisites``. A layer is hand-written, so the graph
may hold cycles and names that are not nodes; both are tolerated: edges to unknown names
are ignored, and a cycle is cut at the edge that closes it in a depth-first walk over the
sorted nodes (the same walk every time, so the answer is deterministic).
"""

from __future__ import annotations

import heapq
from typing import Collection, Mapping, Sequence

from ...graphwalk import Walk, depth_first, first_cycles

__all__ = ["back_edges", "cycles", "critical_path"]

Deps = Mapping[str, Sequence[str]]


def _walk(deps: Deps) -> Walk:
    """The one depth-first walk, over each node's distinct prerequisites that are nodes."""
    return depth_first({n: sorted(t for t in set(ts) if t in deps) for n, ts in deps.items()})


def back_edges(deps: Deps) -> set[tuple[str, str]]:
    """The ``(node, prerequisite)`` edges whose removal leaves the graph acyclic."""
    return {(node, child) for node, child, _ in _walk(deps).back_edges}


def cycles(deps: Deps) -> list[tuple[str, ...]]:
    """Each dependency cycle once, as ``(a, b, ..., a)``: a depends on b, ... on a."""
    return first_cycles(_walk(deps))


def critical_path(deps: Deps, unfinished: Collection[str]) -> tuple[str, ...]:
    """The longest chain of unfinished work, prerequisite first: each node depends on the
    one before it, and every node is in ``unfinished``.

    Finished nodes cut a chain (their work is behind us). Ties go to the chain whose
    nodes sort first, so the answer is the same on every build.
    """
    open_deps = {n: [t for t in deps.get(n, ()) if t in unfinished and t in deps]
                 for n in deps if n in unfinished}
    cut = back_edges(open_deps)
    prereqs = {n: sorted({t for t in ts if (n, t) not in cut}) for n, ts in open_deps.items()}
    # best[n]: the longest chain ending at n, found in an order where prerequisites come first.
    best: dict[str, tuple[str, ...]] = {}
    for node in _topological(prereqs):
        chain: tuple[str, ...] = ()
        for t in prereqs[node]:
            if _better(best[t], chain):
                chain = best[t]
        best[node] = chain + (node,)
    result: tuple[str, ...] = ()
    for node in sorted(best):
        if _better(best[node], result):
            result = best[node]
    return result


def _better(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return len(a) > len(b) or (len(a) == len(b) and a < b)


def _topological(prereqs: Mapping[str, Sequence[str]]) -> list[str]:
    """Nodes of an acyclic graph, each after all its prerequisites (Kahn, sorted ties)."""
    waiting = {n: len(ts) for n, ts in prereqs.items()}
    dependents: dict[str, list[str]] = {n: [] for n in prereqs}
    for n, ts in prereqs.items():
        for t in ts:
            dependents[t].append(n)
    ready = sorted(n for n, k in waiting.items() if k == 0)
    order: list[str] = []
    while ready:
        node = heapq.heappop(ready)
        order.append(node)
        for d in dependents[node]:
            waiting[d] -= 1
            if waiting[d] == 0:
                heapq.heappush(ready, d)
    return order
