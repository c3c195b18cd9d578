"""Chains in a dependency graph: the cycles that break it, and the critical path.

Pure functions on a mapping ``node -> prerequisites``. A layer is hand-written, so the graph
may hold cycles and names that are not nodes; both are tolerated: edges to unknown names
are ignored, and a cycle is cut at the edge that closes it in a depth-first walk over the
sorted nodes (the same walk every time, so the answer is deterministic).
"""

from __future__ import annotations

import heapq

from typing import Collection, Mapping, Sequence

__all__ = ["back_edges", "cycles", "critical_path"]

Deps = Mapping[str, Sequence[str]]


def _walk(deps: Deps) -> tuple[set[tuple[str, str]], list[tuple[str, ...]]]:
    """One iterative depth-first walk: the edges that close a cycle, and each cycle as
    ``(a, b, ..., a)`` where each node depends on the next (reported once per node set)."""
    closing: set[tuple[str, str]] = set()
    found: list[tuple[str, ...]] = []
    covered: set[str] = set()
    finished: set[str] = set()
    for root in sorted(deps):
        if root in finished:
            continue
        stack: list[tuple[str, int]] = [(root, 0)]
        trail: list[str] = []
        on_trail: dict[str, int] = {}
        while stack:
            node, i = stack.pop()
            if i == 0:
                on_trail[node] = len(trail)
                trail.append(node)
            children = sorted(t for t in set(deps.get(node, ())) if t in deps)
            if i < len(children):
                stack.append((node, i + 1))
                child = children[i]
                if child in finished:
                    continue
                if child in on_trail:
                    closing.add((node, child))
                    cycle = trail[on_trail[child]:]
                    if not set(cycle) <= covered:
                        covered.update(cycle)
                        found.append(tuple(cycle) + (child,))
                    continue
                stack.append((child, 0))
                continue
            trail.pop()
            del on_trail[node]
            finished.add(node)
    return closing, found


def back_edges(deps: Deps) -> set[tuple[str, str]]:
    """The ``(node, prerequisite)`` edges whose removal leaves the graph acyclic."""
    return _walk(deps)[0]


def cycles(deps: Deps) -> list[tuple[str, ...]]:
    """Each dependency cycle once, as ``(a, b, ..., a)``: a depends on b, ... on a."""
    return _walk(deps)[1]


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
