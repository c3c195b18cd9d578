"""A compiled context's files: its answer as JSON (exactly the engine's wire form) and its
explain page (budget picture, selected entries by tier, exclusions, deduplications)."""

from __future__ import annotations

from collections import Counter

from ...engine.models import TIER_ORDER, CompiledContext
from ...engine.policy import tier_rules
from ...jsonio import canonical_json
from .. import urls
from ..contexts import ContextKey
from ..svg import budget_bar
from .kit import PageKit

__all__ = ["context_view", "context_files"]


def context_view(kit: PageKit, key: ContextKey, answer: CompiledContext, page: str) -> dict:
    """What the context page shows, with every link made relative to ``page``."""
    href = kit.object_href
    by_tier: dict[str, list] = {t.value: [] for t in TIER_ORDER}
    required_by_tier: Counter[str] = Counter()
    for e in answer.selected:
        if e.required:
            required_by_tier[e.tier.value] += e.cost_tokens
        by_tier[e.tier.value].append({
            "e": e,
            "anchor": urls.anchor_for(e.uri),
            "href": href(page, e.uri),
            "paths": [{"d": d, "via_href": href(page, d.via) if d.via else None}
                      for d in e.discovered_by],
        })
    excluded = []
    unresolved = []
    for x in answer.excluded:
        held = kit.index.objects.get(x.uri)  # its title, as a selected row shows it
        row = {"x": x, "anchor": urls.anchor_for(x.uri), "href": href(page, x.uri),
               "title": held.title if held is not None else None}
        (unresolved if x.reason.value == "unresolved" else excluded).append(row)
    dedup = [{"d": d, "kept_href": href(page, d.kept),
              "anchor": urls.anchor_for(d.dropped[0]) if d.dropped else None,
              "dropped": [(u, href(page, u), urls.anchor_for(u)) for u in d.dropped]}
             for d in answer.deduplicated]
    return {
        "key": key,
        "obj": kit.index.objects[key.uri],
        "a": answer,
        "state": kit.index.issue_states.get(key.uri),
        "object_href": urls.relative(page, urls.object_page(key.uri)),
        "json_href": urls.relative(page, urls.context_json(key.kind, key.identity)),
        "budget_svg": budget_bar(answer.budget, dict(required_by_tier)),
        "tiers": [(t, by_tier[t.tier.value]) for t in answer.budget.tiers],
        "excluded": excluded,
        "unresolved": unresolved,
        "dedup_semantic": [d for d in dedup if d["d"].dropped],
        "dedup_structural": [d for d in dedup if not d["d"].dropped],
        "reason_counts": Counter(x.reason.value for x in answer.excluded),
        "tier_rules": tier_rules(answer, kit.index),
        "excluded_tokens": sum(x.cost_tokens for x in answer.excluded),
    }


def context_files(kit: PageKit, key: ContextKey, answer: CompiledContext) -> list[tuple[str, bytes]]:
    """``[(json path, bytes), (page path, bytes)]``: the JSON first (rebuilds rely on it)."""
    page = urls.context_page(key.kind, key.identity)
    title = kit.index.objects[key.uri].title or key.identity
    return [(urls.context_json(key.kind, key.identity), canonical_json(answer)),
            (page, kit.render("context.html", page, title=f"Context of {key.identity}: {title}",
                              **context_view(kit, key, answer, page)))]
