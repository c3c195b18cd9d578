"""Charts of benchmark figures, drawn at build time as inline SVG (no script, no CDN).

Pure functions returning SVG markup; every text in them is escaped here, because the
templates insert them with ``|safe``. A chart scales to its box (``viewBox`` and a CSS
width of 100%), so it never makes a page scroll sideways.
"""

from __future__ import annotations

from functools import cache
from html import escape
from typing import Sequence

from babel import Locale

from . import i18n

__all__ = ["bar_chart", "fmt_figure"]

WIDTH = 720
LABEL_W = 260
VALUE_W = 90
BAR_H = 18
GAP = 8
TOP = 6
#: Longer labels are cut (with an ellipsis) in the picture; the whole one is in its title.
LABEL_CHARS = 38


def fmt_figure(value: float) -> str:
    """A measured figure as the tables and charts show it: three significant digits or
    whole numbers with thousands separated (``0.027``, ``3.95``, ``41.2``, ``1,204``), with
    the page's language's decimal sign and grouping (Czech ``0,027``, ``1 204``)."""
    size = abs(value)
    if size >= 100:
        text = f"{value:,.0f}"
    elif size >= 10:
        text = f"{value:.1f}"
    elif size >= 1:
        text = f"{value:.2f}"
    else:
        text = f"{value:.3f}"
    code = i18n.language()
    if code == i18n.DEFAULT_LANGUAGE:
        return text
    group, decimal = _symbols(code)
    return text.replace(",", "\0").replace(".", decimal).replace("\0", group)


@cache
def _symbols(code: str) -> tuple[str, str]:
    """The language's group and decimal signs (Czech: a non-breaking space and a comma)."""
    symbols = Locale.parse(code).number_symbols["latn"]
    return symbols["group"], symbols["decimal"]


def bar_chart(bars: Sequence[tuple[str, float]], unit: str, title: str) -> str:
    """One horizontal bar per ``(label, value)``, in the order given, on one scale from
    zero to the largest value; ``title`` is the chart's accessible name."""
    if not bars:
        return ""
    largest = max((v for _, v in bars), default=0.0) or 1.0
    span = WIDTH - LABEL_W - VALUE_W
    height = TOP * 2 + len(bars) * (BAR_H + GAP) - GAP
    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" '
             f'height="{height}" role="img" aria-label="{escape(title)}" '
             'xmlns="http://www.w3.org/2000/svg">',
             f"<title>{escape(title)}</title>"]
    for i, (label, value) in enumerate(bars):
        y = TOP + i * (BAR_H + GAP)
        w = max(1.0, span * max(value, 0.0) / largest)
        shown = label if len(label) <= LABEL_CHARS else label[: LABEL_CHARS - 1] + "…"
        text = f"{fmt_figure(value)} {unit}".strip()
        parts.append(
            f'<g><title>{escape(label)}: {escape(text)}</title>'
            f'<text class="chart-label" x="{LABEL_W - 8}" y="{y + BAR_H - 4}" '
            f'text-anchor="end">{escape(shown)}</text>'
            f'<rect class="chart-bar" x="{LABEL_W}" y="{y}" width="{w:.1f}" height="{BAR_H}" '
            'rx="2"/>'
            f'<text class="chart-value" x="{LABEL_W + w + 6:.1f}" y="{y + BAR_H - 4}">'
            f"{escape(text)}</text></g>")
    parts.append("</svg>")
    return "".join(parts)
