"""The site-wide JSON files: ``api/v1/index.json`` (the layer at a glance and a row per
context), ``api/v1/objects.json`` (a row per object) and the JSON Schemas. Rows are kept
between builds (:class:`~generator.site.rowcache.RowCache`): a large layer has over 10,000
contexts and 30,000 objects, and an edit changes few of them."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ...diagnostics import count_by_severity
from ...engine.policy import DEFAULT_BUDGET_TOKENS, DEFAULT_FLOOR, DEFAULT_MAX_DEPTH
from ...jsonio import canonical_json, canonical_json_text, to_jsonable
from ...model import LayerObject
from ...states import STATES
from .. import urls
from ..contexts import SiteAnswers
from ..jsonrows import Raw, json_with_rows
from ..records import SCHEMAS, ContextSummary, ObjectSummary, SiteIndex, schema_of
from .kit import PageKit
from .reference import operation_links

__all__ = ["SiteIndexParts", "site_index_parts", "objects_json", "schema_json"]


@dataclass(frozen=True)
class SiteIndexParts:
    """``api/v1/index.json`` as the model without its contexts and each context's
    canonical row (the dashboard reads the head and the contexts over budget)."""

    head: SiteIndex
    rows: list[Raw]
    over_budget: list[ContextSummary]

    def json(self) -> bytes:
        data = to_jsonable(self.head)
        data["contexts"] = self.rows
        return json_with_rows(data)


def site_index_parts(kit: PageKit, answers: SiteAnswers) -> SiteIndexParts:
    index = kit.index
    rows: list[Raw] = []
    over: list[ContextSummary] = []
    for key in sorted(answers.digests):
        digest = answers.digests[key]
        obj = index.objects[key.uri]
        state = index.issue_states.get(key.uri)
        b = digest.budget
        values = dict(kind=key.kind, id=key.identity, uri=key.uri, title=obj.title,
                      state=state.state if state else None,
                      selected=len(digest.selected), excluded=len(digest.excluded),
                      used_tokens=b.used_tokens, limit_tokens=b.limit_tokens,
                      required_tokens=b.required_tokens, over_budget=b.over_budget)
        rows.append(kit.rows.text("index.json", obj, tuple(values.values()),
                                  lambda values=values: _context_row(values)))
        if b.over_budget:
            over.append(_context_summary(values))
    state_counts = Counter(s.state for s in index.issue_states.values())
    head = SiteIndex(
        fingerprint=index.fingerprint, files=len(index.layer.files), objects=len(index.objects),
        edges=len(index.edges), unresolved=len(index.unresolved), kinds=index.counts_by_kind(),
        diagnostics=count_by_severity(index.diagnostics),
        defaults={"budget_tokens": DEFAULT_BUDGET_TOKENS, "floor": DEFAULT_FLOOR,
                  "max_depth": DEFAULT_MAX_DEPTH},
        contexts=[],
        issue_states={s: state_counts.get(s, 0) for s in STATES},
        operations=operation_links())
    return SiteIndexParts(head=head, rows=rows, over_budget=over)


def objects_json(kit: PageKit) -> bytes:
    """``canonical_json(ObjectsIndex(rows))``, from each row's kept canonical text."""
    index = kit.index
    rows = []
    for uri in sorted(index.objects):
        obj = index.objects[uri]
        state = index.issue_states.get(uri)
        word = state.state if state else None
        rows.append(kit.rows.text("objects.json", obj, word,
                                  lambda obj=obj, word=word: _object_row(obj, word)))
    return json_with_rows(rows)


def schema_json(name: str) -> bytes:
    """``api/v1/schemas/<name>``: the JSON Schema of one of the site's records."""
    return canonical_json(schema_of(SCHEMAS[name]), indent=2)


def _context_summary(values: dict) -> ContextSummary:
    return ContextSummary(page=urls.context_page(values["kind"], values["id"]),
                          json_url=urls.context_json(values["kind"], values["id"]),
                          pack=urls.context_pack(values["kind"], values["id"]), **values)


def _context_row(values: dict) -> Raw:
    return Raw(canonical_json_text(_context_summary(values))[:-1])


def _object_row(obj: LayerObject, state: str | None) -> Raw:
    return Raw(canonical_json_text(ObjectSummary(
        uri=obj.uri, kind=obj.kind, identity=obj.identity, title=obj.title, status=obj.status,
        state=state, version=obj.version, path=obj.provenance.path,
        page=urls.object_page(obj.uri), json_url=urls.object_json(obj.uri)))[:-1])
