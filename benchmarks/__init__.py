"""Benchmarks, run by `make bench` (never by `make test`). Each ``bench_*.py`` module has a
``main(report)`` that measures and calls ``report(name, value, unit, note)``."""
