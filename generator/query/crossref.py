"""The ``cross_ref`` query: walk the layer's declared references from one object.

**Start.** ``start`` names one object: a URI the index holds, else an id or slug looked up
with :meth:`Index.lookup` in every kind — issues first, then milestones, then the other
kinds alphabetically; the first kind that holds the name wins, and any other object the
name also names is recorded in the query string (``also=``).

**Walk.** Breadth-first over the index's typed edges (every edge kind of
:mod:`generator.relations`: ``depends_on``, ``belongs_to``, ``tracks``, ``put_in_force``,
…), in both directions: an object's outgoing edges (the references it declares) and its
incoming edges (the objects that reference it — a milestone's issues are reached through
their ``belongs_to``). ``depth`` is the number of hops (default :data:`DEFAULT_DEPTH`); a
depth above :data:`MAX_DEPTH` is clamped to it and the clamp is recorded in the query
string (``depth=5 (clamped from 9)``). Objects first reached at hop ``h < depth`` are
*expanded*: each expanded object's outgoing edges in index order (target URI, edge kind,
field), then its incoming edges in index order (source URI, edge kind, field). An object is
a hit the first time it is reached; ``why`` names that first edge.

**Unresolved.** Every reference an expanded object declares that the index could not turn
into an edge is listed in ``unresolved_edges`` — the index's unresolved references
(dangling ids, ``file:``/``test:`` paths a source class would discover but that are not
there) and its external references (kinds the layer holds no objects of, such as
``command:``) — in expansion order, never dropped, even when ``limit`` truncates the hits.

**Counts.** ``candidates_scanned`` is the number of objects reached including the start;
``candidates_matched`` the number of hits before the ``limit`` cap; a hit's ``score`` is its
hop count.
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

from ..errors import NotFoundError, RequestError
from ..identifiers import PREFERRED_KINDS, candidates
from ..index import Index
from ..model import LayerObject
from ..phrases import Phrase, say
from .models import Hit, Trace, UnresolvedEdge
from .text import check_limit

__all__ = ["DEFAULT_DEPTH", "MAX_DEPTH", "CROSS_REF_ORDER", "CROSS_REF_ORDER_BY", "resolve_start",
           "cross_ref_query", "cross_ref_walk", "Walk", "WalkHit", "WalkGap"]

DEFAULT_DEPTH = 2
#: Walks deeper than this are clamped (and the clamp is recorded).
MAX_DEPTH = 5
#: Kinds tried first when a start name is not a URI.
START_KINDS = PREFERRED_KINDS

#: The ordering rules as sentences (a page says them in its reader's language).
CROSS_REF_ORDER: tuple[Phrase, ...] = (
    say("score asc: hop count from the start (breadth-first over typed edges, both directions)"),
    say("discovery order within a hop: parents in the order they were reached; each parent's "
        "outgoing edges (target uri, edge kind, field), then its incoming edges (source uri, "
        "edge kind, field)"),
)
#: Their English text, as the trace's ``order_by`` carries it.
CROSS_REF_ORDER_BY: tuple[str, ...] = tuple(str(rule) for rule in CROSS_REF_ORDER)


def resolve_start(index: Index, start: str | None) -> tuple[LayerObject, tuple[str, ...]]:
    """(the start object, URIs of other objects the same name names)."""
    name = (start or "").strip()
    if not name:
        raise RequestError("start is empty; name an issue or milestone id or slug, or a URI",
                           field="start")
    found = candidates(index, name)  # the one reading of names every surface shares
    if not found:
        raise NotFoundError(
            f"the layer holds no object named `{name}` (tried it as a URI, as `kind/identity`, "
            "then as an id or slug of every kind, issues and milestones first); list identifiers with "
            "`devcontext list`",
            field="start",
        )
    return found[0], tuple(o.uri for o in found[1:])


def _label(index: Index, uri: str) -> str:
    """``kind/identity``: the identity alone can name two objects (a milestone and an intent
    both ``intent-bound-work``)."""
    obj = index.get(uri)
    return f"{obj.kind}/{obj.identity}" if obj is not None else uri


def check_depth(depth: int | None) -> tuple[int, str]:
    if depth is None:
        return DEFAULT_DEPTH, f"depth={DEFAULT_DEPTH}"
    if depth < 0:
        raise RequestError(f"depth is {depth}; it must be 0 or more (walks deeper than "
                           f"{MAX_DEPTH} are clamped to {MAX_DEPTH})", field="depth")
    if depth > MAX_DEPTH:
        return MAX_DEPTH, f"depth={MAX_DEPTH} (clamped from {depth})"
    return depth, f"depth={depth}"


class WalkHit(NamedTuple):
    """An object the walk reached, the first time: its URI, kind and title (None when it has
    none), its hop count, and why (shared by every hit one object reached over one kind of
    edge in one direction)."""

    uri: str
    kind: str
    title: str | None
    hop: int
    why: Phrase


class WalkGap(NamedTuple):
    """A reference an expanded object declares that leads to no object: ``unresolved``
    (dangling, or a path with nothing behind it) or else external (a kind the layer holds no
    objects of)."""

    source: str
    field: str
    reference: str
    why: Phrase
    unresolved: bool


class Walk(NamedTuple):
    """The walk as plain values: what :func:`cross_ref_query` makes its trace of, and what
    an object page shows (30,000 of them on a large layer, each of some twenty hits)."""

    query: str
    #: Objects reached, the start included.
    scanned: int
    #: Every hit, in walk order, before the cap.
    hits: list[WalkHit]
    #: How many hits the trace lists (the limit applied).
    cap: int
    unresolved: list[WalkGap]


def cross_ref_walk(
    index: Index, start: str, depth: int | None = None, limit: int | None = None
) -> Walk:
    """Walk from ``start`` (see the module docstring)."""
    origin, also = resolve_start(index, start)
    max_hop, depth_text = check_depth(depth)
    cap, limit_text = check_limit(limit)
    query = f"cross_ref start={start.strip()} ({origin.uri}) {depth_text} {limit_text}"
    if also:
        query += " also=[" + ", ".join(also) + "]"

    objects = index.objects
    hop_of: dict[str, int] = {origin.uri: 0}
    hits: list[WalkHit] = []
    unresolved: list[WalkGap] = []
    queue: deque[str] = deque([origin.uri])
    while queue:
        uri = queue.popleft()
        hop = hop_of[uri]
        if hop >= max_hop:
            continue
        here = _label(index, uri)
        # one sentence per kind of edge and direction from here, said by all its hits
        whys: dict[tuple[str, bool], Phrase] = {}
        steps = [(e.target, e.kind, False) for e in index.out_edges.get(uri, ())]
        steps += [(e.source, e.kind, True) for e in index.in_edges.get(uri, ())]
        for neighbour, edge, reverse in steps:
            if neighbour in hop_of:
                continue
            hop_of[neighbour] = hop + 1
            queue.append(neighbour)
            why = whys.get((edge, reverse))
            if why is None:
                reason = (say("{edge} into {start} (reverse)", edge=edge, start=here) if reverse
                          else say("{edge} from {start}", edge=edge, start=here))
                why = whys[(edge, reverse)] = say("{reason}, hop {hop}", reason=reason,
                                                  hop=hop + 1)
            obj = objects[neighbour]
            hits.append(WalkHit(neighbour, obj.kind, obj.title or None, hop + 1, why))
        for item in index.unresolved_by_source.get(uri, ()):
            unresolved.append(WalkGap(uri, item.field, item.reference,
                                      say("unresolved: {correction}", correction=item.said),
                                      True))
        for ext in index.externals_by_source.get(uri, ()):
            unresolved.append(WalkGap(
                uri, ext.field, ext.node,
                say("external: `{node}` names nothing the layer holds objects of; "
                    "recorded, not followed", node=ext.node), False))
    return Walk(query, len(hop_of), hits, cap, unresolved)


def cross_ref_query(
    index: Index, start: str, depth: int | None = None, limit: int | None = None
) -> Trace:
    """Walk from ``start`` (see the module docstring): the walk as its wire models."""
    walk = cross_ref_walk(index, start, depth, limit)
    return Trace(
        query=walk.query,
        candidates_scanned=walk.scanned,
        candidates_matched=len(walk.hits),
        order_by=CROSS_REF_ORDER,
        hits=tuple(Hit(anchor=h.uri, kind=h.kind, title=h.title, score=h.hop, why=h.why)
                   for h in walk.hits[:walk.cap]),
        unresolved_edges=tuple(UnresolvedEdge(source=g.source, field=g.field,
                                              reference=g.reference, why=g.why)
                               for g in walk.unresolved),
    )
