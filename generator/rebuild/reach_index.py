"""The compiled answers' reaches (:mod:`generator.engine.reach`) inverted: given an edited
object, the answers it can change — looked up, not re-derived from the selection rules."""

from __future__ import annotations

from typing import Generic, Hashable, Iterable, Mapping, TypeVar

from ..engine.reach import Reach, Touch, ancestors

__all__ = ["ReachIndex"]

K = TypeVar("K", bound=Hashable)

_EMPTY: frozenset = frozenset()


def _names(reach: Reach | None) -> dict[str, frozenset[str]]:
    """Each lookup table's names for one reach."""
    if reach is None:
        return {"uri": _EMPTY, "path": _EMPTY, "kind": _EMPTY, "branch": _EMPTY, "all": _EMPTY}
    return {"uri": frozenset(reach.objects), "path": frozenset(reach.scope),
            "kind": reach.kinds, "branch": frozenset((reach.branch,)) if reach.branch else _EMPTY,
            "all": frozenset(("",)) if reach.everything else _EMPTY}


class ReachIndex(Generic[K]):
    """name -> the answers whose reach holds it, one table per kind of name (an object's
    URI, a scope path, a kind, a branch, and ``all`` for an answer that reads everything).
    Immutable: :meth:`updated` copies only the sets that change, so the last good build's
    index stays as it was when a rebuild fails."""

    def __init__(self, tables: dict[str, dict[str, frozenset[K]]] | None = None) -> None:
        self.tables = tables or {"uri": {}, "path": {}, "kind": {}, "branch": {}, "all": {}}

    @classmethod
    def of(cls, reaches: Mapping[K, Reach]) -> "ReachIndex[K]":
        tables: dict[str, dict[str, set[K]]] = {"uri": {}, "path": {}, "kind": {}, "branch": {}, "all": {}}
        for key, reach in reaches.items():
            for table, names in _names(reach).items():
                for name in names:
                    tables[table].setdefault(name, set()).add(key)
        return cls({t: {n: frozenset(keys) for n, keys in names.items()} for t, names in tables.items()})

    def updated(self, changes: Iterable[tuple[K, Reach | None, Reach | None]]) -> "ReachIndex[K]":
        """The index after each ``(key, reach before, reach after)`` (None: absent)."""
        tables = {t: dict(names) for t, names in self.tables.items()}
        for key, before, after in changes:
            was, now = _names(before), _names(after)
            for table in tables:
                mapping = tables[table]
                for name in was[table] - now[table]:
                    keys = mapping.get(name, _EMPTY) - {key}
                    if keys:
                        mapping[name] = keys
                    else:
                        mapping.pop(name, None)
                for name in now[table] - was[table]:
                    mapping[name] = mapping.get(name, _EMPTY) | {key}
        return ReachIndex(tables)

    def affected(self, touch: Touch) -> set[K]:
        """The answers an edit to the object (as it was or as it is) can change."""
        t = self.tables
        out: set[K] = set(t["all"].get("", _EMPTY))
        out |= t["uri"].get(touch.uri, _EMPTY)
        out |= t["kind"].get(touch.kind, _EMPTY)
        if touch.branch:
            out |= t["branch"].get(touch.branch, _EMPTY)
        paths = t["path"]
        for path in touch.paths:
            for ancestor in ancestors(path):
                out |= paths.get(ancestor, _EMPTY)
        return out
