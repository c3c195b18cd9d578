"""An incremental rebuild ends with exactly the files of a fresh full build, byte for byte,
after any sequence of edits; and a failed rebuild leaves the last good site alone."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from edits import EDITS, LABEL, Sandbox, differences, reference_build, tree_bytes
from generator.errors import LayerError
from generator.serve.incremental import IncrementalBuilder


def _builder(box: Sandbox) -> IncrementalBuilder:
    return IncrementalBuilder(box.repo, box.root / "site", label=LABEL, templates=box.templates)


def _assert_same(box: Sandbox, step: str) -> None:
    ref = reference_build(box, box.root / "ref")
    diff = differences(box.root / "site", ref)
    assert diff == [], f"after {step}: incremental output differs from a full build in {diff[:10]}"


#: One step: one to three edits applied together (a burst the debouncer coalesces), and
#: whether the rebuild is told the paths (as the watcher does) or re-reads everything.
STEP = st.tuples(
    st.lists(st.tuples(st.sampled_from(sorted(EDITS)), st.integers(0, 10_000)), min_size=1, max_size=3),
    st.booleans(),
)


@settings(max_examples=7, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(STEP, min_size=2, max_size=6))
def test_incremental_rebuilds_equal_full_builds(steps):
    base = Path(tempfile.mkdtemp(prefix="devcontext-incr-"))
    try:
        box = Sandbox.make(base)
        builder = _builder(box)
        builder.rebuild()
        for edits, tell_paths in steps:
            paths: list[str] = []
            templates: list[str] = []
            for name, n in edits:
                p, t = EDITS[name](box, n)
                paths += p
                templates += t
            if tell_paths:
                builder.rebuild(paths, templates=templates)
            else:
                builder.rebuild(full_read=True, templates=templates)
            _assert_same(box, " + ".join(f"{name}({n})" for name, n in edits))
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.parametrize("pool", ["in process", "worker processes"])
def test_every_edit_once_in_sequence(tmp_path, monkeypatch, pool):
    """Each kind of edit, one after the other, each followed by the comparison; once with
    the contexts compiled in this process, once in forked workers (as on a large layer)."""
    if pool == "worker processes":
        monkeypatch.setattr("generator.workers.WARMUP_SECONDS", 0)
        monkeypatch.setattr("generator.workers.POOL_WORTH_SECONDS", 0)
        monkeypatch.setenv("DEVCONTEXT_WORKERS", "2")
    else:
        monkeypatch.setenv("DEVCONTEXT_WORKERS", "1")
    box = Sandbox.make(tmp_path)
    builder = _builder(box)
    builder.rebuild()
    for i, (name, edit) in enumerate(sorted(EDITS.items())):
        paths, templates = edit(box, 17 * i + 3)
        report = builder.rebuild(paths, templates=templates)
        assert report.mode in ("incremental", "unchanged")
        _assert_same(box, name)


def test_an_edit_recompiles_only_what_it_can_reach(tmp_path):
    box = Sandbox.make(tmp_path)
    builder = _builder(box)
    full = builder.rebuild()
    assert full.mode == "full" and full.contexts_compiled == 15
    lib = box.repo / "lib/units.py"
    lib.write_text(lib.read_text() + "# edited\n")
    report = builder.rebuild(["lib/units.py"])
    assert 0 < report.contexts_compiled < 15
    assert "objects/implementation/lib%2Funits.py.html" in report.written or any(
        "units" in w for w in report.written)
    # every other context's JSON only had its fingerprint moved
    assert report.patched >= 15 - report.contexts_compiled
    _assert_same(box, "source edit")
    # a file nothing discovers changes nothing but... nothing: no rebuild at all
    (box.repo / "notes.txt").write_text("scratch\n")
    assert builder.rebuild(["notes.txt"]).mode == "unchanged"


def test_a_static_asset_change_rewrites_only_that_asset(tmp_path):
    box = Sandbox.make(tmp_path)
    builder = _builder(box)
    builder.rebuild()
    css = box.templates / "static/style.css"
    css.write_text(css.read_text() + "/* x */\n")
    report = builder.rebuild(templates=["static/style.css"])
    assert report.written == ["static/style.css"] and report.contexts_compiled == 0
    _assert_same(box, "style.css")


def test_kept_rows_of_the_list_pages_follow_their_template_and_their_values(tmp_path):
    """The plan's and the kind pages' rows are kept between rebuilds: an edit to an issue
    re-renders its row, and an edit to rows.html every row."""
    box = Sandbox.make(tmp_path)
    builder = _builder(box)
    builder.rebuild()
    issue = box.repo / ".ai/repo/project/issues/I0101.yaml"
    issue.write_text(issue.read_text().replace("title:", "title: Edited —", 1))
    builder.rebuild([box.rel(issue)])
    assert "Edited —" in (box.root / "site/plan.html").read_text()
    _assert_same(box, "issue title")
    tpl = box.templates / "rows.html"
    tpl.write_text(tpl.read_text().replace("<tr>", '<tr class="edited">'))
    builder.rebuild(templates=["rows.html"])
    assert '<tr class="edited">' in (box.root / "site/kinds/issue.html").read_text()
    _assert_same(box, "rows.html")


def test_a_failing_template_keeps_the_last_good_site_until_fixed(tmp_path):
    box = Sandbox.make(tmp_path)
    builder = _builder(box)
    builder.rebuild()
    before = tree_bytes(box.root / "site")
    tpl = box.templates / "object.html"
    good = tpl.read_text()
    tpl.write_text(good.replace("{% block main %}", "{% block main %}{{ no_such_value }}", 1))
    issue = box.repo / ".ai/repo/project/issues/I0101.yaml"
    issue.write_text(issue.read_text().replace("title:", "title: Edited —", 1))
    with pytest.raises(Exception) as failure:
        builder.rebuild([box.rel(issue)], templates=["object.html"])
    assert "no_such_value" in str(failure.value)
    assert tree_bytes(box.root / "site") == before
    assert builder.snapshot is not None and builder.snapshot.build == 1
    tpl.write_text(good)
    report = builder.rebuild(templates=["object.html"])  # the issue edit is still pending
    assert report.mode == "incremental"
    _assert_same(box, "template fixed")


def test_a_vanished_manifest_fails_and_its_return_recovers(tmp_path):
    box = Sandbox.make(tmp_path)
    builder = _builder(box)
    builder.rebuild()
    before = tree_bytes(box.root / "site")
    manifest = box.repo / ".ai/manifest.yaml"
    text = manifest.read_text()
    manifest.unlink()
    with pytest.raises(LayerError):
        builder.rebuild([".ai/manifest.yaml"])
    assert tree_bytes(box.root / "site") == before
    manifest.write_text(text.replace("documents: [README.md]", "documents: [README.md, CONTEXT.md]"))
    builder.rebuild([".ai/manifest.yaml"])
    _assert_same(box, "manifest back, changed")


def test_a_moved_directory_and_a_sources_change_are_read_again(tmp_path):
    box = Sandbox.make(tmp_path)
    builder = _builder(box)
    builder.rebuild()
    (box.repo / "lib").rename(box.repo / "library")
    builder.rebuild(["lib", "library"])
    _assert_same(box, "lib moved")
    sources = box.repo / ".ai/repo/knowledge/sources.yaml"
    sources.write_text(sources.read_text().replace("lib/", "library/"))
    builder.rebuild([box.rel(sources)])
    _assert_same(box, "sources.yaml")
