"""The layer as it is on disk now, for a long-running server that must never answer stale.

A load records what it depended on: every file it read and every directory the reader
walks for it (``.ai/`` and each source class's base, :func:`watch_roots` — the same roots
``devcontext serve`` watches), plus git's ``HEAD`` and ``index``. Each call stats exactly
those — no file is read, nothing else in the repository is looked at, a few hundred
``stat`` calls on a real layer — and reloads only when one differs: a file edited, removed
or replaced changes its own stat, a file or directory added or removed changes its
directory's. A load that saw a file modified while it was reading (an mtime later than
the moment the read began, less a margin for coarse file clocks) is not trusted, so the
next call loads again: an edit can never be missed.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from ..engine.compile import GitInfo
from ..gitinfo import read_git
from ..index import Index
from ..layer.reader import SKIPPED_DIRS
from ..serve.watcher import watch_roots
from ..workspace import Workspace, resolve_repo

__all__ = ["LiveLayer", "Now", "depended_paths", "stat_rows"]

#: What git keeps that the branch, head and clean/dirty state follow.
GIT_FILES = (".git/HEAD", ".git/index")
#: File timestamps can lag the clock by a tick; a file this close to the start of a read
#: may have changed during it.
CLOCK_MARGIN_NS = 50_000_000


def _walk_dirs(root: Path, start: Path, recursive: bool) -> list[str]:
    """``start`` and, when ``recursive``, every directory below it the reader would enter."""
    out = [os.path.relpath(start, root).replace(os.sep, "/")]
    if not recursive:
        return out
    stack = [start]
    while stack:
        current = stack.pop()
        try:
            entries = list(os.scandir(current))
        except OSError:
            continue
        for entry in entries:
            if entry.name in SKIPPED_DIRS:
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                    out.append(os.path.relpath(entry.path, root).replace(os.sep, "/"))
            except OSError:
                continue
    return out


def depended_paths(workspace: Workspace) -> tuple[str, ...]:
    """Every repo-relative path a load of ``workspace`` depended on, sorted."""
    root = workspace.root
    dirs: set[str] = set()
    for start, recursive in watch_roots(root, workspace.layer.classes):
        dirs.update(_walk_dirs(root, Path(start), recursive))
    return tuple(sorted(dirs | set(workspace.tree.files) | set(GIT_FILES)))


def stat_rows(root: Path, paths: tuple[str, ...]) -> tuple:
    """(mtime, size, inode) of each path, in order; None for one that is not there."""
    base = os.fspath(root) + os.sep
    return tuple(_stat(base + rel) for rel in paths)


def _stat(abs_path: str) -> tuple[int, int, int] | None:
    try:
        st = os.lstat(abs_path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


def _unchanged(abs_paths: tuple[str, ...], rows: tuple) -> bool:
    """Whether every path still stats as recorded; stops at the first that does not (the
    per-call cost: one ``lstat`` per path, no joins, no list built)."""
    lstat = os.lstat
    for abs_path, row in zip(abs_paths, rows):
        try:
            st = lstat(abs_path)
        except OSError:
            if row is not None:
                return False
            continue
        if row is None or st.st_mtime_ns != row[0] or st.st_size != row[1] or st.st_ino != row[2]:
            return False
    return True


class Now(NamedTuple):
    """One load: the index, the checkout's git state and the bytes the index was built
    from (the pack needs them), always from the same read."""

    index: Index
    git: GitInfo
    files: Mapping[str, bytes]


class LiveLayer:
    """``current()`` → the repository as it is now (:class:`Now`)."""

    def __init__(self, repo: str | os.PathLike | None = None) -> None:
        self.root, self.is_demo = resolve_repo(repo)
        self.repo = repo
        self.loads = 0
        self._paths: tuple[str, ...] = ()
        self._abs_paths: tuple[str, ...] = ()
        self._signature: tuple | None = None
        self._workspace: Workspace | None = None
        self._git: GitInfo | None = None
        self._parsed: dict = {}
        self._lock = threading.Lock()

    def current(self) -> Now:
        """Reload only when a path the last load depended on changed since.

        Raises :class:`~generator.errors.LayerError` when the repository holds no layer.
        """
        with self._lock:
            if (self._workspace is None or self._signature is None
                    or not _unchanged(self._abs_paths, self._signature)):
                self._load()
            assert self._workspace is not None and self._git is not None
            return Now(self._workspace.index, self._git, self._workspace.tree.files)

    def _load(self) -> None:
        self._workspace = None
        started = time.time_ns()
        workspace = self._open()
        self._git = read_git(self.root)
        self._paths = depended_paths(workspace)
        base = os.fspath(self.root) + os.sep
        self._abs_paths = tuple(base + rel for rel in self._paths)
        signature = stat_rows(self.root, self._paths)
        moved = any(row is not None and row[0] >= started - CLOCK_MARGIN_NS
                    for row in signature)
        self._signature = None if moved else signature
        self._workspace = workspace
        self.loads += 1

    def _open(self) -> Workspace:
        """Load through the last load's parses: a file unchanged since is not parsed again,
        and the cache keeps only what this load used (one layer's worth, never more)."""
        carry = _Carry(self._parsed)
        workspace = Workspace.open(self.repo, cache=carry)
        self._parsed = dict(carry)
        return workspace


class _Carry(dict):
    """The loader's parse cache for one load: a miss looks in the previous load's, and a
    hit there is kept, so after the load this holds exactly the parses it used."""

    def __init__(self, previous: dict) -> None:
        super().__init__()
        self.previous = previous

    def get(self, key, default=None):  # the loader calls only get() and []=
        if key in self:
            return self[key]
        if key in self.previous:
            self[key] = self.previous[key]
            return self[key]
        return default
