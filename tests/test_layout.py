"""The test tree itself: pytest imports test modules by base name, so two test files with
one name in different folders break collection on a clean checkout."""

from __future__ import annotations

from collections import Counter
from pathlib import Path


def test_test_file_names_are_unique():
    names = Counter(p.name for p in Path(__file__).parent.rglob("test_*.py"))
    assert [name for name, n in names.items() if n > 1] == []
