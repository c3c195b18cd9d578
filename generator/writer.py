"""Write a built site atomically: everything goes to a temporary directory beside the
output, which then replaces it in one rename. An interrupted or failed build leaves the
previous site as it was; files of an earlier build never survive into a new one."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Iterable

from .errors import BuildError

__all__ = ["write_site", "SiteStats"]


class SiteStats:
    def __init__(self) -> None:
        self.files = 0
        self.bytes = 0
        self.pages = 0
        self.json_files = 0


def _check_rel(rel: str) -> None:
    if rel.startswith("/") or ".." in rel.split("/") or not rel or "\\" in rel:
        raise BuildError(f"refusing to write {rel!r}: not a plain relative path inside the site")


def write_site(files: Iterable[tuple[str, bytes]], out_dir: Path, *,
               on_file=None) -> SiteStats:
    """Write ``(relative path, bytes)`` pairs as the new content of ``out_dir``."""
    out_dir = Path(out_dir)
    parent = out_dir.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    if out_dir.exists() and not out_dir.is_dir():
        raise BuildError(f"{out_dir} exists and is not a directory; remove it or choose --out")
    stats = SiteStats()
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.building-", dir=parent))
    try:
        made: set[str] = set()
        for rel, data in files:
            _check_rel(rel)
            directory = os.path.dirname(rel)
            if directory and directory not in made:
                (tmp / directory).mkdir(parents=True, exist_ok=True)
                made.add(directory)
            (tmp / rel).write_bytes(data)
            stats.files += 1
            stats.bytes += len(data)
            if rel.endswith(".html"):
                stats.pages += 1
            elif rel.endswith(".json"):
                stats.json_files += 1
            if on_file is not None:
                on_file(rel)
        keep = out_dir / ".gitkeep"
        if keep.exists():
            shutil.copy2(keep, tmp / ".gitkeep")
        old = None
        if out_dir.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.old-", dir=parent))
            os.rename(out_dir, old / "site")
        os.rename(tmp, out_dir)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return stats
