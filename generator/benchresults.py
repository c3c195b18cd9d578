"""The results file ``make bench`` writes (``.bench/results.json``), read into values the
reference and performance pages show.

The file is a JSON list of rows ``{"name", "value", "unit", "note", "tags"}``;
``tags`` is a flat dict of strings saying what the figure is (``benchmarks/run.py``), e.g.
``{"figure": "operation", "operation": "devcontext.explain", "transport": "http",
"case": "policy", "phase": "warm", "stat": "p50"}``. A row whose value is not a finite
number (a skipped measurement is written as NaN) is kept but counts as not measured.

Reading is the only impure part (:func:`read_results`); :func:`parse_results` is pure.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from .errors import InputError

__all__ = [
    "BenchResults",
    "BenchRow",
    "DEFAULT_RESULTS",
    "OPERATION_FIGURE",
    "default_results_path",
    "parse_results",
    "read_results",
]

#: Where ``make bench`` writes its results, relative to the repository.
DEFAULT_RESULTS = ".bench/results.json"
#: The ``figure`` tag of a row of the operation matrix (``benchmarks/bench_transports.py``).
OPERATION_FIGURE = "operation"

_FIX = ("Run `make bench` to write it again, or build without --bench-results "
        "(the pages then say how to produce one).")


@dataclass(frozen=True)
class BenchRow:
    """One figure: its name, value (None when not measured), unit, note and tags."""

    name: str
    value: float | None
    unit: str
    note: str
    tags: Mapping[str, str]

    @property
    def figure(self) -> str | None:
        return self.tags.get("figure")


@dataclass(frozen=True)
class BenchResults:
    """Every row of one results file, in the file's order; ``source`` names the file as the
    pages show it (never an absolute path)."""

    source: str
    rows: tuple[BenchRow, ...]

    def figures(self) -> dict[str, list[BenchRow]]:
        """Rows with a ``figure`` tag, grouped by it (groups sorted, rows in file order)."""
        grouped: dict[str, list[BenchRow]] = {}
        for row in self.rows:
            if row.figure:
                grouped.setdefault(row.figure, []).append(row)
        return dict(sorted(grouped.items()))

    def untagged(self) -> list[BenchRow]:
        return [row for row in self.rows if not row.figure]

    def operation_row(self, operation: str, transport: str, case: str, phase: str,
                      stat: str) -> BenchRow | None:
        """The operation matrix's row for one cell, the last one when the file has two."""
        want = {"figure": OPERATION_FIGURE, "operation": operation, "transport": transport,
                "case": case, "phase": phase, "stat": stat}
        found = None
        for row in self.rows:
            if all(row.tags.get(k) == v for k, v in want.items()):
                found = row
        return found


def default_results_path(repo: Path) -> Path | None:
    """``<repo>/.bench/results.json`` when ``make bench`` has written it there."""
    path = repo / DEFAULT_RESULTS
    return path if path.is_file() else None


def read_results(path: Path, shown: str) -> BenchResults:
    """The results file at ``path``; ``shown`` is how the pages and messages name it."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"--bench-results {shown}: expected a results file written by "
                         f"`make bench`, found it cannot be read ({exc.strerror or exc}). "
                         f"{_FIX}", path=shown) from exc
    return parse_results(data, shown)


def parse_results(data: bytes, source: str) -> BenchResults:
    """The rows of a results file's bytes; a file that is not one raises :class:`InputError`
    naming the file, the row and the field."""
    try:
        rows = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"--bench-results {source}: expected JSON as `make bench` writes it, "
                         f"found text that does not parse ({exc}). {_FIX}", path=source) from exc
    if not isinstance(rows, list):
        raise InputError(f"--bench-results {source}: expected a JSON list of rows "
                         f"{{name, value, unit, note, tags}}, found a JSON "
                         f"{_json_kind(rows)}. {_FIX}", path=source)
    return BenchResults(source=source, rows=tuple(_row(r, n, source) for n, r in
                                                  enumerate(rows, start=1)))


def _row(raw: Any, number: int, source: str) -> BenchRow:
    where = f"--bench-results {source}: row {number}"
    if not isinstance(raw, dict):
        raise InputError(f"{where}: expected an object {{name, value, unit, note, tags}}, "
                         f"found a JSON {_json_kind(raw)}. {_FIX}", path=source)
    for field in ("name", "unit"):
        if not isinstance(raw.get(field), str):
            raise InputError(f"{where}: expected `{field}` to be a string, found "
                             f"{_json_kind(raw.get(field))}. {_FIX}", path=source, field=field)
    value = raw.get("value")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"{where}: expected `value` to be a number, found "
                         f"{_json_kind(value)}. {_FIX}", path=source, field="value")
    tags = raw.get("tags", {})
    if not isinstance(tags, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                             for k, v in tags.items()):
        raise InputError(f"{where}: expected `tags` to be a flat object of strings, found "
                         f"{_json_kind(tags)}. {_FIX}", path=source, field="tags")
    note = raw.get("note", "")
    return BenchRow(name=raw["name"], value=float(value) if math.isfinite(value) else None,
                    unit=raw["unit"], note=note if isinstance(note, str) else "",
                    tags=dict(tags))


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__
