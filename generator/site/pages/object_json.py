"""An object's JSON record (``api/v1/objects/<kind>/<identity>.json``): its values, its
edges both ways and its standing in every context.

:class:`~generator.site.records.ObjectRecord` is the record's contract (its JSON Schema is
published) and :func:`object_record` makes it. A build writes the record from
:func:`object_wire` instead: the model's wire form made as plain values, written by
:func:`~generator.jsonio.canonical_wire_json` — the same bytes, without a model and a dozen
nested ones validated and walked for each of a large layer's 30,000 objects.
``tests/site/test_object_json.py`` holds the two to the same bytes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from pydantic import TypeAdapter

from ...index import Unresolved
from ...model import LayerObject, Provenance
from .. import urls
from ..contexts import ContextKey, StandingFact
from ..records import EdgeRecord, ObjectRecord, StandingGroup, UnresolvedRecord
from .kit import PageKit

if TYPE_CHECKING:
    from .object import Group

__all__ = ["object_record", "object_wire"]

#: How the record writes an object's fields (any values, as parsed): as the model does.
_FIELDS = TypeAdapter(dict[str, Any])


def object_record(kit: PageKit, obj: LayerObject, groups: Sequence[Group]) -> ObjectRecord:
    """The record as its model."""
    index = kit.index
    state = index.issue_states.get(obj.uri)

    def edge(e_kind: str, fld: str, uri: str) -> EdgeRecord:
        return EdgeRecord(edge=e_kind, field=fld, uri=uri,
                          page=urls.object_page(uri) if uri in index.objects else None)

    rows = [StandingGroup(context_kind=kind, standing=fact.standing, word=fact.word,
                          detail=fact.detail, cost_tokens=fact.cost_tokens,
                          contexts=[(key.identity, relevance) for key, relevance in members])
            for kind, fact, members in groups]
    return ObjectRecord(
        uri=obj.uri, kind=obj.kind, identity=obj.identity, title=obj.title, summary=obj.summary,
        status=obj.status, state=state.state if state else None,
        state_reasons=list(state.reasons) if state else [], version=obj.version,
        tags=list(obj.tags), facts=dict(obj.facts), fields=dict(obj.fields),
        provenance=obj.provenance, page=urls.object_page(obj.uri),
        edges_out=[edge(e.kind, e.field, e.target) for e in index.out_edges.get(obj.uri, [])],
        edges_in=[edge(e.kind, e.field, e.source) for e in index.in_edges.get(obj.uri, [])],
        external=[EdgeRecord(edge=x.kind, field=x.field, uri=x.node)
                  for x in index.externals_by_source.get(obj.uri, [])],
        unresolved=[UnresolvedRecord(field=u.field, reference=u.reference, target=u.target_uri,
                                     correction=u.correction, line=u.line)
                    for u in index.unresolved_by_source.get(obj.uri, [])],
        context_anchor=urls.anchor_for(obj.uri),
        standings=rows,
    )


def object_wire(kit: PageKit, obj: LayerObject, groups: Sequence[Group]) -> dict[str, Any]:
    """The record's wire form, as :func:`object_record`'s model dumps it (JSON mode, absent
    values left out, each model's fields in its order) but made as plain values. A
    relevance is the standing table's float (or None), which the model would take as is."""
    index = kit.index
    uri = obj.uri
    objects = index.objects
    state = index.issue_states.get(uri)

    def edge(e_kind: str, fld: str, far: str) -> dict[str, str]:
        if far in objects:
            return {"edge": e_kind, "field": fld, "uri": far, "page": urls.object_page(far)}
        return {"edge": e_kind, "field": fld, "uri": far}

    wire: dict[str, Any] = {"uri": uri, "kind": obj.kind, "identity": obj.identity}
    _put(wire, "title", obj.title)
    _put(wire, "summary", obj.summary)
    _put(wire, "status", obj.status)
    _put(wire, "state", state.state if state else None)
    wire["state_reasons"] = list(state.reasons) if state else []
    _put(wire, "version", obj.version)
    wire["tags"] = list(obj.tags)
    wire["facts"] = dict(obj.facts)
    wire["fields"] = _FIELDS.dump_python(obj.fields, mode="json")
    wire["provenance"] = _provenance(obj.provenance)
    wire["page"] = urls.object_page(uri)
    wire["edges_out"] = [edge(e.kind, e.field, e.target) for e in index.out_edges.get(uri, ())]
    wire["edges_in"] = [edge(e.kind, e.field, e.source) for e in index.in_edges.get(uri, ())]
    wire["external"] = [{"edge": x.kind, "field": x.field, "uri": x.node}
                        for x in index.externals_by_source.get(uri, ())]
    wire["unresolved"] = [_unresolved(u) for u in index.unresolved_by_source.get(uri, ())]
    wire["context_anchor"] = urls.anchor_for(uri)
    wire["standings"] = [_group(kind, fact, members) for kind, fact, members in groups]
    return wire


def _put(wire: dict[str, Any], name: str, value: Any) -> None:
    if value is not None:  # the wire leaves an absent value out
        wire[name] = value


def _provenance(p: Provenance) -> dict[str, Any]:
    wire: dict[str, Any] = {"path": p.path, "directory": p.directory,
                            "source_class": p.source_class}
    _put(wire, "section", p.section)
    wire["bytes"] = p.bytes
    _put(wire, "member", p.member)
    return wire


def _unresolved(u: Unresolved) -> dict[str, Any]:
    wire: dict[str, Any] = {"field": u.field, "reference": u.reference}
    _put(wire, "target", u.target_uri)
    wire["correction"] = u.correction
    _put(wire, "line", u.line)
    return wire


def _group(kind: str, fact: StandingFact,
           members: Sequence[tuple[ContextKey, float | None]]) -> dict[str, Any]:
    wire: dict[str, Any] = {"context_kind": kind, "standing": fact.standing, "word": fact.word,
                            "detail": fact.detail}
    _put(wire, "cost_tokens", fact.cost_tokens)
    # a pair is written as the model's list would be
    wire["contexts"] = [(key.identity, relevance) for key, relevance in members]
    return wire
