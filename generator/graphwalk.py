"""One depth-first walk over a directed graph, for everything that looks for cycles: issues
that depend on each other (:mod:`generator.states`), decisions that supersede each other
(:mod:`generator.cycles`) and the plan page's chains (:mod:`generator.site.plan.chains`).

Pure. Iterative, so ten thousand chained issues do not hit the recursion limit; the roots are
visited in sorted order and each node's successors in the order given, so the answer is the
same on every build.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

__all__ = ["Walk", "depth_first", "first_cycles"]

Cycle = tuple[str, ...]


@dataclass(frozen=True)
class Walk:
    #: Every node, each after everything it leads to (back edges aside).
    finished: list[str]
    #: Every edge that closes a cycle, in the order met, with the cycle it closes as
    #: ``(a, b, ..., a)``: each node leads to the next.
    back_edges: list[tuple[str, str, Cycle]]


def depth_first(successors: Mapping[str, Sequence[str]]) -> Walk:
    """Walk from every node of ``successors`` (its keys; successors that are not keys are
    not followed)."""
    finished: list[str] = []
    done: set[str] = set()
    back: list[tuple[str, str, Cycle]] = []
    for root in sorted(successors):
        if root in done:
            continue
        trail: list[str] = [root]
        on_trail: dict[str, int] = {root: 0}
        stack = [(root, iter(successors[root]))]
        while stack:
            node, rest = stack[-1]
            child = next(rest, None)
            if child is None:
                stack.pop()
                trail.pop()
                del on_trail[node]
                done.add(node)
                finished.append(node)
            elif child in on_trail:
                back.append((node, child, tuple(trail[on_trail[child]:]) + (child,)))
            elif child not in done and child in successors:
                on_trail[child] = len(trail)
                trail.append(child)
                stack.append((child, iter(successors[child])))
    return Walk(finished, back)


def first_cycles(walk: Walk) -> list[Cycle]:
    """Each cycle once: a closing edge whose nodes all lie on cycles already found is not a
    new one to report."""
    covered: set[str] = set()
    found: list[Cycle] = []
    for _node, _child, cycle in walk.back_edges:
        if not set(cycle[:-1]) <= covered:
            covered.update(cycle[:-1])
            found.append(cycle)
    return found
