"""The layer as it is on disk now, for a long-running server that must never answer stale.

Each call takes a stat signature of the repository — every directory and file under its
root (the directories the reader never enters skipped), plus git's ``HEAD`` and ``index``
— which costs a few milliseconds and reads no file. Only when it differs from the one taken
before the last load is the layer read again (through one :class:`ParseCache`, so
unchanged files are not parsed again) and git asked again. The signature is taken *before*
reading, so an edit made while the layer is being read shows on the next call.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from ..engine.compile import GitInfo
from ..gitinfo import read_git
from ..index import Index
from ..layer.reader import SKIPPED_DIRS
from ..workspace import Workspace, resolve_repo

__all__ = ["LiveLayer", "stat_signature"]

#: What git keeps that the branch, head and clean/dirty state follow.
_GIT_FILES = (".git/HEAD", ".git/index")


def stat_signature(root: Path) -> tuple:
    """(relative path, kind, mtime, size, inode) of every entry under ``root``, sorted.

    A changed, added, removed or renamed file changes it (its own stat, or its
    directory's). Symbolic links are recorded, not followed, as the reader does.
    """
    rows: list[tuple] = []
    stack = [""]
    while stack:
        rel_dir = stack.pop()
        abs_dir = os.path.join(root, rel_dir) if rel_dir else str(root)
        try:
            entries = list(os.scandir(abs_dir))
        except OSError:
            rows.append((rel_dir, "unlistable"))
            continue
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            try:
                st = entry.stat(follow_symlinks=False)
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                rows.append((rel, "gone"))
                continue
            if is_dir:
                if entry.name in SKIPPED_DIRS:
                    continue
                stack.append(rel)
            rows.append((rel, is_dir, st.st_mtime_ns, st.st_size, st.st_ino))
    for rel in _GIT_FILES:
        try:
            st = os.stat(os.path.join(root, rel))
            rows.append((rel, False, st.st_mtime_ns, st.st_size, st.st_ino))
        except OSError:
            pass
    rows.sort()
    return tuple(rows)


class LiveLayer:
    """``current()`` → the index and git state of the repository as it is now."""

    def __init__(self, repo: str | os.PathLike | None = None) -> None:
        self.root, self.is_demo = resolve_repo(repo)
        self.repo = repo
        self.loads = 0
        self._signature: tuple | None = None
        self._workspace: Workspace | None = None
        self._git: GitInfo | None = None
        self._parsed: dict[tuple, object] = {}
        self._lock = threading.Lock()

    def current(self) -> tuple[Index, GitInfo]:
        """Re-read the layer only when its stat signature changed since the last read.

        Raises :class:`~generator.errors.LayerError` when the repository holds no layer
        (the previous answer is not kept: it would describe files that are gone).
        """
        with self._lock:
            signature = stat_signature(self.root)
            if signature != self._signature or self._workspace is None:
                self._workspace = None
                self._workspace = self._open()
                self._git = read_git(self.root)
                self._signature = signature
                self.loads += 1
            assert self._git is not None
            return self._workspace.index, self._git

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
