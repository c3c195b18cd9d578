"""Pictures drawn at build time as inline SVG: the budget of a context (the plan's picture
is :mod:`.plan.picture`), and the colours every picture shares.

Pure functions returning SVG markup. Every text in them is escaped here, because the
templates insert them with ``|safe``.
"""

from __future__ import annotations

from html import escape

from ..engine.models import Budget
from .i18n import _, format_count, ngettext

__all__ = ["budget_bar", "TIER_COLORS", "STATE_COLORS"]

TIER_COLORS = {
    "task": "#3b6fd8",
    "governance": "#7a4fd1",
    "source": "#1f9d8a",
    "decision": "#d1842a",
    "knowledge": "#c2477e",
    "history": "#7d8791",
}
STATE_COLORS = {
    "DONE": "#2e9d57",
    "VERIFY": "#1f8fb3",
    "ACTIVE": "#d8a31f",
    "READY": "#6a7fe0",
    "BLOCKED": "#d0453e",
    "CANCELLED": "#8b8f96",
}


def budget_bar(budget: Budget, required_by_tier: dict[str, int], width: int = 720) -> str:
    """One stacked bar: tokens per tier against the limit; required part hatched."""
    scale_max = max(budget.limit_tokens, budget.used_tokens, 1)
    height, bar_y, bar_h = 56, 8, 26
    px = lambda tokens: width * tokens / scale_max  # noqa: E731
    parts = [
        f'<svg class="budget-bar" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(_summary(budget))}" xmlns="http://www.w3.org/2000/svg">',
        "<defs><pattern id=\"req\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
        "patternTransform=\"rotate(45)\"><rect width=\"3\" height=\"6\" fill=\"rgba(255,255,255,.45)\"/>"
        "</pattern></defs>",
        f'<rect class="track" x="0" y="{bar_y}" width="{px(budget.limit_tokens):.1f}" '
        f'height="{bar_h}" rx="3"/>',
    ]
    x = 0.0
    for spend in budget.tiers:
        if spend.tokens <= 0:
            continue
        w = px(spend.tokens)
        color = TIER_COLORS[spend.tier.value]
        label = _tier_label(spend)
        parts.append(f'<g><title>{escape(label)}</title><rect x="{x:.1f}" y="{bar_y}" '
                     f'width="{w:.1f}" height="{bar_h}" fill="{color}"/>')
        req = required_by_tier.get(spend.tier.value, 0)
        if req:
            parts.append(f'<rect x="{x:.1f}" y="{bar_y}" width="{px(req):.1f}" height="{bar_h}" '
                         'fill="url(#req)"/>')
        parts.append("</g>")
        x += w
    lx = px(budget.limit_tokens)
    parts.append(f'<line class="limit" x1="{lx:.1f}" x2="{lx:.1f}" y1="2" y2="{bar_y + bar_h + 6}"/>')
    anchor = "end" if lx > width * 0.6 else "start"
    tx = lx - 4 if anchor == "end" else lx + 4
    parts.append(f'<text class="limit-label" x="{tx:.1f}" y="{height - 4}" text-anchor="{anchor}">'
                 + escape(_("limit {limit}").format(limit=format_count(budget.limit_tokens)))
                 + '</text>')
    parts.append("</svg>")
    return "".join(parts)


def _tier_label(spend) -> str:
    """``knowledge: 515 tokens, 2 selected`` (``, 1 required``): the tooltip of a tier's part."""
    tokens = ngettext("{n} token", "{n} tokens", spend.tokens).format(n=format_count(spend.tokens))
    if spend.required:
        return _("{tier}: {tokens}, {selected} selected, {required} required").format(
            tier=spend.tier.value, tokens=tokens, selected=format_count(spend.selected),
            required=format_count(spend.required))
    return _("{tier}: {tokens}, {selected} selected").format(
        tier=spend.tier.value, tokens=tokens, selected=format_count(spend.selected))


def _summary(b: Budget) -> str:
    values = {"used": format_count(b.used_tokens), "limit": format_count(b.limit_tokens),
              "required": format_count(b.required_tokens)}
    if b.over_budget:
        return _("{used} of {limit} tokens used, {required} required, over budget").format(**values)
    return _("{used} of {limit} tokens used, {required} required").format(**values)
