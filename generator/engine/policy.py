"""The compiler's policy: constants, which edges it follows at what weight, and which tier
each kind is spent from. Data, in one place, so the policy page is generated from it."""

from __future__ import annotations

from dataclasses import dataclass

from .models import Tier

__all__ = [
    "DEFAULT_BUDGET_TOKENS",
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_FLOOR",
    "INTENT_CEILING",
    "INTENT_MIN_TERM",
    "STOP_WORDS",
    "STALE_STATUSES",
    "EdgeRule",
    "EDGE_RULES",
    "REFUSED_EDGES",
    "tier_for_kind",
    "KIND_TIERS",
    "FIXED_RELEVANCE",
]

DEFAULT_BUDGET_TOKENS = 24_000
DEFAULT_MAX_DEPTH = 3
DEFAULT_FLOOR = 0.25
#: An intent match is worth 0.6 × the share of the intent's terms it hits.
INTENT_CEILING = 0.6
INTENT_MIN_TERM = 3
STOP_WORDS = frozenset(
    "and are but for from has have into not one that the their them then there this was were "
    "what when which will with you your".split()
)
STALE_STATUSES = frozenset({"deprecated", "superseded", "rejected"})

#: Relevance each non-walk selector gives.
FIXED_RELEVANCE = {
    "seed": 1.0,
    "policy": 1.0,
    "scope": 1.0,
    "blocking_rule": 0.6,
    "contract": 0.85,
    "scope_path": 0.8,
    "session_scope": 0.75,
    "session_branch": 0.5,
}


@dataclass(frozen=True)
class EdgeRule:
    edge: str
    forward: float
    reverse: float
    forward_reason: str
    reverse_reason: str


#: Reasons are written from the reached entry's side, with "it" meaning the entry it was
#: reached from (the discovery's ``via``): "via I0201 — a dependency it declares".
EDGE_RULES: dict[str, EdgeRule] = {
    r.edge: r
    for r in (
        EdgeRule("belongs_to", 0.95, 0.45, "the milestone it belongs to",
                 "another issue of the same milestone"),
        EdgeRule("depends_on", 0.9, 0.6, "a dependency it declares",
                 "declares a dependency on it"),
        EdgeRule("governed_by", 0.9, 0.5, "governs it", "governed by it"),
        EdgeRule("put_in_force", 0.8, 0.85, "put in force by it",
                 "the decision that put it in force"),
        EdgeRule("supersedes", 0.7, 0.7, "superseded by it", "supersedes it"),
        EdgeRule("tracks", 0.7, 0.9, "a file its contract tracks", "the contract that tracks it"),
        EdgeRule("implemented_by", 0.85, 0.85, "implements it", "the claim it implements"),
        EdgeRule("tested_by", 0.85, 0.85, "the case that proves it", "the claim it proves"),
        EdgeRule("defined_in", 0.8, 0.8, "where it is defined", "a claim defined in it"),
        EdgeRule("exercises", 0.6, 0.7, "exercised by it", "a scenario that exercises it"),
        EdgeRule("evidences", 0.6, 0.6, "evidence it names", "names it as evidence"),
        EdgeRule("runs", 0.6, 0.5, "a command it runs", "a scenario that runs it"),
        EdgeRule("related_to", 0.7, 0.7, "named as related by it", "names it as related"),
        EdgeRule("serves", 0.5, 0.4, "served by it", "serves it"),
    )
}

#: Edges never followed, with the reason the policy page gives.
REFUSED_EDGES: dict[str, str] = {
    "is_a": "every object of a kind hangs off one node; following it would select the whole "
    "layer",
}

KIND_TIERS: dict[Tier, tuple[str, ...]] = {
    Tier.task: ("issue", "milestone", "project"),
    Tier.governance: ("policy", "scope", "rule", "context", "profile"),
    Tier.source: ("implementation", "test", "file", "command"),
    Tier.decision: ("adr",),
    Tier.knowledge: ("session", "session-context", "knowledge", "prompt", "skill"),
}
_TIER_OF_KIND = {kind: tier for tier, kinds in KIND_TIERS.items() for kind in kinds}


def tier_for_kind(kind: str | None) -> Tier:
    """The tier a kind is spent from; history for everything else (and unknown kinds)."""
    return _TIER_OF_KIND.get(kind or "", Tier.history)
