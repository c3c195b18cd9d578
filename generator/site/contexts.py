"""Compile the context of every issue and every milestone, and invert the answers into
each object's standing in every context (pure)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Mapping, NamedTuple, Sequence

from ..engine.compile import GitInfo, compile_context
from ..engine.models import Budget, CompiledContext, CompileInput, ExclusionReason
from ..index import Index
from ..phrases import Phrase, say

__all__ = ["ContextKey", "StandingFact", "StandingRow", "ObjectStanding", "AnswerDigest",
           "SiteAnswers", "context_keys", "compile_one", "standings_of", "excluded_uris"]


class ContextKey(NamedTuple):
    """One compiled context of the site: an issue's or a milestone's, at the default request.
    A tuple, ordered and hashed by its fields in C: a large build's main process hashes a
    context's key once for each of its ~1,000 standings (7.7 million times), which a
    dataclass does in Python."""

    kind: str  # "issue" | "milestone"
    identity: str
    uri: str


class StandingFact(NamedTuple):
    """What one context says of one object, but for which context it is and the relevance
    there: the part a standing shares with every other context that says the same (most
    of an object's standings do), so a build keeps it once and an object's JSON and page
    say it once for all of them. Not the engine's :class:`~generator.engine.models.Standing`,
    the word alone."""

    standing: str  # selected | excluded | deduplicated
    word: str  # the tier, the exclusion reason, or the dedup key
    detail: str
    cost_tokens: int | None = None
    #: ``detail`` as the sentence it was made from, for a page to say in its reader's
    #: language (None where there is no sentence: a selected entry's "required" or "")
    phrase: Phrase | None = None


#: One object's standing in one context: the fact, and its relevance there (None for a
#: deduplicated name). Plain tuples: a large layer's build holds millions of them. The
#: fact as :func:`standings_of` makes it is a plain tuple of :class:`StandingFact`'s fields
#: (equal to it, hashing the same, and twenty times cheaper to make and to pickle); the
#: standing table keeps it as the :class:`StandingFact`, once.
StandingRow = tuple[StandingFact, "float | None"]


@dataclass(frozen=True, slots=True)
class ObjectStanding:
    """One object's standing in one context, as a page or a test reads it."""

    context: ContextKey
    fact: StandingFact
    relevance: float | None = None

    @property
    def standing(self) -> str:
        return self.fact.standing

    @property
    def word(self) -> str:
        return self.fact.word

    @property
    def detail(self) -> str:
        return self.fact.detail

    @property
    def cost_tokens(self) -> int | None:
        return self.fact.cost_tokens

    @property
    def phrase(self) -> Phrase | None:
        return self.fact.phrase


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


def standings_of(answer: CompiledContext) -> dict[str, tuple[StandingRow, ...]]:
    """uri -> its standings in one answer: selected, then excluded, then deduplicated (an
    object can stand twice in one context: selected, and a name folded into it)."""
    # run for every context a build compiles (745 rows on a large layer): facts as plain
    # tuples (see StandingRow), no list per object (most stand once), a tier's and a
    # reason's word as str() of the enum (its ``.value`` is a Python-level property), the
    # phrase read only where there is one
    out: dict[str, tuple[StandingRow, ...]] = {}
    get = out.get

    def stand(uri: str, row: StandingRow) -> None:
        rows = get(uri)
        out[uri] = (row,) if rows is None else rows + (row,)

    for e in answer.selected:  # ~110 rows: fields from the __dict__ too (see below)
        f = e.__dict__
        stand(f["uri"], (("selected", str(f["tier"]), "required" if f["required"] else "",
                          f["cost_tokens"], None), f["relevance"]))
    budget = ExclusionReason.budget
    for x in answer.excluded:  # ~1,000 rows: each row's fields read from its __dict__ (a
        # pydantic attribute ~50 ns), its standing added without a call
        fields = x.__dict__
        uri, reason = fields["uri"], fields["reason"]
        if reason is budget:
            fact = ("excluded", "budget", BUDGET_STANDING_DETAIL, fields["cost_tokens"],
                    BUDGET_STANDING)
        else:
            fact = ("excluded", str(reason), fields["detail"], fields["cost_tokens"], x.phrase)
        rows = get(uri)
        row = (fact, fields["relevance"])
        out[uri] = (row,) if rows is None else rows + (row,)
    for d in answer.deduplicated:
        folded = say("folded into {kept}", kept=d.kept)
        row = (("deduplicated", d.key, str(folded), None, folded), None)
        for dropped in d.dropped:
            stand(dropped, row)
    return out


#: What an object's page says of a budget exclusion. The answer's own detail holds the
#: budget's running sums, which every cost change ahead of the entry moves; an object's page
#: shows only facts about the object in that context, so an edit to one title does not
#: re-render the page of everything excluded after it (the context's page has the sums).
BUDGET_STANDING = say("did not fit in what the entries before it left; the context shows the sums")
BUDGET_STANDING_DETAIL = str(BUDGET_STANDING)


def excluded_uris(answer: CompiledContext) -> list[str]:
    """The identifiers one answer excludes, unresolved names aside (the dashboard counts
    them over every context)."""
    unresolved = ExclusionReason.unresolved
    rows = (x.__dict__ for x in answer.excluded)  # each row's fields (see standings_of)
    return [row["uri"] for row in rows if row["reason"] is not unresolved]


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
