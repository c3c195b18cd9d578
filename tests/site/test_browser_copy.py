"""The context page's "Copy context" button in headless Chromium: over http it fetches the
pack (``.pack.md``, the one copy of its text) into the clipboard; from file://, where no
script may read a local file, it loads the pack's script (the same bytes deflated, in
base64), inflates it, puts it in the clipboard and fills the read-only text area with it.
Both ways also on a pack whose text breaks naive embedding: ``</script>``, backticks,
``${``, U+2028 and U+2029, non-ASCII. (A NUL and a carriage return, which a text area
cannot show as they are, are the script's own test in test_pack_site.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from browserkit import PageWatch, static_host
from generator.site import urls
from layerkit import issue, write_layer
from sitekit import build

#: A file whose text would end or change a naive embedding in a page or a script.
BREAKING = ("echo '</script><script>alert(1)</script>' `uname` ${HOME} \u2028 \u2029 "
            "P\u0159\u00edli\u0161 \u017elu\u0165ou\u010dk\u00fd k\u016f\u0148 \U0001f600 "
            "\"quoted\" \\ <!-- --> '\\u2028' end\n")

CONTEXTS = [("demo", "issue", "I0201"), ("demo", "milestone", "offline-reads"),
            ("breaking", "issue", "I0001")]


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("copy")
    repo = write_layer(root / "repo", {
        "lib/breaking.sh": BREAKING.encode("utf-8"),
        ".ai/repo/project/issues/I0001.yaml": issue("I0001", milestone="'-'", scope=["lib"]),
    })
    return {"demo": build(None, root / "base" / "site"),
            "breaking": build(repo, root / "breaking" / "base" / "site")}


@pytest.fixture(scope="module")
def site(sites) -> Path:
    return sites["demo"]


@pytest.fixture(scope="module")
def hosts(sites):
    """Each site over HTTP under /base/site/ (a plain static host)."""
    with static_host(sites["demo"]) as demo, static_host(sites["breaking"]) as breaking:
        yield {"demo": demo, "breaking": breaking}


@pytest.fixture(scope="module")
def served(hosts):
    return hosts["demo"]


def test_the_breaking_pack_carries_every_breaking_character(sites):
    text = _pack(sites["breaking"], "issue", "I0001")
    assert BREAKING in text
    for part in ("</script>", "`uname`", "${HOME}", "\u2028", "\u2029", "\u017elu\u0165ou\u010dk\u00fd",
                 "\U0001f600"):
        assert part in text, repr(part)


def _pack(site: Path, kind: str, identity: str) -> str:
    return (site / urls.context_pack(kind, identity)).read_text(encoding="utf-8")


@pytest.mark.parametrize("layer, kind, identity", CONTEXTS)
def test_copy_context_over_http_puts_the_pack_in_the_clipboard(browser, sites, hosts, layer, kind, identity):
    site, served = sites[layer], hosts[layer]
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


@pytest.mark.parametrize("layer, kind, identity", CONTEXTS)
def test_copy_context_from_file_fills_the_text_area_with_the_pack(browser, sites, layer, kind, identity):
    site = sites[layer]
    watch = PageWatch(browser)
    try:
        page = watch.open((site / urls.context_page(kind, identity)).as_uri())
        area = page.locator("#pack-text")
        assert area.is_hidden() and area.input_value() == ""
        page.get_by_role("button", name="Copy context").click()
        area.wait_for(state="visible", timeout=10_000)
        assert area.input_value() == _pack(site, kind, identity)
        assert area.get_attribute("readonly") is not None
        # selected whole, ready to copy by hand (the length in UTF-16 units, as the browser counts)
        assert page.evaluate("[document.activeElement.id, document.activeElement.selectionStart,"
                             " document.activeElement.selectionEnd]") == [
            "pack-text", 0, page.evaluate("document.getElementById('pack-text').value.length")]
        assert "context" in page.locator("#pack-status").inner_text()
        assert watch.errors == []
    finally:
        watch.close()


@pytest.mark.parametrize("layer, kind, identity", CONTEXTS)
def test_copy_context_from_file_puts_the_pack_in_the_clipboard_in_one_click(browser, sites, layer, kind, identity):
    """Where the clipboard may be written (Chromium grants it to a click), the one click
    copies the inflated pack from file:// too; the text area shows it besides."""
    site = sites[layer]
    watch = PageWatch(browser)
    watch.context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        page = watch.open((site / urls.context_page(kind, identity)).as_uri())
        page.evaluate("navigator.clipboard.writeText('before')")
        page.get_by_role("button", name="Copy context").click()
        page.locator("#pack-status").filter(
            has_text="Copied the context to the clipboard; it is also below.").wait_for(timeout=10_000)
        assert page.evaluate("navigator.clipboard.readText()") == _pack(site, kind, identity)
        assert page.locator("#pack-text").is_visible()
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
        status.filter(has_text="The context could not be loaded here: open the pack file "
                             "contexts/issue/I0201.pack.md and copy it.").wait_for(timeout=10_000)
        assert page.locator("#pack-text").is_hidden()
        # the browser's own report of the missing file, and nothing else
        assert watch.errors and all("I0201.pack.js" in e or "ERR_FILE_NOT_FOUND" in e
                                    for e in watch.errors), watch.errors
    finally:
        watch.close()
