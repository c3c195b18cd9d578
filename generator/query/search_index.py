"""The static search index: what ``templates/static/search.js`` ranks with in the browser.

The site build writes :func:`build_search_index` to ``site/api/v1/search-index.json``
(:data:`SEARCH_INDEX_PATH`) and may also embed it in a page with :func:`embedded_script`,
which the script prefers (``fetch()`` of a local file fails under ``file://``).

Shape (version 1), compact on purpose — the large synthetic layer has 30,000 objects::

    {"format": "devcontext-search-index", "version": 1, "fingerprint": "...",
     "uri_scheme": "majordomus",
     "rules": {...every constant the ranking uses: weights, term rules, stop words, limits,
               order_by, the reasons a term is dropped...},
     "kinds": ["adr", "issue", ...],
     "url_patterns": {"issue": ["objects/issue/", ".html"], ...},
     "columns": ["kind", "identity", "title", "summary", "url", "uri"],
     "objects": [[1, "I0101", "A station feed is parsed...", "Parse one feed...", "..."], ...]}

One row per object, in the tie-break order (kind, then URI, code point order), so the
browser breaks ties by row position and never compares strings. ``kind`` is a position in
``kinds``; the URI is ``<uri_scheme>://<kind>/<identity>`` and is carried (column ``uri``)
only for an object whose URI is not that. ``summary`` is the text the Python engine ranks on:
whitespace collapsed, cut to ``rules.summary_max_chars`` code points. ``url`` is the object's
page, filled by the site (``url_for``), relative, used as given; when most pages of a kind
are ``prefix + identity + suffix`` (and every object of that kind has a page), that pair is
stored once in ``url_patterns`` and the rows it rebuilds exactly carry ``null`` instead — a
third of the index on the large layer. Absent values are ``null`` and trailing ``null``
columns are left off.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..index import Index
from ..jsonio import canonical_json_text
from ..model import URI_SCHEME, LayerObject, uri_for
from .operations import MAX_DIGITS
from .terms import (
    DROP_EXTRA,
    DROP_SHORT,
    DROP_STOP,
    MAX_TERMS,
    MAX_VALUE_CHARS,
    MIN_TERM_CHARS,
    STOP_WORDS,
)
from .text import DEFAULT_LIMIT, MAX_LIMIT, SUMMARY_MAX_CHARS, TEXT_ORDER_BY, WEIGHTS, corpus

__all__ = [
    "SEARCH_INDEX_FORMAT",
    "SEARCH_INDEX_VERSION",
    "SEARCH_INDEX_PATH",
    "COLUMNS",
    "build_search_index",
    "search_rules",
    "embedded_script",
]

SEARCH_INDEX_FORMAT = "devcontext-search-index"
SEARCH_INDEX_VERSION = 1
#: Where the site build writes it, relative to the site root.
SEARCH_INDEX_PATH = "api/v1/search-index.json"
COLUMNS = ("kind", "identity", "title", "summary", "url", "uri")


def search_rules() -> dict[str, Any]:
    """Every constant of the text ranking, so the script holds none of its own."""
    return {
        "weights": [[name, weight] for name, weight in WEIGHTS.items()],
        "min_term_chars": MIN_TERM_CHARS,
        "max_terms": MAX_TERMS,
        "max_value_chars": MAX_VALUE_CHARS,
        "max_digits": MAX_DIGITS,
        "stop_words": sorted(STOP_WORDS),
        "drop_reasons": {"short": DROP_SHORT, "stop": DROP_STOP, "extra": DROP_EXTRA},
        "default_limit": DEFAULT_LIMIT,
        "max_limit": MAX_LIMIT,
        "summary_max_chars": SUMMARY_MAX_CHARS,
        "order_by": list(TEXT_ORDER_BY),
    }


def build_search_index(
    index: Index, url_for: Callable[[LayerObject], str | None] | None = None
) -> dict[str, Any]:
    """The search index of ``index`` (pure; JSON-serialisable)."""
    rows = corpus(index)
    kinds = sorted({row.kind for row in rows})
    position = {kind: i for i, kind in enumerate(kinds)}
    urls = {row.uri: url_for(index.objects[row.uri]) if url_for else None for row in rows}
    patterns = _url_patterns(rows, urls)
    objects: list[list[Any]] = []
    for row in rows:
        url = urls[row.uri]
        pattern = patterns.get(row.kind)
        if pattern is not None and url == pattern[0] + row.identity + pattern[1]:
            url = None  # the reader rebuilds it from the kind's pattern
        uri = row.uri if row.uri != uri_for(row.kind, row.identity) else None
        cells: list[Any] = [position[row.kind], row.identity, row.title, row.summary, url, uri]
        while cells[-1] is None:
            cells.pop()
        objects.append(cells)
    return {
        "format": SEARCH_INDEX_FORMAT,
        "version": SEARCH_INDEX_VERSION,
        "fingerprint": index.fingerprint,
        "uri_scheme": URI_SCHEME,
        "rules": search_rules(),
        "kinds": kinds,
        "url_patterns": {kind: list(pattern) for kind, pattern in sorted(patterns.items())},
        "columns": list(COLUMNS),
        "objects": objects,
    }


def _url_patterns(rows, urls: dict[str, str | None]) -> dict[str, tuple[str, str]]:
    """Per kind, the ``(prefix, suffix)`` most of its page URLs are ``prefix + identity +
    suffix`` with — only for kinds where every object has a URL."""
    counts: dict[str, dict[tuple[str, str], int]] = {}
    without_url: set[str] = set()
    for row in rows:
        url = urls[row.uri]
        if url is None:
            without_url.add(row.kind)
            continue
        at = url.rfind(row.identity)
        if at != -1:
            pair = (url[:at], url[at + len(row.identity):])
            per_kind = counts.setdefault(row.kind, {})
            per_kind[pair] = per_kind.get(pair, 0) + 1
    patterns = {}
    for kind, pairs in counts.items():
        if kind in without_url:
            continue
        patterns[kind] = min(pairs.items(), key=lambda item: (-item[1], item[0]))[0]
    return patterns


def embedded_script(data: dict[str, Any]) -> str:
    """``<script type="application/json" id="search-index">…</script>`` for a page.

    Every ``<`` is written ``\\u003c`` (it can only occur inside JSON strings), so neither
    ``</script>`` nor ``<!--`` in a title can end the element early.
    """
    text = canonical_json_text(data).rstrip("\n").replace("<", "\\u003c")
    return f'<script type="application/json" id="search-index">{text}</script>'
