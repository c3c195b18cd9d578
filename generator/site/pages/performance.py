"""The performance page (``performance.html``): the latest ``make bench`` results the build
was given (``--bench-results``) — the operation matrix, the build and edit figures at each
layer size, the growth from 1× to 4×, the ratios against the peers — as tables and as SVG
charts drawn here. Rows are grouped by their ``figure`` tag; a figure the file does not hold
is named as absent, with the benchmark that writes it. Without a results file the page says
how to produce one.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ...benchresults import OPERATION_FIGURE, BenchResults, BenchRow
from ...operations.registry import OPERATIONS
from .. import urls
from ..charts import bar_chart, fmt_figure
from ..i18n import N_, _
from .kit import PageKit
from .reference import PHASES, STATS, TRANSPORT_LABELS, benchmark_matrix, reference_path

__all__ = ["PAGE", "EXPECTED_FIGURES", "growth", "performance_page", "performance_view",
           "row_label"]

PAGE = "performance.html"

#: The figures the page expects, in the order shown, with what each is and which benchmark
#: writes it.
EXPECTED_FIGURES = (
    ("operation", N_("Operations per transport"), "benchmarks/bench_transports.py"),
    ("build", N_("Build at each layer size"), "benchmarks/bench_scale.py"),
    ("edit", N_("An edit while serving"), "benchmarks/bench_serve.py"),
    ("peer", N_("Side by side with the peers"), "benchmarks/bench_peers.py"),
)
#: Tags shown first in a row's label, in this order; the others follow sorted.
TAG_ORDER = ("operation", "peer", "layer", "scale", "kind", "transport", "case", "phase", "stat")


def row_label(row: BenchRow) -> str:
    """What a row is, from its tags (not its figure): ``large · 4x``, ``hugo · medium``."""
    keys = [k for k in TAG_ORDER if k in row.tags]
    keys += sorted(k for k in row.tags if k not in TAG_ORDER and k != "figure")
    return " · ".join(row.tags[k] for k in keys) or row.name


def _scale(row: BenchRow) -> float | None:
    text = row.tags.get("scale", "")
    try:
        return float(text.rstrip("x×"))
    except ValueError:
        return None


def growth(rows: list[BenchRow]) -> list[dict[str, Any]]:
    """Per layer (and unit), the build figure at its smallest and largest scale and the
    ratio between them — 1× to 4× when both were measured (pure)."""
    groups: dict[tuple[str, str], list[tuple[float, BenchRow]]] = {}
    for row in rows:
        scale = _scale(row)
        if scale is None or row.value is None:
            continue
        rest = tuple(sorted((k, v) for k, v in row.tags.items()
                            if k not in ("figure", "scale")))
        groups.setdefault((" · ".join(v for _, v in rest), row.unit), []).append((scale, row))
    out = []
    for (label, unit), found in sorted(groups.items()):
        found.sort(key=lambda pair: pair[0])
        (low, first), (high, last) = found[0], found[-1]
        if high == low or not first.value:
            continue
        out.append({"label": label or first.name, "from": first.tags.get("scale", ""),
                    "to": last.tags.get("scale", ""),
                    "from_text": f"{fmt_figure(first.value)} {unit}",
                    "to_text": f"{fmt_figure(last.value)} {unit}",
                    "ratio": last.value / first.value,
                    "ratio_text": f"×{fmt_figure(last.value / first.value)}",
                    "linear_text": f"×{fmt_figure(high / low)}"})
    return out


def _charts(rows: list[BenchRow], title: str) -> list[Markup]:
    """One chart per unit (seconds and ratios are not drawn on one scale)."""
    by_unit: dict[str, list[tuple[str, float]]] = {}
    for row in rows:
        if row.value is not None:
            by_unit.setdefault(row.unit, []).append((row_label(row), row.value))
    return [Markup(bar_chart(bars, unit, f"{title} ({unit})" if unit else title))
            for unit, bars in sorted(by_unit.items())]


def _table(rows: list[BenchRow]) -> list[dict[str, Any]]:
    return [{"label": row_label(row), "name": row.name,
             "value": None if row.value is None else f"{fmt_figure(row.value)} {row.unit}".strip(),
             "note": row.note} for row in rows]


def _operations(results: BenchResults) -> list[dict[str, Any]]:
    """The operation matrix of every registry operation, and a chart of its warm p50s."""
    out = []
    for op in OPERATIONS:
        lines = []
        bars = []
        for row in benchmark_matrix(op, results):
            for case in row.cases:
                cells = []
                for phase in PHASES:
                    for stat in STATS:
                        v = case.figures[(phase, stat)]
                        cells.append(None if v is None else f"{fmt_figure(v)} {case.unit}")
                lines.append({"transport": _(TRANSPORT_LABELS[row.transport]),
                              "case": case.name, "cells": cells, "note": case.note})
                warm = case.figures[("warm", "p50")]
                if warm is not None:
                    bars.append((f"{case.name} · {row.transport}", warm))
        chart = Markup(bar_chart(bars, "ms", _("{operation}: warm p50 per case and transport")
                                 .format(operation=op.id)))
        out.append({"id": op.id, "href": urls.relative(PAGE, reference_path(op.id)),
                    "lines": lines, "chart": chart})
    return out


def performance_view(kit: PageKit) -> dict[str, Any]:
    results = kit.bench
    if results is None:
        return {"results": None}
    figures = results.figures()
    sections = []
    for name, title, writer in EXPECTED_FIGURES:
        rows = figures.get(name, [])
        section: dict[str, Any] = {"figure": name, "title": _(title), "writer": writer,
                                   "present": bool(rows), "count": len(rows)}
        if name == OPERATION_FIGURE:
            section["operations"] = _operations(results) if rows else []
        else:
            section["rows"] = _table(rows)
            section["charts"] = _charts(rows, _(title))
            section["growth"] = growth(rows) if name == "build" else []
        sections.append(section)
    known = {name for name, _t, _w in EXPECTED_FIGURES}
    others = [{"figure": name, "rows": _table(rows), "charts": _charts(rows, name)}
              for name, rows in figures.items() if name not in known]
    return {"results": results, "source": results.source, "total": len(results.rows),
            "sections": sections, "others": others, "untagged": _table(results.untagged()),
            "absent": [s for s in sections if not s["present"]],
            "reference_href": urls.relative(PAGE, "reference/index.html")}


def performance_page(kit: PageKit) -> bytes:
    return kit.render("performance.html", PAGE, title=_("Performance"), **performance_view(kit))
