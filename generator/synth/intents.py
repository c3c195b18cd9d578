"""Intents: what a milestone's work is for — the criteria its issues serve, and the decisions
and rules that govern it. This is how the real layer links its plan to its decisions: an
issue ``serves`` an intent's criterion (``<intent>#<criterion>``), and the intent names its
``governance`` (``adr:…``, ``rule:…``), which the product follows as ``governed_by``.

One intent per milestone, named like it (the real layer's ``intent-planning`` intent is for
its ``intent-planning`` milestone). Its governance is drawn from the decisions and rules of
the milestone's first area, so an issue's context reaches the decisions over the code it
scopes. :func:`plan_intents` runs before the issues are written (they cite the criteria),
:func:`write_intents` after the ADRs (the governance cites them).
"""

from __future__ import annotations

from .plan import Issue, Plan
from .text import date_raw, slugify
from .vocabulary import ISSUE_PREDICATES
from .yamltext import yaml_text

__all__ = ["SERVES_SHARE", "plan_intents", "serves_of", "write_intents"]

#: The share of issues that say which criterion they serve (the real layer: every issue of
#: its newer milestones, none of the older ones).
SERVES_SHARE = 0.6
#: Criteria per intent.
CRITERIA = 3
#: Statuses of a decision an intent may be governed by (not a retired one).
_LIVE_ADR = ("accepted", "proposed")


def plan_intents(plan: Plan) -> None:
    """Choose each intent's criteria (the issues cite them)."""
    rng = plan.rng("intents")
    plan.intent_criteria = []
    for m in range(len(plan.ms_slugs)):
        picks = rng.sample(ISSUE_PREDICATES, min(CRITERIA, len(ISSUE_PREDICATES)))
        area = plan.ms_areas[m][0]
        plan.intent_criteria.append([(slugify(p, 40), f"The {area} service {p}") for p in picks])


def serves_of(plan: Plan, issue: Issue) -> list[str] | None:
    """The criterion an issue serves, or None (it serves none), from its own stream."""
    rng = plan.rng(f"serves|{issue.ident}")
    if rng.random() >= SERVES_SHARE:
        return None
    criteria = plan.intent_criteria[issue.milestone]
    return [f"{plan.ms_slugs[issue.milestone]}#{rng.choice(criteria)[0]}"]


def write_intents(plan: Plan) -> None:
    rng = plan.rng("intent-records")
    for m, slug in enumerate(plan.ms_slugs):
        area = plan.ms_areas[m][0]
        adrs = [a for a, status in plan.adrs_of_area.get(area, []) if status in _LIVE_ADR]
        rules = [r for r in plan.rules_of_area.get(area, []) if plan.rule_active[r]]
        governance = [f"adr:{a}" for a in sorted(rng.sample(adrs, min(len(adrs),
                                                                     rng.randint(1, 3))))]
        governance += [f"rule:{r}" for r in sorted(rng.sample(rules, min(len(rules),
                                                                         rng.randint(1, 2))))]
        for g in governance:
            if g.startswith("adr:") and g[4:] not in plan.governing_adrs.get(area, []):
                plan.governing_adrs.setdefault(area, []).append(g[4:])
        module = rng.choice(plan.modules_of[area])
        title = plan.ms_texts[m]["title"]
        meta: dict[str, object] = {
            "id": slug,
            "title": f"{title}, for the people who depend on it",
            "statement": plan.sentences(rng, area, module, 2),
            "invariants": [plan.sentences(rng, area, module, 1) for _ in range(rng.randint(1, 3))],
            "milestones": [slug],
            "satisfaction": [
                {"id": ident, "criterion": text, "evidence": "test",
                 "ref": f"tests/{area}/test_{module}.py"}
                for ident, text in plan.intent_criteria[m]
            ],
            "governance": governance,
            "non_goals": [f"Rewriting the {area} service", "A new public API"],
            "created_at": date_raw(plan.ms_created[m]),
            "updated_at": date_raw(plan.ms_last_update[m]),
        }
        plan.put(f".ai/repo/project/intents/{slug}.yaml", yaml_text(meta))
