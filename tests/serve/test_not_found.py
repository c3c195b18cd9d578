"""The 404 page is styled and its links work at any depth: served by the dev server for
unknown paths (it puts ``<base href="/">`` first), built with ``--base-url`` (its own
``<base>``), and served by a static host that answers ``404.html`` for any missing path
under a prefix (the page's script finds the root). Real HTTP, and headless Chromium."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import pytest

from browserkit import PageWatch
from edits import LABEL, Sandbox
from generator.serve.incremental import IncrementalBuilder
from generator.serve.server import ROOT_BASE, with_root_base
from servekit import serve

DEEP = "/objects/issue/no/such/page.html"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    s = serve(tmp_path_factory.mktemp("notfound"), watch=False)
    try:
        yield s
    finally:
        s.close()


def test_with_root_base_goes_first_in_the_head():
    page = b'<!doctype html>\n<html><HEAD lang="x">\n<base href="https://x.test/">\n<link href="a.css">'
    out = with_root_base(page)
    assert out.index(ROOT_BASE) < out.index(b"https://x.test/") < out.index(b"a.css")
    assert out.startswith(b"<!doctype html>\n<html><HEAD lang=\"x\">\n" + ROOT_BASE)
    assert with_root_base(b"<p>bare</p>") == ROOT_BASE + b"\n<p>bare</p>"
    assert with_root_base(b"<header>x</header>").startswith(ROOT_BASE)  # <header> is no <head>


def test_a_deep_404_names_the_root_before_any_link(served):
    status, head, body = served.get(DEEP)
    assert status == 404 and head["content-type"] == "text/html; charset=utf-8"
    assert b"There is no page here" in body
    assert body.index(ROOT_BASE) < body.index(b'rel="stylesheet"')
    on_disk = (served.site / "404.html").read_bytes()
    assert ROOT_BASE not in on_disk  # the built file stays as built
    # the links the page holds, resolved against "/", all answer
    for link in (b'href="static/style.css"', b'href="static/favicon.svg"', b'href="index.html"',
                 b'href="plan.html"', b'href="search.html"', b'href="diagnostics.html"'):
        assert link in body, link
        target = "/" + link.split(b'"')[1].decode()
        assert served.get(target)[0] == 200, target


def test_built_with_a_base_url_the_404_names_it(tmp_path):
    box = Sandbox.make(tmp_path)
    builder = IncrementalBuilder(box.repo, tmp_path / "site", label=LABEL, templates=box.templates,
                                 base_url="https://example.org/docs/")
    builder.rebuild()
    page = (tmp_path / "site" / "404.html").read_bytes()
    assert b'<base href="https://example.org/docs/">' in page and b"<script" not in page
    assert page.index(b"<base ") < page.index(b'rel="stylesheet"')


def _styled(p) -> bool:
    # style.css loaded and applied: its rules are there and the header is not unstyled
    return p.evaluate("""() => [...document.styleSheets].some(s => s.href && s.href.endsWith(
        '/static/style.css') && s.cssRules.length > 0)""")


def test_the_dev_servers_404_is_styled_with_working_links_in_a_browser(browser, served):
    watch = PageWatch(browser)
    try:
        p = watch.page
        response = p.goto(f"http://127.0.0.1:{served.port}{DEEP}")
        p.wait_for_load_state("load")
        assert response.status == 404
        assert p.locator("h1").inner_text() == "Not found" and _styled(p)
        brand = p.locator("header.top a.brand").evaluate("a => a.href")
        assert brand == f"http://127.0.0.1:{served.port}/index.html"
        hrefs = p.locator("main a").evaluate_all("as => as.map(a => a.href)")
        assert hrefs == [f"http://127.0.0.1:{served.port}/{page}"
                         for page in ("index.html", "plan.html", "search.html")]
        # the page's own 404 is the only failed request (the console reports it)
        assert [e for e in watch.errors if "404" not in e] == []
    finally:
        watch.close()


class _PagesHost(http.server.SimpleHTTPRequestHandler):
    """A static host as GitHub Pages is: the site under a prefix, and the site's
    ``404.html`` (as built) for any path that names nothing."""

    prefix = "/project/"

    def log_message(self, *args) -> None:
        pass

    def send_head(self):
        path = self.path.split("?", 1)[0]
        site = Path(self.directory)
        rel = path[len(self.prefix):] if path.startswith(self.prefix) else None
        if rel is not None and (rel == "" or (site / rel).is_file()):
            self.path = "/" + (rel or "index.html")
            return super().send_head()
        body = (site / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        import io

        return io.BytesIO(body)


@pytest.mark.parametrize("path", ["objects/issue/NOPE.html", "contexts/issue/x/y/z.html",
                                  "typo.html"])
def test_a_static_hosts_404_at_any_depth_is_styled_with_working_links(browser, served, path):
    handler = functools.partial(_PagesHost, directory=str(served.site))
    host = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=host.serve_forever, daemon=True)
    thread.start()
    watch = PageWatch(browser)
    try:
        root = f"http://127.0.0.1:{host.server_address[1]}/project/"
        p = watch.page
        response = p.goto(root + path)
        p.wait_for_load_state("load")
        assert response.status == 404
        assert p.locator("h1").inner_text() == "Not found" and _styled(p)
        hrefs = p.locator("main a").evaluate_all("as => as.map(a => a.href)")
        assert hrefs == [root + page for page in ("index.html", "plan.html", "search.html")]
        p.locator("main a").first.click()
        p.wait_for_load_state("load")
        assert p.url == root + "index.html" and p.locator("h1").count() == 1
    finally:
        watch.close()
        host.shutdown()
        host.server_close()


def test_the_404_opened_from_file_is_styled(browser, served):
    watch = PageWatch(browser)
    try:
        p = watch.open((served.site / "404.html").as_uri())
        assert p.locator("h1").inner_text() == "Not found"
        assert p.evaluate("() => getComputedStyle(document.body).fontFamily") != ""
        assert p.locator("main a").first.evaluate("a => a.href") == (served.site / "index.html").as_uri()
        assert watch.errors == []
    finally:
        watch.close()
