"""The pages at a desk and in a hand: no page of the real layer or the demo scrolls sideways at
1,400 or 390 px, the diagnostics page narrows to one code without script, the dashboard
links there, and search shows every match on request. Headless Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

from browserkit import PageWatch
from sitekit import build

WIDTHS = (1400, 390)
WIDTH = "[document.documentElement.scrollWidth, window.innerWidth]"


# Computed here, not imported from conftest: a whole run has several conftest modules, and
# `from conftest import` picks whichever was imported first (tests/query's has no REAL_LAYER).
REAL_LAYER = Path(__file__).resolve().parents[3] / "shared" / "data" / "majordomus-layer"


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory) -> Path:
    return build(None, tmp_path_factory.mktemp("demo") / "site")


@pytest.fixture(scope="module")
def real_site(tmp_path_factory) -> Path:
    if not (REAL_LAYER / ".ai" / "manifest.yaml").is_file():
        pytest.skip("../shared/data/majordomus-layer is not present")
    return build(REAL_LAYER, tmp_path_factory.mktemp("real") / "site")


def every_page_kind(site: Path) -> list[str]:
    """One page of each kind: the overview pages, a context of an issue and of a milestone,
    the first object page of every kind, the largest kind index, and search with results."""
    first = lambda pattern: sorted(p.relative_to(site).as_posix() for p in site.glob(pattern))[0]  # noqa: E731
    pages = ["index.html", "plan.html", "diagnostics.html", "404.html", "search.html?q=the+rule+session",
             first("contexts/issue/*.html"), first("contexts/milestone/*.html")]
    pages += [first(f"objects/{kind.name}/*.html") for kind in sorted((site / "objects").iterdir())]
    pages.append(max((p for p in site.glob("kinds/*.html")), key=lambda p: p.stat().st_size)
                 .relative_to(site).as_posix())
    return pages


def overflowing(browser, site: Path, width: int) -> list[str]:
    watch = PageWatch(browser)
    watch.page.set_viewport_size({"width": width, "height": 900})
    wide = []
    try:
        for rel in every_page_kind(site):
            path, _, query = rel.partition("?")
            page = watch.open((site / path).as_uri() + (f"?{query}" if query else ""))
            if query:
                page.wait_for_selector("#search-results li.search-hit")
            scroll, inner = page.evaluate(WIDTH)
            if scroll > inner:
                wide.append(f"{rel}: {scroll} px wide in a {inner} px window")
        assert watch.errors == []  # (a fetch the next page cancels is not one: PageWatch)
    finally:
        watch.close()
    return wide


@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_of_the_real_layer_scrolls_sideways(browser, real_site, width):
    assert overflowing(browser, real_site, width) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_of_the_demo_scrolls_sideways(browser, demo_site, width):
    assert overflowing(browser, demo_site, width) == []


def _shown(page) -> list[str]:
    """The codes of the diagnostics a reader sees."""
    return page.eval_on_selector_all(
        "li.diag", "els => els.filter(e => e.offsetParent !== null)"
                   ".map(e => e.querySelector('code').textContent)")


def test_a_diagnostic_code_narrows_the_list_without_script(browser, demo_site):
    page = browser.new_page(java_script_enabled=False)
    try:
        page.goto((demo_site / "diagnostics.html").as_uri())
        everything = _shown(page)
        assert len(everything) == 6 and len(set(everything)) == 4
        page.click("nav.filters a#code-id_mismatch")
        assert page.url.endswith("diagnostics.html#code-id_mismatch")
        assert _shown(page) == [c for c in everything if c == "id_mismatch"] != []
        hidden = page.eval_on_selector_all(
            "section.diag-file", "els => els.filter(e => e.offsetParent === null).length")
        assert hidden == len({*page.eval_on_selector_all("section.diag-file", "els => els.map(e => e.id)")}) - \
            len(page.eval_on_selector_all("section.diag-file.code-id_mismatch", "els => els"))
        page.click("nav.filters a#all")
        assert _shown(page) == everything
    finally:
        page.close()


def test_the_dashboard_counts_unresolved_references_per_file_and_links_to_them(browser, demo_site):
    page = browser.new_page(java_script_enabled=False)
    try:
        page.goto((demo_site / "index.html").as_uri())
        rows = page.locator("#unresolved tbody tr")
        assert rows.count() >= 1 and page.locator("#unresolved code").count() == 0
        page.click("#unresolved p a")  # "on the diagnostics page"
        assert page.url.endswith("diagnostics.html#code-unresolved_reference")
        assert set(_shown(page)) == {"unresolved_reference"}
        page.go_back()
        page.locator("#unresolved tbody tr a").first.click()
        fragment = page.url.split("#", 1)[1]
        assert fragment.startswith("f-") and page.locator(f"section[id='{fragment}']").is_visible()
    finally:
        page.close()


def test_search_shows_every_match_on_request(browser, demo_site):
    watch = PageWatch(browser)
    try:
        page = watch.open((demo_site / "search.html").as_uri())
        page.fill("#q", "station cache")
        counts = page.locator(".search-counts")
        assert counts.inner_text() == "20 shown of 29 matched; 80 scanned. Show all 29"
        page.get_by_role("button", name="Show all 29").click()
        assert counts.inner_text() == "29 shown of 29 matched; 80 scanned."
        assert page.locator("li.search-hit").count() == 29
        assert "limit=29" in page.locator(".search-query code").inner_text()
        page.fill("#q", "station cache ")  # a new query starts at the default cap again
        assert page.locator("li.search-hit").count() == 20
        assert watch.errors == []
    finally:
        watch.close()


def test_search_past_the_engines_cap_says_how_to_see_the_rest(browser, real_site):
    watch = PageWatch(browser)
    try:
        page = watch.open((real_site / "search.html").as_uri() + "?q=re")
        counts = page.locator(".search-counts")
        matched = int(counts.inner_text().split(" of ", 1)[1].split(" ", 1)[0])
        assert matched > 100
        page.get_by_role("button", name=f"Show the first 100 of {matched}").click()
        assert page.locator("li.search-hit").count() == 100
        assert counts.inner_text().endswith(
            "A query returns at most 100 hits; add words to narrow it to the rest.")
        assert watch.errors == []
    finally:
        watch.close()
