"""Headless Chromium for tests (Debian's /usr/bin/chromium driven by Playwright).

Tests that need it use the ``browser`` fixture, which skips — saying why — only when the
browser or Playwright is not installed (``make test`` installs both)."""

from __future__ import annotations

import contextlib
import functools
import http.server
import shutil
import threading
from pathlib import Path
from typing import Iterator

import pytest

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install -e '.[test]')")
    path = chromium_path()
    if path is None:
        pytest.skip("chromium is not installed (make browser installs it)")
    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()


@contextlib.contextmanager
def static_host(site: Path) -> Iterator[str]:
    """``site`` served by a plain static host under /base/site/ (its parents' names): the
    URL of the site's root."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site.parents[1]))
    handler.log_message = lambda *a, **k: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/{site.parent.name}/{site.name}/"
    finally:
        server.shutdown()


class PageWatch:
    """Opens a page and records console errors, uncaught exceptions and failed requests.
    The page has a browser context of its own (``browser.new_page`` makes one), which takes
    ``context_options`` (e.g. ``accept_downloads``) and is closed with it."""

    def __init__(self, browser, **context_options) -> None:
        self.page = browser.new_page(viewport={"width": 1280, "height": 900}, **context_options)
        self.context = self.page.context
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}")
                     if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.on("requestfailed", self._request_failed)

    def _request_failed(self, request) -> None:
        # Going to the next page aborts what the last one still fetched after "load" (the
        # favicon, mostly): that is the test moving on, not a broken page. A missing file fails
        # with ERR_FILE_NOT_FOUND and a refused one with ERR_CONNECTION_*, so both still count.
        if request.failure == "net::ERR_ABORTED":
            return
        self.errors.append(f"request failed: {request.url} ({request.failure})")

    def open(self, url: str):
        self.page.goto(url)
        self.page.wait_for_load_state("load")
        return self.page

    def close(self) -> None:
        self.context.close()
