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

Durability: before the swap the filesystem is flushed (``syncfs``), so a power cut leaves
the previous or the new site, not files with no data. Serve's per-file writes are atomic
against a killed process but not flushed (an edit costs milliseconds, not a disk flush).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import fcntl
import os
import secrets
import shutil
import stat
import sys
from pathlib import Path
from typing import Callable, Iterable

from .errors import BuildError
from .outdir import (
    IN_SITE_TEMP,
    MARKER,
    check_out_dir,
    is_empty_dir,
    marker_bytes,
    read_marker,
    temp_prefixes,
)

__all__ = ["write_site", "SiteStats", "SiteDir", "check_rel", "clean_stale_temps"]

_FILE_MODE = 0o666  # less the umask, as any file a program writes
_DIR_MODE = 0o777


class SiteStats:
    def __init__(self) -> None:
        self.files = 0
        self.bytes = 0
        self.pages = 0
        self.json_files = 0


def check_rel(rel: str) -> None:
    """Refuse a site path that is not plain, relative and inside the site, or is reserved."""
    parts = rel.split("/") if isinstance(rel, str) else [""]
    if (not rel or rel.startswith("/") or "\\" in rel or "\0" in rel
            or any(p in ("", ".", "..") for p in parts)):
        raise BuildError(f"refusing to write {rel!r}: not a plain relative path inside the site")
    if rel == MARKER or parts[-1].startswith(IN_SITE_TEMP):
        raise BuildError(f"refusing to write {rel!r}: the name is reserved for devcontext's own "
                         "bookkeeping in the site")


# -- small file-system helpers -----------------------------------------------------------

def _write_new(path: str, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0),
                 _FILE_MODE)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _replace_file(path: str, data: bytes) -> None:
    """Write ``path`` atomically: a temporary file beside it, then one rename."""
    tmp = os.path.join(os.path.dirname(path), IN_SITE_TEMP + secrets.token_hex(6))
    try:
        _write_new(tmp, data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _lock(directory: str) -> int:
    """An open descriptor holding an exclusive ``flock`` on ``directory`` (released when the
    process ends, however it ends)."""
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def _is_locked(directory: str) -> bool:
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return True  # cannot tell: leave it
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # closing releases the probe's lock
    return False


_libc = None


def _libc_fn(name: str):
    global _libc
    if _libc is None:
        try:
            _libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        except OSError:
            _libc = False
    return getattr(_libc, name, None) if _libc else None


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: str, b: str) -> bool:
    """Swap the directories ``a`` and ``b`` in one step; False when the system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    renameat2 = _libc_fn("renameat2")
    if renameat2 is None:
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), b)


def _flush(directory: str) -> None:
    """Put every written byte of the file system holding ``directory`` on disk."""
    syncfs = _libc_fn("syncfs") if sys.platform.startswith("linux") else None
    if syncfs is None:
        os.sync()
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        syncfs(fd)
    finally:
        os.close(fd)


def _fsync_dir(directory: str) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _same_file(a: str, b: str) -> bool:
    """True when ``b`` is ``a`` (a hard link) or an identical copy of it."""
    try:
        sa, sb = os.lstat(a), os.lstat(b)
    except OSError:
        return False
    if (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino):
        return True
    if stat.S_ISLNK(sa.st_mode) and stat.S_ISLNK(sb.st_mode):
        return os.readlink(a) == os.readlink(b)
    if stat.S_ISREG(sa.st_mode) and stat.S_ISREG(sb.st_mode) and sa.st_size == sb.st_size:
        with open(a, "rb") as fa, open(b, "rb") as fb:
            while True:
                x, y = fa.read(1 << 20), fb.read(1 << 20)
                if x != y:
                    return False
                if not x:
                    return True
    return False


# -- what a site directory holds ------------------------------------------------------------

def _foreign(site: str, listed: frozenset[str]) -> list[tuple[str, bool]]:
    """Every entry of ``site`` the build did not write, as ``(rel, is_empty_dir)``, sorted:
    files (and links) its marker does not list, and empty directories."""
    found: list[tuple[str, bool]] = []

    def walk(abs_dir: str, rel_dir: str) -> None:
        with os.scandir(abs_dir) as it:
            entries = sorted(it, key=lambda e: e.name)
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            if entry.name.startswith(IN_SITE_TEMP) or (not rel_dir and entry.name == MARKER):
                continue
            if entry.is_dir(follow_symlinks=False):
                if not os.listdir(entry.path):
                    found.append((rel, True))
                else:
                    walk(entry.path, rel)
            elif rel not in listed:
                found.append((rel, False))

    walk(site, "")
    return found


def _conflict(target: str, rel: str, what: str) -> BuildError:
    return BuildError(
        f"refusing to build into {target}: {rel} there is not a file devcontext wrote (its "
        f"{MARKER} does not list it), and the new site has {what} at that path. Move {rel} out "
        "of the site, or choose another --out")


def _carry(old: str, new: str, target: str, entries: list[tuple[str, bool]]) -> None:
    """Hard-link (or copy) the foreign ``entries`` of ``old`` into ``new`` at the same paths."""
    for rel, empty_dir in entries:
        dst = os.path.join(new, rel)
        parent_rel = os.path.dirname(rel)
        if parent_rel:
            probe = new
            for part in parent_rel.split("/"):
                probe = os.path.join(probe, part)
                if os.path.lexists(probe) and not os.path.isdir(probe):
                    raise _conflict(target, rel, f"a file ({probe[len(new) + 1:]})")
            os.makedirs(os.path.join(new, parent_rel), exist_ok=True)
        if os.path.lexists(dst):
            if empty_dir and os.path.isdir(dst) and not os.path.islink(dst):
                continue
            raise _conflict(target, rel, "a directory" if os.path.isdir(dst) else "a file")
        src = os.path.join(old, rel)
        if empty_dir:
            os.mkdir(dst)
            shutil.copystat(src, dst)
            continue
        try:
            os.link(src, dst, follow_symlinks=False)
        except OSError:
            shutil.copy2(src, dst, follow_symlinks=False)


def _remove_own(site: str) -> bool:
    """Remove a directory everything in which devcontext made; the marker goes last, so an
    interrupted removal is still recognised next time. True when it is gone."""
    for entry in os.scandir(site):
        if entry.name == MARKER:
            continue
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            _unlink(entry.path)
    _unlink(os.path.join(site, MARKER))
    try:
        os.rmdir(site)
    except OSError:
        return False
    return True


def _discard(site: str, live: str | None) -> bool:
    """Remove a site directory that is no longer the output: all of it when it was being
    built, else the files its marker lists, our temporaries and the files carried into
    ``live``. Anything else stays (with the marker, to be looked at again). True when gone."""
    marker = read_marker(site)
    if marker is None:  # an empty directory swapped out, or not ours at all
        try:
            names = os.listdir(site)
        except FileNotFoundError:
            return True
        keep = os.path.join(site, ".gitkeep")
        if not names or (names == [".gitkeep"] and (
                os.path.getsize(keep) == 0
                or (live is not None and _same_file(keep, os.path.join(live, ".gitkeep"))))):
            shutil.rmtree(site, ignore_errors=True)
            return True
        return False
    if marker.building:
        return _remove_own(site)
    left = False
    for dirpath, dirnames, filenames in os.walk(site, topdown=False):
        rel_dir = os.path.relpath(dirpath, site).replace(os.sep, "/")
        rel_dir = "" if rel_dir == "." else rel_dir
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            rel = f"{rel_dir}/{name}" if rel_dir else name
            if not rel_dir and name == MARKER:
                continue
            path = os.path.join(dirpath, name)
            if (rel in marker.files or name.startswith(IN_SITE_TEMP)
                    or (live is not None and _same_file(path, os.path.join(live, rel)))):
                _unlink(path)
            else:
                left = True
        if dirpath != site:
            try:
                os.rmdir(dirpath)
            except OSError:
                left = True
    if left:
        return False
    _unlink(os.path.join(site, MARKER))
    try:
        os.rmdir(site)
    except OSError:
        return False
    return True


def clean_stale_temps(target: str | os.PathLike) -> list[str]:
    """Remove the temporaries an interrupted build left beside ``target`` (only ours: named
    with our prefixes, marked or empty, and not locked by a live build); first, if
    ``target`` is missing because a two-rename swap was cut short, put the previous site
    back. Returns the names removed."""
    target = os.fspath(target)
    parent = os.path.dirname(target)
    building, old = temp_prefixes(target)
    try:
        names = sorted(n for n in os.listdir(parent) if n.startswith((building, old)))
    except OSError:
        return []
    if not os.path.lexists(target):
        moved_aside = [n for n in names
                       if n.startswith(old) and _restorable(os.path.join(parent, n))]
        if moved_aside:
            newest = max(moved_aside, key=lambda n: os.stat(os.path.join(parent, n)).st_mtime_ns)
            os.rename(os.path.join(parent, newest), target)
            names.remove(newest)
    removed = []
    live = target if os.path.isdir(target) else None
    for name in names:
        path = os.path.join(parent, name)
        if not os.path.isdir(path) or os.path.islink(path) or _is_locked(path):
            continue
        if _discard(path, live):
            removed.append(name)
    return removed


def _restorable(path: str) -> bool:
    if not os.path.isdir(path) or os.path.islink(path) or _is_locked(path):
        return False
    marker = read_marker(path)
    return (marker is not None and not marker.building) or (marker is None and is_empty_dir(path))


# -- a full build ---------------------------------------------------------------------------

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


def _write_site(files: Iterable[tuple[str, bytes]], target: str,
                on_file: Callable[[str], None] | None) -> SiteStats:
    parent = os.path.dirname(target)
    os.makedirs(parent, exist_ok=True)
    clean_stale_temps(target)
    previous = read_marker(target) if os.path.isdir(target) else None
    listed = previous.files if previous is not None else frozenset()
    foreign = _foreign(target, listed) if os.path.isdir(target) else []
    foreign_files = {rel for rel, empty_dir in foreign if not empty_dir}
    foreign_paths = {rel for rel, _ in foreign}
    foreign_dirs = {os.path.dirname(rel) for rel, _ in foreign}
    for rel in list(foreign_dirs):
        while rel:
            foreign_dirs.add(rel)
            rel = os.path.dirname(rel)

    building, _ = temp_prefixes(target)
    tmp = os.path.join(parent, building + secrets.token_hex(6))
    os.mkdir(tmp, _DIR_MODE)
    lock = _lock(tmp)
    swapped = False
    try:
        _write_new(os.path.join(tmp, MARKER), marker_bytes((), building=True))
        stats = SiteStats()
        written: set[str] = set()
        made: set[str] = set()
        for rel, data in files:
            check_rel(rel)
            if foreign_paths or foreign_dirs:
                # fail early (not after the whole build) on a path a foreign file holds
                if rel in foreign_paths or rel in foreign_dirs:
                    raise _conflict(target, rel, "a file")
                up = os.path.dirname(rel)
                while up:
                    if up in foreign_files:
                        raise _conflict(target, up, "a directory")
                    up = os.path.dirname(up)
            directory = os.path.dirname(rel)
            if directory and directory not in made:
                os.makedirs(os.path.join(tmp, directory), exist_ok=True)
                made.add(directory)
            _write_new(os.path.join(tmp, rel), data)
            written.add(rel)
            stats.files += 1
            stats.bytes += len(data)
            if rel.endswith(".html"):
                stats.pages += 1
            elif rel.endswith(".json"):
                stats.json_files += 1
            if on_file is not None:
                on_file(rel)
        exists = os.path.isdir(target)
        if exists:
            # again, now: a file may have been added to the site while it was being built
            _carry(target, tmp, target, _foreign(target, listed))
            shutil.copymode(target, tmp)
        _replace_file(os.path.join(tmp, MARKER), marker_bytes(written))
        _flush(tmp)
        cwd = _cwd_inside(target)
        if exists:
            swapped = _exchange(tmp, target)
            if swapped:
                aside = tmp  # the previous site now lives at the temporary name
            else:
                aside = os.path.join(parent, temp_prefixes(target)[1] + secrets.token_hex(6))
                os.rename(target, aside)
                try:
                    os.rename(tmp, target)
                except BaseException:
                    os.rename(aside, target)
                    raise
                swapped = True
        else:
            os.rename(tmp, target)
            swapped = True
            aside = None
        _fsync_dir(parent)
        if cwd is not None:
            _follow(cwd, target)
    except BaseException:
        if not swapped:  # everything in it was written or linked here
            _remove_own(tmp)
        raise
    finally:
        os.close(lock)
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


# -- while serving: one file at a time ------------------------------------------------------

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
            raise _conflict(self.root, rel, "a file")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        _replace_file(path, data)

    def refuse_foreign(self, rels: Iterable[str]) -> None:
        """Refuse when any of ``rels`` (paths the site did not have) is already taken."""
        for rel in rels:
            if os.path.lexists(self.path(rel)):
                raise _conflict(self.root, rel, "a file")

    def delete(self, rel: str) -> None:
        _unlink(self.path(rel))

    def patch(self, rel: str, offsets: tuple[int, ...], value: bytes) -> None:
        """Overwrite ``value`` at each of ``offsets`` in place (same length, so no rewrite)."""
        fd = os.open(os.path.join(self.root, rel), os.O_WRONLY)
        try:
            for at in offsets:
                os.pwrite(fd, value, at)
        finally:
            os.close(fd)

    def write_marker(self, rels: Iterable[str]) -> None:
        _replace_file(os.path.join(self.root, MARKER), marker_bytes(rels))

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
