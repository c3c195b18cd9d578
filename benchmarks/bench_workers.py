"""Worker processes and the garbage collector, side by side in one run: the same 100
contexts of the ``large`` synthetic layer compiled and rendered (the serve rebuild's job)
in this process and in two forked workers, with the long-lived heap frozen for the
collector or not.

The process first builds a heap standing in for a server's state (10 million small
objects beside the index), since what the collector walks is what made rebuilds slow.
"""

from __future__ import annotations

import gc
import os
import time

from generator import workers
from generator.engine.compile import GitInfo
from generator.site.build import SiteInputs, page_kit
from generator.site.compiled import context_job
from generator.site.contexts import context_keys
from generator.workspace import Workspace

from .layers import synthetic

CONTEXTS = 100
BALLAST = 10_000_000


def main(report) -> None:
    ws = Workspace.open(synthetic(os.environ.get("BENCH_WORKERS_SIZE", "large")))
    index = ws.index
    ballast = [{"n": i} for i in range(BALLAST)]  # noqa: F841 - kept alive on purpose
    kit = page_kit(SiteInputs(index=index, git=GitInfo(), label="bench", files=ws.tree.files))
    keys = context_keys(index)
    sample = keys[:: max(1, len(keys) // CONTEXTS)][:CONTEXTS]
    job = context_job(kit, GitInfo(), keep_json=True)
    for key in sample[:5]:  # warm the engine's per-index caches
        job(key)

    saved = (workers.WARMUP_SECONDS, workers.POOL_WORTH_SECONDS, gc.freeze)
    workers.WARMUP_SECONDS = workers.POOL_WORTH_SECONDS = 0  # the pool from the first item
    results = {}
    try:
        for label, n, freeze in (("one process, heap not frozen", 1, False),
                                 ("one process, heap frozen", 1, True),
                                 ("two workers, heap not frozen", 2, False),
                                 ("two workers, heap frozen", 2, True)):
            gc.freeze = saved[2] if freeze else (lambda: None)
            t0 = time.perf_counter()
            for _ in workers.ordered_map(job, sample, workers=n):
                pass
            results[label] = time.perf_counter() - t0
            gc.unfreeze()
    finally:
        workers.WARMUP_SECONDS, workers.POOL_WORTH_SECONDS, gc.freeze = saved
    base = results["one process, heap not frozen"]
    for label, seconds in results.items():
        report(f"{len(sample)} contexts, {label}", seconds, "s", f"{base / seconds:.1f}× the first")
