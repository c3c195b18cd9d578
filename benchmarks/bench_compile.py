"""Compile and explain: time per context over every issue and milestone of the real layer
and over a sample of the synthetic `large` layer (300 issues + every milestone), the spread
of what an answer holds (selected / excluded entries), and explain cold (a fresh
EngineCache: compile + explain) against warm (the same request again).

On the real layer each context is compiled ``ROUNDS`` times and its fastest run kept (the
noise on a shared machine only ever adds time); on the large layer once (a context there
takes ~0.1–2 s, most of it in naming the budget that would bring each budget exclusion
back). The median and p95 are over contexts.
"""

from __future__ import annotations

import statistics
import time

from generator.engine import EngineCache, ExplainInput, compile_context, parse_input
from generator.engine.prepared import forget_prepared, prepared
from generator.index import build_index
from generator.layer.loader import load_layer
from generator.layer.reader import read_source_tree
from generator.workers import collector_for_jobs

from .layers import real, synthetic

ROUNDS = 3
SYNTHETIC_ISSUES = 300


def _index(root):
    return build_index(load_layer(read_source_tree(root)))


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]


def _sample(items: list, n: int) -> list:
    """``n`` items spread evenly over ``items`` (deterministic)."""
    if len(items) <= n:
        return list(items)
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def _counts(report, label: str, name: str, values: list[int]) -> None:
    report(f"{label}: {name} per context (median)", statistics.median(values), "entries",
           f"min {min(values)}, max {max(values)}")


def _measure(index, seeds, report, label: str, rounds: int, explains: int) -> None:
    # the first compile builds the structures derived once per index (adjacency, contracts,
    # sessions by file, intent haystacks); measured apart from the per-context times
    forget_prepared(index)
    t0 = time.perf_counter()
    prepared(index)
    report(f"{label}: derive per-index structures (once)", (time.perf_counter() - t0) * 1e3,
           "ms", f"{len(index.objects):,} objects, {len(index.edges):,} edges")

    times: list[float] = []
    selected: list[int] = []
    excluded: list[int] = []
    over = 0
    for obj in seeds:
        request = parse_input({obj.kind: obj.identity})
        best = float("inf")
        for _ in range(rounds):
            t = time.perf_counter()
            compiled = compile_context(index, request)
            best = min(best, time.perf_counter() - t)
        times.append(best * 1e3)
        selected.append(len(compiled.selected))
        excluded.append(len(compiled.excluded))
        over += compiled.budget.over_budget
    issues = sum(1 for o in seeds if o.kind == "issue")
    note = f"{len(seeds)} contexts ({issues} issues, {len(seeds) - issues} milestones)"
    report(f"{label}: compile per context, median", statistics.median(times), "ms", note)
    report(f"{label}: compile per context, p95", _p95(times), "ms", f"max {max(times):.2f} ms")
    _counts(report, label, "selected", selected)
    _counts(report, label, "excluded", excluded)
    report(f"{label}: contexts over budget", over, "contexts", "required alone > 24,000 tokens")

    # explain, cold (a fresh cache: compile + explain) and warm (the same request again)
    cold: list[float] = []
    warm: list[float] = []
    policy = index.by_kind.get("policy", [None])[0]
    cases = [ExplainInput(uri=o.uri, **{o.kind: o.identity}) for o in _sample(seeds, explains)]
    if policy is not None:
        cases.append(ExplainInput(uri=policy.uri))  # upstream's `policy` case
    cases.append(ExplainInput(uri="majordomus://rule/nothing-like-this@1"))  # `absent`
    for case in cases:
        cache = EngineCache()
        t = time.perf_counter()
        cache.explain(index, case)
        cold.append((time.perf_counter() - t) * 1e3)
        t = time.perf_counter()
        cache.explain(index, case)
        warm.append((time.perf_counter() - t) * 1e3)
    report(f"{label}: explain cold (compile + explain), median", statistics.median(cold), "ms",
           f"{len(cases)} requests, p95 {_p95(cold):.2f} ms")
    report(f"{label}: explain warm (cache hit), median", statistics.median(warm) * 1e3, "us",
           f"p95 {_p95(warm) * 1e3:.1f} us")


def main(report) -> None:
    root = real()
    if root is not None:
        index = _index(root)
        seeds = index.by_kind.get("issue", []) + index.by_kind.get("milestone", [])
        _frozen_measure(index, seeds, report, "real layer", ROUNDS, 60)
    index = _index(synthetic("large"))
    seeds = _sample(index.by_kind["issue"], SYNTHETIC_ISSUES) + index.by_kind["milestone"]
    _frozen_measure(index, seeds, report, "synthetic large", 1, 20)


def _frozen_measure(index, seeds, report, label: str, rounds: int, explains: int) -> None:
    """:func:`_measure` with the collector as the build's jobs and serve's requests have it
    (the index frozen, gen0 at 50,000): with CPython's default one, every few hundred
    answers on a large layer a full collection walked the whole index, and the p95 said
    that (457 ms against a median of 19)."""
    with collector_for_jobs():
        _measure(index, seeds, report, label, rounds, explains)
