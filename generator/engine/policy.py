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


EDGE_RULES: dict[str, EdgeRule] = {
    r.edge: r
    for r in (
        EdgeRule("belongs_to", 0.95, 0.45, "the milestone this work belongs to",
                 "another issue of the same milestone"),
        EdgeRule("depends_on", 0.9, 0.6, "the source declares a dependency on it",
                 "it is depended on by the source"),
        EdgeRule("governed_by", 0.9, 0.5, "governed by it", "it governs the source"),
        EdgeRule("put_in_force", 0.8, 0.85, "the decision put it in force",
                 "the decision that put this in force"),
        EdgeRule("supersedes", 0.7, 0.7, "it is stood in for by the source",
                 "it stands in for the source"),
        EdgeRule("tracks", 0.7, 0.9, "the contract tracks this file",
                 "the contract that tracks it"),
        EdgeRule("implemented_by", 0.85, 0.85, "the claim is implemented by this file",
                 "a claim this file implements"),
        EdgeRule("tested_by", 0.85, 0.85, "the claim is proved by this case",
                 "a claim this case proves"),
        EdgeRule("defined_in", 0.8, 0.8, "the claim is defined in this file",
                 "a claim defined in it"),
        EdgeRule("exercises", 0.6, 0.7, "the scenario exercises it",
                 "a scenario that exercises it"),
        EdgeRule("evidences", 0.6, 0.6, "evidence for the claim", "what is evidence for it"),
        EdgeRule("runs", 0.6, 0.5, "the scenario runs this command", "a scenario that runs it"),
        EdgeRule("related_to", 0.7, 0.7, "named as related by the source",
                 "it names the source as related"),
        EdgeRule("serves", 0.5, 0.4, "the source serves it", "it is served by the source"),
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
