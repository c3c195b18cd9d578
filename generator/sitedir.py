"""A site on disk changed one file at a time, as ``serve`` does after its first build:
each file replaced atomically, a path someone else holds refused, the marker rewritten."""

from __future__ import annotations

import os
from typing import Iterable

from .fileops import replace_file, unlink
from .outdir import MARKER, marker_bytes
from .sitefiles import check_rel, conflict

__all__ = ["SiteDir"]


class SiteDir:
    """A site on disk written one file at a time (``serve``'s edits after its first build)."""

    def __init__(self, root: str | os.PathLike) -> None:
        self.root = os.fspath(root)

    def path(self, rel: str) -> str:
        check_rel(rel)
        return os.path.join(self.root, rel)

    def replace(self, rel: str, data: bytes, *, new: bool = False) -> None:
        """Write ``rel`` atomically. ``new``: the site did not have it, so a file already at
        that path is someone else's and is refused rather than overwritten."""
        path = self.path(rel)
        if new and os.path.lexists(path):
            raise conflict(self.root, rel, "a file")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        replace_file(path, data)

    def refuse_foreign(self, rels: Iterable[str]) -> None:
        """Refuse when any of ``rels`` (paths the site did not have) is already taken."""
        for rel in rels:
            if os.path.lexists(self.path(rel)):
                raise conflict(self.root, rel, "a file")

    def delete(self, rel: str) -> None:
        unlink(self.path(rel))

    def patch(self, rel: str, blocks: Iterable[tuple[int, bytes]]) -> None:
        """Overwrite each ``(offset, bytes)`` block of ``rel`` in place (the same length, so
        no rewrite; whole pages, so the kernel need not read a page it no longer holds
        before writing part of it)."""
        fd = os.open(os.path.join(self.root, rel), os.O_WRONLY)
        try:
            for at, block in blocks:
                os.pwrite(fd, block, at)
        finally:
            os.close(fd)

    def write_marker(self, rels: Iterable[str]) -> None:
        replace_file(os.path.join(self.root, MARKER), marker_bytes(rels))

    def prune_dirs(self, deleted: Iterable[str]) -> None:
        """Remove directories a deletion left empty (a full build would not have them)."""
        dirs = sorted({os.path.dirname(rel) for rel in deleted if os.path.dirname(rel)},
                      key=lambda d: -d.count("/"))
        for directory in dirs:
            while directory:
                try:
                    os.rmdir(os.path.join(self.root, directory))
                except OSError:
                    break
                directory = os.path.dirname(directory)
