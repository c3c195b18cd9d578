"""What serve keeps between builds and updates for an edit, instead of making it again
from the whole layer, equals what a fresh build makes of the edited layer: the layer
assembled from its files' parts (:func:`generator.rebuild.sources.load_changes`), the index
updated from the last one (:mod:`generator.index_update`), the objects an edit changed as
the update found them (:func:`generator.rebuild.diff.changed_objects`), and the context
keys kept while the universe stays the same — after random edits (adds, removals, renames,
relation and status changes, broken files) on the demo layer and on a small synthetic one."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from edits import EDITS, ISSUES, Sandbox, update_record
from generator.index import build_index
from generator.rebuild.diff import changed_objects
from generator.rebuild.keys import context_keys_of
from generator.rebuild.sources import load_all, load_changes, read_all, read_changes
from generator.site.contexts import context_keys
from generator.synth import synthesize, write_layer

def edit_status(box: Sandbox, n: int):
    """An issue's facts changed: started, verified, completed or cancelled, or none of these
    (its state moves, and with it those of the issues that depend on it)."""
    files = box.files(ISSUES, "*.yaml")
    path = files[n % len(files)]
    facts = ("started_at", "verified_at", "completed_at", "cancelled_at")

    def change(d: dict) -> None:
        for fact in facts:
            d.pop(fact, None)
        if n % 5:
            d[facts[n % 5 - 1]] = f"2026-03-{1 + n % 28:02d}"

    update_record(path, change)
    return [box.rel(path)], []


#: The edits that change the layer (a template edit changes no structure here).
ALL_EDITS = {**EDITS, "status": edit_status}
LAYER_EDITS = sorted(name for name in ALL_EDITS if name != "template")


def _synthetic_box(base: Path) -> Sandbox:
    repo = base / "repo"
    write_layer(synthesize("small"), repo)
    return Sandbox(base, repo, base / "templates")


def _fresh(files, problems):
    sources = load_all(files, problems, {})
    return sources, build_index(sources.layer)


def _assert_index_equal(got, want, step: str) -> None:
    assert got == want, f"after {step}: the updated index differs from a fresh one"
    for name in ("objects", "by_kind", "out_edges", "in_edges", "externals_by_source",
                 "unresolved_by_source", "issue_states"):
        assert list(getattr(got, name)) == list(getattr(want, name)), (
            f"after {step}: the updated index's {name} is in another order")
    assert got.fingerprint == want.fingerprint


def _run(box: Sandbox, steps) -> None:
    root = box.repo
    files, problems = read_all(root, [])
    cache: dict = {}
    sources = load_all(files, problems, cache)
    index = build_index(sources.layer)
    for edits in steps:
        paths: list[str] = []
        for name, n in edits:
            try:
                touched, _ = ALL_EDITS[name](box, n)
            except (ZeroDivisionError, IndexError):  # nothing of that kind in this layer
                continue
            paths += touched
        files, problems, changed = read_changes(root, sources, paths, full_read=False,
                                                exclude=[])
        step = " + ".join(f"{name}({n})" for name, n in edits)
        new_sources = load_changes(sources, files, problems, changed, cache)
        fresh_sources, fresh_index = _fresh(files, problems)
        assert new_sources.layer == fresh_sources.layer, (
            f"after {step}: the layer assembled from its parts differs from a fresh load")
        assert list(new_sources.layer.files) == list(fresh_sources.layer.files)
        new_index = build_index(new_sources.layer, index)
        _assert_index_equal(new_index, fresh_index, step)
        assert changed_objects(index, new_index) == changed_objects(index, fresh_index), (
            f"after {step}: the update's changed objects differ from the two indexes' diff")
        assert context_keys_of(new_index) == context_keys(fresh_index)
        sources, index = new_sources, new_index


STEPS = st.lists(st.lists(st.tuples(st.sampled_from(LAYER_EDITS), st.integers(0, 10_000)),
                          min_size=1, max_size=3), min_size=3, max_size=8)


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(STEPS, st.booleans())
def test_kept_structures_equal_fresh_ones_after_random_edits(steps, synthetic):
    base = Path(tempfile.mkdtemp(prefix="devcontext-structures-"))
    try:
        box = _synthetic_box(base) if synthetic else Sandbox.make(base)
        _run(box, steps)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_each_edit_once_on_the_demo(tmp_path):
    """Every kind of edit at least once, in a fixed order, on the demo layer."""
    box = Sandbox.make(tmp_path)
    _run(box, [[(name, 7 * i + 1)] for i, name in enumerate(LAYER_EDITS)]
         + [[("status", n)] for n in range(10)])


def test_a_title_edit_updates_the_layer_and_the_index_in_place(tmp_path, monkeypatch):
    """The usual edit moves nothing references resolve against: the layer is not assembled
    again, the index is updated, not built again — the objects' lookups are the last
    index's, and the update says what changed."""
    box = Sandbox.make(tmp_path)
    files, problems = read_all(box.repo, [])
    sources = load_all(files, problems, {})
    index = build_index(sources.layer)
    paths, _ = EDITS["title"](box, 0)
    files, problems, changed = read_changes(box.repo, sources, paths, full_read=False, exclude=[])

    def assembled(*args, **kwargs):
        raise AssertionError("the layer was assembled again from every file")

    monkeypatch.setattr("generator.rebuild.sources._assemble", assembled)
    new = build_index(load_changes(sources, files, problems, changed, {}).layer, index)
    assert new.by_identity is index.by_identity
    assert new.universe_cache is index.universe_cache
    assert new._changes is not None and new._changes[0] == index._serial
    edited = {o.uri for o in new.at_path(paths[0])}
    assert edited <= new._changes[1]
