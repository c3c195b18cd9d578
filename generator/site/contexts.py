"""Compile the context of every issue and every milestone, and invert the answers into
each object's standing in every context (pure)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from ..engine.compile import GitInfo, compile_context
from ..engine.models import Budget, CompiledContext, CompileInput, Excluded, ExclusionReason
from ..index import Index

__all__ = ["ContextKey", "Standing", "AnswerDigest", "context_keys", "compile_all",
           "compile_one", "standings_of"]


@dataclass(frozen=True, order=True, slots=True)
class ContextKey:
    """One compiled context of the site: an issue's or a milestone's, at the default request."""

    kind: str  # "issue" | "milestone"
    identity: str
    uri: str


@dataclass(frozen=True, slots=True)
class Standing:
    context: ContextKey
    standing: str  # selected | excluded | deduplicated
    word: str  # the tier, the exclusion reason, or the dedup key
    detail: str
    relevance: float | None = None
    cost_tokens: int | None = None


@dataclass(frozen=True, slots=True)
class AnswerDigest:
    """What the overview pages read of one answer — its budget and its counts — so a full
    build need not hold every answer (a large layer's answers run to gigabytes)."""

    budget: Budget
    selected: range
    excluded: range

    @classmethod
    def of(cls, answer: CompiledContext) -> "AnswerDigest":
        return cls(answer.budget, range(len(answer.selected)), range(len(answer.excluded)))


def compile_one(index: Index, key: ContextKey, git: GitInfo) -> CompiledContext:
    """The answer of one site context: the default request seeded with its issue or milestone."""
    return compile_context(index, CompileInput(**{key.kind: key.identity}), git=git)


def context_keys(index: Index) -> list[ContextKey]:
    keys = [ContextKey(kind, obj.identity, obj.uri)
            for kind in ("issue", "milestone") for obj in index.by_kind.get(kind, [])]
    return sorted(keys)


def compile_all(index: Index, git: GitInfo, *, on_done: Callable[[], None] | None = None
                ) -> dict[ContextKey, CompiledContext]:
    out: dict[ContextKey, CompiledContext] = {}
    for key in context_keys(index):
        out[key] = compile_one(index, key, git)
        if on_done is not None:
            on_done()
    return out


def standings_of(compiled: dict[ContextKey, CompiledContext]) -> dict[str, list[Standing]]:
    """uri -> its standing in every context that reached it (sorted by context)."""
    out: dict[str, list[Standing]] = {}
    for key in sorted(compiled):
        answer = compiled[key]
        for e in answer.selected:
            out.setdefault(e.uri, []).append(Standing(key, "selected", e.tier.value,
                                                      "required" if e.required else "",
                                                      e.relevance, e.cost_tokens))
        for x in answer.excluded:
            out.setdefault(x.uri, []).append(Standing(key, "excluded", x.reason.value,
                                                      standing_detail(x), x.relevance,
                                                      x.cost_tokens))
        for d in answer.deduplicated:
            for dropped in d.dropped:
                out.setdefault(dropped, []).append(Standing(key, "deduplicated", d.key,
                                                            f"folded into {d.kept}"))
    return out


#: What an object's page says of a budget exclusion. The answer's own detail holds the
#: budget's running sums, which every cost change ahead of the entry moves; an object's page
#: shows only facts about the object in that context, so an edit to one title does not
#: re-render the page of everything excluded after it (the context's page has the sums).
BUDGET_STANDING_DETAIL = "did not fit in what the entries before it left; the context shows the sums"


def standing_detail(x: Excluded) -> str:
    return BUDGET_STANDING_DETAIL if x.reason is ExclusionReason.budget else x.detail


def iter_contexts(compiled: dict[ContextKey, CompiledContext]) -> Iterator[tuple[ContextKey, CompiledContext]]:
    for key in sorted(compiled):
        yield key, compiled[key]
