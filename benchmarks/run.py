"""`make bench`: run every benchmarks/bench_*.py and print one table.

Numbers are measured side by side in one run (the machines are noisy), written to
``.bench/results.json`` and printed. Pass module names to run only those:
``python -m benchmarks.run load compile``.

Each row of the results file is ``{"name", "value", "unit", "note", "tags"}``; ``tags`` (a
flat dict of strings) says what a figure is, for the pages that chart it, e.g.
``{"figure": "build", "layer": "large", "scale": "1x"}`` or ``{"figure": "operation",
"operation": "devcontext.explain", "transport": "http", "case": "policy", "phase": "warm",
"stat": "p50"}``.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
import time
from pathlib import Path

import benchmarks

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / ".bench"


def main(argv: list[str]) -> int:
    wanted = set(argv)
    names = sorted(m.name for m in pkgutil.iter_modules(benchmarks.__path__)
                   if m.name.startswith("bench_"))
    results = []

    def report(name: str, value: float, unit: str, note: str = "",
               tags: dict[str, str] | None = None) -> None:
        results.append({"name": name, "value": value, "unit": unit, "note": note,
                        "tags": dict(tags or {})})
        print(f"  {name:<58} {value:>12,.3f} {unit:<8} {note}", flush=True)

    OUT.mkdir(exist_ok=True)
    for name in names:
        short = name[len("bench_"):]
        if wanted and short not in wanted:
            continue
        print(f"{short}:", flush=True)
        started = time.perf_counter()
        importlib.import_module(f"benchmarks.{name}").main(report)
        print(f"  ({time.perf_counter() - started:.1f}s)", flush=True)
    (OUT / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {OUT / 'results.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
