"""Structures the compiler derives once per index and reuses for every request: the
followed adjacency with weights and reasons, the directory contracts, the session records
by changed file, the blocking rules, the intent haystacks, and — made on first use — what
the scope and contract selectors offer for each scope path."""

from __future__ import annotations

import bisect
import posixpath
import weakref
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from .. import fields
from ..diagnostics import Diagnostic
from ..index import Index, Unresolved
from ..model import LayerObject
from ..paths import is_within
from ..phrases import Phrase
from .lru import LRU
from .models import Discovery, EntryProvenance, Tier, made
from .numbers import tokens_for
from .policy import EDGE_RULES, STALE_STATUSES

__all__ = ["Step", "Contract", "ScopeOffer", "Row", "Prepared", "prepared", "forget_prepared",
           "SCOPE_MEMO_PATHS"]

#: One offer of the scope or contract selector: the object, its relevance and tier, the
#: discovery and the words for "how it was reached".
ScopeOffer = tuple[LayerObject, float, Tier, Discovery, Phrase]

#: Scope paths whose offers are kept per index (a path's offers are a few rows; a large
#: layer's requests name ~8,000 distinct paths, an area's issues the same few).
SCOPE_MEMO_PATHS = 16384


class Step(NamedTuple):
    """One followable step from a node: to ``target`` along ``edge`` at ``weight``. A
    tuple: a large layer's index has ~63,000 of them, made again after every edit."""

    target: str
    edge: str
    weight: float
    reason: str
    #: the reason as a phrase (made once per rule, not per step of every walk)
    phrase: Phrase


class Row(NamedTuple):
    """What an object brings to every answer's row of it, whatever reached it: its cost,
    whether the budget may never drop it, and (once it is selected) its entry's
    provenance and facts."""

    cost: int
    #: a policy, a scope or a blocking rule: required in every answer
    required: bool
    provenance: EntryProvenance
    #: the object's facts, its issue's derived state among them
    facts: dict[str, str]


@dataclass(frozen=True)
class Contract:
    obj: LayerObject
    directory: str
    mode: str  # subtree | directory | explicit
    paths: tuple[str, ...]
    tracks: tuple[str, ...]


@dataclass
class Prepared:
    steps: dict[str, tuple[Step, ...]] = field(default_factory=dict)
    contracts: list[Contract] = field(default_factory=list)
    #: sorted (changed file path, session uri)
    session_files: list[tuple[str, str]] = field(default_factory=list)
    sessions: list[LayerObject] = field(default_factory=list)
    blocking_rules: list[LayerObject] = field(default_factory=list)
    governance: list[LayerObject] = field(default_factory=list)
    #: session uri -> its place in :attr:`sessions`.
    session_order: dict[str, int] = field(default_factory=dict)
    _by_branch: dict[str, list[LayerObject]] = field(default_factory=dict, repr=False)
    _scope: LRU[tuple[ScopeOffer, ...]] = field(default_factory=lambda: LRU(SCOPE_MEMO_PATHS),
                                                repr=False)
    _touching: LRU[dict[str, int]] = field(default_factory=lambda: LRU(SCOPE_MEMO_PATHS),
                                           repr=False)
    _sessions_by_count: dict[int, Discovery] = field(default_factory=dict, repr=False)
    #: the objects that declare ``supersedes`` (the budget stage's supersedes step looks
    #: at a candidate only when it is one of them)
    superseding: frozenset[str] = frozenset()
    #: the objects whose status retires them (:func:`is_stale`)
    stale: frozenset[str] = frozenset()
    _objects: tuple[LayerObject, ...] = field(default=(), repr=False)
    _unresolved_warnings: dict = field(default_factory=dict, repr=False)
    _haystacks: list[tuple[str, str]] | None = field(default=None, repr=False)
    _rows: dict[str, Row] = field(default_factory=dict, repr=False)
    _issue_states: dict = field(default_factory=dict, repr=False)

    def row(self, obj: LayerObject) -> Row:
        """What ``obj`` brings to a row of any answer (:class:`Row`), made on first use: a
        large layer's answers each spend ~700 candidates, mostly the same files again."""
        found = self._rows.get(obj.uri)
        if found is None:
            prov = obj.provenance
            facts = dict(obj.facts)
            state = self._issue_states.get(obj.uri)
            if state is not None:
                facts["state"] = state.state
            found = self._rows[obj.uri] = Row(
                tokens_for(prov.bytes), obj.kind in ("policy", "scope") or is_blocking_rule(obj),
                made(EntryProvenance, path=prov.path, directory=prov.directory,
                     source_class=prov.source_class, section=prov.section, bytes=prov.bytes),
                facts)
        return found

    @property
    def haystacks(self) -> list[tuple[str, str]]:
        """(an object's title, summary, identity and tags in lower case, its uri), in the
        layer's order: made on first use, as only a request with an intent reads them (a
        site's requests have none, and a large layer's took ~40 ms after every edit)."""
        found = self._haystacks
        if found is None:  # made whole, then stored: other threads may ask meanwhile
            found = [(" ".join([obj.title or "", obj.summary or "", obj.identity, *obj.tags]
                               ).lower(), obj.uri) for obj in self._objects]
            self._haystacks = found
        return found

    def session_discovery(self, n: int, make: Callable[[int], Discovery]) -> Discovery:
        """How a session changing ``n`` files under the scope is found (``make(n)`` on first
        use): the same words for every request whose session changed as many."""
        found = self._sessions_by_count.get(n)
        if found is None:
            found = self._sessions_by_count[n] = make(n)
        return found

    def unresolved_diagnostic(self, item: Unresolved, make: Callable[[Unresolved], Diagnostic]
                              ) -> Diagnostic:
        """The warning an answer gives for the unresolved reference ``item`` (``make(item)``
        on first use): the same in every answer that reaches it (a real layer's answers
        made ~6 of these each, a pydantic model and a sentence apiece)."""
        found = self._unresolved_warnings.get(item)
        if found is None:
            found = self._unresolved_warnings[item] = make(item)
        return found

    def sessions_touching(self, scope: str) -> dict[str, int]:
        """session uri -> number of its changed files under ``scope`` (found once per scope
        path, as :meth:`of_scope`)."""
        return self._touching.get_or_compute(scope, lambda: self._count_touching(scope))

    def of_scope(self, path: str, offers: Callable[[], tuple[ScopeOffer, ...]]
                 ) -> tuple[ScopeOffer, ...]:
        """What the scope and contract selectors offer for ``path`` (``offers()`` makes it
        on first use): issues of one area share their scope paths, so a path's files and
        contracts are found and worded once per index, not once per request."""
        return self._scope.get_or_compute(path, offers)

    def sessions_of_branch(self, branch: str) -> list[LayerObject]:
        """The sessions recorded on ``branch``, in :attr:`sessions` order."""
        found = self._by_branch.get(branch)
        if found is None:  # made whole, then stored: other threads may ask meanwhile
            found = [o for o in self.sessions if fields.branch(o) == branch]
            self._by_branch[branch] = found
        return found

    def _count_touching(self, scope: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        start = bisect.bisect_left(self.session_files, (scope, ""))
        for path, uri in self.session_files[start:]:
            if is_within(path, scope):  # scope paths are never the root
                counts[uri] = counts.get(uri, 0) + 1
            elif not path.startswith(scope):
                break
        return counts


_REASON_PHRASES: dict[str, Phrase] = {}


def _reason_phrase(reason: str) -> Phrase:
    """An edge rule's reason (marked in :data:`.policy.EDGE_RULES`) as a phrase, one per rule."""
    phrase = _REASON_PHRASES.get(reason)
    if phrase is None:
        phrase = _REASON_PHRASES[reason] = Phrase(reason)
    return phrase


def _build(index: Index) -> Prepared:
    prep = Prepared()
    steps: dict[str, list[Step]] = {}
    superseding: set[str] = set()
    for edge in index.edges:
        if edge.kind == "supersedes":
            superseding.add(edge.source)
        rule = EDGE_RULES.get(edge.kind)
        if rule is None:
            continue
        steps.setdefault(edge.source, []).append(
            Step(edge.target, edge.kind, rule.forward, rule.forward_reason,
                 _reason_phrase(rule.forward_reason)))
        steps.setdefault(edge.target, []).append(
            Step(edge.source, edge.kind, rule.reverse, rule.reverse_reason,
                 _reason_phrase(rule.reverse_reason)))
    prep.steps = {uri: tuple(sorted(s, key=lambda x: (x.target, x.edge, -x.weight)))
                  for uri, s in steps.items()}

    for obj in index.by_kind.get("context", []):
        if (obj.status or "").lower() == "deprecated":
            continue
        mode = fields.contract_mode(obj)
        directory = posixpath.dirname(obj.provenance.path) or "."
        prep.contracts.append(Contract(obj, directory, mode, fields.contract_paths(obj),
                                       fields.contract_tracks(obj)))
    for obj in index.by_kind.get("session", []):
        prep.session_order[obj.uri] = len(prep.sessions)
        prep.sessions.append(obj)
        for path in fields.changed_files(obj):
            prep.session_files.append((path, obj.uri))
    prep.session_files.sort()
    for obj in index.by_kind.get("rule", []):
        if fields.rule_class(obj) == "blocking":
            prep.blocking_rules.append(obj)
    prep.governance = list(index.by_kind.get("policy", [])) + list(index.by_kind.get("scope", []))
    prep._objects = index.layer.objects
    prep._issue_states = index.issue_states
    prep.superseding = frozenset(superseding)
    prep.stale = frozenset(uri for uri, obj in index.objects.items()
                           if obj.status and is_stale(obj))
    return prep


#: index id -> (a weak reference to the index, its structures). Held by the engine, not
#: stashed on the index; an entry goes when its index does (or when more than a few
#: indexes are alive: a server keeps the last good one while the next is built).
_PREPARED: LRU[tuple[weakref.ref, Prepared]] = LRU(4)


def _derive(index: Index) -> tuple[weakref.ref, Prepared]:
    weakref.finalize(index, _PREPARED.discard, id(index))
    return weakref.ref(index), _build(index)


def prepared(index: Index) -> Prepared:
    """The structures of ``index``, derived on first use."""
    ref, prep = _PREPARED.get_or_compute(id(index), lambda: _derive(index))
    if ref() is not index:  # another index lived at this address once
        ref, prep = _derive(index)
        _PREPARED.put(id(index), (ref, prep))
    return prep


def forget_prepared(index: Index) -> None:
    """Drop the structures of ``index`` (a benchmark measures deriving them)."""
    _PREPARED.discard(id(index))


def is_stale(obj: LayerObject) -> bool:
    return (obj.status or "").strip().lower() in STALE_STATUSES


def is_blocking_rule(obj: LayerObject) -> bool:
    return obj.kind == "rule" and fields.rule_class(obj) == "blocking"
