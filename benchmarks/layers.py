"""Layers the benchmarks run on: synthetic ones written once under .bench/, and the real
layer in ../shared when present."""

from __future__ import annotations

from pathlib import Path

from generator.synth import synthesize, write_layer

ROOT = Path(__file__).resolve().parents[1]
REAL_LAYER = ROOT.parent / "shared" / "data" / "majordomus-layer"


def synthetic(size: str) -> Path:
    """The synthetic layer of ``size`` on disk (written on first use, reused after)."""
    out = ROOT / ".bench" / f"synth-{size}"
    marker = out / ".complete"
    if not marker.exists():
        write_layer(synthesize(size), out)
        marker.write_text("ok\n")
    return out


def real() -> Path | None:
    return REAL_LAYER if (REAL_LAYER / ".ai" / "manifest.yaml").is_file() else None
