"""What one context costs an edit, step by step: the same contexts of a layer compiled,
viewed, rendered to their page, serialised to JSON, and reduced to the record a serve
rebuild keeps — each step timed side by side in one run, in one process with the heap
frozen (as serve runs). An edit's latency is about a fixed part plus this cost for every
context the edit reaches, halved at best by the two workers.

The contexts are walked in the build's order (:func:`~generator.site.contexts.context_keys`)
with one page kit, as a build's worker walks them: the kit keeps the rows it rendered
(contexts of one milestone repeat most of each other's), so a context is measured once,
in a run of the build's order after the ``WARM`` contexts before it (as a worker has met
the run's objects before) — never a second pass over the same ones, which would find
every row kept."""

from __future__ import annotations

import os
import statistics
import time

from generator.engine.compile import GitInfo, compile_with_reach
from generator.engine.models import CompileInput
from generator.jsonio import canonical_json
from generator.site import urls
from generator.site.build import SiteInputs, page_kit
from generator.site.compiled import json_digest
from generator.site.contexts import AnswerDigest, context_keys, excluded_uris, standings_of
from generator.site.pages.context import context_view
from generator.workers import collector_for_jobs
from generator.workspace import Workspace

from .layers import real, synthetic

#: Where the measured runs of contexts start, as a share of the build's order, ``RUN``
#: contexts each: spread over the issues, 96 % of a large layer's contexts (its milestones,
#: at the end of the order, are each larger and repeat each other less).
RUNS = (1 / 6, 1 / 2, 5 / 6)
RUN = 10
#: Contexts walked, unmeasured, before each run.
WARM = 20


def _measure(label: str, root, report) -> None:
    index = Workspace.open(root).index
    with collector_for_jobs():  # as the build's jobs run
        git = GitInfo()
        kit = page_kit(SiteInputs(index=index, git=git, label="bench"))
        keys = context_keys(index)
        starts = [max(0, min(int(at * len(keys)), len(keys) - RUN)) for at in RUNS]
        points = sorted({i for start in starts for i in range(start, min(start + RUN, len(keys)))})
        steps: dict[str, list[float]] = {s: [] for s in (
            "compile (with its reach)", "view", "page template", "JSON", "record kept")}
        sizes: list[int] = []
        reused = [0, 0]
        measured_at = set(points)
        walked = sorted({i for start in starts for i in range(max(0, start - WARM), start)}
                        | measured_at)
        for i in walked:  # each once, in the build's order
            key, measured = keys[i], i in measured_at
            before = kit.context_rows.page
            hits, misses = (before.hits, before.misses) if before else (0, 0)
            t0 = time.perf_counter()
            request = CompileInput(**{key.kind: key.identity})
            answer, reach = compile_with_reach(index, request, git=git)
            t1 = time.perf_counter()
            page = urls.context_page(key.kind, key.identity)
            view = context_view(kit, key, answer, page)
            t2 = time.perf_counter()
            html = kit.render("context.html", page, title=key.identity, **view)
            t3 = time.perf_counter()
            data = canonical_json(answer)
            t4 = time.perf_counter()
            AnswerDigest.of(answer)
            json_digest(data, answer.fingerprint)
            excluded_uris(answer)
            standings_of(answer)
            t5 = time.perf_counter()
            if measured:
                for step, seconds in zip(steps, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4)):
                    steps[step].append(seconds)
                sizes.append(len(html) + len(data))
                rows = kit.context_rows.page
                if rows is not None and rows is before:
                    reused[0] += rows.hits - hits
                    reused[1] += rows.misses - misses
    total = sum(statistics.mean(v) for v in steps.values())
    report(f"{label}: one context, every step (mean of {len(points)})", total * 1e3, "ms",
           f"target ≤ 8 ms (large); page + JSON {statistics.mean(sizes) / 1e3:,.0f} KB on average",
           tags={"figure": "context", "layer": label, "step": "all"})
    report(f"{label}: one context, page + JSON bytes", statistics.mean(sizes) / 1e3, "KB",
           tags={"figure": "context-size", "layer": label})
    kept = reused[0] + reused[1]
    if kept:
        report(f"{label}: one context, kept rows found made", 100 * reused[0] / kept, "%",
               f"of {kept / len(points):,.0f} selected and non-budget rows a context "
               f"(budget refusals are made every time; their names are kept)",
               tags={"figure": "context-rows", "layer": label})
    for step, values in steps.items():
        mean = statistics.mean(values)
        report(f"{label}:   {step}", mean * 1e3, "ms", f"{mean / total:.0%}",
               tags={"figure": "context", "layer": label, "step": step})


def main(report) -> None:
    layer = real()
    if layer is not None:
        _measure("real layer", layer, report)
    size = os.environ.get("BENCH_CONTEXT_SIZE", "large")
    _measure(f"synthetic {size}", synthetic(size), report)
