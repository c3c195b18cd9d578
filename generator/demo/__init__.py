"""The bundled demo layer: what ``make site`` builds when no repository is given."""

from __future__ import annotations

from pathlib import Path

__all__ = ["demo_root"]


def demo_root() -> Path:
    """The repository root of the demo layer (it holds ``.ai/manifest.yaml``)."""
    return Path(__file__).resolve().parent / "layer"
