"""What an edit changed, read off two indexes (pure): the objects added, removed or
different, and everything whose index record moved with them."""

from __future__ import annotations

from typing import Iterable

from ..diagnostics import Diagnostic
from ..index import Index

__all__ = ["changed_objects", "within", "group_diagnostics", "diagnostic_key"]


def changed_objects(old: Index, new: Index) -> tuple[set[str], set[str], set[str]]:
    """``(changed, added, removed)`` URIs. Changed: those added, removed or different, the
    endpoints of every added or removed edge, the sources of every changed unresolved or
    external reference, and every issue whose derived state changed. When ``new`` was
    updated from ``old`` (:mod:`generator.index_update`) the update found them already."""
    if new._changes is not None and new._changes[0] == old._serial:
        return set(new._changes[1]), set(), set()
    added = new.objects.keys() - old.objects.keys()
    removed = old.objects.keys() - new.objects.keys()
    changed = set(added) | set(removed)
    for uri, obj in new.objects.items():
        before = old.objects.get(uri)
        if before is not None and before is not obj and before != obj:
            changed.add(uri)
    if old.edges != new.edges:
        a = {(e.source, e.target, e.kind, e.field) for e in old.edges}
        b = {(e.source, e.target, e.kind, e.field) for e in new.edges}
        for source, target, _, _ in a ^ b:
            changed.add(source)
            changed.add(target)
    if old.unresolved != new.unresolved:
        changed.update(u.source for u in set(old.unresolved) ^ set(new.unresolved))
    if old.externals != new.externals:
        changed.update(x.source for x in set(old.externals) ^ set(new.externals))
    for uri in old.issue_states.keys() | new.issue_states.keys():
        if old.issue_states.get(uri) != new.issue_states.get(uri):
            changed.add(uri)
    return changed, added, removed


def within(index: Index, seeds: Iterable[str], depth: int) -> set[str]:
    """Every object at most ``depth`` typed edges (either direction) from a seed."""
    seen = {u for u in seeds if u in index.objects}
    frontier = list(seen)
    for _ in range(depth):
        step = []
        for uri in frontier:
            for e in index.out_edges.get(uri, ()):
                if e.target not in seen:
                    seen.add(e.target)
                    step.append(e.target)
            for e in index.in_edges.get(uri, ()):
                if e.source not in seen:
                    seen.add(e.source)
                    step.append(e.source)
        frontier = step
    return seen


def group_diagnostics(diagnostics: Iterable[Diagnostic]) -> dict[str, tuple[Diagnostic, ...]]:
    """The diagnostics about a file, by its path (those about the layer as a whole aside)."""
    groups: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        if d.path is not None:
            groups.setdefault(d.path, []).append(d)
    return {p: tuple(ds) for p, ds in groups.items()}


def diagnostic_key(d: Diagnostic) -> tuple:
    return (d.path or "", d.line or 0, d.column or 0, d.severity, d.code, d.message)
