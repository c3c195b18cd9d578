"""Serve renders what is open first: after an edit, the open pages it reaches are made and
reloaded before the rest of the site has caught up; a page requested meanwhile is made on
demand, not served stale; a newer edit stops a rebuild and is merged into the next; and at
rest the tree equals a full build. Ordering is observed, never timed: the test holds the
rebuild's writes until it has looked."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest

from edits import ISSUES, LABEL, Sandbox, differences, reference_build
from generator.serve.incremental import IncrementalBuilder, OpenFirst
from generator.serve.session import ServeSession
from generator.site import urls
from servekit import EventStream, request

OPEN = "contexts/issue/I0201.html"
#: Issues whose scope takes in the edited file, as I0201's does: the edit reaches them all.
CROWD = [f"I09{i:02d}" for i in range(1, 51)]
SOURCE = "lib/cache.py"


def _crowded(base: Path) -> Sandbox:
    box = Sandbox.make(base)
    for ident in CROWD:
        (box.repo / ISSUES / f"{ident}.yaml").write_text(
            f"id: {ident}\nmilestone: offline-reads\ntitle: Cache reads, part {ident}\n"
            f"scope:\n  - {SOURCE}\ncreated_at: 2026-02-23\nupdated_at: 2026-03-01T10:00:00Z\n",
            encoding="utf-8")
    return box


def _body(port: int, path: str) -> bytes:
    status, _, body = request(port, path)
    assert status == 200, (path, status)
    return body


def _without_snippet(page: bytes) -> bytes:
    start = page.find(b'<script id="devcontext-livereload"')
    return page if start < 0 else page[:start] + page[page.rindex(b"</body>"):]


@pytest.fixture
def held(tmp_path, monkeypatch):
    """A watched session on the crowded layer whose rebuilds wait, before writing, until
    the test lets them."""
    monkeypatch.setenv("DEVCONTEXT_WORKERS", "1")
    box = _crowded(tmp_path)
    builder = IncrementalBuilder(box.repo, box.root / "site", label=LABEL, templates=box.templates)
    session = ServeSession(builder, port=0, quiet=0.15)
    session.build()
    release, writing = threading.Event(), threading.Event()
    update = builder.output.update

    def held_update(*args, **kwargs):
        writing.set()
        assert release.wait(120), "the test never let the rebuild write"
        return update(*args, **kwargs)

    monkeypatch.setattr(builder.output, "update", held_update)
    session.watch()
    session.start()
    try:
        yield box, session, release, writing
    finally:
        release.set()
        session.close()


def test_the_open_page_is_reloaded_first_and_pending_pages_are_made_on_demand(held):
    box, session, release, writing = held
    port, site = session.server.port, box.root / "site"
    other, unreached = "contexts/issue/I0901.html", "api/v1/devcontext/compile/issue/I0101.json"
    before = {rel: (site / rel).read_bytes() for rel in (OPEN, other, unreached)}
    stream = EventStream(port, page="/" + OPEN)
    try:
        assert stream.next()[0] == "hello"
        with (box.repo / SOURCE).open("a", encoding="utf-8") as handle:
            handle.write("\n# a comment long enough to move the file's cost " + "x" * 400 + "\n")
        event, data = stream.next(deadline=120)
        assert event == "reload" and data["pages"] == [OPEN], (event, data)
        # the rest of the site has not caught up: nothing is written yet
        assert writing.wait(120)
        assert {rel: (site / rel).read_bytes() for rel in before} == before
        served = {rel: _body(port, "/" + rel) for rel in before}
        release.set()
        event, data = stream.next(deadline=120)
        assert event == "reload" and "pages" not in data, (event, data)
    finally:
        stream.close()
    after = {rel: (site / rel).read_bytes() for rel in before}
    assert all(after[rel] != before[rel] for rel in before), "the edit changed none of them"
    # what was served before the catch-up ended is what the site then held
    assert {rel: _without_snippet(b) if rel.endswith(".html") else b for rel, b in served.items()} == after
    written = [rel for rel in session.last_report.written
               if rel.startswith("contexts/") and rel.endswith(".html") and rel != OPEN]
    assert len(written) >= 50, written
    assert differences(site, reference_build(box, box.root / "ref")) == []


def test_a_newer_edit_stops_the_rebuild_and_is_merged_into_the_next(tmp_path, monkeypatch):
    monkeypatch.setenv("DEVCONTEXT_WORKERS", "1")
    box = _crowded(tmp_path)
    builder = IncrementalBuilder(box.repo, box.root / "site", label=LABEL, templates=box.templates)
    builder.rebuild()
    site_before = {p: p.read_bytes() for p in (box.root / "site").rglob("*.html")}
    opened: list[list[str]] = []
    with (box.repo / SOURCE).open("a", encoding="utf-8") as handle:
        handle.write("\n# first edit " + "y" * 300 + "\n")
    stopped = builder.rebuild([SOURCE], open_first=OpenFirst(
        open_pages=lambda: {OPEN}, on_open=opened.append, superseded=lambda: True))
    assert stopped.mode == "superseded" and opened == [[OPEN]]
    assert {p: p.read_bytes() for p in (box.root / "site").rglob("*.html")} == site_before
    assert builder.catchup is None and builder.pending(OPEN) is None  # nothing half-made served
    issue = box.repo / ISSUES / "I0902.yaml"
    issue.write_text(issue.read_text().replace("title: Cache reads", "title: Merged: cache reads"))
    merged = builder.rebuild([box.rel(issue)])
    assert merged.mode == "incremental"
    assert SOURCE in merged.changed_paths and box.rel(issue) in merged.changed_paths
    assert differences(box.root / "site", reference_build(box, box.root / "ref")) == []


def test_in_a_browser_the_open_page_reloads_before_the_rest_is_written(browser, held):
    from browserkit import PageWatch

    box, session, release, writing = held
    port, site = session.server.port, box.root / "site"
    before = (site / OPEN).read_bytes()
    watch = PageWatch(browser)
    try:
        page = watch.open(f"http://127.0.0.1:{port}/{OPEN}")
        page.wait_for_function("() => window.__devcontextEvents && window.__devcontextEvents.readyState === 1")
        with page.expect_navigation(timeout=120_000) as navigation:
            with (box.repo / SOURCE).open("a", encoding="utf-8") as handle:
                handle.write("\n# edited in front of a browser " + "z" * 400 + "\n")
        reloaded = navigation.value.body()
        assert writing.wait(120) and (site / OPEN).read_bytes() == before  # not written yet
        release.set()
        for _ in range(600):  # the catch-up ends: the pages are told
            if session.last_report is not None:
                break
            page.wait_for_timeout(100)
        assert _without_snippet(reloaded) == (site / OPEN).read_bytes() != before
        assert [e for e in watch.errors if not e.split("?")[0].endswith("/__devcontext/events")] == []
    finally:
        watch.close()


# -- an open object page: provisional first, then final -----------------------------------

PROVISIONAL = b'class="note provisional"'
STREAM_OPEN = "() => window.__devcontextEvents && window.__devcontextEvents.readyState === 1"


@pytest.fixture
def gated(tmp_path, monkeypatch):
    """A watched session on the crowded layer whose rebuild compiles no context until the
    test opens the gate, and writes nothing until it lets it."""
    monkeypatch.setenv("DEVCONTEXT_WORKERS", "1")
    import generator.site.pipeline as pipeline

    box = _crowded(tmp_path)
    builder = IncrementalBuilder(box.repo, box.root / "site", label=LABEL, templates=box.templates)
    session = ServeSession(builder, port=0, quiet=0.15)
    session.build()
    gate, release, writing = threading.Event(), threading.Event(), threading.Event()
    compiled: list[object] = []
    context_job = pipeline.context_job

    def gated_job(*args, **kwargs):
        job = context_job(*args, **kwargs)

        def run(key):
            assert gate.wait(120), "the test never let the rebuild compile"
            compiled.append(key)
            return job(key)
        return run

    update = builder.output.update

    def held_update(*args, **kwargs):
        writing.set()
        assert release.wait(120), "the test never let the rebuild write"
        return update(*args, **kwargs)

    monkeypatch.setattr(pipeline, "context_job", gated_job)
    monkeypatch.setattr(builder.output, "update", held_update)
    [obj] = builder.state.index.at_path(SOURCE)
    session.watch()
    session.start()
    try:
        yield box, session, urls.object_page(obj.uri), gate, release, writing, compiled
    finally:
        gate.set()
        release.set()
        session.close()


def _edit_source(box: Sandbox, words: str) -> None:
    with (box.repo / SOURCE).open("a", encoding="utf-8") as handle:
        handle.write(f"\n# {words} " + "w" * 400 + "\n")


def test_an_open_object_page_is_provisional_first_then_final(gated):
    box, session, page, gate, release, writing, compiled = gated
    port, site = session.server.port, box.root / "site"
    before = (site / page).read_bytes()
    stream = EventStream(port, page="/" + page)
    try:
        assert stream.next()[0] == "hello"
        _edit_source(box, "an edit that moves the file's cost")
        event, first = stream.next(deadline=120)
        assert event == "reload" and first["pages"] == [page], (event, first)
        assert compiled == []  # announced before any context was compiled
        provisional = _body(port, "/" + page)
        assert PROVISIONAL in provisional and PROVISIONAL not in before
        said = re.search(rb"Recompiling (\d+) contexts: standings as before this edit; this "
                         rb"page reloads when they are done\.", provisional)
        assert said is not None, provisional.decode()
        reached = int(said.group(1))
        assert reached > len(CROWD)  # the crowd and I0201 take in the edited file, and more
        # made from the new object: its size is the edited file's
        size = f"{(box.repo / SOURCE).stat().st_size:,} bytes".encode()
        assert size in provisional and size not in before
        assert (site / page).read_bytes() == before  # nothing written yet
        gate.set()
        event, final = stream.next(deadline=120)
        assert event == "reload" and final["pages"] == [page], (event, final)
        assert final["build"] > first["build"]  # a page that missed this word reloads on hello
        assert len(compiled) >= reached
        served = _body(port, "/" + page)
        assert PROVISIONAL not in served
        assert writing.wait(120) and (site / page).read_bytes() == before
        release.set()
        event, data = stream.next(deadline=120)
        assert event == "reload" and "pages" not in data, (event, data)
    finally:
        stream.close()
    assert _without_snippet(served) == (site / page).read_bytes() != before
    assert session.last_report.contexts_compiled == reached  # the notice said how many
    assert differences(site, reference_build(box, box.root / "ref")) == []


def test_a_requested_object_page_is_made_provisionally_on_demand(gated):
    """No page held open: a request for the edited object's page meanwhile gets the
    provisional page, made then; the catch-up ends with the final one."""
    box, session, page, gate, release, writing, compiled = gated
    port, site = session.server.port, box.root / "site"
    before = (site / page).read_bytes()
    stream = EventStream(port)
    try:
        assert stream.next()[0] == "hello"
        _edit_source(box, "an edit no page watches")
        for _ in range(1200):  # the rebuild has started: it holds at the gate
            if session.builder.catchup is not None:
                break
            threading.Event().wait(0.05)
        assert session.builder.catchup is not None
        served = _body(port, "/" + page)
        assert PROVISIONAL in served and compiled == []
        gate.set()
        release.set()
        event, data = stream.next(deadline=120)
        assert event == "reload" and "pages" not in data, (event, data)
    finally:
        stream.close()
    after = (site / page).read_bytes()
    assert PROVISIONAL not in after and after != before
    assert _without_snippet(_body(port, "/" + page)) == after
    assert differences(site, reference_build(box, box.root / "ref")) == []


def test_in_a_browser_an_open_object_page_reloads_provisional_then_final(browser, gated):
    from browserkit import PageWatch

    box, session, page_rel, gate, release, writing, compiled = gated
    port, site = session.server.port, box.root / "site"
    before = (site / page_rel).read_bytes()
    watch = PageWatch(browser)
    try:
        page = watch.open(f"http://127.0.0.1:{port}/{page_rel}")
        page.wait_for_function(STREAM_OPEN)
        with page.expect_navigation(timeout=120_000) as navigation:
            _edit_source(box, "edited in front of a browser")
        assert PROVISIONAL in navigation.value.body() and compiled == []
        assert page.locator(".provisional").count() == 1
        page.wait_for_function(STREAM_OPEN)
        with page.expect_navigation(timeout=120_000) as navigation:
            gate.set()
        reloaded = navigation.value.body()
        assert PROVISIONAL not in reloaded
        assert writing.wait(120) and (site / page_rel).read_bytes() == before  # not written yet
        release.set()
        for _ in range(600):  # the catch-up ends
            if session.last_report is not None:
                break
            page.wait_for_timeout(100)
        assert _without_snippet(reloaded) == (site / page_rel).read_bytes() != before
        assert [e for e in watch.errors
                if not e.split("?")[0].endswith("/__devcontext/events")] == []
    finally:
        watch.close()
