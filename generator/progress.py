"""A progress bar for long builds: drawn on a terminal (stderr), silent otherwise."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["TerminalProgress"]


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
