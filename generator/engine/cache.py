"""In-process caches: compile answers (16 entries) and explain answers (8), keyed by the
layer fingerprint plus the canonical form of the input — an edit to the layer changes the
fingerprint, so a cached answer can never be stale."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Generic, Hashable, TypeVar

from ..index import Index
from ..jsonio import canonical_json_text
from .compile import GitInfo, compile_context
from .explain import explain_in
from .models import CompiledContext, CompileInput, ExplainInput, Explanation

__all__ = ["LRU", "EngineCache", "COMPILE_CACHE_SIZE", "EXPLAIN_CACHE_SIZE"]

COMPILE_CACHE_SIZE = 16
EXPLAIN_CACHE_SIZE = 8

V = TypeVar("V")


class LRU(Generic[V]):
    """A small thread-safe least-recently-used map with hit/miss counters."""

    def __init__(self, max_entries: int) -> None:
        self.max_entries = max_entries
        self._data: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get_or_compute(self, key: Hashable, compute: Callable[[], V]) -> V:
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                self.hits += 1
                return self._data[key]
            self.misses += 1
        value = compute()
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.max_entries:
                self._data.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._data)


def _canonical(data: CompileInput) -> str:
    return canonical_json_text(data.wire())


class EngineCache:
    """Compile and explain through the caches; one per process (or per server)."""

    def __init__(self) -> None:
        self.compiled: LRU[CompiledContext] = LRU(COMPILE_CACHE_SIZE)
        self.explained: LRU[Explanation] = LRU(EXPLAIN_CACHE_SIZE)

    def compile(self, index: Index, data: CompileInput, git: GitInfo | None = None) -> CompiledContext:
        key = (index.fingerprint, git, _canonical(data))
        return self.compiled.get_or_compute(key, lambda: compile_context(index, data, git=git))

    def explain(self, index: Index, data: ExplainInput, git: GitInfo | None = None) -> Explanation:
        key = (index.fingerprint, git, _canonical(data))

        def compute() -> Explanation:
            request = CompileInput(**data.model_dump(exclude={"uri"}))
            return explain_in(index, self.compile(index, request, git), data.uri)

        return self.explained.get_or_compute(key, compute)
