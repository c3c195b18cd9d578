"""The query engine: ``text`` search and ``cross_ref`` walks, each answered with its EXPLAIN
trace (:class:`Trace`). Pure: values in, values out; the same query over the same index
gives byte-identical JSON.

Modules: :mod:`.terms` (folding and query terms, mirrored by ``templates/static/search.js``),
:mod:`.text` (ranking), :mod:`.crossref` (the walk), :mod:`.api` (parameters, the HTTP
envelope), :mod:`.search_index` (the static search index the browser ranks with).
"""

from __future__ import annotations

from .operations import explain_query, run_query
from .crossref import DEFAULT_DEPTH, MAX_DEPTH, cross_ref_query
from .models import Hit, Trace, UnresolvedEdge
from .text import DEFAULT_LIMIT, MAX_LIMIT, text_query

__all__ = [
    "Hit",
    "Trace",
    "UnresolvedEdge",
    "text_query",
    "cross_ref_query",
    "run_query",
    "explain_query",
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "DEFAULT_DEPTH",
    "MAX_DEPTH",
]
