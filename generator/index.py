"""The index: objects by URI and id, typed edges both ways, unresolved references, a path
index for scope queries, derived issue states and the layer fingerprint.

Built by the pure function :func:`build_index` from a loaded :class:`Layer`. An index is
never changed after it is built; a changed layer builds a new one.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

from .diagnostics import Diagnostic, sort_diagnostics
from .fields import slug as field_slug
from .layer.discovery import SourceClass
from .layer.kinds import kind_name, say_a_kind
from .layer.loader import Layer
from .layer.records import scalar_text
from .model import LayerObject, uri_for
from .paths import is_within, normalise_path
from .phrases import Phrase, say
from .cycles import supersede_cycles
from .relations import RELATIONS, TYPED_ALIASES, Relation
from .states import IssueState, derive_issue_states

__all__ = ["Edge", "ExternalRef", "Unresolved", "Index", "build_index", "normalise_path"]


@dataclass(frozen=True, order=True)
class Edge:
    """A typed edge between two indexed objects (URIs); ``field`` is where it was declared."""

    source: str
    target: str
    kind: str
    field: str


@dataclass(frozen=True, order=True)
class ExternalRef:
    """A reference to something the layer names but does not hold (``file:``, ``command:``)."""

    source: str
    node: str
    kind: str
    field: str


@dataclass(frozen=True, order=True)
class Unresolved:
    """A reference that resolves to nothing."""

    declared_in: str  # repo-relative path of the declaring file
    source: str  # URI of the declaring object
    field: str
    reference: str  # the raw text as written
    target_uri: str | None  # the identifier it would have had, when a kind is known
    target_kind: str | None
    #: Why it resolves to nothing and how to fix it, as a sentence (a page says it in its
    #: reader's language; :attr:`correction` is its English text).
    said: Phrase
    line: int | None = None

    @property
    def correction(self) -> str:
        return str(self.said)

    @property
    def name(self) -> str:
        """The identifier to show: the would-be URI, or the raw reference."""
        return self.target_uri or self.reference


@dataclass
class Index:
    layer: Layer
    objects: dict[str, LayerObject]
    by_kind: dict[str, list[LayerObject]]
    #: (kind, identity) -> uri; plus slugs for issues and milestones.
    by_identity: dict[tuple[str, str], str]
    #: (kind, stem before '@') -> uris, for rules and skills (sorted).
    by_stem: dict[tuple[str, str], list[str]]
    edges: list[Edge]
    out_edges: dict[str, list[Edge]]
    in_edges: dict[str, list[Edge]]
    externals: list[ExternalRef]
    externals_by_source: dict[str, list[ExternalRef]]
    unresolved: list[Unresolved]
    unresolved_by_source: dict[str, list[Unresolved]]
    issue_states: dict[str, IssueState]
    diagnostics: list[Diagnostic]
    #: Sorted (path, uri) pairs, for "what lies under this path" queries.
    _paths: list[tuple[str, str]] = field(default_factory=list)
    #: What the next index (one edit later) can reuse: each object's resolved references
    #: and the lookup tables they were resolved against (not part of the index's value).
    _reuse: "_Resolved | None" = field(default=None, repr=False, compare=False)
    #: This index among those built in this process (what :attr:`_changes` refers to).
    _serial: int = field(default_factory=lambda: next(_SERIALS), repr=False, compare=False)
    #: When updated from another index: that index's serial and the URIs
    #: :func:`generator.rebuild.diff.changed_objects` finds between the two.
    _changes: "tuple[int, frozenset[str]] | None" = field(default=None, repr=False,
                                                          compare=False)

    #: See :attr:`universe_cache`.
    _universe: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def universe_cache(self) -> dict:
        """Values computed from what references resolve against (each object's URI, kind,
        identity, path and slug, and the source classes) only: shared by an index and the
        next one while those stay the same, so such a value is computed once, not per edit."""
        return self._universe

    @property
    def fingerprint(self) -> str:
        return self.layer.fingerprint

    def get(self, uri: str) -> LayerObject | None:
        return self.objects.get(uri)

    def kinds(self) -> list[str]:
        return sorted(self.by_kind)

    def lookup(self, kind: str, name: str) -> LayerObject | None:
        """An object of ``kind`` by URI, identity or slug (the first in index order)."""
        name = name.strip()
        obj = self.objects.get(name)
        if obj is not None and obj.kind == kind:
            return obj
        uri = self.by_identity.get((kind, name))
        return self.objects.get(uri) if uri else None

    def under(self, prefix: str) -> list[LayerObject]:
        """Objects whose path equals ``prefix`` or lies under it (by whole segment)."""
        prefix = normalise_path(prefix)
        if prefix == "":
            return [self.objects[u] for _, u in self._paths]
        start = bisect.bisect_left(self._paths, (prefix, ""))
        out = []
        for path, uri in self._paths[start:]:
            if is_within(path, prefix):  # prefix is not the root here
                out.append(self.objects[uri])
            elif not path.startswith(prefix):
                break
        return out

    def at_path(self, path: str) -> list[LayerObject]:
        return [o for o in self.under(path) if o.provenance.path == normalise_path(path)]

    def counts_by_kind(self) -> dict[str, int]:
        return {k: len(v) for k, v in sorted(self.by_kind.items())}


_T = TypeVar("_T")

_SERIALS = itertools.count()

_ADR_NUMBER = re.compile(r"^(?:adr-?)?0*(\d+)$", re.I)

#: An object's resolved references: edges, external references, unresolved ones (edges
#: and externals as plain tuples in field order).
_Refs = tuple[tuple[tuple[str, str, str, str], ...], tuple[tuple[str, str, str, str], ...],
              tuple[Unresolved, ...]]
_NO_REFS: _Refs = ((), (), ())


@dataclass(frozen=True)
class _Resolved:
    """What references are resolved against (lookups by identity, stem, ADR number, path,
    which kinds are held, the source classes), and each object's resolved references."""

    by_identity: dict[tuple[str, str], str]
    by_stem: dict[tuple[str, str], list[str]]
    adr_numbers: dict[int, str]
    refs: dict[str, _Refs]
    #: path -> the URIs of the objects at it (what a path reference resolves to).
    path_uris: dict[str, list[str]] = field(default_factory=dict)
    #: The index's dependency-cycle and supersede-cycle diagnostics.
    state_diags: tuple[Diagnostic, ...] = ()
    cycle_diags: tuple[Diagnostic, ...] = ()


def _universe_key(obj: LayerObject) -> tuple:
    """What of an object other objects' references resolve against."""
    slug = field_slug(obj) if obj.kind in ("issue", "milestone") else None
    return (obj.kind, obj.identity, obj.provenance.path, slug)


def _same_universe(previous: Index, layer: Layer) -> bool:
    """Whether every reference resolves in ``layer`` as it did in ``previous``'s layer,
    given the same text: the same objects by URI, kind, identity, path and slug (in the
    same order: the first of two claims wins), and the same source classes."""
    if previous._reuse is None or previous.layer.classes != layer.classes:
        return False
    before = previous.layer.objects
    if len(before) != len(layer.objects):
        return False
    for old, new in zip(before, layer.objects):
        if old is not new and (old.uri != new.uri or _universe_key(old) != _universe_key(new)):
            return False
    return True


class _Builder:
    def __init__(self, layer: Layer, previous: Index | None = None, *,
                 objects: dict[str, LayerObject] | None = None,
                 by_kind: dict[str, list[LayerObject]] | None = None) -> None:
        self.layer = layer
        if objects is None or by_kind is None:
            objects = {o.uri: o for o in layer.objects}
            by_kind = {}
            for obj in layer.objects:
                by_kind.setdefault(obj.kind, []).append(obj)
        self.objects = objects
        self.by_kind = by_kind
        self.classes: tuple[SourceClass, ...] = layer.classes
        # Plain tuples in field order (sorting and hashing tuples is far cheaper than the
        # dataclasses'; the order is the same), made into Edge / ExternalRef once at the end.
        self.edges: set[tuple[str, str, str, str]] = set()
        self.externals: set[tuple[str, str, str, str]] = set()
        self.unresolved: list[Unresolved] = []
        # ``previous``: the index :mod:`generator.index_update` updates, of the same
        # universe (nothing references resolve against changed): its lookup tables serve.
        self.previous = previous
        if previous is not None:
            reuse = previous._reuse
            assert reuse is not None
            self.by_identity = reuse.by_identity
            self.by_stem = reuse.by_stem
            self.adr_numbers = reuse.adr_numbers
            return
        self.by_identity = {}
        self.by_stem = {}
        self.adr_numbers = {}
        for obj in layer.objects:
            self.by_identity.setdefault((obj.kind, obj.identity), obj.uri)
            if "@" in obj.identity:
                stem = obj.identity.split("@", 1)[0]
                self.by_stem.setdefault((obj.kind, stem), []).append(obj.uri)
            if obj.kind == "adr":
                number = _ADR_NUMBER.match(obj.identity)
                if number:
                    self.adr_numbers.setdefault(int(number.group(1)), obj.uri)
        for obj in layer.objects:
            if obj.kind in ("issue", "milestone"):
                slug = field_slug(obj)
                if slug:
                    self.by_identity.setdefault((obj.kind, slug.strip()), obj.uri)
        for uris in self.by_stem.values():
            uris.sort()

    # -- resolution --------------------------------------------------------------------

    def _holds(self, kind: str) -> bool:
        return kind in self.by_kind

    def _by_identity(self, kind: str, name: str) -> list[str]:
        uri = self.by_identity.get((kind, name))
        if uri:
            return [uri]
        if kind in ("rule", "skill") and "@" not in name:
            return list(self.by_stem.get((kind, name), []))
        if kind == "adr":
            number = _ADR_NUMBER.match(name)
            if number and int(number.group(1)) in self.adr_numbers:
                return [self.adr_numbers[int(number.group(1))]]
        return []

    def _class_would_discover(self, path: str) -> bool:
        return any(c.pathspec.matches(path) for c in self.classes)

    def _resolve(self, mode: str, raw: str) -> tuple[str, Any]:
        """("edges", [uris]) | ("external", node) | ("unresolved", (kind, uri, hint)) | ("skip", None)."""
        name = raw.strip()
        if not name or name == "-":
            return "skip", None
        if mode.startswith("identity:"):
            kind = mode.split(":", 1)[1]
            if kind == "intent" and "#" in name:
                name = name.split("#", 1)[0]
            uris = self._by_identity(kind, name)
            if uris:
                return "edges", uris
            if not self._holds(kind):
                return "external", f"{kind}:{name}"
            return "unresolved", (kind, uri_for(kind, name),
                                  say("no {kind} `{name}` in the layer",
                                      kind=kind_name(kind), name=name))
        if mode.startswith("rule_or:"):
            uris = self._by_identity("rule", name)
            if uris:
                return "edges", uris
            return "external", f"{mode.split(':', 1)[1]}:{name}"
        if mode.startswith("external:"):
            return "external", f"{mode.split(':', 1)[1]}:{name}"
        if mode == "path":
            return self._resolve_path(name, "file")
        if mode == "typed":
            if ":" not in name:
                return "unresolved", (None, None,
                                      say("a typed reference is written `<kind>:<name>`"))
            prefix, rest = name.split(":", 1)
            prefix, rest = prefix.strip(), rest.strip()
            if prefix in ("file", "test"):
                return self._resolve_path(rest, prefix)
            if prefix == "doctrine":
                return self._resolve("rule_or:doctrine", rest)
            kind = TYPED_ALIASES.get(prefix, prefix)
            return self._resolve(f"identity:{kind}", rest)
        raise ValueError(f"unknown resolution mode {mode}")

    def _resolve_path(self, raw: str, prefix: str) -> tuple[str, Any]:
        path = normalise_path(raw)
        if not path:
            return "skip", None
        if path.startswith("/") or ".." in path.split("/"):
            return "unresolved", (None, None,
                                  say("`{path}` is not a repository-relative path", path=raw))
        found = sorted(set(self._path_uris.get(path, ())))
        if found:
            return "edges", found
        if self._class_would_discover(path):
            kinds = sorted({c.kind for c in self.classes if c.pathspec.matches(path)})
            kind = kinds[0]
            return "unresolved", (kind, uri_for(kind, path),
                                  say("`{path}` would be {a_kind}, but the repository holds "
                                      "no such file", path=path, a_kind=say_a_kind(kind)))
        return "external", f"{prefix}:{path}"

    # -- edges ---------------------------------------------------------------------------

    def _references(self, obj: LayerObject, relation: Relation) -> list[tuple[str, int | None]]:
        """(reference text, its line) per item: a list item's own line when the loader
        knows it, else the field's."""
        value = obj.fields.get(relation.field)
        is_list = isinstance(value, list)
        items = value if is_list else [value] if value is not None else []
        key_line = obj.line_of(relation.field) or obj.line_of("@member")
        out: list[tuple[str, int | None]] = []
        for i, item in enumerate(items):
            if relation.item_key is not None:
                item = item.get(relation.item_key) if isinstance(item, dict) else None
            text = scalar_text(item)
            if text is not None:
                line = obj.line_of(f"{relation.field}[{i}]") if is_list else None
                out.append((text, line or key_line))
        return out

    def _resolve_refs(self, obj: LayerObject, relations: list[Relation]) -> _Refs:
        self._edges: list[tuple[str, str, str, str]] = []
        self._externals: list[tuple[str, str, str, str]] = []
        self._unresolved: list[Unresolved] = []
        for relation in relations:
            if relation.field not in obj.fields:
                continue
            for raw, line in self._references(obj, relation):
                self._add(obj, relation, raw, line)
        if not (self._edges or self._externals or self._unresolved):
            return _NO_REFS
        return tuple(self._edges), tuple(self._externals), tuple(self._unresolved)

    def _index_paths(self) -> None:
        """Objects by path, for path references (a previous index's, when there is one:
        paths resolve to URIs only, which are the previous index's)."""
        previous = self.previous
        if previous is not None and previous._reuse is not None:
            self._path_uris = previous._reuse.path_uris
            return
        self._path_uris: dict[str, list[str]] = {}
        for obj in self.layer.objects:
            self._path_uris.setdefault(obj.provenance.path, []).append(obj.uri)

    def _resolve_all(self) -> dict[str, _Refs]:
        """Every object's references resolved, gathered into the builder's edges, externals
        and unresolved."""
        # the relations each kind declares, in table order (most kinds declare one or two)
        by_kind: dict[str, list[Relation]] = {}
        refs: dict[str, _Refs] = {}
        for obj in self.layer.objects:
            relations = by_kind.get(obj.kind)
            if relations is None:
                relations = by_kind[obj.kind] = [r for r in RELATIONS
                                                 if r.declaring_kind in ("*", obj.kind)]
            found = refs[obj.uri] = self._resolve_refs(obj, relations)
            if found is not _NO_REFS:
                self.edges.update(found[0])
                self.externals.update(found[1])
                self.unresolved.extend(found[2])
        return refs

    def _edge_line(self, edge: Edge) -> int | None:
        """The line of the list item that made ``edge`` (the field's line when no single
        item did): a diagnostic about an edge points at the reference, not at its key."""
        obj = self.objects.get(edge.source)
        if obj is None:
            return None
        for relation in RELATIONS:
            if (relation.field != edge.field or relation.edge != edge.kind or relation.inverted
                    or relation.declaring_kind not in ("*", obj.kind)):
                continue
            for raw, line in self._references(obj, relation):
                outcome, value = self._resolve(relation.target, raw)
                if outcome == "edges" and edge.target in value:
                    return line
        return obj.line_of(edge.field) or obj.line_of("@member")

    def _diagnostics(self, state_diags: tuple[Diagnostic, ...],
                     cycle_diags: tuple[Diagnostic, ...],
                     unresolved: list[Unresolved]) -> list[Diagnostic]:
        """The layer's, the states', the supersede cycles' and one per unresolved reference."""
        diagnostics = list(self.layer.diagnostics)
        diagnostics.extend(state_diags)
        diagnostics.extend(cycle_diags)
        for item in unresolved:
            diagnostics.append(
                Diagnostic(
                    severity="warning",
                    code="unresolved_reference",
                    path=item.declared_in,
                    line=item.line,
                    message=say("field `{field}` names `{reference}`, which resolves to "
                                "nothing: {correction}.", field=item.field,
                                reference=item.reference, correction=item.said),
                )
            )
        return sort_diagnostics(diagnostics)

    def build(self) -> Index:
        self._index_paths()
        refs = self._resolve_all()
        edges = [Edge(*t) for t in sorted(self.edges)]
        out_edges = _grouped(edges, lambda e: e.source)
        in_edges = _grouped(edges, lambda e: e.target)
        externals = [ExternalRef(*t) for t in sorted(self.externals)]
        externals_by_source = _grouped(externals, lambda e: e.source)
        unresolved = sorted(set(self.unresolved))
        unresolved_by_source = _grouped(unresolved, lambda u: u.source)
        states, state_diags = derive_issue_states(
            self.by_kind.get("issue", []), out_edges, unresolved_by_source, self._edge_line
        )
        paths = sorted((o.provenance.path, o.uri) for o in self.layer.objects)
        cycles = tuple(supersede_cycles(out_edges, self.objects, self._edge_line))
        return Index(
            layer=self.layer,
            objects=self.objects,
            by_kind=self.by_kind,
            by_identity=self.by_identity,
            by_stem=self.by_stem,
            edges=edges,
            out_edges=out_edges,
            in_edges=in_edges,
            externals=externals,
            externals_by_source=externals_by_source,
            unresolved=unresolved,
            unresolved_by_source=unresolved_by_source,
            issue_states=states,
            diagnostics=self._diagnostics(tuple(state_diags), cycles, unresolved),
            _paths=paths,
            _reuse=_Resolved(by_identity=self.by_identity, by_stem=self.by_stem,
                             adr_numbers=self.adr_numbers, refs=refs,
                             path_uris=self._path_uris, state_diags=tuple(state_diags),
                             cycle_diags=cycles),
        )

    def _add(self, obj: LayerObject, relation: Relation, raw: str, line: int | None) -> None:
        outcome, value = self._resolve(relation.target, raw)
        if outcome == "skip":
            return
        if outcome == "edges":
            for target in value:
                if target == obj.uri:
                    continue
                if relation.inverted:
                    self._edges.append((target, obj.uri, relation.edge, relation.field))
                else:
                    self._edges.append((obj.uri, target, relation.edge, relation.field))
        elif outcome == "external":
            self._externals.append((obj.uri, value, relation.edge, relation.field))
        else:
            kind, target_uri, why = value
            said = (
                say("{why}; add it, or correct or remove the reference in `{field}`",
                    why=why, field=relation.field)
                if kind
                else say("{why}; correct the reference in `{field}`", why=why,
                         field=relation.field)
            )
            self._unresolved.append(
                Unresolved(
                    declared_in=obj.provenance.path,
                    source=obj.uri,
                    field=relation.field,
                    reference=raw.strip(),
                    target_uri=target_uri,
                    target_kind=kind,
                    said=said,
                    line=line,
                )
            )


def _grouped(items: list[_T], key: Callable[[_T], str]) -> dict[str, list[_T]]:
    """``items`` grouped by ``key``, each group in the items' order."""
    out: dict[str, list[_T]] = {}
    for item in items:
        out.setdefault(key(item), []).append(item)
    return out


def build_index(layer: Layer, previous: Index | None = None) -> Index:
    """Index a loaded layer (pure). ``previous``, the index of the same layer before an
    edit, only saves work: the result is the index :func:`build_index` gives without it.
    After an edit that leaves every object's URI, kind, identity, path and slug as they
    were (most edits: a title, a status, a relation), the previous index is updated for the
    objects that differ (:mod:`generator.index_update`), in time proportional to them."""
    if previous is not None and _same_universe(previous, layer):
        from .index_update import updated_index  # it builds on this module's parts

        return updated_index(previous, layer)
    return _Builder(layer).build()
