"""Site directories that are no longer the output: a previous site swapped out, a
killed build's temporary. Each is removed only as far as devcontext wrote it; a cut
two-rename swap is undone first."""

from __future__ import annotations

import os
import shutil

from .fileops import is_locked, same_file, unlink
from .outdir import IN_SITE_TEMP, MARKER, is_empty_dir, read_marker, temp_prefixes

__all__ = ["remove_own", "discard", "clean_stale_temps"]


def remove_own(site: str) -> bool:
    """Remove a directory everything in which devcontext made; the marker goes last, so an
    interrupted removal is still recognised next time. True when it is gone."""
    for entry in os.scandir(site):
        if entry.name == MARKER:
            continue
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            unlink(entry.path)
    return _remove_marker_then_dir(site)


def discard(site: str, live: str | None) -> bool:
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
                or (live is not None and same_file(keep, os.path.join(live, ".gitkeep"))))):
            shutil.rmtree(site, ignore_errors=True)
            return True
        return False
    if marker.building:
        return remove_own(site)
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
                    or (live is not None and same_file(path, os.path.join(live, rel)))):
                unlink(path)
            else:
                left = True
        if dirpath != site:
            try:
                os.rmdir(dirpath)
            except OSError:
                left = True
    if left:
        return False
    return _remove_marker_then_dir(site)


def _remove_marker_then_dir(site: str) -> bool:
    """The last step of a removal: the marker, then the emptied directory itself."""
    unlink(os.path.join(site, MARKER))
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
        if not os.path.isdir(path) or os.path.islink(path) or is_locked(path):
            continue
        if discard(path, live):
            removed.append(name)
    return removed


def _restorable(path: str) -> bool:
    if not os.path.isdir(path) or os.path.islink(path) or is_locked(path):
        return False
    marker = read_marker(path)
    return (marker is not None and not marker.building) or (marker is None and is_empty_dir(path))
