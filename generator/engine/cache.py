"""In-process caches: compile answers (16 entries) and explain answers (8), keyed by the
layer fingerprint plus the canonical form of the input — an edit to the layer changes the
fingerprint, so a cached answer can never be stale."""

from __future__ import annotations

from ..index import Index
from ..jsonio import canonical_json_text
from .compile import GitInfo, compile_context
from .explain import explain_in
from .lru import LRU
from .models import CompiledContext, CompileInput, ExplainInput, Explanation

__all__ = ["LRU", "EngineCache", "COMPILE_CACHE_SIZE", "EXPLAIN_CACHE_SIZE"]

COMPILE_CACHE_SIZE = 16
EXPLAIN_CACHE_SIZE = 8

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
