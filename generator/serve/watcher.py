"""Watch the layer and the templates with watchdog, coalesce bursts, hand over batches.

Editors write a file several times (a temporary file, a rename, a chmod): events are
collected until nothing happened for ``quiet`` seconds (150 ms by default; never longer
than ``max_wait`` after the first event) and then handed over as one :class:`Batch` of
repository-relative paths and template-relative names. Events under the output directory
(and the temporary directories a full write makes beside it) and under ``.git``-like
directories are ignored; so are plain "a directory's contents changed" notifications.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from ..layer.reader import SKIPPED_DIRS

__all__ = ["Batch", "Debouncer", "LayerWatcher", "watch_roots"]

log = logging.getLogger("devcontext.serve")

DEFAULT_QUIET = 0.15
DEFAULT_MAX_WAIT = 2.0


@dataclass
class Batch:
    paths: set[str] = field(default_factory=set)
    templates: set[str] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.paths or self.templates)

    def merge(self, other: "Batch") -> None:
        self.paths |= other.paths
        self.templates |= other.templates


class Debouncer:
    """Collects changes and calls ``deliver(batch)`` on its own thread after a quiet
    period; changes arriving while ``deliver`` runs are delivered in the next batch."""

    def __init__(self, deliver: Callable[[Batch], None], *, quiet: float = DEFAULT_QUIET,
                 max_wait: float = DEFAULT_MAX_WAIT) -> None:
        self.deliver = deliver
        self.quiet = quiet
        self.max_wait = max_wait
        self._cond = threading.Condition()
        self._batch = Batch()
        self._first = 0.0
        self._last = 0.0
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="devcontext-rebuild", daemon=True)
        self._thread.start()

    def add(self, paths: Iterable[str] = (), templates: Iterable[str] = ()) -> None:
        with self._cond:
            now = time.monotonic()
            if not self._batch:
                self._first = now
            self._batch.paths.update(paths)
            self._batch.templates.update(templates)
            self._last = now
            self._cond.notify()

    def waiting(self) -> bool:
        """Changes arrived since the batch being delivered was taken (a rebuild then gives
        way: the next batch carries its paths too)."""
        with self._cond:
            return bool(self._batch)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._stopped and not self._batch:
                    self._cond.wait()
                if self._stopped:
                    return
                while not self._stopped:
                    now = time.monotonic()
                    due = min(self._last + self.quiet, self._first + self.max_wait)
                    if now >= due:
                        break
                    self._cond.wait(due - now)
                if self._stopped:
                    return
                batch, self._batch = self._batch, Batch()
            try:
                self.deliver(batch)
            except Exception:  # noqa: BLE001 - the watcher must survive any rebuild
                log.exception("a rebuild failed unexpectedly")

    def stop(self, timeout: float | None = 5.0) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify_all()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout)


def watch_roots(root: Path, classes) -> list[tuple[Path, bool]]:
    """(directory, recursive) pairs covering every file the reader can read: ``.ai/`` and
    the base directory of each source class outside it (its nearest existing ancestor,
    without recursion, while it does not exist yet)."""
    root = Path(root)
    wanted: dict[str, bool] = {".ai": True}
    for source_class in classes:
        spec = source_class.pathspec
        base = spec.base_dir
        if base == ".ai" or base.startswith(".ai/") or base.split("/")[0] in SKIPPED_DIRS:
            continue
        recursive = spec.recursive or "/" in spec.pattern[len(base) + 1 if base else 0:]
        wanted[base] = wanted.get(base, False) or recursive
    out: dict[str, bool] = {}
    for base, recursive in wanted.items():
        path = base
        while path and not (root / path).is_dir():
            path = os.path.dirname(path)
            recursive = False
        out[path] = out.get(path, False) or recursive
    # drop directories a recursive watch above them already covers
    kept = []
    for path, recursive in sorted(out.items()):
        covered = any(r and (p == "" or path.startswith(p + "/")) and p != path
                      for p, r in out.items())
        if not covered:
            kept.append((root / path if path else root, recursive))
    return kept


class _Handler(FileSystemEventHandler):
    def __init__(self, watcher: "LayerWatcher") -> None:
        self.watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        self.watcher.event(event)


class LayerWatcher:
    """Watchdog observer over the layer's roots and the templates directory."""

    def __init__(self, root: Path, templates: Path, out: Path, sink: Debouncer) -> None:
        self.root = os.path.realpath(root)
        self.templates = os.path.realpath(templates)
        out_real = os.path.realpath(out)
        self.ignored = [out_real]
        parent, name = os.path.split(out_real)
        self.temp_prefixes = [os.path.join(parent, f".{name}.building-"),
                              os.path.join(parent, f".{name}.old-")]
        self.sink = sink
        self.observer = Observer()
        self.handler = _Handler(self)
        self._watches: dict[tuple[str, bool], object] = {}
        self._lock = threading.Lock()

    def start(self, roots: list[tuple[Path, bool]]) -> None:
        self.set_roots(roots)
        self.observer.start()

    def set_roots(self, roots: list[tuple[Path, bool]]) -> None:
        wanted = {(os.path.realpath(p), r) for p, r in roots}
        wanted.add((self.templates, True))
        with self._lock:
            for key in list(self._watches):
                if key not in wanted:
                    self.observer.unschedule(self._watches.pop(key))
            for path, recursive in sorted(wanted):
                if (path, recursive) not in self._watches and os.path.isdir(path):
                    try:
                        self._watches[(path, recursive)] = self.observer.schedule(
                            self.handler, path, recursive=recursive)
                    except OSError as exc:
                        log.warning("cannot watch %s: %s", path, exc)

    def stop(self) -> None:
        self.observer.stop()
        self.observer.join(5.0)

    # -- events ------------------------------------------------------------------------

    def _ignored(self, path: str) -> bool:
        for ignored in self.ignored:
            if path == ignored or path.startswith(ignored + os.sep):
                return True
        return any(path.startswith(prefix) for prefix in self.temp_prefixes)

    def event(self, event: FileSystemEvent) -> None:
        kind = event.event_type
        if kind in ("opened", "closed_no_write"):
            return
        if event.is_directory and kind in ("modified", "attrib", "closed"):
            return
        paths = [event.src_path]
        if kind == "moved" and getattr(event, "dest_path", None):
            paths.append(event.dest_path)
        repo_paths, template_names = [], []
        for raw in paths:
            path = os.fsdecode(raw)
            path = os.path.abspath(path)
            if self._ignored(path):
                continue
            if path == self.templates or path.startswith(self.templates + os.sep):
                template_names.append(os.path.relpath(path, self.templates).replace(os.sep, "/"))
                continue
            if path == self.root or not path.startswith(self.root + os.sep):
                continue
            rel = os.path.relpath(path, self.root).replace(os.sep, "/")
            if any(part in SKIPPED_DIRS for part in rel.split("/")):
                continue
            repo_paths.append(rel)
        if repo_paths or template_names:
            self.sink.add(repo_paths, template_names)
