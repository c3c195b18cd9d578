"""One pure handler per operation: ``(index, input, git) -> output``.

No I/O: the index and the checkout's git state are passed in. Every surface (CLI, HTTP,
MCP, the benchmarks) reaches the engine through these, so the answers cannot differ.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..engine.compile import GitInfo, compile_context
from ..engine.explain import explain as explain_identifier
from ..engine.models import TIER_ORDER, CompiledContext, CompileInput, ExplainInput, Explanation
from ..engine.numbers import BYTES_PER_TOKEN
from ..engine.policy import (
    DEFAULT_BUDGET_TOKENS,
    DEFAULT_FLOOR,
    DEFAULT_MAX_DEPTH,
    EDGE_RULES,
    FIXED_RELEVANCE,
    INTENT_CEILING,
    INTENT_MIN_TERM,
    KIND_TIERS,
    REFUSED_EDGES,
    STALE_STATUSES,
    STOP_WORDS,
)
from ..errors import NotFoundError
from ..index import Index
from ..model import LayerObject
from ..pack import PackInput, PackOutput, pack
from ..query import run_query
from .models import (
    CompilerPolicy,
    EdgeWeight,
    ObjectInput,
    PolicyDefaults,
    PolicyInput,
    QueryExplainInput,
    QueryExplanation,
    RefusedEdge,
    SelectorRelevance,
    TierPolicy,
)

__all__ = [
    "compile_handler",
    "compiler_policy",
    "explain_handler",
    "object_handler",
    "policy_handler",
    "query_explain_handler",
    "query_params",
]


def compile_handler(index: Index, data: CompileInput,
                    git: GitInfo | None = None) -> CompiledContext:
    return compile_context(index, data, git=git)


def explain_handler(index: Index, data: ExplainInput, git: GitInfo | None = None) -> Explanation:
    return explain_identifier(index, data, git=git)


def compiler_policy() -> CompilerPolicy:
    """The policy as data, read from :mod:`generator.engine.policy` (never restated)."""
    return CompilerPolicy(
        tiers=tuple(TierPolicy(tier=t, rank=t.rank, meaning=t.meaning, kinds=KIND_TIERS.get(t, ()))
                    for t in TIER_ORDER),
        edges=tuple(EdgeWeight(edge=r.edge, forward=r.forward, reverse=r.reverse,
                               forward_reason=r.forward_reason, reverse_reason=r.reverse_reason)
                    for r in sorted(EDGE_RULES.values(), key=lambda r: r.edge)),
        refused_edges=tuple(RefusedEdge(edge=e, reason=REFUSED_EDGES[e])
                            for e in sorted(REFUSED_EDGES)),
        selectors=tuple(SelectorRelevance(selector=s, relevance=FIXED_RELEVANCE[s])
                        for s in sorted(FIXED_RELEVANCE)),
        stale_statuses=tuple(sorted(STALE_STATUSES)),
        stop_words=tuple(sorted(STOP_WORDS)),
        defaults=PolicyDefaults(budget_tokens=DEFAULT_BUDGET_TOKENS, max_depth=DEFAULT_MAX_DEPTH,
                                floor=DEFAULT_FLOOR, bytes_per_token=BYTES_PER_TOKEN,
                                intent_ceiling=INTENT_CEILING, intent_min_term=INTENT_MIN_TERM),
    )


def policy_handler(index: Index, data: PolicyInput, git: GitInfo | None = None) -> CompilerPolicy:
    return compiler_policy()


def query_params(data: QueryExplainInput) -> dict[str, str]:
    """The input as the query engine's text parameters (what ``GET /v1/explain`` passes)."""
    return {k: str(v) for k, v in data.model_dump(exclude_none=True).items()}


def query_explain_handler(index: Index, data: QueryExplainInput,
                          git: GitInfo | None = None) -> QueryExplanation:
    return QueryExplanation(explain=run_query(index, query_params(data)))


def object_handler(index: Index, data: ObjectInput, git: GitInfo | None = None) -> LayerObject:
    obj = index.get(data.uri)
    if obj is None:
        raise NotFoundError(f"the index holds nothing under `{data.uri}`; list identifiers with "
                            "`devcontext list`", field="uri")
    return obj


def pack_handler(index: Index, data: PackInput, git: GitInfo | None = None, *,
                 files: Mapping[str, bytes]) -> PackOutput:
    """The context handed over: it needs the bytes the index was built from."""
    return pack(index, files, data, git=git)
