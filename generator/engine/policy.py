"""The compiler's policy: constants, which edges it follows at what weight, and which tier
each entry is spent from (and by which rule). Data, in one place, so the policy page is
generated from it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from ..phrases import Phrase, say
from .models import Tier

if TYPE_CHECKING:  # pragma: no cover
    from ..index import Index
    from .models import CompiledContext

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
    "PLAN_KINDS",
    "Placement",
    "TaskPlan",
    "task_plan",
    "placement",
    "placed_tier",
    "RULE_SEED",
    "RULE_SEED_MILESTONE",
    "RULE_BLOCKER",
    "RULE_MILESTONE_ISSUE",
    "RULE_OTHER_PLAN",
    "tier_rules",
    "placements_of",
    "FIXED_RELEVANCE",
]

def N_(message: str) -> str:
    """Mark ``message`` for the catalogue (``make messages``): a sentence this table holds and
    a page says in its reader's language."""
    return message


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
        EdgeRule("belongs_to", 0.95, 0.45, N_("the milestone it belongs to"),
                 N_("another issue of the same milestone")),
        EdgeRule("depends_on", 0.9, 0.6, N_("a dependency it declares"),
                 N_("declares a dependency on it")),
        EdgeRule("governed_by", 0.9, 0.5, N_("governs it"), N_("governed by it")),
        EdgeRule("put_in_force", 0.8, 0.85, N_("put in force by it"),
                 N_("the decision that put it in force")),
        EdgeRule("supersedes", 0.7, 0.7, N_("superseded by it"), N_("supersedes it")),
        EdgeRule("tracks", 0.7, 0.9, N_("a file its contract tracks"), N_("the contract that tracks it")),
        EdgeRule("implemented_by", 0.85, 0.85, N_("implements it"), N_("the claim it implements")),
        EdgeRule("tested_by", 0.85, 0.85, N_("the case that proves it"), N_("the claim it proves")),
        EdgeRule("defined_in", 0.8, 0.8, N_("where it is defined"), N_("a claim defined in it")),
        EdgeRule("exercises", 0.6, 0.7, N_("exercised by it"), N_("a scenario that exercises it")),
        EdgeRule("evidences", 0.6, 0.6, N_("evidence it names"), N_("names it as evidence")),
        EdgeRule("runs", 0.6, 0.5, N_("a command it runs"), N_("a scenario that runs it")),
        EdgeRule("related_to", 0.7, 0.7, N_("named as related by it"), N_("names it as related")),
        EdgeRule("serves", 0.5, 0.4, N_("served by it"), N_("serves it")),
    )
}

#: Edges never followed, with the reason the policy page gives.
REFUSED_EDGES: dict[str, str] = {
    "is_a": "every object of a kind hangs off one node; following it would select the whole "
    "layer",
}

#: Tiers by kind (upstream's table, §2.8), except that an issue or a milestone is placed by
#: what it is to the request, not by its kind (Part A, point 11): see :func:`placement`.
KIND_TIERS: dict[Tier, tuple[str, ...]] = {
    Tier.task: ("project",),
    Tier.governance: ("policy", "scope", "rule", "context", "profile"),
    Tier.source: ("implementation", "test", "file", "command"),
    Tier.decision: ("adr",),
    Tier.knowledge: ("session", "session-context", "knowledge", "prompt", "skill"),
}
_TIER_OF_KIND = {kind: tier for tier, kinds in KIND_TIERS.items() for kind in kinds}

#: The plan's kinds: in the task tier when the request asked for them or the contract says
#: they follow from what it asked for, else supporting evidence (history).
PLAN_KINDS = ("issue", "milestone")


def tier_for_kind(kind: str | None) -> Tier:
    """The tier a kind is spent from; history for everything else (and unknown kinds, and
    the plan's kinds, which :func:`placement` lifts into the task tier when they follow
    from the request)."""
    return _TIER_OF_KIND.get(kind or "", Tier.history)


# -- placement: which rule put an entry in its tier ----------------------------------------

RULE_SEED = N_("seed")
RULE_SEED_MILESTONE = N_("milestone of the seed issue")
RULE_BLOCKER = N_("blocker of the seed issue")
RULE_MILESTONE_ISSUE = N_("issue of the seed milestone")
RULE_OTHER_PLAN = N_("other plan object: supporting evidence")


@dataclass(frozen=True)
class Placement:
    """An entry's tier and the rule that placed it there, in words for the explain page
    (``rule``; ``phrase``, the same sentence for a page to say in its reader's language)."""

    tier: Tier
    phrase: Phrase

    @property
    def rule(self) -> str:
        return str(self.phrase)


@dataclass(frozen=True)
class TaskPlan:
    """What the task tier holds for one request: the object seeds, and the plan objects
    the contract says follow from them (uri -> rule). Dangling references a seed declares
    are in it too, under the identifier they would have had, so their rows say the tier
    they would have been spent from."""

    seeds: frozenset[str]
    follows: dict[str, str]


def task_plan(index: "Index", object_seeds: Iterable[str]) -> TaskPlan:
    """The task tier of a request: each seed issue's milestone and its declared
    ``depends_on`` (the blockers), each seed milestone's own issues (Part A, point 11).
    Read from the index's declared edges, so the explain page derives the same rules from
    an answer's seeds as the compiler did."""
    seeds = frozenset(object_seeds)
    follows: dict[str, str] = {}

    def add(uri: str, rule: str) -> None:
        # one object can follow two ways (two seeds); the first rule in this order names it
        if uri not in seeds and uri not in follows:
            follows[uri] = rule

    for uri in sorted(seeds):
        obj = index.objects.get(uri)
        if obj is None:
            continue
        if obj.kind == "issue":
            for edge in index.out_edges.get(uri, ()):
                if edge.kind == "belongs_to":
                    add(edge.target, RULE_SEED_MILESTONE)
            for edge in index.out_edges.get(uri, ()):
                if edge.kind == "depends_on":
                    add(edge.target, RULE_BLOCKER)
            for item in index.unresolved_by_source.get(uri, ()):
                if item.field == "milestone" and item.target_kind == "milestone":
                    add(item.name, RULE_SEED_MILESTONE)
                elif item.field == "depends_on" and item.target_kind == "issue":
                    add(item.name, RULE_BLOCKER)
        elif obj.kind == "milestone":
            for edge in index.in_edges.get(uri, ()):
                if edge.kind == "belongs_to" and index.objects[edge.source].kind == "issue":
                    add(edge.source, RULE_MILESTONE_ISSUE)
    return TaskPlan(seeds, dict(sorted(follows.items())))


def placement(uri: str, kind: str | None, plan: TaskPlan) -> Placement:
    """The tier ``uri`` (of ``kind``) is spent from under a request, and the rule that says
    so. Every selector's fixed tier (scope_path → source, contract and governance →
    governance, session records → knowledge) agrees with its kinds' row here, so one
    function names the rule of every entry, selected or excluded."""
    if uri in plan.seeds:
        return Placement(Tier.task, _RULE_PHRASES[RULE_SEED])
    rule = plan.follows.get(uri)
    if rule is not None:
        return Placement(Tier.task, _RULE_PHRASES[rule])
    if kind in PLAN_KINDS:
        return Placement(Tier.history, _RULE_PHRASES[RULE_OTHER_PLAN])
    tier = tier_for_kind(kind)
    if kind:
        return Placement(tier, say("by kind: {kind} → {tier}", kind=kind, tier=tier.value))
    return Placement(tier, say("by kind: unknown → {tier}", tier=tier.value))


def placed_tier(uri: str, kind: str | None, plan: TaskPlan) -> Tier:
    """``placement(uri, kind, plan).tier`` without the words of its rule: the walk asks it
    of every step it offers, and only the page says the rule."""
    if uri in plan.seeds or uri in plan.follows:
        return Tier.task
    if kind in PLAN_KINDS:
        return Tier.history
    return tier_for_kind(kind)


_RULE_PHRASES = {rule: Phrase(rule) for rule in (
    RULE_SEED, RULE_SEED_MILESTONE, RULE_BLOCKER, RULE_MILESTONE_ISSUE, RULE_OTHER_PLAN)}


def _kind_of_uri(uri: str) -> str | None:
    head, sep, rest = uri.partition("://")
    return rest.split("/", 1)[0] if sep and "/" in rest else None


def placements_of(answer: "CompiledContext", index: "Index") -> dict[str, Placement]:
    """uri -> its placement, for every selected and excluded row of ``answer``, derived
    from its seeds and the index as the compiler placed them. An unresolved row has no
    kind; the identifier it would have had names one."""
    plan = task_plan(index, (s.uri for s in answer.seeds if s.kind not in ("path", "intent")))
    out = {e.uri: placement(e.uri, e.kind, plan) for e in answer.selected}
    for x in answer.excluded:
        out.setdefault(x.uri, placement(x.uri, x.kind or _kind_of_uri(x.uri), plan))
    return out


def tier_rules(answer: "CompiledContext", index: "Index") -> dict[str, str]:
    """uri -> the rule that placed it in its tier (see :func:`placements_of`)."""
    return {uri: p.rule for uri, p in placements_of(answer, index).items()}
