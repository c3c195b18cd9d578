"""Serve never shows a broken page: an edit that leaves a file unloadable (YAML that does
not parse, a record that lost its id) is a failed rebuild — the last good pages stay, the
page of the object that broke included, every page carries the overlay naming the file and
line — and the fix applies the edit (the tree is a full build's again). A deleted file is
an edit like any other. Real server, real watcher, real HTTP client."""

from __future__ import annotations

import pytest

from edits import differences, reference_build
from servekit import EventStream, serve

ISSUE = ".ai/repo/project/issues/I0201.yaml"
OVERLAY = b'<div id="devcontext-error"'


@pytest.fixture
def watched(tmp_path):
    s = serve(tmp_path, watch=True)
    try:
        yield s
    finally:
        s.close()


def _page(served, path: str) -> bytes:
    """The page as built (the live-reload snippet and overlay cut off)."""
    status, _, body = served.get(path)
    assert status == 200, (path, status)
    return body.split(OVERLAY)[0].split(b'<script id="devcontext-livereload"')[0]


def test_broken_yaml_keeps_the_open_page_and_shows_file_and_line(watched):
    pages = ("/objects/issue/I0201.html", "/contexts/issue/I0201.html", "/", "/plan.html")
    before = {p: _page(watched, p) for p in pages}
    issue = watched.box.repo / ISSUE
    good = issue.read_text()
    broken = good.replace("title: A stale", "title: [A stale", 1)  # an unclosed flow sequence
    line = next(i for i, text in enumerate(broken.splitlines(), 1) if text.startswith("title: ["))
    stream = EventStream(watched.port)
    try:
        assert stream.next()[0] == "hello"
        issue.write_text(broken)
        event, data = stream.next(deadline=60)
        assert event == "build-error", (event, data)
        error = data["error"]
        assert error["file"] == ISSUE and isinstance(error["line"], int) and error["line"] >= line
        assert "is not valid YAML" in error["message"]
        assert "The last good site is kept until the file loads again" in error["message"]
        for page in pages:
            status, _, body = watched.get(page)
            assert status == 200, page
            assert body.split(OVERLAY)[0] == before[page] + b"\n" or \
                body.split(OVERLAY)[0].rstrip() == before[page].rstrip(), page
            overlay = body[body.index(OVERLAY):]
            assert f"{ISSUE}:{error['line']}".encode() in overlay, page
        assert watched.get("/api/v1/devcontext/compile?issue=I0201")[0] == 200
        assert any("rebuild failed (" + ISSUE in m for m in watched.messages)

        fixed = good.replace("title: A stale", "title: Mended: a stale", 1)
        issue.write_text(fixed)
        event, data = stream.next(deadline=60)
        assert event == "reload" and data["error"] is None
        status, _, body = watched.get("/objects/issue/I0201.html")
        assert status == 200 and b"Mended: a stale" in body and OVERLAY not in body
        assert differences(watched.site, reference_build(watched.box, watched.box.root / "ref")) == []
    finally:
        stream.close()


def test_a_record_that_lost_its_id_is_a_failed_rebuild_and_other_edits_wait(watched):
    issue = watched.box.repo / ISSUE
    other = watched.box.repo / ".ai/repo/project/issues/I0202.yaml"
    good = issue.read_text()
    stream = EventStream(watched.port)
    try:
        assert stream.next()[0] == "hello"
        other.write_text(other.read_text().replace("title: ", "title: Held back: ", 1))
        issue.write_text(good.replace("id: I0201\n", "", 1))
        event, data = stream.next(deadline=60)
        if event == "reload":  # the two saves fell into two batches: the second one fails
            event, data = stream.next(deadline=60)
        assert event == "build-error" and data["error"]["file"] == ISSUE
        assert watched.get("/objects/issue/I0201.html")[0] == 200
        issue.write_text(good)
        event, data = stream.next(deadline=60)
        assert event == "reload"
        assert b"Held back: " in watched.get("/objects/issue/I0202.html")[2]
        assert differences(watched.site, reference_build(watched.box, watched.box.root / "ref")) == []
    finally:
        stream.close()


def test_deleting_a_file_still_removes_its_pages(watched):
    stream = EventStream(watched.port)
    try:
        assert stream.next()[0] == "hello"
        (watched.box.repo / ".ai/repo/project/issues/I0204.yaml").unlink()
        event, data = stream.next(deadline=60)
        assert event == "reload" and data["error"] is None
        status, _, body = watched.get("/objects/issue/I0204.html")
        assert status == 404 and b"There is no page here" in body and OVERLAY not in body
        assert differences(watched.site, reference_build(watched.box, watched.box.root / "ref")) == []
    finally:
        stream.close()


def test_warnings_are_not_failures(watched):
    stream = EventStream(watched.port)
    try:
        assert stream.next()[0] == "hello"
        issue = watched.box.repo / ".ai/repo/project/issues/I0202.yaml"
        issue.write_text(issue.read_text() + "title: Twice\n")  # a duplicate key: a warning
        event, data = stream.next(deadline=60)
        assert event == "reload" and data["error"] is None
        assert b"Twice" in watched.get("/objects/issue/I0202.html")[2]
    finally:
        stream.close()


def test_the_open_page_shows_the_overlay_not_not_found_in_a_browser(browser, watched):
    from browserkit import PageWatch

    issue = watched.box.repo / ISSUE
    good = issue.read_text()
    watch = PageWatch(browser)
    try:
        p = watch.open(f"http://127.0.0.1:{watched.port}/objects/issue/I0201.html")
        title = p.locator("h1").inner_text()
        assert "Not found" not in title
        p.wait_for_function("() => window.__devcontextEvents && window.__devcontextEvents.readyState === 1")
        issue.write_text(good.replace("title: A stale", "title: [A stale", 1))
        overlay = p.locator("#devcontext-error")
        overlay.wait_for(state="visible", timeout=60_000)
        assert f"{ISSUE}:" in overlay.inner_text() and "is not valid YAML" in overlay.inner_text()
        assert p.locator("h1").inner_text() == title
        p.reload()  # a page opened meanwhile shows the last good page and the overlay too
        assert p.locator("h1").inner_text() == title and p.locator("#devcontext-error").is_visible()
        p.wait_for_function("() => window.__devcontextEvents && window.__devcontextEvents.readyState === 1")
        with p.expect_navigation(timeout=60_000):
            issue.write_text(good.replace("title: A stale", "title: Mended: a stale", 1))
        p.wait_for_load_state("load")
        assert "Mended: a stale" in p.locator("h1").inner_text() or "Mended: a stale" in p.content()
        assert p.locator("#devcontext-error").count() == 0
        # the event stream is cut by each reload; nothing else may fail
        assert [e for e in watch.errors if not e.split("?")[0].endswith("/__devcontext/events")] == []
    finally:
        watch.close()


def test_the_guard_names_every_broken_file_and_writes_nothing(tmp_path):
    from edits import LABEL, Sandbox, tree_bytes
    from generator.errors import InputError
    from generator.serve.incremental import IncrementalBuilder
    from generator.serve.session import refuse_broken_edits

    box = Sandbox.make(tmp_path)
    site = tmp_path / "site"
    builder = IncrementalBuilder(box.repo, site, label=LABEL, templates=box.templates,
                                 guard=refuse_broken_edits)
    builder.rebuild()
    before = tree_bytes(site)
    names = [".ai/repo/project/issues/I0202.yaml", ".ai/repo/project/issues/I0203.yaml", ISSUE]
    goods = {n: (box.repo / n).read_text() for n in names}
    (box.repo / names[0]).write_text("id: [I0202\n")
    (box.repo / names[1]).write_text(goods[names[1]].replace("id: I0203\n", "", 1))
    (box.repo / names[2]).write_text(goods[names[2]].replace("title: A stale", "title: Kept: a stale", 1))
    with pytest.raises(InputError) as caught:
        builder.rebuild(names)
    error = caught.value
    assert error.path == names[0] and error.line == 2  # where the parser found the bracket unclosed
    assert error.message.endswith(f"(1 more file also no longer loads: {names[1]})")
    assert tree_bytes(site) == before and builder.builds == 1
    (box.repo / names[0]).write_text(goods[names[0]])
    with pytest.raises(InputError) as caught:  # the other file still does not load
        builder.rebuild([names[0]])
    assert caught.value.path == names[1] and "(1 more" not in caught.value.message
    (box.repo / names[1]).write_text(goods[names[1]])
    report = builder.rebuild([names[1]])
    # the two mended files are back to their bytes: only the held title edit is applied
    assert report.mode == "incremental" and report.changed_paths == [ISSUE]
    assert b"Kept: a stale" in (site / "objects/issue/I0201.html").read_bytes()
    assert differences(site, reference_build(box, tmp_path / "ref")) == []
