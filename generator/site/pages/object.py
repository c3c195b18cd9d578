"""An object's files: its JSON record (values, edges both ways, standing in every context)
and its page (rendered Markdown, fields, edges, standings, the cross-reference walk)."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from ...diagnostics import Diagnostic
from ...jsonio import canonical_json
from ...model import LayerObject
from ...query.crossref import cross_ref_query
from .. import urls
from ..contexts import ContextKey, ObjectStanding
from ..fieldtext import field_rows
from ..records import EdgeRecord, ObjectRecord, StandingRecord, UnresolvedRecord
from .kit import PageKit, path_resolver

__all__ = ["object_record", "object_files", "MAX_STANDINGS_SHOWN"]

#: Object pages list at most this many standings; the JSON carries all of them.
MAX_STANDINGS_SHOWN = 200


def object_record(kit: PageKit, obj: LayerObject, standings: Sequence[ObjectStanding]) -> ObjectRecord:
    index = kit.index
    state = index.issue_states.get(obj.uri)

    def edge(e_kind: str, fld: str, uri: str) -> EdgeRecord:
        return EdgeRecord(edge=e_kind, field=fld, uri=uri,
                          page=urls.object_page(uri) if uri in index.objects else None)

    rows = [StandingRecord(
        context=s.context.uri, context_kind=s.context.kind, context_id=s.context.identity,
        standing=s.standing, word=s.word, detail=s.detail, relevance=s.relevance,
        cost_tokens=s.cost_tokens, page=urls.context_page(s.context.kind, s.context.identity)
        + "#" + urls.anchor_for(obj.uri)) for s in standings]
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
        standings=rows,
    )


def object_files(kit: PageKit, obj: LayerObject, standings: Sequence[ObjectStanding],
                 own_context: ContextKey | None, diagnostics: Sequence[Diagnostic]
                 ) -> tuple[list[tuple[str, bytes]], list[str]]:
    """``([(json path, bytes), (page path, bytes)], repository paths its Markdown linked)``."""
    record = object_record(kit, obj, standings)
    page = record.page
    linked: list[str] = []
    body_html = None
    if obj.body and obj.body.strip():
        body_html = kit.md.render(obj.body, obj.provenance.directory, path_resolver(kit.index, page, linked))
    rel = lambda target: urls.relative(page, target) if target else None  # noqa: E731
    xref = cross_ref_query(kit.index, obj.uri)
    html = kit.render(
        "object.html", page,
        title=f"{obj.kind} {obj.identity}",
        obj=obj,
        rec=record,
        body_html=body_html,
        fields=field_rows(obj.fields),
        edges_out=[(e, rel(e.page)) for e in record.edges_out],
        edges_in=[(e, rel(e.page)) for e in record.edges_in],
        standings=[(s, rel(s.page)) for s in record.standings[:MAX_STANDINGS_SHOWN]],
        standings_hidden=max(0, len(record.standings) - MAX_STANDINGS_SHOWN),
        standing_counts=Counter(s.standing for s in record.standings),
        own_context=kit.context_href(page, own_context) if own_context else None,
        json_href=rel(urls.object_json(obj.uri)),
        diagnostics=diagnostics,
        xref=xref,
        xref_hits=[(h, kit.object_href(page, h.anchor)) for h in xref.hits],
    )
    return [(urls.object_json(obj.uri), canonical_json(record)), (page, html)], linked
