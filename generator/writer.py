"""Write a site to disk, in one of two modes, never deleting what devcontext did not write.

**A full build** (:func:`write_site`) writes everything into a temporary directory beside
the output (``.<name>.building-*``), then swaps it in. The swap is one
``renameat2(RENAME_EXCHANGE)`` on Linux, so at every instant the output directory is either
the previous complete site or the new complete one, never missing and never a mix; where
the exchange is not supported it is two renames, and the next build (or ``serve``) puts the
previous site back if a crash fell between them. The previous site is then removed.

**Files the build did not write are carried over.** The previous site's marker
(:data:`generator.outdir.MARKER`) lists the files an earlier build wrote; every other file
(a ``CNAME``, ``.nojekyll``, ``.gitkeep``, a file a person added) is hard-linked (or copied)
into the new site at the same path, untouched. If the new site has a file at such a path the
build is refused rather than overwrite it. Removing the previous site deletes only what its
marker lists, our own temporaries, and the files carried over (identical in the new site).

**While serving** (:class:`SiteDir`), each changed file is replaced atomically (a temporary
file beside it, then ``os.replace``), files no longer produced are deleted only when the
marker lists them, and the marker is rewritten whenever the set of files changes (before
new files appear, after old ones go) so that it always covers every file we wrote.

**No temporary outlives the next build:** a killed build's temporaries carry a marker (or
are empty) and no lock; the next build removes them. A live build holds ``flock`` on its
temporary directory so a concurrent build never removes it.

The steps live in modules of their own: :mod:`.fileops` (atomic file steps, the exchange,
the flush), :mod:`.sitefiles` (site paths, foreign entries, carrying them over),
:mod:`.sitetemps` (removing swapped-out sites and stale temporaries) and :mod:`.sitedir`
(serve's file-by-file writes); this module is the full build's order of them.

Durability: before the swap the filesystem is flushed (``syncfs``), so a power cut leaves
the previous or the new site, not files with no data. Serve's per-file writes are atomic
against a killed process but not flushed (an edit costs milliseconds, not a disk flush).
"""

from __future__ import annotations

import os
import secrets
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from .errors import BuildError
# _exchange and _discard under these names: the crash tests replace them here
from .fileops import DIR_MODE, flush, fsync_dir, lock, replace_file, write_new
from .fileops import exchange as _exchange
from .outdir import MARKER, check_out_dir, marker_bytes, read_marker, temp_prefixes
from .sitedir import SiteDir
from .sitefiles import carry, check_rel, conflict, foreign
from .sitetemps import clean_stale_temps, remove_own
from .sitetemps import discard as _discard

__all__ = ["write_site", "SiteStats", "SiteDir", "check_rel", "clean_stale_temps"]


class SiteStats:
    def __init__(self) -> None:
        self.files = 0
        self.bytes = 0
        self.pages = 0
        self.json_files = 0

    def count(self, rel: str, data: bytes) -> None:
        """One more file written at ``rel``."""
        self.files += 1
        self.bytes += len(data)
        if rel.endswith(".html"):
            self.pages += 1
        elif rel.endswith(".json"):
            self.json_files += 1


def _os_failure(target: str, exc: OSError) -> BuildError:
    where = f" ({exc.filename})" if exc.filename else ""
    return BuildError(f"could not write the site to {target}: {exc.strerror or exc}{where}; "
                      "the output directory was left as it was. Free some space or fix the "
                      "permissions, then build again")


def write_site(files: Iterable[tuple[str, bytes]], out_dir: Path, *,
               on_file: Callable[[str], None] | None = None) -> SiteStats:
    """Write ``(relative path, bytes)`` pairs as the new content of ``out_dir``, atomically,
    keeping the files of the directory no build wrote (see the module's docstring)."""
    target = os.fspath(check_out_dir(out_dir))
    try:
        return _write_site(files, target, on_file)
    except OSError as exc:
        raise _os_failure(target, exc) from exc


@dataclass
class _Taken:
    """The paths the output's foreign entries hold, so that a new file at one of them is
    refused as it arrives, not after the whole build."""

    listed: frozenset[str] = frozenset()
    files: set[str] = field(default_factory=set)
    paths: set[str] = field(default_factory=set)
    dirs: set[str] = field(default_factory=set)

    def refuse(self, target: str, rel: str) -> None:
        if not (self.paths or self.dirs):
            return
        if rel in self.paths or rel in self.dirs:
            raise conflict(target, rel, "a file")
        up = os.path.dirname(rel)
        while up:
            if up in self.files:
                raise conflict(target, up, "a directory")
            up = os.path.dirname(up)


def _taken(target: str) -> _Taken:
    previous = read_marker(target) if os.path.isdir(target) else None
    listed = previous.files if previous is not None else frozenset()
    entries = foreign(target, listed) if os.path.isdir(target) else []
    dirs = {os.path.dirname(rel) for rel, _ in entries}
    for rel in list(dirs):
        while rel:
            dirs.add(rel)
            rel = os.path.dirname(rel)
    return _Taken(listed=listed, files={rel for rel, empty_dir in entries if not empty_dir},
                  paths={rel for rel, _ in entries}, dirs=dirs)


def _write_files(files: Iterable[tuple[str, bytes]], tmp: str, target: str, taken: _Taken,
                 on_file: Callable[[str], None] | None) -> tuple[SiteStats, set[str]]:
    """Every file into the temporary ``tmp``; the counts, and the paths written."""
    stats = SiteStats()
    written: set[str] = set()
    made: set[str] = set()
    for rel, data in files:
        check_rel(rel)
        taken.refuse(target, rel)
        directory = os.path.dirname(rel)
        if directory and directory not in made:
            os.makedirs(os.path.join(tmp, directory), exist_ok=True)
            made.add(directory)
        write_new(os.path.join(tmp, rel), data)
        written.add(rel)
        stats.count(rel, data)
        if on_file is not None:
            on_file(rel)
    return stats, written


def _swap_in(tmp: str, target: str, parent: str, exists: bool) -> str | None:
    """Make ``tmp`` the output; where the previous site now lives (None: there was none).
    Raises with the output as it was when the swap did not happen."""
    if not exists:
        os.rename(tmp, target)
        return None
    if _exchange(tmp, target):
        return tmp  # the previous site now lives at the temporary name
    aside = os.path.join(parent, temp_prefixes(target)[1] + secrets.token_hex(6))
    os.rename(target, aside)
    try:
        os.rename(tmp, target)
    except BaseException:
        os.rename(aside, target)
        raise
    return aside


def _write_site(files: Iterable[tuple[str, bytes]], target: str,
                on_file: Callable[[str], None] | None) -> SiteStats:
    parent = os.path.dirname(target)
    os.makedirs(parent, exist_ok=True)
    clean_stale_temps(target)
    taken = _taken(target)
    building, _ = temp_prefixes(target)
    tmp = os.path.join(parent, building + secrets.token_hex(6))
    os.mkdir(tmp, DIR_MODE)
    held = lock(tmp)
    swapped = False
    try:
        write_new(os.path.join(tmp, MARKER), marker_bytes((), building=True))
        stats, written = _write_files(files, tmp, target, taken, on_file)
        exists = os.path.isdir(target)
        if exists:
            # again, now: a file may have been added to the site while it was being built
            carry(target, tmp, target, foreign(target, taken.listed))
            shutil.copymode(target, tmp)
        replace_file(os.path.join(tmp, MARKER), marker_bytes(written))
        flush(tmp)
        cwd = _cwd_inside(target)
        aside = _swap_in(tmp, target, parent, exists)
        swapped = True
        fsync_dir(parent)
        if cwd is not None:
            _follow(cwd, target)
    except BaseException:
        if not swapped:  # everything in it was written or linked here
            remove_own(tmp)
        raise
    finally:
        os.close(held)
    if aside is not None:
        _discard(aside, target)
    return stats


def _cwd_inside(target: str) -> str | None:
    try:
        cwd = os.getcwd()
    except OSError:
        return None
    return cwd if cwd == target or cwd.startswith(target + os.sep) else None


def _follow(cwd: str, target: str) -> None:
    """The process worked inside the output directory, which is now a different directory
    at the same path: move there, so relative paths keep naming the site."""
    for place in (cwd, target):
        try:
            os.chdir(place)
            return
        except OSError:
            continue
