"""Read a repository's layer files from disk: the only I/O of loading.

The result is a :class:`SourceTree` — repo-relative paths and their bytes, plus the
problems met while reading — which the pure loader turns into objects. Reading follows
discovery: everything under ``.ai/`` (except this checkout's local state), and, outside
``.ai/``, only the directories a source class's pathspec can match.
"""

from __future__ import annotations

import os
import posixpath
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..diagnostics import Diagnostic
from ..errors import LayerError
from ..paths import is_within
from ..phrases import Phrase, say
from .discovery import (
    LAYER_DIR,
    MANIFEST_PATH,
    Manifest,
    SourceClass,
    parse_manifest,
    resolve_classes,
    sources_path,
)
from .limits import DEFAULT_LIMITS, LIMIT_FLAGS, Limits

__all__ = ["SourceTree", "read_source_tree", "read_paths", "SKIPPED_DIRS"]

#: Directory names never listed when a pathspec reaches outside the layer.
SKIPPED_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv"})


@dataclass
class SourceTree:
    """The layer's files as bytes, keyed by repo-relative path (forward slashes)."""

    files: dict[str, bytes] = field(default_factory=dict)
    #: Problems met while reading (unreadable files, symlinks leading out, ...).
    problems: list[Diagnostic] = field(default_factory=list)

def _inside(root_real: str, target: str) -> bool:
    try:
        return os.path.commonpath([root_real, target]) == root_real
    except ValueError:
        return False


class _Reader:
    def __init__(self, root: Path, exclude: Iterable[Path], limits: Limits = DEFAULT_LIMITS) -> None:
        self.root = root
        self.limits = limits
        self.root_real = os.path.realpath(root)
        self.exclude_real = {os.path.realpath(p) for p in exclude}
        self.tree = SourceTree()

    def problem(self, severity: str, code: str, rel: str, message: Phrase) -> None:
        self.tree.problems.append(
            Diagnostic(severity=severity, code=code, path=rel, message=message)
        )

    def read_file(self, rel: str) -> None:
        if rel in self.tree.files:
            return
        abs_path = os.path.join(self.root, rel)
        try:
            st = os.lstat(abs_path)
        except OSError as exc:
            self.problem("error", "unreadable", rel,
                         say("cannot be read: {reason}. Check its permissions.",
                             reason=str(exc.strerror)))
            return
        if stat.S_ISLNK(st.st_mode):
            target = os.path.realpath(abs_path)
            if not _inside(self.root_real, target):
                self.problem(
                    "warning",
                    "symlink_outside",
                    rel,
                    say("is a symbolic link to a location outside the repository; it was not "
                        "followed. Replace the link with the file itself, or remove it."),
                )
                return
            if not os.path.isfile(target):
                self.problem("warning", "symlink_broken", rel,
                             say("is a symbolic link to nothing readable; it was skipped. "
                                 "Fix or remove the link."))
                return
        elif not stat.S_ISREG(st.st_mode):
            self.problem("warning", "not_a_file", rel,
                         say("is not a regular file (a device, socket or pipe); it was "
                             "skipped."))
            return
        try:
            size = os.stat(abs_path).st_size
        except OSError:
            size = 0
        if size > self.limits.max_file_bytes:
            self.too_large(rel)
            return
        try:
            with open(abs_path, "rb") as handle:
                # Never more than the limit (plus one byte to see it passed): a file that grows
                # between the stat and the read, or a link's target, is bounded too.
                data = handle.read(self.limits.max_file_bytes + 1)
        except OSError as exc:
            self.problem("error", "unreadable", rel,
                         say("cannot be read: {reason}. Check its permissions.",
                             reason=str(exc.strerror)))
            return
        if len(data) > self.limits.max_file_bytes:
            self.too_large(rel)
            return
        self.tree.files[rel] = data

    def too_large(self, rel: str) -> None:
        limit = self.limits.max_file_bytes
        self.problem(
            "error", "file_too_large", rel,
            say("is larger than the limit of {limit} bytes per layer file; it was not read. "
                "Remove it from the layer, or raise the limit with {flag} N if the file is "
                "genuine.", limit=limit, flag=LIMIT_FLAGS["max_file_bytes"]))

    def walk(self, rel_dir: str, recursive: bool, skip: frozenset[str] = frozenset(),
             accept=lambda rel: True) -> None:
        """List ``rel_dir`` (sorted), reading accepted files; descend when ``recursive``."""
        abs_dir = os.path.join(self.root, rel_dir) if rel_dir else str(self.root)
        if os.path.realpath(abs_dir) in self.exclude_real:
            return
        try:
            entries = sorted(os.scandir(abs_dir), key=lambda e: e.name)
        except FileNotFoundError:
            return
        except NotADirectoryError:
            return
        except OSError as exc:
            self.problem("error", "unreadable", rel_dir or ".",
                         say("directory cannot be listed: {reason}. Check its permissions.",
                             reason=str(exc.strerror)))
            return
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            if rel in skip:
                continue
            try:
                is_link = entry.is_symlink()
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                is_link, is_dir = False, False
            if is_link and os.path.isdir(os.path.join(self.root, rel)):
                if not recursive:
                    continue
                target = os.path.realpath(os.path.join(self.root, rel))
                if _inside(self.root_real, target):
                    self.problem("info", "symlink_dir", rel,
                                 say("is a symbolic link to a directory inside the repository; "
                                     "it is not followed (its files are read at their real "
                                     "path)."))
                else:
                    self.problem("warning", "symlink_outside", rel,
                                 say("is a symbolic link to a directory outside the "
                                     "repository; it was not followed. Move the files into the "
                                     "repository."))
                continue
            if is_dir:
                if recursive and entry.name not in SKIPPED_DIRS:
                    self.walk(rel, True, skip, accept)
                continue
            if accept(rel):
                self.read_file(rel)


def read_source_tree(root: Path | str, *, exclude: Iterable[Path | str] = (),
                     limits: Limits = DEFAULT_LIMITS) -> SourceTree:
    """Read the layer of the repository at ``root``.

    ``exclude`` names directories never read (the build's output directory, for one); a file
    over ``limits.max_file_bytes`` is a ``file_too_large`` problem, not read.
    Raises :class:`LayerError` only when there is no layer at all.
    """
    root = Path(root)
    if not root.is_dir():
        raise LayerError(f"{root} is not a directory. Pass the repository root with --repo DIR.")
    manifest_abs = root / MANIFEST_PATH
    if not manifest_abs.is_file():
        raise LayerError(
            f"{root} has no {MANIFEST_PATH}, so it holds no AI layer. Pass the repository root "
            "(the directory that contains .ai/) with --repo DIR, or omit --repo for the demo."
        )
    reader = _Reader(root, [Path(p) for p in exclude], limits)
    reader.read_file(MANIFEST_PATH)
    manifest_text = reader.tree.files.get(MANIFEST_PATH, b"").decode("utf-8", "replace")
    manifest, _ = parse_manifest(manifest_text, (), limits=limits)
    reader.walk(LAYER_DIR, True, skip=frozenset({manifest.local_dir}))

    src = sources_path(manifest)
    sources_bytes = reader.tree.files.get(src)
    classes, _ = resolve_classes(
        manifest, None if sources_bytes is None else sources_bytes.decode("utf-8", "replace"), src,
        limits=limits,
    )
    for source_class in classes:
        spec = source_class.pathspec
        base = spec.base_dir
        if is_within(base, LAYER_DIR):
            continue  # already read with the layer
        if spec.pattern.startswith(LAYER_DIR + "/"):
            continue
        if base.split("/")[0] in SKIPPED_DIRS:
            continue
        if "/" not in spec.pattern[len(base) + 1 if base else 0 :] and not spec.recursive:
            reader.walk(base, False, accept=spec.matches)
        else:
            skip = frozenset({LAYER_DIR}) if not base else frozenset()
            reader.walk(base, True, skip=skip, accept=spec.matches)
    reader.tree.files = dict(sorted(reader.tree.files.items()))
    return reader.tree


def _walk_start(rel: str, manifest: Manifest, classes: Iterable[SourceClass]) -> str | None:
    """The directory :func:`read_source_tree` starts the walk that reads the file ``rel``
    from, or None when no walk reads it (the same rules, applied to one path)."""
    parts = rel.split("/")
    if rel.startswith(LAYER_DIR + "/"):
        if is_within(rel, manifest.local_dir):
            return None
        if any(p in SKIPPED_DIRS for p in parts[1:-1]):
            return None
        return LAYER_DIR
    for source_class in classes:
        spec = source_class.pathspec
        base = spec.base_dir
        if is_within(base, LAYER_DIR):
            continue
        if spec.pattern.startswith(LAYER_DIR + "/"):
            continue
        if base.split("/")[0] in SKIPPED_DIRS:
            continue
        if not spec.matches(rel):
            continue
        if "/" not in spec.pattern[len(base) + 1 if base else 0 :] and not spec.recursive:
            if posixpath.dirname(rel) == base:
                return base
            continue
        if base and not rel.startswith(base + "/"):
            continue
        if not base and parts[0] == LAYER_DIR:
            continue
        below = parts[len(base.split("/")) if base else 0 : -1]
        if any(p in SKIPPED_DIRS for p in below):
            continue
        return base
    return None


def read_paths(
    root: Path | str,
    rel_paths: Iterable[str],
    *,
    manifest: Manifest,
    classes: Iterable[SourceClass],
    exclude: Iterable[Path | str] = (),
    limits: Limits = DEFAULT_LIMITS,
) -> tuple[dict[str, bytes | None], list[Diagnostic]] | None:
    """Re-read single files as :func:`read_source_tree` would read them (for a rebuild
    after an edit): each path's bytes (None: not part of the tree) and the problems met.

    Returns None when the change needs a full :func:`read_source_tree`: the manifest or the
    sources file changed, a path is (or was) a directory, or it lies below a symbolic link.
    """
    root = Path(root)
    classes = tuple(classes)
    src = sources_path(manifest)
    reader = _Reader(root, [Path(p) for p in exclude], limits)
    out: dict[str, bytes | None] = {}
    for rel in sorted(set(rel_paths)):
        if not rel or rel.startswith("/") or ".." in rel.split("/") or "\\" in rel:
            return None
        if rel in (MANIFEST_PATH, src):
            return None
        abs_path = os.path.join(root, rel)
        if os.path.isdir(abs_path):
            return None
        if not os.path.lexists(abs_path):
            out[rel] = None  # gone: a walk would not list it
            continue
        start = _walk_start(rel, manifest, classes)
        if start is None:
            out[rel] = None
            continue
        # The walk follows its start directory but no link below it, and never enters an
        # excluded directory: any doubt about the directories above means a full read.
        parts = rel.split("/")
        first = len(start.split("/")) if start else 0
        for depth in range(1, len(parts)):
            ancestor = "/".join(parts[:depth])
            ancestor_abs = os.path.join(root, ancestor)
            if depth > first and os.path.islink(ancestor_abs):
                return None
            if depth >= first and os.path.realpath(ancestor_abs) in reader.exclude_real:
                out[rel] = None
                break
        else:
            if start == "" and os.path.realpath(root) in reader.exclude_real:
                out[rel] = None
                continue
            reader.read_file(rel)
            out[rel] = reader.tree.files.get(rel)
    return out, list(reader.tree.problems)
