"""The context page's "Copy context" button in headless Chromium: over http it puts the
pack in the clipboard; from file://, where fetch() of a local file fails, it fills the
read-only text area with the pack."""

from __future__ import annotations

from pathlib import Path

import pytest

from browserkit import PageWatch, static_host
from generator.site import urls
from sitekit import build

CONTEXTS = [("issue", "I0201"), ("milestone", "offline-reads")]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return build(None, tmp_path_factory.mktemp("copy") / "base" / "site")


@pytest.fixture(scope="module")
def served(site):
    """The site over HTTP under /base/site/ (a plain static host)."""
    with static_host(site) as url:
        yield url


def _pack(site: Path, kind: str, identity: str) -> str:
    return (site / urls.context_pack(kind, identity)).read_text(encoding="utf-8")


@pytest.mark.parametrize("kind, identity", CONTEXTS)
def test_copy_context_over_http_puts_the_pack_in_the_clipboard(browser, site, served, kind, identity):
    origin = served.split("/base/")[0]
    watch = PageWatch(browser)
    watch.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
    try:
        page = watch.open(served + urls.context_page(kind, identity))
        page.evaluate("navigator.clipboard.writeText('before')")
        page.get_by_role("button", name="Copy context").click()
        status = page.locator("#pack-status")
        status.filter(has_text="Copied the context to the clipboard.").wait_for(timeout=10_000)
        clipboard = page.evaluate("navigator.clipboard.readText()")
        assert clipboard == _pack(site, kind, identity)
        assert clipboard.startswith(f"# Development context: {kind} {identity}\n")
        assert page.locator("#pack-text").is_hidden()
        assert watch.errors == []
    finally:
        watch.close()


def test_the_download_link_serves_the_pack_over_http(browser, site, served):
    watch = PageWatch(browser, accept_downloads=True)
    try:
        page = watch.open(served + urls.context_page("issue", "I0201"))
        with page.expect_download() as info:
            page.get_by_role("link", name="download the pack").click()
        download = info.value
        assert download.suggested_filename == "I0201.pack.md"
        assert Path(download.path()).read_text(encoding="utf-8") == _pack(site, "issue", "I0201")
        assert watch.errors == []
    finally:
        watch.close()


@pytest.mark.parametrize("kind, identity", CONTEXTS)
def test_copy_context_from_file_fills_the_text_area_with_the_pack(browser, site, kind, identity):
    watch = PageWatch(browser)
    try:
        page = watch.open((site / urls.context_page(kind, identity)).as_uri())
        area = page.locator("#pack-text")
        assert area.is_hidden() and area.input_value() == ""
        page.get_by_role("button", name="Copy context").click()
        area.wait_for(state="visible", timeout=10_000)
        assert area.input_value() == _pack(site, kind, identity)
        assert area.get_attribute("readonly") is not None
        # selected whole, ready to copy by hand
        assert page.evaluate("[document.activeElement.id, document.activeElement.selectionStart,"
                             " document.activeElement.selectionEnd]") == [
            "pack-text", 0, len(area.input_value())]
        assert "context" in page.locator("#pack-status").inner_text()
        assert watch.errors == []
    finally:
        watch.close()


def test_from_file_a_missing_pack_script_says_what_to_do(browser, site, tmp_path):
    """A copied page whose pack script did not come along: the status names the fix."""
    import shutil

    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    (copy / urls.context_pack_script("issue", "I0201")).unlink()
    watch = PageWatch(browser)
    try:
        page = watch.open((copy / urls.context_page("issue", "I0201")).as_uri())
        page.get_by_role("button", name="Copy context").click()
        status = page.locator("#pack-status")
        status.filter(has_text="open the pack file and copy it").wait_for(timeout=10_000)
        assert page.locator("#pack-text").is_hidden()
        # the browser's own report of the missing file, and nothing else
        assert watch.errors and all("I0201.pack.js" in e or "ERR_FILE_NOT_FOUND" in e
                                    for e in watch.errors), watch.errors
    finally:
        watch.close()
