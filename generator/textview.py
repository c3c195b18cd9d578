"""Terminal renderings of compiled answers and explanations (pure: value in, text out)."""

from __future__ import annotations

from .engine.models import CompiledContext, ExclusionReason, Explanation
from .engine.numbers import fmt_number

__all__ = ["render_compiled", "render_explanation"]


def _bar(tokens: int, limit: int, width: int = 30) -> str:
    if limit <= 0:
        return ""
    filled = min(width, round(width * tokens / limit))
    return "#" * filled + "." * (width - filled)


def _short(uri: str) -> str:
    return uri.split("://", 1)[-1]


def render_compiled(c: CompiledContext, tier_rules: dict[str, str] | None = None) -> str:
    """The answer for a terminal; with ``tier_rules`` (policy.tier_rules) each selected
    entry also says which rule placed it in its tier."""
    b = c.budget
    lines = []
    seeds = ", ".join(f"{s.from_} {s.uri}" for s in c.seeds) or "(no seeds: governance only)"
    lines.append(f"context of {seeds}")
    r = c.request
    lines.append(f"request: budget {r.budget_tokens:,} tokens, floor {fmt_number(r.floor)}, "
                 f"max_depth {r.max_depth}" + (", all blocking rules" if r.all_blocking_rules else ""))
    verdict = "OVER BUDGET: the required entries alone exceed the limit" if b.over_budget else \
        f"{b.remaining_tokens:,} left"
    lines.append(f"budget: {b.used_tokens:,} of {b.limit_tokens:,} tokens used "
                 f"({b.required_tokens:,} required); {verdict}")
    lines.append("")
    for t in b.tiers:
        lines.append(f"  {t.tier.value:<10} {_bar(t.tokens, b.limit_tokens)} {t.tokens:>7,} tok  "
                     f"{t.selected:>3} selected  {t.excluded:>3} cut for budget")
    lines.append("")
    lines.append(f"selected ({len(c.selected)}):")
    for e in c.selected:
        how = ", ".join(sorted({d.selector.value + (f"({d.edge})" if d.edge else "")
                                for d in e.discovered_by}))
        flag = " required" if e.required else ""
        rule = f"  ({tier_rules[e.uri]})" if tier_rules and e.uri in tier_rules else ""
        lines.append(f"  {e.tier.value:<10} {e.relevance:>5.3f} {e.cost_tokens:>6,} tok  "
                     f"{_short(e.uri)}{flag}  [{how}]{rule}")
    # An unresolved reference is both an exclusion and a diagnostic of the answer: it is
    # printed once, as the diagnostic (which carries the file and line).
    excluded = [x for x in c.excluded if x.reason is not ExclusionReason.unresolved]
    dangling = [d for d in c.diagnostics if d.code == "unresolved_reference"]
    others = [d for d in c.diagnostics if d.code != "unresolved_reference"]
    if excluded:
        lines.append("")
        lines.append(f"excluded ({len(excluded)}):")
        for x in excluded:
            lines.append(f"  {x.reason.value:<10} {x.cost_tokens:>6,} tok  {_short(x.uri)}")
            lines.append(f"             {x.detail}")
    dedup = [d for d in c.deduplicated if d.dropped]
    if dedup:
        lines.append("")
        lines.append(f"deduplicated ({len(dedup)}):")
        for d in dedup:
            lines.append(f"  {d.key:<8} kept {_short(d.kept)}; dropped "
                         f"{', '.join(_short(x) for x in d.dropped)}")
    if c.conflicts:
        lines.append("")
        lines.append(f"conflicts ({len(c.conflicts)}):")
        for k in c.conflicts:
            lines.append(f"  {k.kind:<10} {k.detail}")
    if dangling:
        lines.append("")
        lines.append(f"unresolved references ({len(dangling)}): named by what was reached, "
                     "held by nothing in the layer")
        for d in dangling:
            lines.append(f"  {d.location()}: {d.message}")
    if others:
        lines.append("")
        lines.append(f"diagnostics ({len(others)}):")
        for d in others:
            lines.append(f"  {d.location()}: {d.severity}: {d.message}")
    return "\n".join(lines) + "\n"


def render_explanation(e: Explanation, note: str | None = None) -> str:
    """The standing, its detail (request fields spelled as the CLI's flags), the budget it
    was judged under, and ``note`` (e.g. that no request was given) on a last line."""
    from .commands.requestopts import spell_for_cli

    b = e.budget
    text = (f"{e.uri}: {e.standing.value}\n{spell_for_cli(e.detail)}\n"
            f"(judged under a budget of {b.limit_tokens:,} tokens: {b.used_tokens:,} used, "
            f"{b.remaining_tokens:,} left{', over budget' if b.over_budget else ''})\n")
    return text + (f"{note}\n" if note else "")
