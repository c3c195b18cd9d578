"""Compile the context of every issue and every milestone, and invert the answers into
each object's standing in every context (pure)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..engine.compile import GitInfo, compile_context
from ..engine.models import Budget, CompiledContext, CompileInput, Excluded, ExclusionReason
from ..index import Index
from ..phrases import Phrase, say

__all__ = ["ContextKey", "ObjectStanding", "AnswerDigest", "SiteAnswers", "context_keys",
           "compile_one", "standings_of", "excluded_uris"]


@dataclass(frozen=True, order=True, slots=True)
class ContextKey:
    """One compiled context of the site: an issue's or a milestone's, at the default request."""

    kind: str  # "issue" | "milestone"
    identity: str
    uri: str


@dataclass(frozen=True, slots=True)
class ObjectStanding:
    """One object's standing in one compiled context (its page and JSON list them all);
    not the engine's :class:`~generator.engine.models.Standing`, the word alone."""

    context: ContextKey
    standing: str  # selected | excluded | deduplicated
    word: str  # the tier, the exclusion reason, or the dedup key
    detail: str
    relevance: float | None = None
    cost_tokens: int | None = None
    #: ``detail`` as the sentence it was made from, for a page to say in its reader's
    #: language (None where there is no sentence: a selected entry's "required" or "")
    phrase: Phrase | None = None


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


def standings_of(compiled: dict[ContextKey, CompiledContext]) -> dict[str, list[ObjectStanding]]:
    """uri -> its standing in every context that reached it (sorted by context)."""
    out: dict[str, list[ObjectStanding]] = {}
    for key in sorted(compiled):
        answer = compiled[key]
        for e in answer.selected:
            out.setdefault(e.uri, []).append(ObjectStanding(key, "selected", str(e.tier),
                                                      "required" if e.required else "",
                                                      e.relevance, e.cost_tokens))
        for x in answer.excluded:
            phrase = standing_phrase(x)
            out.setdefault(x.uri, []).append(ObjectStanding(key, "excluded", str(x.reason),
                                                      standing_detail(x), x.relevance,
                                                      x.cost_tokens, phrase))
        for d in answer.deduplicated:
            folded = say("folded into {kept}", kept=d.kept)
            for dropped in d.dropped:
                out.setdefault(dropped, []).append(ObjectStanding(key, "deduplicated", d.key,
                                                            str(folded), phrase=folded))
    return out


#: What an object's page says of a budget exclusion. The answer's own detail holds the
#: budget's running sums, which every cost change ahead of the entry moves; an object's page
#: shows only facts about the object in that context, so an edit to one title does not
#: re-render the page of everything excluded after it (the context's page has the sums).
BUDGET_STANDING = say("did not fit in what the entries before it left; the context shows the sums")
BUDGET_STANDING_DETAIL = str(BUDGET_STANDING)


def standing_detail(x: Excluded) -> str:
    return BUDGET_STANDING_DETAIL if x.reason is ExclusionReason.budget else x.detail


def standing_phrase(x: Excluded) -> Phrase | None:
    """:func:`standing_detail` as a phrase (None for a row read back from JSON)."""
    return BUDGET_STANDING if x.reason is ExclusionReason.budget else x.phrase


def excluded_uris(answer: CompiledContext) -> list[str]:
    """The identifiers one answer excludes, unresolved names aside (the dashboard counts
    them over every context)."""
    return [x.uri for x in answer.excluded if x.reason is not ExclusionReason.unresolved]


@dataclass(frozen=True)
class SiteAnswers:
    """What the pages other than a context's own read of every compiled answer: its
    digest, the standings inverted from all of them, and the dashboard's exclusion count
    (no answer itself: a large layer's do not fit in memory together)."""

    digests: Mapping[ContextKey, AnswerDigest]
    standings: Mapping[str, Sequence[ObjectStanding]] = field(default_factory=dict)
    excluded_counts: Mapping[str, int] = field(default_factory=Counter)
    context_of_uri: Mapping[str, ContextKey] = field(default_factory=dict)

    @classmethod
    def of_keys(cls, keys: Sequence[ContextKey], **values) -> "SiteAnswers":
        return cls(context_of_uri={k.uri: k for k in keys}, **values)

    def standing_count(self, uri: str) -> int:
        return len(self.standings.get(uri, ()))
