"""The site's context keys of an index, computed once per universe: they are made of each
issue's and milestone's kind, identity and URI only, which an edit that moves no identity
leaves as they were — so serve does not sort 10,400 keys again (twice) for every edit."""

from __future__ import annotations

from ..index import Index
from ..site.contexts import ContextKey, context_keys

__all__ = ["context_keys_of", "context_key_set"]


def context_keys_of(index: Index) -> list[ContextKey]:
    """:func:`generator.site.contexts.context_keys` of ``index`` (the same list each time
    for the same universe: not to be changed)."""
    cache = index.universe_cache
    keys = cache.get("context_keys")
    if keys is None:
        keys = cache["context_keys"] = context_keys(index)
    return keys


def context_key_set(index: Index) -> frozenset[ContextKey]:
    """The keys of :func:`context_keys_of` as a set."""
    cache = index.universe_cache
    found = cache.get("context_key_set")
    if found is None:
        found = cache["context_key_set"] = frozenset(context_keys_of(index))
    return found
