"""A progress bar for long builds: drawn on a terminal (stderr), silent otherwise; and the
time each stage of a build took (``devcontext build --timings``)."""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from typing import TextIO

__all__ = ["TerminalProgress", "StageClock", "StageTime"]


class TerminalProgress:
    def __init__(self, stream: TextIO = sys.stderr, *, enabled: bool | None = None) -> None:
        self.stream = stream
        self.enabled = stream.isatty() if enabled is None else enabled
        self.name = ""
        self.total = 0
        self.done = 0
        self._last = 0.0

    def stage(self, name: str, total: int) -> None:
        self._finish_line()
        self.name, self.total, self.done = name, total, 0
        self._draw(force=True)

    def step(self) -> None:
        self.done += 1
        self._draw()

    def close(self) -> None:
        self._finish_line()

    def _draw(self, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._last < 0.1 and self.done < self.total:
            return
        self._last = now
        width = 28
        frac = self.done / self.total if self.total else 1.0
        bar = "█" * int(width * frac) + "·" * (width - int(width * frac))
        self.stream.write(f"\r  {self.name:<24} {bar} {self.done:>7,}/{self.total:<7,}")
        self.stream.flush()

    def _finish_line(self) -> None:
        if self.enabled and self.name:
            self.done = self.total
            self._draw(force=True)
            self.stream.write("\n")
            self.stream.flush()
            self.name = ""


@dataclass(frozen=True)
class StageTime:
    """One stage of a build: its wall time, and the CPU time of this process and of the
    worker processes that ended during it (a stage's workers end with it)."""

    name: str
    wall: float
    cpu: float
    workers_cpu: float

    def text(self) -> str:
        cpu = self.cpu + self.workers_cpu
        workers = (f", {self.workers_cpu:,.1f} s of it in workers" if self.workers_cpu >= 0.05
                   else "")
        return f"{self.name} {self.wall:,.1f} s (CPU {cpu:,.1f} s{workers})"


class StageClock:
    """Times the stages a build announces (``stage(name, total)``, as the progress bar
    hears them), from ``start()`` to ``stop()``: each stage lasts until the next one starts."""

    def __init__(self) -> None:
        self.stages: list[StageTime] = []
        self._name: str | None = None
        self._at = (0.0, 0.0, 0.0)

    @staticmethod
    def _now() -> tuple[float, float, float]:
        t = os.times()
        return time.perf_counter(), t.user + t.system, t.children_user + t.children_system

    def start(self, name: str) -> None:
        self._close()
        self._name, self._at = name, self._now()

    def stage(self, name: str, total: int = 0) -> None:
        self.start(name)

    def stop(self) -> list[StageTime]:
        self._close()
        return self.stages

    def _close(self) -> None:
        if self._name is None:
            return
        wall, cpu, children = self._now()
        wall0, cpu0, children0 = self._at
        self.stages.append(StageTime(self._name, wall - wall0, cpu - cpu0, children - children0))
        self._name = None

    def summary(self) -> str:
        """One line: every stage, in order."""
        return "stages: " + " · ".join(stage.text() for stage in self.stages)
