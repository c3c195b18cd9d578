"""The pages as a person sees them: headless Chromium, no console errors, from file://
and over HTTP under a base path."""

from __future__ import annotations

from pathlib import Path

import pytest

from browserkit import PageWatch, static_host
from sitekit import build

PAGES = [
    "index.html",
    "contexts/issue/I0201.html",
    "contexts/milestone/offline-reads.html",
    "objects/rule/project.stale-data-is-labelled@2.html",
    "objects/adr/adr-0005.html",
    "plan.html",
    "diagnostics.html",
    "search.html",
]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("browser")
    return build(None, root / "base" / "site")


@pytest.fixture(scope="module")
def served(site):
    """The site served over HTTP under the base path /base/site/."""
    with static_host(site) as url:
        yield url


@pytest.mark.parametrize("page", PAGES)
def test_pages_render_from_file_without_console_errors(browser, site, page, tmp_path):
    watch = PageWatch(browser)
    try:
        p = watch.open((site / page).as_uri())
        assert p.locator("h1").count() == 1
        assert p.locator("header.top nav a").count() == 6  # kit.NAV: with Reference, Performance
        p.screenshot(path=str(tmp_path / "page.png"), full_page=False)
        assert watch.errors == []
    finally:
        watch.close()


def test_pages_work_over_http_under_a_base_path(browser, served):
    watch = PageWatch(browser)
    try:
        p = watch.open(served + "contexts/issue/I0201.html")
        p.get_by_role("link", name="Dashboard").first.click()
        p.wait_for_load_state("load")
        assert p.url == served + "index.html"
        p.locator("a[href$='plan.html']").first.click()
        p.wait_for_load_state("load")
        assert p.url.endswith("/base/site/plan.html")
        assert watch.errors == []
    finally:
        watch.close()


def test_the_budget_picture_and_anchors_are_visible(browser, site):
    watch = PageWatch(browser)
    try:
        p = watch.open((site / "contexts/issue/I0201.html").as_uri() + "#x-issue~2FI0104")
        assert p.locator("svg.budget-bar").is_visible()
        target = p.locator("[id='x-issue~2FI0104']")
        assert target.count() == 1 and target.is_visible()
        assert watch.errors == []
    finally:
        watch.close()
