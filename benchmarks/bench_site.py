"""Full site builds: the real layer and the synthetic large layer — seconds per stage,
pages, files, bytes."""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from generator.engine.compile import GitInfo
from generator.site.build import Progress, SiteInputs, build_site
from generator.workspace import Workspace
from generator.writer import write_site

from .layers import real, synthetic


def _build(root: Path, label: str, report) -> None:
    stages: dict[str, float] = {}
    current = {"name": None, "t": 0.0}

    def stage(name: str, total: int) -> None:
        now = time.perf_counter()
        if current["name"]:
            stages[current["name"]] = now - current["t"]
        current.update(name=name, t=now)

    t0 = time.perf_counter()
    ws = Workspace.open(root)
    t1 = time.perf_counter()
    out = Path(tempfile.mkdtemp(prefix="bench-site-")) / "site"
    try:
        stats = write_site(build_site(SiteInputs(index=ws.index, git=GitInfo(), label=label, files=ws.tree.files),
                                      Progress(stage=stage)), out)
        t2 = time.perf_counter()
        if current["name"]:
            stages[current["name"]] = t2 - current["t"]
        contexts = len(ws.index.by_kind.get("issue", [])) + len(ws.index.by_kind.get("milestone", []))
        report(f"{label}: full build", t2 - t0, "s",
               f"{stats.pages:,} pages, {stats.json_files:,} JSON, {stats.files:,} files, "
               f"{stats.bytes / 1e6:.1f} MB, {contexts:,} contexts")
        report(f"{label}:   load + index", t1 - t0, "s")
        for name, seconds in stages.items():
            report(f"{label}:   {name}", seconds, "s")
    finally:
        shutil.rmtree(out.parent, ignore_errors=True)


def main(report) -> None:
    layer = real()
    if layer is not None:
        _build(layer, "real layer", report)
    _build(synthetic("large"), "synthetic large", report)
