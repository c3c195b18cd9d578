"""Hermetic tests: no environment the product reads, a fixed locale and timezone."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

pytest_plugins = ["browserkit"]

REAL_LAYER = Path(__file__).resolve().parents[2] / "shared" / "data" / "majordomus-layer"

for _name in list(os.environ):
    if _name.startswith("DEVCONTEXT_"):
        del os.environ[_name]
os.environ["TZ"] = "UTC"
os.environ["LC_ALL"] = "C.UTF-8"
os.environ.pop("NO_COLOR", None)

# Hypothesis's per-example deadline (200 ms) measures the machine, not the code: on two
# cores shared by the suite's workers a property test of pure code overran it and failed at
# random. Examples are still bounded by the suite's own time.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")


@pytest.fixture
def real_layer() -> Path:
    """The real layer in ../shared/data; tests using it skip when it is absent."""
    if not (REAL_LAYER / ".ai" / "manifest.yaml").is_file():
        pytest.skip("../shared/data/majordomus-layer is not present")
    return REAL_LAYER
