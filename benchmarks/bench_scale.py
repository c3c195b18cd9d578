"""The full build as the layer grows: ``devcontext build`` of synthetic ``large`` at 1×, 2×
and 4× its issues (milestones, ADRs and session records scale with them, see
:func:`generator.synth.shapes.resolve_shape`) — wall time, peak memory of all its
processes together, output bytes and files, and the growth 1× → 4× (target ≤ ×4.4 in time
and memory; 1× targets: ≤ 60 s, ≤ 2 GiB, ≤ 4 GB).

Memory of all processes together is sampled from ``/proc`` (the build and its forked
workers; proportional set size, so pages the workers share with the parent are counted
once), no psutil; ``RUSAGE_CHILDREN``'s largest single process is reported beside it.
``BENCH_SCALES`` (default ``1,2,4``) picks the factors: a 4× build takes long;
``BENCH_SCALE_BASE`` (default ``large``) the layer scaled (``medium`` shows the growth's
shape in minutes, where ``large`` takes over an hour; the targets are ``large``'s). The build
runs with ``DEVCONTEXT_WORKERS`` workers (default 2, the target's two cores); the load
average is noted beside the time, and the CPU time of the build and its workers (a shared
machine's wall time is not a quiet one; its CPU time is steadier, and growth is given in
both). The
output is also broken down by kind of file (:func:`output_breakdown`), each kind's bytes,
files and largest file a tagged row, so the 4 GB target can be read against what fills it.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable

from generator.synth import SIZES, synthesize, write_layer

from .layers import ROOT, synthetic

SCALES = tuple(int(s) for s in os.environ.get("BENCH_SCALES", "1,2,4").split(",") if s)
BASE = os.environ.get("BENCH_SCALE_BASE", "large")


def scaled_layer(factor: int, base: str = "large") -> Path:
    """Synthetic ``base`` with ``factor`` times its issues, written once under .bench/."""
    if factor == 1:
        return synthetic(base)
    out = ROOT / ".bench" / f"synth-{base}-x{factor}"
    marker = out / ".complete"
    if not marker.exists():
        write_layer(synthesize(base, issues=SIZES[base].issues * factor), out)
        marker.write_text("ok\n")
    return out


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(b")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, ()))
    return out


def _pss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class PeakMemory:
    """The peak of the summed PSS of a process tree, sampled every ``interval`` seconds."""

    def __init__(self, pid: int, interval: float = 0.25) -> None:
        self.pid = pid
        self.interval = interval
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            total = sum(_pss_bytes(p) for p in _tree(self.pid))
            self.peak = max(self.peak, total)
            self._stop.wait(self.interval)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak


def output_size(out: Path) -> tuple[int, int]:
    """(bytes, files) of a built site."""
    total = files = 0
    for dirpath, _, names in os.walk(out):
        for name in names:
            total += os.path.getsize(os.path.join(dirpath, name))
            files += 1
    return total, files


#: The kinds of file the output is broken down by, first match wins: (kind, test on the
#: site-relative path).
KINDS: tuple[tuple[str, Callable[[str], bool]], ...] = (
    ("pack files", lambda rel: rel.startswith("contexts/") and ".pack." in rel),
    ("context pages", lambda rel: rel.startswith("contexts/") and rel.endswith(".html")),
    ("compiled JSON", lambda rel: rel.startswith("api/v1/devcontext/compile/")),
    ("object pages", lambda rel: rel.startswith("objects/") and rel.endswith(".html")),
    ("object JSON", lambda rel: rel.startswith("api/v1/objects/")),
    ("the rest", lambda rel: True),
)


def kind_of(rel: str) -> str:
    return next(kind for kind, test in KINDS if test(rel))


def output_breakdown(out: Path) -> dict[str, dict]:
    """Per kind of file (:data:`KINDS`): bytes, files, and the largest file (path, bytes)."""
    kinds = {kind: {"bytes": 0, "files": 0, "largest": ("", 0)} for kind, _ in KINDS}
    for dirpath, _, names in os.walk(out):
        for name in names:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, out).replace(os.sep, "/")
            size = os.path.getsize(path)
            row = kinds[kind_of(rel)]
            row["bytes"] += size
            row["files"] += 1
            if size > row["largest"][1] or (size == row["largest"][1] and rel < row["largest"][0]):
                row["largest"] = (rel, size)
    return kinds


_STAGE = re.compile(r"^(?P<name>.+) (?P<wall>[\d,.]+) s \(CPU (?P<cpu>[\d,.]+) s"
                    r"(?:, (?P<workers>[\d,.]+) s of it in workers)?\)$")


def stage_times(stdout: str) -> list[tuple[str, float, float, float]]:
    """``(stage, wall s, CPU s, of it in workers)`` from ``build --timings``'s last line."""
    line = next((line for line in reversed(stdout.splitlines()) if line.startswith("stages: ")), "")
    stages = []
    for part in line[len("stages: "):].split(" · ") if line else ():
        match = _STAGE.match(part)
        if match:
            number = lambda key: float((match.group(key) or "0").replace(",", ""))  # noqa: E731
            stages.append((match.group("name"), number("wall"), number("cpu"), number("workers")))
    return stages


def build_once(root: Path, keep: Path | None = None) -> dict:
    """One full ``devcontext build`` of ``root``: seconds, peak bytes, output bytes, files,
    the breakdown by kind, and the load average before and after. ``keep``: build there
    and leave the site (to read what fills it), instead of a temporary directory."""
    work = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    site = keep if keep is not None else work / "site"
    try:
        argv = [str(Path(sys.executable).with_name("devcontext")), "build", "--quiet",
                "--timings", "--repo", str(root), "--out", str(site)]
        env = {**os.environ, "DEVCONTEXT_WORKERS": os.environ.get("DEVCONTEXT_WORKERS", "2")}
        load_before = os.getloadavg()[0]
        used_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        peak = PeakMemory(proc.pid)
        out, err = proc.communicate()
        seconds = time.perf_counter() - t0
        peak_bytes = peak.stop()
        if proc.returncode != 0:
            raise RuntimeError(f"devcontext build --repo {root} failed ({proc.returncode}): "
                               f"{err.decode(errors='replace')[-2000:]}")
        load_after = os.getloadavg()[0]
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (used.ru_utime - used_before.ru_utime) + (used.ru_stime - used_before.ru_stime)
        size, files = output_size(site)
        largest = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
        return {"seconds": seconds, "cpu": cpu, "peak": peak_bytes, "bytes": size, "files": files,
                "largest": largest, "kinds": output_breakdown(site),
                "load": (load_before, load_after), "workers": env["DEVCONTEXT_WORKERS"],
                "stages": stage_times(out.decode(errors="replace"))}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(report) -> None:
    first: dict[str, float] | None = None
    for factor in SCALES:
        got = build_once(scaled_layer(factor, BASE))
        tags = {"layer": BASE, "scale": f"{factor}x"}
        targets = factor == 1 and BASE == "large"
        load = "load average {:.2f} before, {:.2f} after; {} workers; CPU {:,.0f} s".format(
            *got["load"], got["workers"], got["cpu"])
        report(f"scale {BASE} {factor}x: full build", got["seconds"], "s",
               ("target ≤ 60 s; " if targets else "") + load, tags={"figure": "build", **tags})
        report(f"scale {BASE} {factor}x:   peak memory, all processes", got["peak"] / 2**30,
               "GiB", ("target ≤ 2 GiB; " if targets else "")
               + f"largest one process {got['largest'] / 2**30:.2f} GiB",
               tags={"figure": "memory", **tags})
        report(f"scale {BASE} {factor}x:   output", got["bytes"] / 1e9, "GB",
               ("target ≤ 4 GB; " if targets else "") + f"{int(got['files']):,} files",
               tags={"figure": "output", **tags})
        for name, wall, cpu, workers in got["stages"]:
            in_workers = f", {workers:,.1f} s of it in workers" if workers else ""
            report(f"scale {BASE} {factor}x:     stage {name}", wall, "s",
                   f"CPU {cpu:,.1f} s{in_workers}",
                   tags={"figure": "build-stage", "stage": name, **tags})
        for kind, row in got["kinds"].items():
            path, size = row["largest"]
            report(f"scale {BASE} {factor}x:     {kind}", row["bytes"] / 1e9, "GB",
                   f"{row['files']:,} files; largest {path} ({size / 1e3:,.0f} KB)",
                   tags={"figure": "output-kind", "kind": kind, **tags})
        if first is None:
            first = got
        elif factor > 1:
            for what, key, tag in (("time", "seconds", "time"), ("CPU time", "cpu", "cpu"),
                                   ("memory", "peak", "memory")):
                report(f"scale {BASE} 1x→{factor}x: growth in {what}", got[key] / first[key],
                       "×", "target ≤ ×4.4 at 4x" if factor == 4 and tag != "cpu" else "",
                       tags={"figure": "growth", "what": tag, "layer": BASE,
                             "scale": f"{factor}x"})
