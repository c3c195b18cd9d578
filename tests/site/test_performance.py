"""The performance page: the rows of a results file (written here, never timed) grouped by
figure, as tables and build-time SVG charts; absent figures named; no results file — how to
produce one. Checked in headless Chromium: the charts render, and no sideways scroll."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from browserkit import PageWatch

from generator.benchresults import parse_results
from generator.engine.compile import GitInfo
from generator.site.build import SiteInputs, build_site, page_kit
from generator.site.charts import bar_chart, fmt_figure
from generator.site.pages.performance import growth, performance_page, performance_view
from generator.workspace import Workspace
from generator.writer import write_site


def row(name, value, unit, tags, note=""):
    return {"name": name, "value": value, "unit": unit, "note": note, "tags": tags}


def results_rows(peers: bool = True) -> list[dict]:
    rows = [row("real: devcontext.explain policy direct warm p50", 0.0271, "ms",
                {"figure": "operation", "operation": "devcontext.explain", "transport": "direct",
                 "case": "policy", "phase": "warm", "stat": "p50"}),
            row("real: devcontext.explain policy http warm p50", 0.41, "ms",
                {"figure": "operation", "operation": "devcontext.explain", "transport": "http",
                 "case": "policy", "phase": "warm", "stat": "p50"})]
    for scale, seconds in (("1x", 30.0), ("2x", 61.0), ("4x", 126.0)):
        rows.append(row(f"build large {scale}", seconds, "s",
                        {"figure": "build", "layer": "large", "scale": scale}))
    rows.append(row("edit open p50", 0.182, "s", {"figure": "edit", "layer": "large",
                                                   "kind": "issue", "phase": "open",
                                                   "stat": "p50"}))
    if peers:
        rows.append(row("hugo medium ratio", 5.5, "×", {"figure": "peer", "peer": "hugo",
                                                        "layer": "medium"}))
        rows.append(row("mkdocs medium ratio", math.nan, "×",
                        {"figure": "peer", "peer": "mkdocs", "layer": "medium"},
                        "skipped: mkdocs is not installed"))
    rows.append(row("context cost p50", 3.2, "ms", {"figure": "context"}))
    rows.append(row("an old untagged row", 12.0, "MB", {}))
    return rows


def results(peers: bool = True):
    return parse_results(json.dumps(results_rows(peers)).encode(), ".bench/results.json")


@pytest.fixture(scope="module")
def index():
    return Workspace.open().index


def page_text(kit) -> str:
    import re
    html = performance_page(kit).decode()
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_every_figure_group_is_shown(index):
    text = page_text(page_kit(SiteInputs(index=index, bench=results())))
    assert "The latest figures of .bench/results.json: 10 rows" in text
    assert "Operations per transport" in text
    assert "direct (in-process call) policy not measured not measured 0.027 ms" in text
    assert "large · 1x 30.0 s" in text and "large · 4x 126 s" in text
    assert "large 1x: 30.0 s 4x: 126 s ×4.20 ×4.00" in text  # growth 1× → 4×
    assert "large · issue · open · p50 0.182 s" in text
    assert "hugo · medium 5.50 ×" in text
    assert "mkdocs · medium not measured skipped: mkdocs is not installed" in text
    assert "Other figure: context" in text
    assert "Rows without a figure tag an old untagged row" in text or \
        "an old untagged row" in text
    assert "Not in this results file" not in text


def test_absent_figures_are_named_with_their_benchmark(index):
    text = page_text(page_kit(SiteInputs(index=index, bench=results(peers=False))))
    assert "Not in this results file: Side by side with the peers — written by " \
        "benchmarks/bench_peers.py." in text
    assert "Build at each layer size — written by" not in text


def test_without_results_it_says_how_to_produce_them(index):
    text = page_text(page_kit(SiteInputs(index=index)))
    assert "This build was given no benchmark results" in text
    assert "run make bench in the devcontext checkout" in text
    assert "--bench-results FILE" in text
    assert "<svg" not in performance_page(page_kit(SiteInputs(index=index))).decode()


def test_charts_are_svg_drawn_at_build_time(index):
    view = performance_view(page_kit(SiteInputs(index=index, bench=results())))
    build = next(s for s in view["sections"] if s["figure"] == "build")
    (chart,) = build["charts"]
    assert chart.startswith('<svg class="chart"') and chart.count('class="chart-bar"') == 3
    assert "<script" not in chart
    explain = next(o for o in next(s for s in view["sections"] if s["figure"] == "operation")
                   ["operations"] if o["id"] == "devcontext.explain")
    assert explain["chart"].count('class="chart-bar"') == 2


def test_growth_is_largest_over_smallest_scale():
    rows = results().figures()["build"]
    (g,) = growth(rows)
    assert (g["from"], g["to"], round(g["ratio"], 3)) == ("1x", "4x", 4.2)


def test_a_chart_escapes_its_labels_and_scales_to_the_largest():
    svg = bar_chart([("<b>a</b>", 2.0), ("b", 4.0)], "ms", "t & u")
    assert "<b>" not in svg and "&lt;b&gt;a&lt;/b&gt;" in svg and 'aria-label="t &amp; u"' in svg
    assert 'width="370.0"' in svg  # the largest spans the whole bar area
    assert bar_chart([], "ms", "none") == ""
    assert [fmt_figure(v) for v in (0.0271, 3.954, 41.25, 1204.4)] == \
        ["0.027", "3.95", "41.2", "1,204"]


# -- in a real browser ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("performance-site")
    ws = Workspace.open(None, exclude=[out])
    write_site(build_site(SiteInputs(index=ws.index, git=GitInfo(), files=ws.tree.files,
                                     label="demo layer (nimbus)", bench=results())), out)
    return out


@pytest.mark.parametrize("width", [1400, 390])
def test_the_charts_render_without_sideways_scroll(browser, site, width):
    watch = PageWatch(browser)
    try:
        watch.page.set_viewport_size({"width": width, "height": 900})
        for rel in ("performance.html", "reference/devcontext.explain.html"):
            page = watch.open((site / rel).as_uri())
            boxes = page.evaluate("""() => [...document.querySelectorAll('svg.chart')]
                .map(s => { const r = s.getBoundingClientRect(); return [r.width, r.height]; })""")
            if rel == "performance.html":
                assert len(boxes) >= 5, boxes
                assert all(w > 100 and h > 10 for w, h in boxes), boxes
            scroll, inner = page.evaluate(
                "[document.documentElement.scrollWidth, window.innerWidth]")
            assert scroll <= inner, (rel, width, scroll, inner)
        assert watch.errors == []
    finally:
        watch.close()
