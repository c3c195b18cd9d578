"""Load + index: read the files, parse the layer, build the index."""

from __future__ import annotations

import statistics
import time

from generator.index import build_index
from generator.layer.loader import load_layer
from generator.layer.reader import read_source_tree

from .layers import real, synthetic


def _measure(root, report, label: str, runs: int) -> None:
    reads, parses, indexes, totals = [], [], [], []
    objects = 0
    for _ in range(runs):
        t0 = time.perf_counter()
        tree = read_source_tree(root)
        t1 = time.perf_counter()
        layer = load_layer(tree)
        t2 = time.perf_counter()
        index = build_index(layer)
        t3 = time.perf_counter()
        reads.append(t1 - t0)
        parses.append(t2 - t1)
        indexes.append(t3 - t2)
        totals.append(t3 - t0)
        objects = len(index.objects)
    report(f"{label}: load+index total (median of {runs})", statistics.median(totals), "s",
           f"{objects:,} objects")
    report(f"{label}:   read files", statistics.median(reads), "s")
    report(f"{label}:   parse records", statistics.median(parses), "s")
    report(f"{label}:   build index", statistics.median(indexes), "s")


def main(report) -> None:
    layer = real()
    if layer is not None:
        _measure(layer, report, "real layer", 5)
    _measure(synthetic("large"), report, "synthetic large", 3)
