"""Decisions that supersede each other in a cycle (A replaces B, B replaces A): one
warning per cycle, found over the index's ``supersedes`` edges."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .diagnostics import Diagnostic
from .model import LayerObject

if TYPE_CHECKING:
    from .index import Edge

__all__ = ["supersede_cycles"]


def supersede_cycles(out_edges: dict[str, list[Edge]],
                     objects: dict[str, LayerObject]) -> list[Diagnostic]:
    """One warning per cycle of ``supersedes`` (A replaces B, B replaces A): the engine keeps
    whichever it meets first, which is no one's decision. Linear in the edges."""
    succ = {src: sorted(e.target for e in edges if e.kind == "supersedes")
            for src, edges in out_edges.items()}
    done: set[str] = set()
    found: list[Diagnostic] = []
    for start in sorted(succ):
        if start in done or not succ[start]:
            continue
        path: list[str] = []
        on_path: dict[str, int] = {}
        stack = [(start, iter(succ.get(start, ())))]
        path.append(start)
        on_path[start] = 0
        while stack:
            node, it = stack[-1]
            child = next(it, None)
            if child is None:
                stack.pop()
                path.pop()
                del on_path[node]
                done.add(node)
                continue
            if child in on_path:
                cycle = path[on_path[child]:]
                first = objects.get(cycle[0])
                names = " -> ".join(u.rsplit("/", 1)[-1] for u in cycle + [child])
                found.append(Diagnostic(
                    severity="warning", code="supersedes_cycle",
                    path=first.provenance.path if first else None,
                    line=first.line_of("supersedes") if first else None,
                    message=f"decisions supersede each other in a cycle ({names}); which one "
                    "holds is undecided. Remove one `supersedes` entry."))
            elif child not in done and child in succ:
                on_path[child] = len(path)
                path.append(child)
                stack.append((child, iter(succ[child])))
    return found
