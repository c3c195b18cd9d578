"""Which paths of a site directory are devcontext's: a site path checked before it is
written, the entries a build did not write (listed by the site's marker) and their carrying
over into a new site, refused where the new site has something at the same path."""

from __future__ import annotations

import os
import shutil

from .errors import BuildError
from .outdir import IN_SITE_TEMP, MARKER

__all__ = ["check_rel", "foreign", "conflict", "carry"]


def check_rel(rel: str) -> None:
    """Refuse a site path that is not plain, relative and inside the site, or is reserved."""
    parts = rel.split("/") if isinstance(rel, str) else [""]
    if (not rel or rel.startswith("/") or "\\" in rel or "\0" in rel
            or any(p in ("", ".", "..") for p in parts)):
        raise BuildError(f"refusing to write {rel!r}: not a plain relative path inside the site")
    if rel == MARKER or parts[-1].startswith(IN_SITE_TEMP):
        raise BuildError(f"refusing to write {rel!r}: the name is reserved for devcontext's own "
                         "bookkeeping in the site")


def foreign(site: str, listed: frozenset[str]) -> list[tuple[str, bool]]:
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


def conflict(target: str, rel: str, what: str) -> BuildError:
    return BuildError(
        f"refusing to build into {target}: {rel} there is not a file devcontext wrote (its "
        f"{MARKER} does not list it), and the new site has {what} at that path. Move {rel} out "
        "of the site, or choose another --out")


def carry(old: str, new: str, target: str, entries: list[tuple[str, bool]]) -> None:
    """Hard-link (or copy) the foreign ``entries`` of ``old`` into ``new`` at the same paths."""
    for rel, empty_dir in entries:
        dst = os.path.join(new, rel)
        parent_rel = os.path.dirname(rel)
        if parent_rel:
            probe = new
            for part in parent_rel.split("/"):
                probe = os.path.join(probe, part)
                if os.path.lexists(probe) and not os.path.isdir(probe):
                    raise conflict(target, rel, f"a file ({probe[len(new) + 1:]})")
            os.makedirs(os.path.join(new, parent_rel), exist_ok=True)
        if os.path.lexists(dst):
            if empty_dir and os.path.isdir(dst) and not os.path.islink(dst):
                continue
            raise conflict(target, rel, "a directory" if os.path.isdir(dst) else "a file")
        src = os.path.join(old, rel)
        if empty_dir:
            os.mkdir(dst)
            shutil.copystat(src, dst)
            continue
        try:
            os.link(src, dst, follow_symlinks=False)
        except OSError:
            shutil.copy2(src, dst, follow_symlinks=False)
