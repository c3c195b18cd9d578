"""Query: the static search index of the large synthetic layer, Python query latency, and the
browser's time to first result (page with the index embedded → first hit rendered)."""

from __future__ import annotations

import gzip
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from generator.jsonio import canonical_json
from generator.query import cross_ref_query, text_query
from generator.query.search_index import build_search_index, embedded_script
from generator.query.text import corpus
from generator.workspace import Workspace

from .layers import synthetic

ROOT = Path(__file__).resolve().parents[1]
SEARCH_JS = ROOT / "templates" / "static" / "search.js"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
#: Mixed queries: common and rare words, ids, several terms, a term that matches nothing.
QUERIES = ["cache", "reports adapters backoff budget", "I0042", "schema check", "checksum",
           "observable end to end", "network", "zzzz", "session", "the fixture set doubles",
           "render lock audit trail", "adr-0100", "tests", "re"]
RUNS = 7
PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>search</title>
{index}</head><body><input id="search-input"><div id="search-results"></div>
<script src="search.js"></script></body></html>"""


def _url(obj) -> str:
    """A representative page URL (the site fills the real ones)."""
    return f"objects/{obj.kind}/{obj.identity}.html"


def _browser(report, data: dict) -> None:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        report("browser: time to first result", float("nan"), "ms", "skipped: no playwright")
        return
    with tempfile.TemporaryDirectory() as tmp:
        page_path = Path(tmp) / "search.html"
        page_path.write_text(PAGE.format(index=embedded_script(data)), encoding="utf-8")
        shutil.copy(SEARCH_JS, Path(tmp) / "search.js")
        with sync_playwright() as pw:
            try:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            except Exception as exc:  # noqa: BLE001
                report("browser: time to first result", float("nan"), "ms",
                       f"skipped: {type(exc).__name__}")
                return
            walls, marks, typed, parsed, ready = [], [], [], [], []
            for _ in range(RUNS):
                page = browser.new_page()
                t0 = time.perf_counter()
                page.goto(page_path.as_uri() + "?q=cache")
                page.wait_for_selector(".search-hit")
                walls.append((time.perf_counter() - t0) * 1000)
                times = page.evaluate("""() => [
                    performance.getEntriesByType('navigation')[0].domInteractive,
                    performance.getEntriesByName('search:ready')[0].startTime,
                    performance.getEntriesByName('search:first-result')[0].startTime]""")
                parsed.append(times[0])
                ready.append(times[1])
                marks.append(times[2])
                # One more query once loaded: a keystroke's cost.
                t0 = time.perf_counter()
                page.evaluate("""() => { const i = document.getElementById('search-input');
                    i.value = 'reports adapters backoff budget';
                    i.dispatchEvent(new Event('input')); }""")
                page.wait_for_selector("text=terms=[reports adapters backoff budget]")
                typed.append((time.perf_counter() - t0) * 1000)
                page.close()
            browser.close()
    report("browser: time to first result (navigation → first hit)", statistics.median(marks),
           "ms", f"median of {RUNS}, in-page (best {min(marks):,.0f}); wall incl. driver "
           f"{statistics.median(walls):,.0f} ms")
    report("browser:   page parsed (index embedded in the HTML)", statistics.median(parsed), "ms",
           "domInteractive")
    report("browser:   index parsed and folded", statistics.median(ready), "ms",
           "since navigation start")
    report("browser: one more query once loaded", statistics.median(typed), "ms",
           f"median of {RUNS}, 4 terms, incl. rendering and driver round trip")


def main(report) -> None:
    index = Workspace.open(synthetic("large")).index
    t0 = time.perf_counter()
    corpus(index)
    report("large: fold every object once (first query)", time.perf_counter() - t0, "s",
           f"{len(index.objects):,} objects")
    data = build_search_index(index, url_for=_url)
    raw = canonical_json(data)
    report("large: search index bytes (with url)", len(raw), "B",
           f"gzip {len(gzip.compress(raw)):,} B")
    bare = canonical_json(build_search_index(index))
    report("large: search index bytes (url null)", len(bare), "B",
           f"gzip {len(gzip.compress(bare)):,} B")

    times = []
    for _ in range(5):
        for q in QUERIES:
            t0 = time.perf_counter()
            text_query(index, q)
            times.append(time.perf_counter() - t0)
    times.sort()
    report("large: Python text query p50", statistics.median(times) * 1000, "ms",
           f"{len(QUERIES)} queries × 5")
    report("large: Python text query p95", times[int(len(times) * 0.95)] * 1000, "ms")
    walks = []
    for start in ("I0001", "I5000", "I9999"):
        t0 = time.perf_counter()
        cross_ref_query(index, start, 5)
        walks.append(time.perf_counter() - t0)
    report("large: Python cross_ref depth 5 (median of 3)", statistics.median(walks) * 1000, "ms")
    _browser(report, data)
