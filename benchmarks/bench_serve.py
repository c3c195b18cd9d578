"""``devcontext serve``: incremental rebuild latency after single-file edits (an issue, an
ADR, a rule, a source file) on the real layer and on the synthetic ``large`` layer, side by
side with a full build in the same run; and the live API's explain latency over HTTP, cold
(a request no cache has seen: compile + explain) and warm (the same request again).

Layers are copied to a temporary directory first (the real one in ../shared is never
edited). Two latencies per edit, told the path as the watcher would: edit written → the open
page reloaded ("open": the builder has made the open pages the edit reaches and serve would
publish their reload; the pages held open are the edited object's own page and, for an
issue, its context page) and edit written → every changed file written ("all": the tree
caught up, equal to a full build). Each is reported per edit kind as p50 and p95, tagged
``{"figure": "edit", "layer", "kind", "phase": "open"|"all", "stat"}``. On the real layer
it is also measured end to end through the watcher (edit → reload event on the event
stream, 150 ms debounce included). ``BENCH_SERVE_SIZES`` (default ``medium,large``) names
the synthetic layers; ``BENCH_SERVE_REAL=0`` leaves the real layer out.
"""

from __future__ import annotations

import http.client
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from generator.engine.compile import GitInfo
from generator.serve.incremental import IncrementalBuilder, OpenFirst
from generator.serve.session import ServeSession
from generator.site.build import SiteInputs, build_site
from generator.workspace import Workspace
from generator.writer import write_site

from .layer_edits import copy_layer, edit_file, edit_targets, open_pages
from .layers import real, synthetic

#: Edits of each kind per layer (``BENCH_SERVE_EDITS`` overrides: a loaded machine).
EDITS_PER_KIND = int(os.environ.get("BENCH_SERVE_EDITS", "3"))
#: With BENCH_SERVE_PROFILE set, the first edit of each kind is profiled (cProfile) here.
PROFILES = Path(__file__).resolve().parents[1] / ".bench"


def _unprofiled_child() -> None:
    """A forked worker drops the profiler it inherits: cProfile's hook survives ``fork``, so
    a profiled edit's workers ran under it, unrecorded, at about twice their CPU (medium,
    per context: 76-84 ms against 35-47 ms for the unprofiled edits of the same run), and
    the edit's summed context time read as a rebuild's contexts costing twice a first
    build's. Only the server process's part is profiled (and slowed)."""
    sys.setprofile(None)


if os.environ.get("BENCH_SERVE_PROFILE"):
    os.register_at_fork(after_in_child=_unprofiled_child)
EXPLAIN_REQUESTS = 12


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]


def _full_build(root: Path, out: Path) -> tuple[float, int]:
    t0 = time.perf_counter()
    ws = Workspace.open(root, exclude=[out])
    stats = write_site(build_site(SiteInputs(index=ws.index, git=GitInfo(), label=root.name,
                                                  files=ws.tree.files)), out)
    return time.perf_counter() - t0, stats.files


def _get(conn: http.client.HTTPConnection, path: str) -> float:
    t0 = time.perf_counter()
    conn.request("GET", path)
    resp = conn.getresponse()
    resp.read()
    elapsed = time.perf_counter() - t0
    assert resp.status == 200, (resp.status, path)
    return elapsed


def _explain(report, label: str, session: ServeSession) -> None:
    index = session.builder.snapshot.index
    issues = sorted(o.identity for o in index.by_kind.get("issue", []))
    adrs = sorted(o.uri for o in index.by_kind.get("adr", []))
    if not issues or not adrs:
        return
    step = max(1, len(issues) // EXPLAIN_REQUESTS)
    requests = [f"/api/v1/devcontext/explain?uri={adrs[(i * 7) % len(adrs)]}&issue={issues[i * step % len(issues)]}"
                for i in range(EXPLAIN_REQUESTS)]
    conn = http.client.HTTPConnection("127.0.0.1", session.server.port, timeout=600)
    try:
        cold = [_get(conn, path) for path in requests]
        warm = [_get(conn, path) for path in requests for _ in range(10)]
    finally:
        conn.close()
    fresh = []
    for path in requests:  # warm, but a new connection each time (no keep-alive)
        c = http.client.HTTPConnection("127.0.0.1", session.server.port, timeout=60)
        try:
            fresh.append(_get(c, path))
        finally:
            c.close()
    report(f"{label}: explain over HTTP, cold p50", statistics.median(cold) * 1e3, "ms",
           f"{len(cold)} requests (compile + explain), p95 {_p95(cold) * 1e3:,.1f} ms")
    report(f"{label}: explain over HTTP, warm p50", statistics.median(warm) * 1e3, "ms",
           f"{len(warm)} requests, keep-alive, p95 {_p95(warm) * 1e3:,.2f} ms")
    report(f"{label}: explain over HTTP, warm, new connection p50", statistics.median(fresh) * 1e3,
           "ms", f"p95 {_p95(fresh) * 1e3:,.2f} ms")


def _end_to_end(report, label: str, session: ServeSession, targets: dict[str, list[Path]]) -> None:
    """Edit → reload event, through the watcher and the debouncer."""
    session.watch()
    conn = http.client.HTTPConnection("127.0.0.1", session.server.port, timeout=600)
    conn.request("GET", "/__devcontext/events")
    stream = conn.getresponse()

    def next_event() -> str:
        event = None
        while True:
            line = stream.fp.readline().decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line == "" and event:
                return event

    assert next_event() == "hello"
    times = []
    for i, path in enumerate(p for paths in targets.values() for p in paths):
        time.sleep(0.3)
        t0 = time.perf_counter()
        edit_file(path, 1000 + i)
        event = next_event()
        times.append(time.perf_counter() - t0)
        assert event == "reload", event
    conn.close()
    report(f"{label}: edit → reload event (watcher, 150 ms debounce) p50", statistics.median(times),
           "s", f"{len(times)} edits, p95 {_p95(times):.3f} s")


def _measure(src: Path, label: str, report, *, full_build: bool) -> None:
    base = Path(tempfile.mkdtemp(prefix="bench-serve-"))
    try:
        t0 = time.perf_counter()
        root = copy_layer(src, base / "repo")
        copy_s = time.perf_counter() - t0
        if full_build:
            seconds, files = _full_build(root, base / "full")
            report(f"{label}: full build (build_site + write_site)", seconds, "s", f"{files:,} files")
            shutil.rmtree(base / "full", ignore_errors=True)
        builder = IncrementalBuilder(root, base / "site", label=root.name)
        session = ServeSession(builder, port=0)
        try:
            first = session.build()
            report(f"{label}: serve's first build (full)", first.seconds, "s",
                   f"{len(first.written):,} files; copy of the layer {copy_s:.1f}s; "
                   + ", ".join(f"{k} {v:.1f}s" for k, v in first.timings.items()))
            session.start()
            by_kind: dict[str, list[float]] = {}
            open_by_kind: dict[str, list[float]] = {}
            stages: dict[str, list[float]] = {}
            details = []
            targets = edit_targets(root, EDITS_PER_KIND)
            for kind, paths in targets.items():
                for i, path in enumerate(paths):
                    rel = path.relative_to(root).as_posix()
                    profile = None
                    if os.environ.get("BENCH_SERVE_PROFILE") and i == 0:
                        import cProfile

                        profile = cProfile.Profile()
                        profile.enable()
                    pages = open_pages(builder.state.index, rel)
                    opened: list[float] = []
                    hooks = OpenFirst(open_pages=lambda: pages,
                                      on_open=lambda rels: opened or opened.append(time.perf_counter()))
                    t0 = time.perf_counter()
                    edit_file(path, i)
                    rebuilt = builder.rebuild([rel], open_first=hooks)
                    elapsed = time.perf_counter() - t0
                    open_by_kind.setdefault(kind, []).append((opened[0] if opened else time.perf_counter()) - t0)
                    if profile is not None:
                        profile.disable()
                        profile.dump_stats(str(PROFILES / f"serve-{label.split()[-1]}-{kind}.prof"))
                    by_kind.setdefault(kind, []).append(elapsed)
                    for stage, seconds in rebuilt.timings.items():
                        stages.setdefault(stage, []).append(seconds)
                    details.append((kind, rel, elapsed, rebuilt))
            every = [t for ts in by_kind.values() for t in ts]
            report(f"{label}: single-file edit → files updated, p50", statistics.median(every), "s",
                   f"{len(every)} edits, p95 {_p95(every):.3f} s")
            for kind, ts in by_kind.items():
                worst = max((d for d in details if d[0] == kind), key=lambda d: d[2])
                r = worst[3]
                report(f"{label}:   {kind} edits p50", statistics.median(ts), "s",
                       f"max {max(ts):.3f}s ({r.contexts_compiled:,} contexts recompiled, "
                       f"{r.objects_rendered:,} object pages, {len(r.written):,} written, "
                       f"{r.patched:,} patched)")
            layer = label.split()[-1] if label.startswith("synthetic") else "real"
            for kind in by_kind:
                for phase, values in (("open", open_by_kind[kind]), ("all", by_kind[kind])):
                    for stat, value in (("p50", statistics.median(values)), ("p95", _p95(values))):
                        report(f"{label}: edit {kind} → {'open page reloaded' if phase == 'open' else 'tree caught up'} {stat}",
                               value, "s", f"{len(values)} edits",
                               tags={"figure": "edit", "layer": layer, "kind": kind, "phase": phase,
                                     "stat": stat})
            for stage, ts in stages.items():
                report(f"{label}:   stage {stage} p50", statistics.median(ts), "s",
                       f"max {max(ts):.3f}s")
            _explain(report, label, session)
            if label.startswith("real"):
                _end_to_end(report, label, session, targets)
        finally:
            session.close()
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main(report) -> None:
    layer = real() if os.environ.get("BENCH_SERVE_REAL", "1") != "0" else None
    if layer is not None:
        _measure(layer, "real layer", report, full_build=True)
    else:
        report("real layer", float("nan"), "s", "skipped: ../shared/data/majordomus-layer absent")
    # On a synthetic layer serve's first build is the full build (the same work: every
    # context compiled, every page rendered, written atomically); a second would double it.
    for size in os.environ.get("BENCH_SERVE_SIZES", "medium,large").split(","):
        _measure(synthetic(size.strip()), f"synthetic {size.strip()}", report, full_build=False)
