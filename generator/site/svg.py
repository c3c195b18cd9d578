"""Pictures drawn at build time as inline SVG: the budget of a context, and the plan.

Pure functions returning SVG markup. Every text in them is escaped here, because the
templates insert them with ``|safe``.
"""

from __future__ import annotations

import sys

from html import escape
from typing import Sequence

from ..engine.models import Budget

__all__ = ["budget_bar", "plan_graph", "TIER_COLORS", "STATE_COLORS"]

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
        label = (f"{spend.tier.value}: {spend.tokens:,} tokens, {spend.selected} selected"
                 + (f", {spend.required} required" if spend.required else ""))
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
                 f'limit {budget.limit_tokens:,}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _summary(b: Budget) -> str:
    return (f"{b.used_tokens:,} of {b.limit_tokens:,} tokens used, {b.required_tokens:,} required"
            + (", over budget" if b.over_budget else ""))


def plan_graph(nodes: Sequence[dict], edges: Sequence[tuple[str, str]]) -> str:
    """A layered drawing of the milestone graph.

    ``nodes``: dicts with ``id``, ``label``, ``href``, ``counts`` (state -> n). ``edges``:
    (from, to) meaning *from depends on to*; prerequisites are drawn to the left. Layers by
    longest dependency chain; order within a layer by a few barycentre sweeps; nodes on a
    cycle or with missing prerequisites still get a place.
    """
    ids = [n["id"] for n in nodes]
    known = set(ids)
    deps = {i: sorted({t for f, t in edges if f == i and t in known and t != i}) for i in ids}
    layer = _layers(ids, deps)
    columns: dict[int, list[str]] = {}
    for i in ids:
        columns.setdefault(layer[i], []).append(i)
    position = _order(columns, deps)
    n_cols = max(columns) + 1 if columns else 1
    n_rows = max((len(c) for c in columns.values()), default=1)
    width = _PAD * 2 + n_cols * _BOX_W + (n_cols - 1) * _GAP_X
    height = _PAD * 2 + n_rows * _BOX_H + (n_rows - 1) * _GAP_Y
    xy = {i: (_PAD + layer[i] * (_BOX_W + _GAP_X), _PAD + position[i] * (_BOX_H + _GAP_Y)) for i in ids}
    by_id = {n["id"]: n for n in nodes}
    out = [f'<svg class="plan-graph" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" role="img" aria-label="milestone dependency graph" '
           'xmlns="http://www.w3.org/2000/svg">']
    out.append('<defs><marker id="arrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" '
               'markerHeight="7" orient="auto"><path d="M0,0 L8,4 L0,8 z" class="arrowhead"/>'
               '</marker></defs>')
    for f in ids:
        for t in deps[f]:
            out.append(_arrow(xy[t], xy[f]))
    for i in ids:
        out.append(_node(by_id[i], *xy[i]))
    out.append("</svg>")
    return "".join(out)


_BOX_W, _BOX_H, _GAP_X, _GAP_Y, _PAD = 190, 44, 70, 14, 10


def _layers(ids: list[str], deps: dict[str, list[str]]) -> dict[str, int]:
    """Each node's layer: the length of its longest chain of prerequisites (a cycle is
    cut where it closes)."""
    layer: dict[str, int] = {}

    def depth(node: str, trail: frozenset) -> int:
        if node in layer:
            return layer[node]
        if node in trail:
            return 0
        d = 0
        for t in deps[node]:
            d = max(d, depth(t, trail | {node}) + 1)
        layer[node] = d
        return d

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for i in ids:
            depth(i, frozenset())
    finally:
        sys.setrecursionlimit(limit)
    return layer


def _order(columns: dict[int, list[str]], deps: dict[str, list[str]]) -> dict[str, int]:
    """Each node's row within its layer: sorted, then a few barycentre sweeps (sorts the
    columns in place)."""
    for col in columns.values():
        col.sort()
    position = {i: idx for col in columns.values() for idx, i in enumerate(col)}
    for _ in range(4):
        for c in sorted(columns):
            if c == 0:
                continue
            col = columns[c]
            col.sort(key=lambda i: (sum(position[t] for t in deps[i]) / len(deps[i])
                                    if deps[i] else position[i], i))
            for idx, i in enumerate(col):
                position[i] = idx
    return position


def _arrow(start: tuple[int, int], end: tuple[int, int]) -> str:
    (x1, y1), (x2, y2) = start, end
    sx, sy = x1 + _BOX_W, y1 + _BOX_H / 2
    ex, ey = x2, y2 + _BOX_H / 2
    mid = (sx + ex) / 2
    return (f'<path class="dep" d="M{sx:.0f},{sy:.0f} C{mid:.0f},{sy:.0f} '
            f'{mid:.0f},{ey:.0f} {ex:.0f},{ey:.0f}" marker-end="url(#arrow)"/>')


def _node(node: dict, x: int, y: int) -> str:
    label = node["label"]
    short = label if len(label) <= 28 else label[:27] + "…"
    counts = node.get("counts", {})
    total = sum(counts.values())
    out = [f'<a href="{escape(node["href"])}"><g class="node">'
           f'<title>{escape(label)} — {escape(_counts_text(counts))}</title>'
           f'<rect x="{x}" y="{y}" width="{_BOX_W}" height="{_BOX_H}" rx="5"/>'
           f'<text x="{x + 8}" y="{y + 17}">{escape(short)}</text>']
    if total:
        bx = float(x + 8)
        bw = _BOX_W - 16
        for state in STATE_COLORS:
            n = counts.get(state, 0)
            if n:
                w = bw * n / total
                out.append(f'<rect x="{bx:.1f}" y="{y + 27}" width="{w:.1f}" height="8" '
                           f'fill="{STATE_COLORS[state]}"/>')
                bx += w
    out.append("</g></a>")
    return "".join(out)


def _counts_text(counts: dict[str, int]) -> str:
    if not counts:
        return "no issues"
    return ", ".join(f"{n} {s}" for s, n in counts.items() if n)
