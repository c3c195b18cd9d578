"""``make bench`` runs every ``benchmarks/bench_*.py`` module's ``main(report)``
(:mod:`benchmarks.run`): each one must have it, or a fresh clone's ``make bench`` stops at
the first that has not (a by-hand script is named otherwise)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import benchmarks


def test_every_bench_module_has_the_main_make_bench_calls():
    names = sorted(m.name for m in pkgutil.iter_modules(benchmarks.__path__)
                   if m.name.startswith("bench_"))
    assert len(names) >= 10
    for name in names:
        module = importlib.import_module(f"benchmarks.{name}")
        main = getattr(module, "main", None)
        assert callable(main), f"benchmarks/{name}.py has no main(report): make bench stops there"
        assert list(inspect.signature(main).parameters) == ["report"], name
