"""Serve on a big layer: the work from "edit written" to "first open page announced", step by
step, per edit kind, in CPU and wall time. Run by hand, neither by ``make test`` nor by
``make bench`` (which runs the ``bench_*`` modules)::

    python benchmarks/open_first.py steps large      # the pre-page steps, no full build
    python benchmarks/open_first.py e2e medium       # a real first build, then edits

It imports ``generator`` from ``PYTHONPATH`` (a script, not a module of the package), so the
same file times two checkouts side by side: ``PYTHONPATH=/tmp/old python ...``.

``steps``: the layer is copied to /tmp and loaded once; the builder is handed a state as a
first build would leave it, but with no compiled context (every context known, none
reached: a reach index that is empty), so a rebuild runs every step up to the first page
exactly as serve does, and is stopped there (when the first open page, the edited object's
provisional page, is announced). Each edit is then undone and the state kept, so every edit
is one file against the same layer. The steps are timed by wrapping the functions the
builder calls (whichever of them the checkout has).

``e2e``: serve's real first build on a copy, then ``BENCH_EDITS`` (default 3) edits of each
kind; the open page's p50 (first announcement) and the tree caught up.
"""

from __future__ import annotations

import functools
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the shared edits, found beside this file; appended, so ``PYTHONPATH``'s generator still wins
sys.path.append(str(HERE))
from layer_edits import copy_layer, edit_file, edit_targets, open_pages  # noqa: E402

LAYERS = Path(os.environ.get("BENCH_LAYERS", str(HERE.parent / ".bench")))
EDITS = int(os.environ.get("BENCH_EDITS", "3"))

#: (module, attribute) the builder calls before its first page; timed when present.
STEPS = [
    ("generator.serve.incremental", "read_changes"),
    ("generator.serve.incremental", "load_changes"),
    ("generator.rebuild.sources", "layer_setup"),
    ("generator.rebuild.sources", "load_file"),
    ("generator.rebuild.sources", "fingerprint_of"),
    ("generator.rebuild.sources", "assemble_layer"),
    ("generator.rebuild.sources", "update_layer"),
    ("generator.serve.incremental", "build_index"),
    ("generator.serve.incremental", "update_index"),
    ("generator.serve.incremental", "changed_objects"),
    ("generator.serve.incremental", "context_keys"),
    ("generator.serve.incremental", "reached_contexts"),
    ("generator.serve.incremental", "within"),
    ("generator.serve.incremental", "_ProvisionalPages"),
    ("generator.serve.incremental", "PageKit"),
    ("generator.serve.incremental", "context_job"),
    ("generator.serve.incremental", "diagnostics_by_path"),
    ("generator.serve.incremental", "object_files"),
    ("generator.serve.incremental", "IncrementalBuilder._diff"),
    ("generator.serve.incremental", "IncrementalBuilder._catchup_for"),
    ("generator.site.pipeline", "SiteBuild._plan"),
]


class _Stop(Exception):
    """The first page is announced: the rest of the rebuild is not timed."""


class _Timers:
    """Wall and CPU seconds per wrapped step (summed over its calls within one edit)."""

    def __init__(self) -> None:
        self.wall: dict[str, float] = {}
        self.cpu: dict[str, float] = {}
        self._depth: dict[str, int] = {}
        self._undo: list = []

    def install(self) -> None:
        import importlib

        for module_name, attr in STEPS:
            module = importlib.import_module(module_name)
            owner, _, name = attr.rpartition(".")
            target = getattr(module, owner) if owner else module
            if not hasattr(target, name):
                continue
            original = getattr(target, name)
            if isinstance(original, type):
                wrapped = self._wrap_class(attr, original)
            else:
                wrapped = self._wrap(attr, original)
            setattr(target, name, wrapped)
            self._undo.append((target, name, original))

    def _wrap(self, label: str, fn):
        @functools.wraps(fn)
        def timed(*args, **kwargs):
            if self._depth.get(label):
                return fn(*args, **kwargs)
            self._depth[label] = 1
            w, c = time.perf_counter(), time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.wall[label] = self.wall.get(label, 0.0) + time.perf_counter() - w
                self.cpu[label] = self.cpu.get(label, 0.0) + time.process_time() - c
                self._depth[label] = 0
        return timed

    def _wrap_class(self, label: str, cls):
        timers = self

        def make(*args, **kwargs):
            w, c = time.perf_counter(), time.process_time()
            try:
                return cls(*args, **kwargs)
            finally:
                timers.wall[label] = timers.wall.get(label, 0.0) + time.perf_counter() - w
                timers.cpu[label] = timers.cpu.get(label, 0.0) + time.process_time() - c
        return make

    def reset(self) -> None:
        self.wall.clear()
        self.cpu.clear()


def _layer(size: str) -> Path:
    if size == "real":
        return HERE.parent.parent / "shared" / "data" / "majordomus-layer"
    if size == "demo":
        from generator.demo import demo_root

        return demo_root()
    return LAYERS / f"synth-{size}"


# -- steps: the pre-page work against a state as a first build leaves it -----------------

def _scope(index, uri: str) -> tuple[str, ...]:
    scope = index.objects[uri].fields.get("scope")
    return tuple(sorted(p for p in scope if isinstance(p, str))) if isinstance(scope, list) else ()


def _state_without_contexts(builder, sources, index, git):
    """The state a first build leaves, minus the compiled contexts (every one known): each
    context's reach stands in as the objects within two edges of its issue and its scope,
    and one context reads everything (so every edit reaches one: its pages are provisional)."""
    from generator.engine.reach import Reach
    from generator.rebuild.diff import group_diagnostics, within
    from generator.rebuild.reach_index import ReachIndex
    from generator.serve.incremental import BuildState
    from generator.site.contexts import context_keys
    from generator.site.pipeline import SiteState
    from generator.site.standing_table import StandingTable

    keys = context_keys(index)
    reaches = {k: Reach(tuple(sorted(within(index, [k.uri], 2))), _scope(index, k.uri),
                        frozenset(), everything=i == 0) for i, k in enumerate(keys)}
    site = SiteState(index=index, git=git, contexts={k: None for k in keys},
                     reach_index=ReachIndex.of(reaches), standings=StandingTable().finish(),
                     links={},
                     linked_from={}, diags_by_path=group_diagnostics(index.diagnostics),
                     pages_files=frozenset())
    return BuildState(sources, site)


def steps(size: str) -> None:
    from generator.index import build_index
    from generator.rebuild.sources import load_all, read_all
    from generator.serve.incremental import IncrementalBuilder, OpenFirst
    from generator.workers import heap_after_build

    base = Path(tempfile.mkdtemp(prefix="bench-open-first-"))
    try:
        t0 = time.perf_counter()
        root = copy_layer(_layer(size), base / "repo")
        builder = IncrementalBuilder(root, base / "site", label=root.name)
        files, problems = read_all(root, builder.exclude, builder.limits)
        sources = load_all(files, problems, builder.parse_cache, builder.limits)
        index = build_index(sources.layer)
        git = builder.read_git()
        builder.state = _state_without_contexts(builder, sources, index, git)
        builder._dirty = False
        builder.builds = 1  # as after serve's first build: the heap frozen, not unfrozen
        heap_after_build()
        (base / "site").mkdir()
        print(f"# {size}: {len(index.objects):,} objects loaded in "
              f"{time.perf_counter() - t0:.1f}s; python {sys.version.split()[0]}; "
              f"generator from {Path(sys.modules['generator'].__file__).parent.parent}")
        timers = _Timers()
        timers.install()
        rows: dict[str, list[tuple[float, float, dict, dict]]] = {}
        for kind, paths in edit_targets(root, EDITS).items():
            for i, path in enumerate(paths):
                rel = path.relative_to(root).as_posix()
                pages = open_pages(builder.state.index, rel)
                before = path.read_bytes()
                first: list[tuple[float, float]] = []

                def stop(rels, first=first):
                    first.append((time.perf_counter(), time.process_time()))
                    raise _Stop()

                hooks = OpenFirst(open_pages=lambda pages=pages: pages, on_open=stop)
                timers.reset()
                edit_file(path, i)
                w, c = time.perf_counter(), time.process_time()
                try:
                    builder.rebuild([rel], open_first=hooks)
                except _Stop:
                    pass
                except AttributeError:  # past the first page: a context record is needed
                    pass
                if not first:
                    first.append((time.perf_counter(), time.process_time()))
                    print(f"# {rel}: no page announced")
                rows.setdefault(kind, []).append((first[0][0] - w, first[0][1] - c,
                                                  dict(timers.wall), dict(timers.cpu)))
                path.write_bytes(before)  # undone: the next edit is against the same state
                builder._pending_paths.clear()
                builder._pending_templates.clear()
                builder.catchup = None
        _print_steps(size, rows)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _print_steps(size: str, rows) -> None:
    print(f"{'layer':8} {'kind':7} {'step':44} {'cpu ms p50':>10} {'wall ms p50':>11}")
    for kind, runs in rows.items():
        order = [step[1] for step in STEPS]
        labels = sorted({k for r in runs for k in r[3]}, key=order.index)
        for label in labels:
            cpu = statistics.median(r[3].get(label, 0.0) for r in runs) * 1e3
            wall = statistics.median(r[2].get(label, 0.0) for r in runs) * 1e3
            print(f"{size:8} {kind:7} {label:44} {cpu:10.1f} {wall:11.1f}")
        cpu = statistics.median(r[1] for r in runs) * 1e3
        wall = statistics.median(r[0] for r in runs) * 1e3
        print(f"{size:8} {kind:7} {'= edit -> first page announced':44} {cpu:10.1f} {wall:11.1f}"
              f"   ({len(runs)} edits)")


# -- e2e: a real first build, then edits -------------------------------------------------

def e2e(size: str) -> None:
    from generator.serve.incremental import IncrementalBuilder, OpenFirst

    base = Path(tempfile.mkdtemp(prefix="bench-open-first-"))
    try:
        root = copy_layer(_layer(size), base / "repo")
        builder = IncrementalBuilder(root, base / "site", label=root.name)
        c0 = time.process_time()
        first = builder.rebuild()
        print(f"# {size}: first build {first.seconds:.1f}s wall, "
              f"{time.process_time() - c0:.1f}s CPU (main process); generator from "
              f"{Path(sys.modules['generator'].__file__).parent.parent}")
        print(f"{'layer':8} {'kind':7} {'open p50 s':>10} {'open cpu p50':>12} "
              f"{'all p50 s':>10}  timings (p50, s)")
        for kind, paths in edit_targets(root, EDITS).items():
            opens, open_cpu, alls, stages = [], [], [], {}
            for i, path in enumerate(paths):
                rel = path.relative_to(root).as_posix()
                pages = open_pages(builder.state.index, rel)
                mark: list[tuple[float, float]] = []
                hooks = OpenFirst(open_pages=lambda pages=pages: pages,
                                  on_open=lambda rels, mark=mark: mark or mark.append(
                                      (time.perf_counter(), time.process_time())))
                edit_file(path, 100 + i)
                w, c = time.perf_counter(), time.process_time()
                report = builder.rebuild([rel], open_first=hooks)
                done = time.perf_counter() - w
                at = mark[0] if mark else (time.perf_counter(), time.process_time())
                opens.append(at[0] - w)
                open_cpu.append(at[1] - c)
                alls.append(done)
                for stage, seconds in report.timings.items():
                    if not stage.startswith("overview:"):
                        stages.setdefault(stage, []).append(seconds)
            detail = ", ".join(f"{k} {statistics.median(v):.3f}" for k, v in stages.items())
            print(f"{size:8} {kind:7} {statistics.median(opens):10.3f} "
                  f"{statistics.median(open_cpu):12.3f} {statistics.median(alls):10.3f}  {detail}")
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("steps", "e2e"):
        sys.exit("usage: open_first.py steps|e2e demo|real|medium|large")
    {"steps": steps, "e2e": e2e}[sys.argv[1]](sys.argv[2])
