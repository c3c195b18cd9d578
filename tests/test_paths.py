"""generator.paths: normalisation and whole-segment containment."""

from __future__ import annotations

import pytest

from generator.paths import is_relative_inside, is_within, normalise_path


@pytest.mark.parametrize(("raw", "expected"), [
    ("lib", "lib"), ("  lib/x/ ", "lib/x"), ("./lib", "lib"), ("././lib//", "lib"),
    ("./", ""), ("", ""), ("/abs/", "/abs"),
])
def test_normalise_path(raw, expected):
    assert normalise_path(raw) == expected


@pytest.mark.parametrize(("path", "prefix", "expected"), [
    ("lib", "lib", True),
    ("lib/x.py", "lib", True),
    ("lib/a/b", "lib/a", True),
    ("library", "lib", False),  # whole segments, not string prefixes
    ("li", "lib", False),
    ("lib", "lib/x.py", False),
    ("anything/at/all", "", True),  # the root holds every path
    ("", "", True),
])
def test_is_within(path, prefix, expected):
    assert is_within(path, prefix) is expected


@pytest.mark.parametrize(("path", "expected"), [
    ("lib/x", True), ("a..b/c", True), ("", False), ("/etc", False), ("../x", False),
    ("a/../b", False), ("a/..", False),
])
def test_is_relative_inside(path, expected):
    assert is_relative_inside(path) is expected
