"""The index after an edit that moved nothing references resolve against (every object's
URI, kind, identity, path and slug as they were, the same source classes): the previous
index with the objects that differ put in, their references resolved again, and only the
edges, external and unresolved references, issue states and lookups those objects hold
patched — in time proportional to the edit, not to the layer (a large layer's index took
0.6 s to build again, before an edit's first page could be shown).

Pure, and equal to :func:`generator.index.build_index` of the same layer from scratch: the
property test ``tests/serve/test_incremental_structures.py`` checks that after random
edits.
"""

from __future__ import annotations

import bisect
from typing import Iterable, TypeVar

from .cycles import supersede_cycles
from .index import (
    _NO_REFS,
    Edge,
    ExternalRef,
    Index,
    _Builder,
    _Refs,
    _Resolved,
)
from .layer.loader import Layer
from .model import LayerObject
from .relations import RELATIONS, Relation
from .states import derive_issue_states, rederive_issue_states

__all__ = ["updated_index"]

_T = TypeVar("_T")
_Tuple = tuple[str, str, str, str]


def updated_index(previous: Index, layer: Layer) -> Index:
    """``previous`` updated to ``layer``, which holds the same universe (see
    :func:`generator.index._same_universe`, which the caller checked)."""
    reuse = previous._reuse
    assert reuse is not None
    pairs = [(old, new) for old, new in zip(previous.layer.objects, layer.objects)
             if old is not new]
    objects, by_kind = _objects_after(previous, pairs)
    builder = _Builder(layer, previous, objects=objects, by_kind=by_kind)
    builder._index_paths()
    refs = dict(reuse.refs)
    relations: dict[str, list[Relation]] = {}
    changed: set[str] = set()
    edges_before: set[_Tuple] = set()
    edges_after: set[_Tuple] = set()
    externals: dict[str, tuple[set, set]] = {}
    unresolved: dict[str, tuple[set, set]] = {}
    for old, new in pairs:
        uri = new.uri
        if old != new:
            changed.add(uri)
        kinds = relations.get(new.kind)
        if kinds is None:
            kinds = relations[new.kind] = [r for r in RELATIONS
                                           if r.declaring_kind in ("*", new.kind)]
        before = reuse.refs.get(uri, _NO_REFS)
        after = builder._resolve_refs(new, kinds)
        refs[uri] = after
        if before == after:
            continue
        edges_before.update(before[0])
        edges_after.update(after[0])
        if set(before[1]) != set(after[1]):
            externals[uri] = (set(before[1]), set(after[1]))
        if set(before[2]) != set(after[2]):
            unresolved[uri] = (set(before[2]), set(after[2]))
    gone = {t for t in edges_before - edges_after if not _produced(t, refs)}
    came = {t for t in edges_after - edges_before
            if not any(_tuple(e) == t for e in previous.out_edges.get(t[0], ()))}
    for source, target, _, _ in gone | came:
        changed.add(source)
        changed.add(target)
    changed.update(externals)
    changed.update(unresolved)

    edges = _patched_list(previous.edges, [Edge(*t) for t in gone], [Edge(*t) for t in came])
    out_edges = _regrouped(previous.out_edges, _edge_groups(previous.out_edges, gone, came, 0))
    in_edges = _regrouped(previous.in_edges, _edge_groups(previous.in_edges, gone, came, 1))
    ext_gone = [ExternalRef(*t) for b, a in externals.values() for t in b - a]
    ext_came = [ExternalRef(*t) for b, a in externals.values() for t in a - b]
    externals_list = _patched_list(previous.externals, ext_gone, ext_came)
    externals_by_source = _regrouped(previous.externals_by_source, {
        uri: sorted(ExternalRef(*t) for t in after) for uri, (_, after) in externals.items()})
    unresolved_list = _patched_list(previous.unresolved,
                                    [u for b, a in unresolved.values() for u in b - a],
                                    [u for b, a in unresolved.values() for u in a - b])
    unresolved_by_source = _regrouped(previous.unresolved_by_source, {
        uri: sorted(after) for uri, (_, after) in unresolved.items()})

    dependencies_moved = any(t[2] == "depends_on" for t in gone | came)
    if dependencies_moved or reuse.state_diags:
        states, state_list = derive_issue_states(by_kind.get("issue", []), out_edges,
                                                 unresolved_by_source, builder._edge_line)
        state_diags = tuple(state_list)
    else:  # the same dependencies, on no cycle: only the edited issues and what they hold
        states = rederive_issue_states(previous.issue_states, objects, out_edges,
                                       unresolved_by_source, changed)
        state_diags = ()
    if states is not previous.issue_states:
        changed.update(uri for uri, state in states.items()
                       if previous.issue_states.get(uri) != state)
    if reuse.cycle_diags or any(t[2] == "supersedes" for t in gone | came):
        cycle_diags = tuple(supersede_cycles(out_edges, objects, builder._edge_line))
    else:
        cycle_diags = ()
    index = Index(
        layer=layer,
        objects=objects,
        by_kind=by_kind,
        by_identity=reuse.by_identity,
        by_stem=reuse.by_stem,
        edges=edges,
        out_edges=out_edges,
        in_edges=in_edges,
        externals=externals_list,
        externals_by_source=externals_by_source,
        unresolved=unresolved_list,
        unresolved_by_source=unresolved_by_source,
        issue_states=states,
        diagnostics=builder._diagnostics(state_diags, cycle_diags, unresolved_list),
        _paths=previous._paths,
        _reuse=_Resolved(by_identity=reuse.by_identity, by_stem=reuse.by_stem,
                         adr_numbers=reuse.adr_numbers, refs=refs, path_uris=reuse.path_uris,
                         state_diags=state_diags, cycle_diags=cycle_diags),
        _universe=previous._universe,
    )
    index._changes = (previous._serial, frozenset(changed))
    return index


def _objects_after(previous: Index, pairs: list[tuple[LayerObject, LayerObject]]
                   ) -> tuple[dict[str, LayerObject], dict[str, list[LayerObject]]]:
    """The objects by URI and by kind with each of ``pairs``' new object in its old one's
    place (a kind's list is in URI order, as the layer's objects are)."""
    objects = dict(previous.objects)
    by_kind = dict(previous.by_kind)
    copied: set[str] = set()
    for old, new in pairs:
        objects[new.uri] = new
        if new.kind not in copied:
            by_kind[new.kind] = list(by_kind[new.kind])
            copied.add(new.kind)
        row = by_kind[new.kind]
        at = bisect.bisect_left(row, new.uri, key=_uri)
        assert row[at] is old, f"{new.uri}: not where the previous index holds it"
        row[at] = new
    return objects, by_kind


def _uri(obj: LayerObject) -> str:
    return obj.uri


def _tuple(e: Edge) -> _Tuple:
    return (e.source, e.target, e.kind, e.field)


def _produced(t: _Tuple, refs: dict[str, _Refs]) -> bool:
    """Whether some object still declares edge ``t`` (its source, or its target through
    an inverted relation)."""
    return any(t in refs.get(uri, _NO_REFS)[0] for uri in (t[0], t[1]))


def _patched_list(items: list[_T], gone: Iterable[_T], came: Iterable[_T]) -> list[_T]:
    """A sorted list of distinct items without ``gone`` and with ``came`` (a copy)."""
    gone, came = sorted(gone), sorted(came)
    if not gone and not came:
        return items
    out = list(items)
    for item in gone:
        at = bisect.bisect_left(out, item)
        assert out[at] == item
        del out[at]
    for item in came:
        bisect.insort(out, item)
    return out


def _edge_groups(groups: dict[str, list[Edge]], gone: set[_Tuple], came: set[_Tuple],
                 by: int) -> dict[str, list[Edge]]:
    """The groups by source (``by`` 0) or target (1) that the edges ``gone`` and ``came``
    change, each in edge order, as they are after them."""
    rows: dict[str, list[Edge]] = {}
    for name in sorted({t[by] for t in gone | came}):
        row = [e for e in groups.get(name, ()) if _tuple(e) not in gone]
        row.extend(Edge(*t) for t in came if t[by] == name)
        rows[name] = sorted(row)
    return rows


def _regrouped(groups: dict[str, list[_T]], rows: dict[str, list[_T]]) -> dict[str, list[_T]]:
    """``groups`` with each group of ``rows`` put in (an empty one: the group dropped), in
    the order grouping a sorted list gives (:func:`generator.index._grouped`): by each
    group's first item. A copy; ``groups`` itself when ``rows`` is empty."""
    if not rows:
        return groups
    out = dict(groups)
    moved: list[tuple[str, list[_T]]] = []
    for name, row in rows.items():
        before = out.get(name)
        if not row:
            out.pop(name, None)  # the others keep their order
        elif before is not None and before[0] == row[0]:
            out[name] = row  # the same first item: the same place
        else:
            out.pop(name, None)
            moved.append((name, row))
    if not moved:
        return out
    items = list(out.items())
    firsts = [row[0] for _, row in items]
    for name, row in moved:
        at = bisect.bisect_left(firsts, row[0])
        items.insert(at, (name, row))
        firsts.insert(at, row[0])
    return dict(items)
