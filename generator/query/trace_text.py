"""A readable rendering of a :class:`Trace` for the terminal (``devcontext query``)."""

from __future__ import annotations

from .models import Trace

__all__ = ["render_trace"]


def render_trace(trace: Trace) -> str:
    """The trace as text: query, counts, order, hits with score and why, unresolved edges."""
    shown, matched = len(trace.hits), trace.candidates_matched
    lines = [f"query:    {trace.query}"]
    counts = f"counts:   {trace.candidates_scanned:,} scanned, {matched:,} matched, {shown:,} shown"
    if matched > shown:
        counts += f" ({matched - shown:,} more past the limit)"
    lines.append(counts)
    for i, rule in enumerate(trace.order_by, 1):
        lines.append(f"{'order by:' if i == 1 else '':<10}{i}. {rule}")
    lines.append("")
    if not trace.hits:
        lines.append("no hits")
    width = len(str(len(trace.hits)))
    for i, hit in enumerate(trace.hits, 1):
        lines.append(f"{i:>{width}}. {hit.anchor}  [{hit.kind}, score {hit.score}]")
        pad = " " * (width + 2)
        if hit.title:
            lines.append(f"{pad}{hit.title}")
        lines.append(f"{pad}why: {hit.why}")
    if trace.unresolved_edges:
        lines.append("")
        lines.append(f"unresolved edges ({len(trace.unresolved_edges)}):")
        for edge in trace.unresolved_edges:
            lines.append(f"  {edge.source}  {edge.field}: {edge.reference}")
            lines.append(f"      {edge.why}")
    return "\n".join(lines) + "\n"
