"""The ``text`` query: rank every object by where the query's terms occur in it.

Score of an object = Σ over the query's terms that match it of
``4 × [term in its id] + 3 × [term in its title] + 1 × [term in its summary]``, where "in"
is the substring match of :mod:`generator.query.terms` on folded text, "id" is the object's
identity and "summary" is its summary with runs of whitespace collapsed and cut to
:data:`SUMMARY_MAX_CHARS` code points — exactly the text the static search index carries, so
the browser ranks on the same bytes. An object matches when its score is above zero.

Order: score descending, then kind ascending, then URI ascending (code point order). The
first ``limit`` hits are returned (default :data:`DEFAULT_LIMIT`; a larger request is clamped
to :data:`MAX_LIMIT` and the clamp is recorded in the query string); ``candidates_matched``
is the total before the cap.
"""

from __future__ import annotations

import bisect
import heapq
import weakref
from dataclasses import dataclass

from ..errors import RequestError
from ..index import Index
from ..model import LayerObject
from ..phrases import N_
from .models import Hit, Trace
from .terms import MAX_VALUE_CHARS, fold, is_blank, query_terms

__all__ = [
    "WEIGHTS",
    "SUMMARY_MAX_CHARS",
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "TEXT_ORDER_BY",
    "SearchRow",
    "corpus",
    "summary_text",
    "check_limit",
    "text_query",
]

#: Field -> weight per matched term, in the order ``why`` lists them.
WEIGHTS: dict[str, int] = {"id": 4, "title": 3, "summary": 1}
#: Summaries are ranked on (and shipped to the browser as) at most this many code points:
#: enough for the gist (the weight is ×1), and it keeps the large layer's index near 3 MB.
SUMMARY_MAX_CHARS = 120
DEFAULT_LIMIT = 20
MAX_LIMIT = 100

#: The trace's order_by rules, English on the wire; the search page shows them translated.
TEXT_ORDER_BY: tuple[str, ...] = (
    N_("score desc: id match ×4 + title ×3 + summary ×1 per matched term"),
    N_("kind asc"),
    N_("uri asc"),
)


@dataclass(frozen=True)
class SearchRow:
    """What a text query ranks one object on (and what the search index carries for it)."""

    uri: str
    kind: str
    identity: str
    title: str | None
    summary: str | None
    folded: tuple[str, str, str]  # identity, title, summary — folded


def summary_text(summary: str | None) -> str | None:
    """Whitespace runs collapsed to one space, cut to :data:`SUMMARY_MAX_CHARS` code points."""
    if not summary:
        return None
    text = " ".join(summary.split())[:SUMMARY_MAX_CHARS].rstrip()
    return text or None


def _row(obj: LayerObject) -> SearchRow:
    summary = summary_text(obj.summary)
    title = obj.title or None
    return SearchRow(
        uri=obj.uri,
        kind=obj.kind,
        identity=obj.identity,
        title=title,
        summary=summary,
        folded=(fold(obj.identity), fold(title or ""), fold(summary or "")),
    )


@dataclass(frozen=True)
class _Corpus:
    """The rows plus every folded field laid end to end, for fast substring search.

    Field ``k`` (row ``k // 3``, field ``k % 3``) occupies ``text[starts[k]:starts[k + 1] - 1]``;
    a NUL separates fields (a term never holds one, so no match spans two fields).
    """

    rows: tuple[SearchRow, ...]
    text: str
    starts: tuple[int, ...]


_CORPORA: dict[int, _Corpus] = {}
#: The rows of the last corpus built, by URI with the object they came from: the next
#: index (one edit later) mostly holds the very same objects, whose rows are reused.
_LAST_ROWS: dict[str, tuple[LayerObject, SearchRow]] = {}


def _row_of(obj: LayerObject, last: dict[str, tuple[LayerObject, SearchRow]]) -> SearchRow:
    hit = last.get(obj.uri)
    if hit is not None and hit[0] is obj:  # objects are immutable: same object, same row
        return hit[1]
    return _row(obj)


def _corpus(index: Index) -> _Corpus:
    key = id(index)
    found = _CORPORA.get(key)
    if found is None:
        ordered = sorted(index.objects.values(), key=lambda o: (o.kind, o.uri))
        last = _LAST_ROWS
        rows = tuple(_row_of(o, last) for o in ordered)
        _LAST_ROWS.clear()
        _LAST_ROWS.update((o.uri, (o, row)) for o, row in zip(ordered, rows))
        starts: list[int] = []
        offset = 0
        for row in rows:
            for text in row.folded:
                starts.append(offset)
                offset += len(text) + 1
        starts.append(offset)
        text = "".join(f + "\0" for row in rows for f in row.folded)
        found = _Corpus(rows=rows, text=text, starts=tuple(starts))
        _CORPORA[key] = found
        weakref.finalize(index, _CORPORA.pop, key, None)
    return found


def corpus(index: Index) -> tuple[SearchRow, ...]:
    """Every object's search row, sorted by (kind, uri) — the tie-break order.

    Folding is the costly part of a query, so the rows of an index are computed once and
    kept while the index lives (an index never changes after it is built).
    """
    return _corpus(index).rows


def check_limit(limit: int | None) -> tuple[int, str]:
    """(the limit applied, how the query string states it); refuses a limit below 1."""
    if limit is None:
        return DEFAULT_LIMIT, f"limit={DEFAULT_LIMIT}"
    if limit < 1:
        raise RequestError(f"limit is {limit}; it must be 1 or more (at most {MAX_LIMIT})",
                           field="limit")
    if limit > MAX_LIMIT:
        return MAX_LIMIT, f"limit={MAX_LIMIT} (clamped from {limit})"
    return limit, f"limit={limit}"


def check_value(value: str | None) -> str:
    if value is None or is_blank(value):
        raise RequestError("value is empty or blank; give one or more words to search for",
                           field="value")
    if len(value) > MAX_VALUE_CHARS:
        raise RequestError(f"value is {len(value)} characters long; a text query takes at most "
                           f"{MAX_VALUE_CHARS}", field="value")
    return value


def _why(row: SearchRow, terms: tuple[str, ...]) -> str:
    """``id: eval ×4; title: eval ×3, gate ×3``: fields in weight order, terms in query order."""
    parts = []
    for (name, weight), text in zip(WEIGHTS.items(), row.folded):
        found = [t for t in terms if t in text]
        if found:
            parts.append(f"{name}: " + ", ".join(f"{t} ×{weight}" for t in found))
    return "; ".join(parts)


def text_query(index: Index, value: str, limit: int | None = None) -> Trace:
    """Rank the index's objects against ``value`` (see the module docstring)."""
    check_value(value)
    cap, limit_text = check_limit(limit)
    terms, dropped = query_terms(value)
    query = f"text terms=[{' '.join(terms)}] {limit_text}"
    if dropped:
        query += " dropped=[" + ", ".join(f"{t} ({why})" for t, why in dropped) + "]"
    found = _corpus(index)
    rows = found.rows if terms else ()
    # Scores: each term is searched in the whole corpus text at once; after a match the
    # search resumes at the next field, so a term counts at most once per field. Few objects
    # are allocated here on purpose (a large index makes every garbage collection slow).
    weights = tuple(WEIGHTS.values())
    scores = [0] * len(rows)
    text, starts = found.text, found.starts
    for term in terms:
        pos = text.find(term)
        while pos != -1:
            k = bisect.bisect_right(starts, pos) - 1
            scores[k // 3] += weights[k % 3]
            pos = text.find(term, starts[k + 1])
    matched = [p for p, score in enumerate(scores) if score]
    top = heapq.nsmallest(cap, matched, key=lambda p: (-scores[p], p))
    hits = tuple(
        Hit(anchor=rows[p].uri, kind=rows[p].kind, title=rows[p].title, score=scores[p],
            why=_why(rows[p], terms))
        for p in top
    )
    return Trace(
        query=query,
        candidates_scanned=len(rows),
        candidates_matched=len(matched),
        order_by=TEXT_ORDER_BY,
        hits=hits,
    )
